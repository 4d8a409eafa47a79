#!/bin/sh
# report_browser.sh - `dmo report` pages loaded by a real browser, Debian's
# Chromium, headless and driven through the DevTools protocol
# (tests/report_devtools.py): a plan of a real .tflite model, the same
# model with hostile tensor and file names, a run directory and a sweep.
# Each page must request nothing but itself, raise no console message or
# exception, and run its script (the hover box under a real mouse over the
# arena map shows the tensor's name, index, live range and shared bytes; a
# click on a header sorts the table).  tests/report_check.py then reads the
# DOM after the script ran: a CSP that forbids every load, no src or href,
# one script; the plan's summary equals `dmo plan --summary --json`'s
# fields, its table `dmo plan --json`'s cells, its arena map has one
# element per planned tensor at the plan's offsets; hostile names are text;
# the run directory's table equals layers.csv; the sweep's summary equals
# summary.csv and its figures draw every configuration, the UNSAFE ones as
# alarms.  The plan's screenshot must have ink and colour.  A page with an
# injected script error and image, a page whose peak was changed and a
# blank PNG must fail the same checks (the checks can fail).  Skipped (77)
# without chromium.
. "$top_srcdir/tests/lib.sh"
CHROMIUM=$(command -v chromium || command -v chromium-browser)
[ -n "$CHROMIUM" ] || { echo "SKIP: no chromium (apt-get install chromium)"; exit 77; }
CHECK="$top_srcdir/tests/report_check.py"
cd "$WORK" || exit 99

# checked WHAT ARGS...: report_check.py passes.
checked() {
	what=$1; shift
	python3 "$CHECK" "$@" >check.out 2>&1 && echo "ok: $what" ||
		fail "$what: $(grep -v '^ok' check.out | head -5)"
}

# A plan of a real model.
MODEL="$top_srcdir/tests/models/tflm_person_detect.tflite"
"$DMO" report -o plan.html "$MODEL" >report.out 2>&1 || fail "report of a model: $(cat report.out)"
"$DMO" plan --json --summary summary.json "$MODEL" >table.json 2>/dev/null ||
	fail "dmo plan --json of the model"

# Hostile names: a tensor named like a script, a file named with markup
# and quotes.  Shown as text, never run.
hostile='<script>alert(1)</script>"'"'"'&x'
file='<i>h"'"'"'&.tflite'
python3 -c 'import sys
data = open(sys.argv[1], "rb").read()
old, new = b"serving_default_dense_input:0", sys.argv[2].encode()
assert len(old) == len(new) and data.count(old) == 1
open(sys.argv[3], "wb").write(data.replace(old, new))' \
	"$top_srcdir/tests/models/tflm_hello_world_int8.tflite" "$hostile" "$file" ||
	fail "cannot make the hostile model"
"$DMO" report -o hostile.html "$file" >report.out 2>&1 || fail "report of the hostile model: $(cat report.out)"
"$DMO" plan --json --summary hsummary.json "$file" >htable.json 2>/dev/null

# A run directory with curves (dmo run, then dmo analyze).
"$DMO" run --out run --trace=full 'conv2d:in=6x6x2,k=3x3,pad=same,out_c=3' \
	'dwconv2d:in=5x5x2,k=3x3,stride=2,pad=same' >run.out 2>&1 || fail "dmo run: $(tail -3 run.out)"
"$DMO" analyze run >/dev/null 2>&1
"$DMO" report run >report.out 2>&1 || fail "report of a run directory: $(cat report.out)"
expect_eq "run directory page's default place" "wrote run/report.html" "$(cat report.out)"
cp run/report.html run.html
# The same run with a layer renamed like a script in its layers.csv (a
# file anyone can edit).
cp -r run hostile-run
rm hostile-run/report.html
sed 's|op1_conv2d|<script>x()</script>""'"'"'\&|' run/layers.csv >hostile-run/layers.csv
"$DMO" report -o hostile-run.html hostile-run >report.out 2>&1 ||
	fail "report of a run directory with a hostile layer name: $(cat report.out)"
# A plan from the O_s a run directory measured (--os measured:DIR).
"$DMO" run --model "$top_srcdir/tests/models/tflm_hello_world_int8.tflite" --out hw -q \
	>run.out 2>&1 || fail "dmo run --model: $(tail -3 run.out)"
"$DMO" report --os measured:hw -o measured.html "$top_srcdir/tests/models/tflm_hello_world_int8.tflite" \
	>report.out 2>&1 || fail "report of a plan from measured O_s: $(cat report.out)"
"$DMO" plan --os measured:hw --json --summary msummary.json \
	"$top_srcdir/tests/models/tflm_hello_world_int8.tflite" >mtable.json 2>/dev/null

# A sweep with UNSAFE configurations (the formula OB is unsafe for 3x3
# kernels, tight for 1x1).
"$DMO" sweep 'dwconv2d:in={4,7}x5x1,k={1,3}x{1,3},pad=same' --formula OB --out sweep >sweep.out 2>&1
"$DMO" report -o sweep.html sweep >report.out 2>&1 || fail "report of a sweep: $(cat report.out)"

