#!/usr/bin/env python3
"""Loads a page in headless Chromium in real time, waits for it, and does what a person would.

Usage: browser.py URL OUT LOG [ACTION ...] [CHROMIUM_FLAG ...]

The page is shown at WEB_VIEWPORT (WIDTHxHEIGHT@RATIO, default 1280x800@1: the desktop's
default window; a ratio of 2 is a high-DPI screen). With WEB_THROTTLE=MBIT the network is
held to MBIT megabits a second down (20 ms of latency) and the cache is off, as a cold visit
on a slow line (Chromium's own throttling, on the bytes as sent, compressed). WEB_PRELOAD is
JavaScript run in the page before its own scripts (to take a feature away from it).

Talks to Chromium over its DevTools pipe (--remote-debugging-pipe: JSON messages ended by a
NUL byte, on file descriptors 3 and 4), so the page runs at its own pace rather than in a
`--virtual-time-budget`, in which the browser hardly draws any frames. Waits (at most
WEB_WAIT_S, default 120 s) until the page's run ends or it shows text in place of the toy
(WEB_UNTIL=end, the default) or until its first frame is drawn (WEB_UNTIL=frame), then does
the ACTIONs in order (arguments of the form `do:WHAT`, the rest are Chromium's flags):

  do:key:CODE          press and release a key (a DOM code: Escape, F1, F12, KeyS, Space)
  do:wheel:X,Y,DY      one wheel event of DY pixels at (X, Y) (CSS px)
  do:drag:X1,Y1,X2,Y2  press the left button at the first point, move to the second, release
  do:click:X,Y         a left click
  do:goto:QUERY        the page again at its address with this query (the same browser, so its
                       storage kept), waiting for its first frame
  do:move:X,Y          the pointer moved there
  do:focus             the window loses the focus and gets it back
  do:sleep:S           wait S seconds
  do:frames:N          wait until the app has drawn N more frames (its facts' count)
  do:shot:NAME         a screenshot, OUT-NAME.png
  do:facts:NAME        prints `facts NAME JSON`: what the app says its window shows
  do:eval:NAME:EXPR    prints `eval NAME JSON`: the value of a JavaScript expression

Then writes a screenshot (OUT.png), the DOM (OUT.html, as `--dump-dom` would) and the page's
console (OUT.console: its messages, the browser's own log entries such as a failed request,
and uncaught exceptions, one per line, each starting with its level), and prints the page's
status, first-frame time (ms after loading began), the canvas's size in device pixels and its
standard output (the summary line), one per line, then the actions' lines. Chromium's own
output goes to LOG."""
import base64
import json
import os
import subprocess
import sys
import tempfile
import time

WAIT_S = int(os.environ.get("WEB_WAIT_S", "120"))
TEXT = "(document.getElementById('{}') || {{}}).textContent || ''"
ENDED = ("document.getElementById('summary') && (document.getElementById('summary')"
         ".textContent !== '' || !document.getElementById('text').hidden || !!window.cmt_ended)")
FRAME = "!!window.cmt_first_frame_ms || !document.getElementById('text').hidden"


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
        """Keeps the page's console messages, log entries and uncaught exceptions."""
        p = event.get("params", {})
        if event.get("method") == "Runtime.consoleAPICalled":
            words = " ".join(str(a.get("value", a.get("description", ""))) for a in p["args"])
            self.console.append(f"{p['type']}: {words}")
        elif event.get("method") == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            self.console.append("exception: " + d.get("exception", {}).get("description", d["text"]))
        elif event.get("method") == "Log.entryAdded":
            e = p["entry"]
            self.console.append(f"{e['level']}: ({e['source']}) {e['text']} {e.get('url', '')}")

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

    def wait(self, expression, limit=WAIT_S):
        start = time.monotonic()
        while not self.value(expression):
            if time.monotonic() - start > limit:
                return False
            time.sleep(0.1)
        return True

    def close(self):
        try:
            self.call("Browser.close", session=False)
        except SystemExit:
            pass
        self.proc.wait(timeout=30)


KEYS = {"Escape": 27, "F1": 112, "F5": 116, "F12": 123, "Space": 32, "Tab": 9}


def key(b, code):
    """A key pressed and released, as a keyboard sends it (code, key and key code)."""
    vk = KEYS.get(code) or (ord(code[-1]) if code.startswith(("Key", "Digit")) else 0)
    name = {"Escape": "Escape", "Space": " ", "Tab": "Tab"}.get(code, code)
    if code.startswith("Key"):
        name = code[-1].lower()
    elif code.startswith("Digit"):
        name = code[-1]
    for kind in ("rawKeyDown", "keyUp"):
        ev = {"type": kind, "code": code, "key": name, "windowsVirtualKeyCode": vk}
        b.call("Input.dispatchKeyEvent", ev)
        if kind == "rawKeyDown" and len(name) == 1:
            b.call("Input.dispatchKeyEvent", {"type": "char", "text": name, "code": code,
                                               "key": name, "windowsVirtualKeyCode": vk})
        time.sleep(0.1)


