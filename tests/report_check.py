"""report_check.py - what tests/report_browser.sh checks in the DOM that
headless Chromium dumped after loading a `dmo report` page, against the
files and tables dmo wrote by other commands.

  report_check.py page DOM                       the page's own rules
  report_check.py plan DOM SUMMARY.json TABLE.json
  report_check.py rundir DOM LAYERS.csv
  report_check.py sweep DOM SUMMARY.csv RESULTS.csv
  report_check.py name DOM TEXT                   TEXT shown as text
  report_check.py ink PNG MIN_PERMILLE            a screenshot is not blank

Prints ok:/FAIL: lines; exits 1 on any failure."""
import csv
import json
import struct
import sys
import zlib
from html.parser import HTMLParser

failures = 0


def check(what, good, detail=""):
    global failures
    if good:
        print("ok: " + what)
    else:
        failures += 1
        print("FAIL: " + what + (": " + detail if detail else ""))


class Dom(HTMLParser):
    """Every element with its attributes and its text, in document order."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements = []
        self.open = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        e = {"tag": tag, "attrs": dict(attrs), "text": ""}
        self.elements.append(e)
        if tag not in ("meta", "br", "img", "input", "link", "rect", "line", "circle",
                       "path"):
            self.open.append(e)

    def handle_startendtag(self, tag, attrs):
        self.elements.append({"tag": tag, "attrs": dict(attrs), "text": ""})

    def handle_endtag(self, tag):
        while self.open:
            e = self.open.pop()
            if e["tag"] == tag:
                break

    def handle_data(self, data):
        for e in self.open:
            e["text"] += data

    def find(self, tag=None, **attrs):
        out = []
        for e in self.elements:
            if tag is not None and e["tag"] != tag:
                continue
            if all(e["attrs"].get(k.replace("_", "-")) == v for k, v in attrs.items()):
                out.append(e)
        return out

    def with_attr(self, name):
        return [e for e in self.elements if name in e["attrs"]]


def load(path):
    with open(path, encoding="utf-8") as f:
        return Dom(f.read())


def page_rules(dom):
    """Self-contained, script ran to its end, nothing injected."""
    body = dom.find("body")
    check("the script ran to its end (body data-ready=1)",
          len(body) == 1 and body[0]["attrs"].get("data-ready") == "1")
    scripts = dom.find("script")
    check("exactly one script element (none injected by a name)", len(scripts) == 1,
          "%d" % len(scripts))
    csp = [e for e in dom.find("meta")
           if e["attrs"].get("http-equiv", "").lower() == "content-security-policy"]
    check("a Content-Security-Policy that forbids every load",
          len(csp) == 1 and "default-src 'none'" in csp[0]["attrs"].get("content", ""))
    loads = []
    for e in dom.elements:
        for a in ("src", "href", "xlink:href", "srcset", "action", "data", "poster"):
            v = e["attrs"].get(a)
            if v is not None and not (v.startswith("#") or v.startswith("data:")):
                loads.append("%s %s=%s" % (e["tag"], a, v))
        if e["tag"] in ("link", "iframe", "object", "embed", "img", "base"):
            loads.append(e["tag"])
    check("no element that loads anything", not loads, "; ".join(loads[:5]))
    made = dom.find(id="made")
    check("the page says which dmo made it",
          len(made) == 1 and "made by dmo " in made[0]["text"])


def summary_values(dom):
    return {e["attrs"]["data-key"]: e["text"] for e in dom.with_attr("data-key")}


def same(a, b):
    """A page's text against a value from JSON or CSV: numbers as numbers,
    an empty cell for JSON's null."""
    if b is None:
        return a == ""
    try:
        return float(a) == float(b)
    except (TypeError, ValueError):
        return str(a) == str(b)


def rows_of(dom, table_id):
    tables = dom.find("table", id=table_id)
    if len(tables) != 1:
        return []
    rows, row = [], None
    start = dom.elements.index(tables[0])
    for e in dom.elements[start + 1:]:
        if e["tag"] == "table":
            break
        if e["tag"] == "tr":
            row = {}
            rows.append(row)
        elif e["tag"] == "td" and row is not None:
            row[e["attrs"].get("data-col")] = e["text"]
    return [r for r in rows if r]