# Every page in one browser, then what each DOM holds.
python3 "$top_srcdir/tests/report_devtools.py" "$CHROMIUM" "$WORK" plan.html hostile.html \
	measured.html run.html hostile-run.html sweep.html >devtools.out 2>&1
expect_eq "the pages in Chromium: exit status" 0 $?
cat devtools.out
checked "plan page equals dmo plan --summary --json and --json" plan plan.html.dom summary.json table.json
checked "plan page screenshot has ink and colour" ink plan.html.png 50
checked "hostile page equals dmo plan's" plan hostile.html.dom hsummary.json htable.json
checked "the tensor's hostile name is text" name hostile.html.dom "$hostile"
checked "the file's hostile name is text" name hostile.html.dom "$file"
checked "run directory page equals layers.csv" rundir run.html.dom run/layers.csv
checked "measured-O_s plan page equals dmo plan --os measured:DIR's" plan measured.html.dom \
	msummary.json mtable.json
checked "hostile run directory page equals its layers.csv" rundir hostile-run.html.dom \
	hostile-run/layers.csv
checked "the layer's hostile name is text" name hostile-run.html.dom '<script>x()</script>"'"'"'&'
expect_eq "a bounds figure per layer with curves" 2 "$(grep -c '<svg id="bounds-' run.html.dom)"
expect_eq "an access pattern per layer with events" 2 "$(grep -c '<svg id="pattern-' run.html.dom)"
set -- sweep/sweep-*
checked "sweep page equals summary.csv and results.csv" sweep sweep.html.dom "$1/summary.csv" "$1/results.csv"

# The checks can fail: a script error and an image from the network are a
# request and console messages, and the image fails the page rules; a
# changed peak fails the summary; a blank PNG fails the ink check.
sed 's|</body>|<img src="http://192.0.2.1/x.png"><script>nosuch()</script></body>|' plan.html >bad.html
python3 "$top_srcdir/tests/report_devtools.py" "$CHROMIUM" "$WORK" bad.html >devtools.out 2>&1
expect_eq "a page with an injected error and image in Chromium: exit status" 1 $?
for what in "requests nothing but itself" "no console message"; do
	grep -q "^FAIL: bad.html: $what" devtools.out && echo "ok: the injection fails '$what'" ||
		fail "the injection passes '$what'"
done
python3 "$CHECK" plan bad.html.dom summary.json table.json >check.out 2>&1 &&
	fail "a page with an injected script and image passes the checks"
grep -q 'FAIL: no element that loads anything' check.out && echo "ok: the injected image is found" ||
	fail "the injected image is not found"
peak=$(sed -n 's/.*"peak_dmo": \([0-9]*\).*/\1/p' summary.json)
sed "s|data-key=\"peak_dmo\">$peak<|data-key=\"peak_dmo\">$((peak + 1))<|" plan.html.dom >changed.dom
python3 "$CHECK" plan changed.dom summary.json table.json >check.out 2>&1 &&
	fail "a page with a changed peak passes the checks"
grep -q "FAIL: summary peak_dmo" check.out && echo "ok: a changed peak is found" ||
	fail "a changed peak is not found: $(grep FAIL check.out | head -2)"
python3 -c 'import struct, sys, zlib
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\0" + b"\xff" * 300 for _ in range(100))
sys.stdout.buffer.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 100, 100, 8, 2, 0, 0, 0))
                        + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))' >blank.png
python3 "$CHECK" ink blank.png 50 >/dev/null && fail "a blank screenshot passes the ink check" ||
	echo "ok: a blank screenshot fails the ink check"

# Default names: two ONNX files both named model.onnx get two pages.
mkdir net1 net2
cp "$top_srcdir/tests/models/onnx_add_bcast.onnx" net1/model.onnx
cp "$top_srcdir/tests/models/onnx_conv_with_strides_padding.onnx" net2/model.onnx
"$DMO" report net1/model.onnx >/dev/null 2>&1 && "$DMO" report net2/model.onnx >/dev/null 2>&1
[ -s net1-model-report.html ] && [ -s net2-model-report.html ] &&
	echo "ok: model.onnx in two folders gives two pages" ||
	fail "model.onnx in two folders: $(ls -- *-report.html 2>/dev/null)"

# Misuse and refusals: exit 2, nothing written through a link.
"$DMO" report "$WORK" >/dev/null 2>err
expect_eq "a folder that is neither a run nor a sweep" 2 $?
"$DMO" report --os analytic run >/dev/null 2>err
expect_eq "--os with a run directory" 2 $?
ln -s "$WORK/victim" link.html
"$DMO" report -o link.html "$MODEL" >/dev/null 2>err
expect_eq "a link as the page" 2 $?
[ -e victim ] && fail "written through a link" || echo "ok: nothing written through the link"
"$DMO" report nosuchmodel >/dev/null 2>err
expect_eq "an unknown model" 2 $?
finish
