#!/usr/bin/env python3
"""Serves a folder built by web/build.sh on 127.0.0.1, each file precompressed.

Usage: serve.py DIR PORT

A request for a file that has a `.br` (brotli) or `.gz` (gzip) copy beside it, from a browser
that accepts that encoding (its Accept-Encoding, brotli first), gets the copy's bytes with
`Content-Encoding` saying which, the original's type (`application/wasm` for the module, which
`WebAssembly.compileStreaming` needs) and `Vary: Accept-Encoding`; any other request gets the
file as it is. Every answer says `Cache-Control: no-cache` (a browser asks again whether a
file changed, so a rebuilt page is never stale), and a precompressed copy carries its
`Last-Modified` and an `ETag` (its size and time): a browser asking again with either gets
`304 Not Modified` while the copy is unchanged, so a returning visit downloads nothing. Logs
each request on standard error."""
import email.utils
import http.server
import os
import sys

ENCODINGS = (("br", ".br"), ("gzip", ".gz"))


def accepted(header):
    """The encodings an Accept-Encoding header allows (a `q=0` refuses one)."""
    out = set()
    for part in (header or "").split(","):
        name, _, params = part.strip().partition(";")
        refused = params.replace(" ", "") in ("q=0", "q=0.0", "q=0.00", "q=0.000")
        if name and not refused:
            out.add(name.strip().lower())
    return out


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".html": "text/html; charset=utf-8",
    }

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def send_head(self):
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            path = os.path.join(path, "index.html")
        allowed = accepted(self.headers.get("Accept-Encoding"))
        for encoding, suffix in ENCODINGS:
            if encoding in allowed and os.path.isfile(path + suffix):
                return self.send_encoded(path, path + suffix, encoding)
        return super().send_head()

    def send_encoded(self, path, encoded, encoding):
        f = open(encoded, "rb")
        stat = os.fstat(f.fileno())
        tag = f'"{stat.st_size:x}-{stat.st_mtime_ns:x}-{encoding}"'
        unchanged = self.unchanged(tag, int(stat.st_mtime))
        self.send_response(304 if unchanged else 200)
        self.send_header("ETag", tag)
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.send_header("Vary", "Accept-Encoding")
        if unchanged:
            f.close()
            self.end_headers()
            return None
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Content-Length", str(stat.st_size))
        self.end_headers()
        return f

    def unchanged(self, tag, mtime):
        """Whether the request's validators say its copy is this one: `If-None-Match`
        naming `tag` (or `*`), else `If-Modified-Since` at or after `mtime` (s)."""
        match = self.headers.get("If-None-Match")
        if match is not None:
            return any(t.strip() in (tag, "*", "W/" + tag) for t in match.split(","))
        since = self.headers.get("If-Modified-Since")
        if since is None:
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when is not None and when.timestamp() >= mtime


def main():
    folder, port = sys.argv[1], int(sys.argv[2])
    handler = lambda *a, **k: Handler(*a, directory=folder, **k)  # noqa: E731
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        server.serve_forever()


main()