def mouse(b, kind, x, y, buttons=0, **more):
    ev = {"type": kind, "x": x, "y": y, "buttons": buttons, **more}
    if kind in ("mousePressed", "mouseReleased"):
        ev.update(button="left", clickCount=1)
    b.call("Input.dispatchMouseEvent", ev)


def act(b, out, action):
    """Does one `do:` action; returns its output line, if any."""
    what, _, arg = action[3:].partition(":")
    nums = [float(v) for v in arg.split(",")] if what in ("wheel", "drag", "click", "move") else []
    if what == "key":
        key(b, arg)
    elif what == "wheel":
        mouse(b, "mouseMoved", nums[0], nums[1])
        time.sleep(0.1)
        mouse(b, "mouseWheel", nums[0], nums[1], deltaX=0, deltaY=nums[2])
    elif what == "drag":
        # The press comes with the move, in one frame, as from a fast hand at a low frame rate.
        x1, y1, x2, y2 = nums
        mouse(b, "mouseMoved", x1, y1)
        mouse(b, "mousePressed", x1, y1, 1)
        for k in range(1, 9):
            time.sleep(0.05)
            mouse(b, "mouseMoved", x1 + (x2 - x1) * k / 8, y1 + (y2 - y1) * k / 8, 1)
        time.sleep(0.2)
        mouse(b, "mouseReleased", x2, y2)
    elif what == "click":
        mouse(b, "mouseMoved", nums[0], nums[1])
        time.sleep(0.1)
        mouse(b, "mousePressed", nums[0], nums[1], 1)
        time.sleep(0.2)
        mouse(b, "mouseReleased", nums[0], nums[1])
    elif what == "goto":
        base = b.value("window.cmt_left = true, location.origin + location.pathname")
        b.call("Page.navigate", {"url": base + arg})
        b.wait(f"!window.cmt_left && ({FRAME})")
    elif what == "move":
        mouse(b, "mouseMoved", nums[0], nums[1])
    elif what == "focus":
        b.value("window.dispatchEvent(new Event('blur')), window.dispatchEvent(new Event('focus'))")
    elif what == "sleep":
        time.sleep(float(arg))
    elif what == "frames":
        now = b.value("(window.cmt_facts || {frames: 0}).frames")
        b.wait(f"(window.cmt_facts || {{frames: 0}}).frames >= {now + int(arg)}", 60)
    elif what == "shot":
        png = b.call("Page.captureScreenshot", {"format": "png"})["data"]
        with open(f"{out}-{arg}.png", "wb") as f:
            f.write(base64.b64decode(png))
    elif what == "facts":
        return f"facts {arg} {json.dumps(b.value('window.cmt_facts || null'))}"
    elif what == "eval":
        name, _, expr = arg.partition(":")
        return f"eval {name} {json.dumps(b.value(expr))}"
    else:
        sys.exit(f"browser.py: no action {action!r}")
    time.sleep(0.2)
    return None


def main():
    url, out, log, rest = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    actions = [a for a in rest if a.startswith("do:")]
    flags = [a for a in rest if not a.startswith("do:")]
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
    b.call("Log.enable")
    preload = os.environ.get("WEB_PRELOAD")
    if preload:
        b.call("Page.enable")
        b.call("Page.addScriptToEvaluateOnNewDocument", {"source": preload})
    throttle = os.environ.get("WEB_THROTTLE")
    if throttle:
        b.call("Network.enable")
        b.call("Network.setCacheDisabled", {"cacheDisabled": True})
        rate = float(throttle) * 1e6 / 8
        b.call("Network.emulateNetworkConditions", {"offline": False, "latency": 20,
               "downloadThroughput": rate, "uploadThroughput": rate})
    b.call("Page.navigate", {"url": url})
    b.wait(FRAME if os.environ.get("WEB_UNTIL") == "frame" else ENDED)
    lines = [line for line in (act(b, out, a) for a in actions) if line]
    png = b.call("Page.captureScreenshot", {"format": "png"})["data"]
    with open(out + ".png", "wb") as f:
        f.write(base64.b64decode(png))
    with open(out + ".html", "w") as f:
        f.write(b.value("document.documentElement.outerHTML"))
    with open(out + ".console", "w") as f:
        f.write("".join(line + "\n" for line in b.console))
    for el in ("status", "first-frame"):
        print(b.value(TEXT.format(el)))
    print(b.value("(c => c.width + 'x' + c.height)(document.getElementById('glcanvas'))"))
    print(b.value(TEXT.format("summary")))
    for line in lines:
        print(line)
    b.close()


main()