def plan(dom, summary_json, table_json):
    with open(summary_json) as f:
        want = json.load(f)[0]
    with open(table_json) as f:
        table = json.load(f)
    got = summary_values(dom)
    for key, value in want.items():
        check("summary %s = dmo plan --summary's %s" % (key, value),
              key in got and same(got[key], value), "page has %r" % got.get(key))
    rows = rows_of(dom, "layers")
    check("per-layer table: one row per planned tensor (%d)" % len(table),
          len(rows) == len(table), "%d rows" % len(rows))
    columns = ("out_bytes", "live_from", "live_to", "offset_plain", "offset_dmo", "tensor")
    bad = [(i, c) for i, (r, t) in enumerate(zip(rows, table)) for c in columns
           if not same(r.get(c), t[c])]
    layer_columns = ("os_bytes", "overlap_bytes", "live_bytes", "diagonal", "in_offset_dmo")
    bad += [(i, c) for i, (r, t) in enumerate(zip(rows, table)) for c in layer_columns
            if t["layer"] != "-" and not same(r.get(c), t[c])]
    check("per-layer table equals dmo plan --json's cells", not bad, str(bad[:5]))
    tensors = dom.find("rect", **{"class": "tensor"})
    check("arena map: one element per planned tensor (%d)" % len(table),
          len(tensors) == len(table), "%d" % len(tensors))
    check("arena map: every tensor once, by its index",
          sorted(int(e["attrs"]["data-tensor"]) for e in tensors) == list(range(len(table))))
    placed = [(int(e["attrs"]["data-offset"]), int(e["attrs"]["data-bytes"]))
              for e in sorted(tensors, key=lambda e: int(e["attrs"]["data-tensor"]))]
    check("arena map: offsets and sizes are the plan's",
          placed == [(int(t["offset_dmo"]), int(t["out_bytes"])) for t in table])
    check("arena map: each tensor has a hover text", all(e["attrs"].get("data-tip")
                                                         for e in tensors))


def rundir(dom, layers_csv):
    with open(layers_csv, newline="") as f:
        layers = list(csv.DictReader(f))
    got = summary_values(dom)
    check("summary: %d layers" % len(layers), same(got.get("layers"), len(layers)))
    check("summary: safe O_s of all layers",
          same(got.get("safe_os_bytes"), sum(int(r["safe_os_bytes"]) for r in layers)))
    rows = rows_of(dom, "layers")
    bad = [(r.get("layer"), c) for r, l in zip(rows, layers)
           for c in ("layer", "name", "in_bytes", "out_bytes", "os_bytes", "safe_os_bytes",
                     "status") if not same(r.get(c), l[c])]
    check("per-layer table equals layers.csv", len(rows) == len(layers) and not bad,
          str(bad[:5]))


def sweep(dom, summary_csv, results_csv):
    with open(summary_csv, newline="") as f:
        want = {r["metric"]: r["value"] for r in csv.DictReader(f)}
    with open(results_csv, newline="") as f:
        results = list(csv.DictReader(f))
    got = summary_values(dom)
    bad = [k for k, v in want.items() if not same(got.get(k), v)]
    check("summary equals summary.csv (%d metrics)" % len(want), not bad, str(bad[:5]))
    points = dom.find("svg", id="residual")
    circles = [e for e in dom.find("circle") if "point" in e["attrs"].get("class", "")]
    with_formula = [r for r in results if r["formula_os"] != ""]
    check("residual figures: a point per configuration with a formula value, twice",
          len(points) == 1 and len(circles) == 2 * len(with_formula),
          "%d points, %d rows" % (len(circles), len(with_formula)))
    alarms = [e for e in circles if "alarm" in e["attrs"]["class"]]
    check("UNSAFE points drawn as alarms (%s, twice)" % want["unsafe"],
          len(alarms) == 2 * int(want["unsafe"]), "%d" % len(alarms))
    rows = rows_of(dom, "worst")
    worst = max(int(r["formula_os"]) - int(r["exact_os"]) for r in with_formula)
    check("worst configurations: the first has the largest formula - exact (%d)" % worst,
          rows and same(rows[0].get("residual_bytes"), worst))


def shown(dom, text):
    cells = [e for e in dom.elements if e["text"] == text and e["tag"] in ("td", "h1", "title")]
    check("the name %r is shown as text" % text, len(cells) >= 1)


def png_pixels(path):
    """The RGB pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what
    Chromium's --screenshot writes), decoded with zlib alone."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, head = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            head = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat += chunk
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = head
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError("PNG of depth %d, colour type %d, interlace %d" % (depth, colour,
                                                                           interlace))
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    prev, pixels = bytearray(stride), []
    for y in range(height):
        line = raw[y * (stride + 1):(y + 1) * (stride + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for i in range(stride):
            a = cur[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                cur[i] = (cur[i] + a) & 255
            elif kind == 2:
                cur[i] = (cur[i] + b) & 255
            elif kind == 3:
                cur[i] = (cur[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[i] = (cur[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        pixels.extend(tuple(cur[i:i + 3]) for i in range(0, stride, bpp))
        prev = cur
    return width, height, pixels


def ink(path, min_permille):
    """Ink: pixels that are not white; colour: saturated ones (the figures'
    data, never text or grid lines)."""
    width, height, pixels = png_pixels(path)
    inked = sum(1 for p in pixels if min(p) < 240)
    coloured = sum(1 for p in pixels if max(p) - min(p) >= 60)
    permille = 1000 * inked // len(pixels)
    check("screenshot %dx%d: %d per mille inked, %d coloured pixels" %
          (width, height, permille, coloured),
          permille >= min_permille and coloured >= 1000)


def main(argv):
    if argv[1] == "ink":
        ink(argv[2], int(argv[3]))
        return 1 if failures else 0
    dom = load(argv[2])
    page_rules(dom)
    if argv[1] == "plan":
        plan(dom, argv[3], argv[4])
    elif argv[1] == "rundir":
        rundir(dom, argv[3])
    elif argv[1] == "sweep":
        sweep(dom, argv[3], argv[4])
    elif argv[1] == "name":
        shown(dom, argv[3])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
