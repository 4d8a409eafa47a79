"""report_devtools.py - `dmo report` pages loaded in one headless Chromium
and driven through the DevTools protocol (a WebSocket client in the
standard library alone): every request each page makes, every console
message and exception as it loads, the DOM after its script ran (PAGE.dom,
for report_check.py), a screenshot at half scale (PAGE.png), and where the
page has them the hover box under a real mouse over the arena map and a
real click on a table header sorting it.

  report_devtools.py CHROMIUM WORK_DIR PAGE.html...

Prints ok:/FAIL: lines, each after its page's name; exits 1 on any
failure."""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.dont_write_bytecode = True  # nothing written into the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report_check  # noqa: E402  (its check() and failure count, one for both)
from report_check import check  # noqa: E402


class DevTools:
    """One page's DevTools session over a WebSocket (RFC 6455: masked text
    frames out, unmasked frames in)."""

    def __init__(self, url):
        host, path = url[len("ws://"):].split("/", 1)
        name, port = host.split(":")
        self.sock = socket.create_connection((name, int(port)), timeout=20)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall(("GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\n"
                           "Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n" % (path, host, key)).encode())
        head = b""
        while not head.endswith(b"\r\n\r\n"):
            head += self.exactly(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("no WebSocket: " + head.split(b"\r\n")[0].decode())
        self.last_id = 0
        self.events = []

    def exactly(self, n):
        data = b""
        while len(data) < n:
            more = self.sock.recv(n - len(data))
            if not more:
                raise RuntimeError("DevTools closed the connection")
            data += more
        return data

    def message(self):
        payload = b""
        while True:
            b0, b1 = self.exactly(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self.exactly(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self.exactly(8))[0]
            data = self.exactly(n)
            opcode = b0 & 0x0F
            if opcode == 8:
                raise RuntimeError("DevTools closed the connection")
            if opcode in (0, 1, 2):
                payload += data
                if b0 & 0x80:
                    return json.loads(payload)

    def call(self, method, **params):
        self.last_id += 1
        data = json.dumps({"id": self.last_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0x80 | 126]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))
        while True:
            msg = self.message()
            if msg.get("id") == self.last_id:
                if "error" in msg:
                    raise RuntimeError("%s: %s" % (method, msg["error"]))
                return msg.get("result", {})
            self.events.append(msg)

    def wait(self, method):
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self.message())

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page script failed: %s" % result["exceptionDetails"])
        return result["result"].get("value")

    def mouse(self, kind, x, y):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                  clickCount=1 if kind != "mouseMoved" else 0)


def start(chromium, work):
    """Chromium on about:blank with DevTools on a port it picks; the port
    is in its profile's DevToolsActivePort (a fresh profile: never an
    earlier run's port)."""
    profile = tempfile.mkdtemp(prefix="chromium-", dir=work)
    proc = subprocess.Popen([chromium, "--headless", "--disable-gpu", "--no-sandbox",
                             "--user-data-dir=" + profile, "--remote-debugging-port=0",
                             "--window-size=1200,900", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port_file = os.path.join(profile, "DevToolsActivePort")
    for _ in range(300):
        if os.path.exists(port_file) and open(port_file).read().count("\n") >= 1:
            break
        time.sleep(0.05)
    port = open(port_file).read().split("\n")[0]
    with urllib.request.urlopen("http://127.0.0.1:%s/json/list" % port, timeout=20) as r:
        pages = [t for t in json.load(r) if t["type"] == "page"]
    return proc, DevTools(pages[0]["webSocketDebuggerUrl"])


# A tensor of the arena map that the mouse reaches at its centre (a later
# tensor may cover part of an earlier one), scrolled into view.
FIND_TENSOR = """(function () {
  var all = document.querySelectorAll('#arena .tensor');
  for (var i = 0; i < all.length; i++) {
    all[i].scrollIntoView({block: 'center'});
    var r = all[i].getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (document.elementFromPoint(x, y) === all[i])
      return {x: x, y: y, data: Object.assign({}, all[i].dataset)};
  }
  return null;
})()"""

HEADER = """(function () {
  var h = Array.prototype.filter.call(document.querySelectorAll('#layers th'),
                                      function (h) { return h.textContent === 'out_bytes'; })[0];
  h.scrollIntoView({block: 'center'});
  var r = h.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2};
})()"""

COLUMN = """Array.prototype.map.call(document.querySelectorAll('#layers td[data-col=out_bytes]'),
                          function (c) { return Number(c.getAttribute('data-v')); })"""


def visit(tab, page):
    """Load PAGE in TAB and check it; write PAGE.dom and PAGE.png."""
    url = "file://" + os.path.abspath(page)
    name = os.path.basename(page)
    tab.events = []
    tab.call("Page.navigate", url=url)
    tab.wait("Page.loadEventFired")
    requests = [e["params"]["request"]["url"] for e in tab.events
                if e.get("method") == "Network.requestWillBeSent"]
    check(name + ": requests nothing but itself", requests == [url], str(requests[:5]))
    said = [e for e in tab.events if e.get("method") in
            ("Runtime.consoleAPICalled", "Runtime.exceptionThrown", "Log.entryAdded")]
    check(name + ": no console message or exception while it loads", not said,
          json.dumps(said[:2])[:300])
    with open(page + ".dom", "w", encoding="utf-8") as f:
        f.write(tab.evaluate("document.documentElement.outerHTML"))
    tab.evaluate("window.scrollTo(0, 0)")
    shot = tab.call("Page.captureScreenshot", format="png",
                    clip={"x": 0, "y": 0, "width": 1200, "height": 1600, "scale": 0.5},
                    captureBeyondViewport=True)
    with open(page + ".png", "wb") as f:
        f.write(base64.b64decode(shot["data"]))

    if tab.evaluate("document.getElementById('arena') !== null"):
        target = tab.evaluate(FIND_TENSOR)
        check(name + ": a tensor of the arena map under the mouse", target is not None)
        if target is not None:
            tab.mouse("mouseMoved", target["x"], target["y"])
            tip = tab.evaluate("document.getElementById('tip').textContent")
            shown = tab.evaluate("getComputedStyle(document.getElementById('tip')).display")
            d = target["data"]
            want = [d["name"], "tensor %s" % d["index"],
                    "layers %s-%s" % (d["first"], d["last"]),
                    "%s bytes at offset %s" % (d["bytes"], d["offset"]),
                    "shares %s bytes" % d["shared"]]
            check(name + ": hover shows the tensor's name, index, live range, bytes and "
                  "shared bytes", shown == "block" and all(w in tip for w in want),
                  "display %s, text %r, wanted %r" % (shown, tip, want))
            tab.mouse("mouseMoved", 1, 1)
            check(name + ": the hover box goes when the mouse leaves",
                  tab.evaluate("getComputedStyle(document.getElementById('tip')).display")
                  == "none")

    if tab.evaluate(COLUMN + ".length > 1"):
        before = tab.evaluate(COLUMN)
        for order, want in (("ascending", sorted(before)), ("descending", sorted(before)[::-1])):
            at = tab.evaluate(HEADER)
            tab.mouse("mousePressed", at["x"], at["y"])
            tab.mouse("mouseReleased", at["x"], at["y"])
            check(name + ": a click on out_bytes sorts the table %s" % order,
                  tab.evaluate(COLUMN) == want)


def main(chromium, work, pages):
    proc, tab = start(chromium, work)
    try:
        for domain in ("Page", "Runtime", "Log", "Network"):
            tab.call(domain + ".enable")
        for page in pages:
            visit(tab, page)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    return 1 if report_check.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
