#!/usr/bin/env python3
"""Loads a page in headless Chromium in real time and waits for its run to end.

Usage: browser.py URL OUT LOG [CHROMIUM_FLAG ...]

The page is shown at WEB_VIEWPORT (WIDTHxHEIGHT@RATIO, default 1280x800@1: the desktop's
default window; a ratio of 2 is a high-DPI screen).

Talks to Chromium over its DevTools pipe (--remote-debugging-pipe: JSON messages ended by a
NUL byte, on file descriptors 3 and 4), so the page runs at its own pace rather than in a
`--virtual-time-budget`, in which the browser hardly draws any frames. Waits until the page
shows its summary line or an error (at most 120 s), then writes a screenshot (OUT.png) and
the DOM (OUT.html, as `--dump-dom` would) and the page's console (OUT.console: its messages
and uncaught exceptions), and prints the page's status, first-frame time
(ms after loading began), the canvas's size in device pixels and its standard output (the
summary line), one per line. Chromium's own output goes to LOG."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

WAIT_S = int(os.environ.get("WEB_WAIT_S", "120"))


class Browser:
    def __init__(self, flags, log):
        to_chrome, from_chrome = os.pipe(), os.pipe()
        # Out of the way of 3 and 4, which the child gets them as.
        ours = [100, 101]
        os.dup2(to_chrome[0], ours[0])
        os.dup2(from_chrome[1], ours[1])

        def pipes():
            os.dup2(ours[0], 3)
            os.dup2(ours[1], 4)

        self.profile = tempfile.TemporaryDirectory()
        self.proc = subprocess.Popen(
            ["chromium", "--headless", "--no-sandbox", "--remote-debugging-pipe",
             f"--user-data-dir={self.profile.name}", *flags, "about:blank"],
            close_fds=False, preexec_fn=pipes,
            stdout=subprocess.DEVNULL, stderr=log)
        for fd in (to_chrome[0], from_chrome[1], *ours):
            os.close(fd)
        self.out, self.inp = to_chrome[1], os.fdopen(from_chrome[0], "rb")
        self.next_id, self.session = 0, None
        self.console = []

    def call(self, method, params=None, session=True):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session and self.session:
            msg["sessionId"] = self.session
        os.write(self.out, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self.read()
            self.note(reply)
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    sys.exit(f"chromium: {method}: {reply['error']}")
                return reply["result"]

    def note(self, event):
        """Keeps the page's console messages and uncaught exceptions."""
        p = event.get("params", {})
        if event.get("method") == "Runtime.consoleAPICalled":
            words = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            self.console.append(f"{p['type']}: {words}")
        elif event.get("method") == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.console.append("exception: " + d.get("exception", {}).get("description", d["text"]))

    def read(self):
        data = bytearray()
        while True:
            b = self.inp.read(1)
            if not b:
                sys.exit("chromium closed its DevTools pipe")
            if b == b"\0":
                return json.loads(data)
            data += b

    def value(self, expression):
        r = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True})
        return r["result"].get("value")

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except SystemExit:
            pass
        self.proc.wait(timeout=30)


def main():
    url, out, log, flags = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    with open(log, "ab") as f:
        b = Browser(flags, f)
    target = b.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    b.session = b.call("Target.attachToTarget", {"targetId": target, "flatten": True},
                       session=False)["sessionId"]
    size, ratio = os.environ.get("WEB_VIEWPORT", "1280x800@1").split("@")
    width, height = (int(v) for v in size.split("x"))
    b.call("Emulation.setDeviceMetricsOverride",
           {"width": width, "height": height, "deviceScaleFactor": float(ratio), "mobile": False})
    b.call("Runtime.enable")
    b.call("Page.navigate", {"url": url})
    text = "(document.getElementById('{}') || {{}}).textContent || ''"
    done = ("document.getElementById('summary') && (document.getElementById('summary')"
            ".textContent !== '' || document.getElementById('status').className === 'error')")
    start = time.monotonic()
    while not b.value(done):
        if time.monotonic() - start > WAIT_S:
            break
        time.sleep(0.2)
    png = b.call("Page.captureScreenshot", {"format": "png"})["data"]
    with open(out + ".png", "wb") as f:
        f.write(base64.b64decode(png))
    with open(out + ".html", "w") as f:
        f.write(b.value("document.documentElement.outerHTML"))
    with open(out + ".console", "w") as f:
        f.write("".join(line + "\n" for line in b.console))
    for el in ("status", "first-frame"):
        print(b.value(text.format(el)))
    print(b.value("(c => c.width + 'x' + c.height)(document.getElementById('glcanvas'))"))
    print(b.value(text.format("summary")))
    b.close()


main()
