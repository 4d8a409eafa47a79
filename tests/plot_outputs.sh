#!/bin/sh
# plot_outputs.sh - where dmo's figures go and in what form: each format of
# --format png,svg,pdf is written and valid (a PNG of the --size canvas, read
# from its IHDR, with ink; a PDF whose header and page size, at 100 pixels
# per inch, are right; an SVG that python3's XML parser reads, of the
# canvas size); a one-layer model's plan has whole layer ticks (no "-0");
# names made from the model's folder (for model.onnx) and the O_s source
# never collide; and a
# figure another command drew, or a file dmo did not draw, is not
# overwritten without --force, while the same command may redraw its own
# (and a run folder's layer figures from before the record are dmo's).
. "$top_srcdir/tests/lib.sh"
INK="$top_builddir/tests/png_ink"
ONNX="$top_srcdir/tests/models/onnx_conv_with_strides_padding.onnx"
cd "$WORK" || exit 99

# Every format, one canvas size: 900x1000 pixels, a PDF of 9 x 10 inches
# (648 x 720 points).
out=$("$DMO" plot --plan "$ONNX" --format png,pdf,svg --size 900x1000 --font-scale 1.2 \
	--out one.png 2>err) || fail "plot --plan in three formats: $(cat err)"
expect_eq "the three paths printed" "one.png one.svg one.pdf" "$(echo $out)"
expect_eq "PNG size" "900 1000" "$(png_size one.png)"
set -- $("$INK" one.png)
if [ "${3:-0}" -ge 20 ]; then echo "ok: PNG ink $3/1000"; else fail "PNG: no ink (${3:-?})"; fi
expect_eq "PNG: pixels cut off at its edges" 0 "${4:-?}"
expect_eq "PDF header" "%PDF-" "$(head -c 5 one.pdf)"
grep -a -q "/MediaBox \[ *0 0 648 720 *\]" one.pdf && echo "ok: PDF page 9 x 10 in" ||
	fail "PDF page: $(grep -a -o '/MediaBox[^]]*]' one.pdf | head -1)"
python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" one.svg 2>err &&
	echo "ok: the SVG parses" || fail "SVG: $(tail -1 err)"
grep -q 'width="900" height="1000"' one.svg && echo "ok: SVG 900x1000" || fail "SVG size"
# One layer: the x axis has the tick 1 and no -0 (it had -0 -0 0 0 0).
grep -q '<text>1</text>' one.svg && echo "ok: layer tick 1" || fail "no tick for layer 1"
grep -q '<text>-0</text>' one.svg && fail "a -0 tick" || echo "ok: no -0 tick"

# Names: model.onnx is named by its folder, the O_s source is part of it.
mkdir -p zoo/a zoo/b
cp "$ONNX" zoo/a/model.onnx
cp "$ONNX" zoo/b/model.onnx
expect_eq "zoo/a/model.onnx" a-plan-algorithmic.png "$("$DMO" plot --plan zoo/a/model.onnx)"
expect_eq "zoo/b/model.onnx" b-plan-algorithmic.png "$("$DMO" plot --plan zoo/b/model.onnx)"
expect_eq "--os analytic" a-plan-analytic.png "$("$DMO" plot --plan zoo/a/model.onnx --os analytic)"
expect_eq "model.onnx in the current folder" zoo/a/a-plan-algorithmic.svg \
	"zoo/a/$(cd zoo/a && "$DMO" plot --plan model.onnx --format svg)"
# A measured source is named by its run folder's last name.
"$DMO" run --out mrun/ --model tflm_hello_world_int8 >/dev/null 2>err || fail "dmo run: $(cat err)"
expect_eq "--os measured:mrun/" tflm_hello_world_int8-plan-measured-mrun.png \
	"$("$DMO" plot --plan tflm_hello_world_int8 --os measured:mrun/)"
for f in a-plan-algorithmic.png b-plan-algorithmic.png a-plan-analytic.png; do
	is_png "$f" || fail "$f is not a PNG"
done

# The same command redraws its own figure.
"$DMO" plot --plan zoo/a/model.onnx >/dev/null 2>err
expect_eq "redrawn by the same command" 0 $?
# Another model's figure under that name: refused, the file kept.
cp a-plan-algorithmic.png kept.png
"$DMO" plot --plan zoo/b/model.onnx --out a-plan-algorithmic.png >/dev/null 2>err
expect_eq "another model's figure: exit status" 2 $?
grep -q "a-plan-algorithmic.png was drawn by 'dmo plot --plan .*/zoo/a/model.onnx --os algorithmic'; give --force" err &&
	echo "ok: the refusal names who drew it" || fail "refusal: $(cat err)"
cmp -s kept.png a-plan-algorithmic.png && echo "ok: the figure kept" || fail "the figure changed"
# A layer figure over it: refused too.
"$DMO" plot --plan zoo/a/model.onnx --os analytic --out a-plan-algorithmic.png >/dev/null 2>err
expect_eq "the other O_s source's figure: exit status" 2 $?
# With --force it is drawn, and recorded as the new command's.
"$DMO" plot --plan zoo/b/model.onnx --out a-plan-algorithmic.png --force >/dev/null 2>err
expect_eq "--force: exit status" 0 $?
grep -q "^a-plan-algorithmic.png	dmo plot --plan .*/zoo/b/model.onnx --os algorithmic$" .dmo-figures &&
	echo "ok: the record names the new command" || fail "record: $(cat .dmo-figures)"
# A file dmo did not draw.
echo mine >mine.png
"$DMO" plot --plan zoo/a/model.onnx --out mine.png >/dev/null 2>err
expect_eq "a file dmo did not draw: exit status" 2 $?
grep -q "mine.png exists and dmo did not draw it" err && echo "ok: said so" || fail "$(cat err)"
expect_eq "the file kept" mine "$(cat mine.png)"
# In several formats, one refused file refuses all before drawing.
"$DMO" plot --plan zoo/a/model.onnx --format svg,png --out mine.svg >/dev/null 2>err
expect_eq "one format refused: exit status" 2 $?
[ -e mine.svg ] && fail "mine.svg written though mine.png was refused" ||
	echo "ok: nothing written"

# A run folder (marked .dmo-lock): its layer figures drawn before dmo kept
# a record are dmo's, redrawn; another file there is still refused.
"$DMO" run --out run --trace=full 'relu:in=4x4x1' >/dev/null 2>err || fail "dmo run: $(cat err)"
"$DMO" plot run >/dev/null 2>err || fail "plot run: $(cat err)"
rm run/.dmo-figures
"$DMO" plot run >/dev/null 2>err
expect_eq "an unrecorded layer figure of a run folder redrawn" 0 $?
echo mine >run/notes.png
"$DMO" plot run --out run/notes.png >/dev/null 2>err
expect_eq "a run folder's other file: exit status" 2 $?

# Misuse.
bad() { # what message args...
	what=$1 msg=$2; shift 2
	"$DMO" plot "$@" >/dev/null 2>err
	expect_eq "$what exits" 2 $?
	grep -q -- "$msg" err || fail "$what: message lacks '$msg': $(head -1 err)"
}
bad "--format jpg" "--format takes png, svg, pdf" --plan "$ONNX" --format png,jpg
bad "--format empty" "--format takes" --plan "$ONNX" --format ''
bad "--size 10x10" "--size takes WIDTHxHEIGHT" --plan "$ONNX" --size 10x10
bad "--size -600x400" "--size takes WIDTHxHEIGHT" --plan "$ONNX" --size -600x400
bad "--size 600" "--size takes WIDTHxHEIGHT" --plan "$ONNX" --size 600
bad "--font-scale 0" "--font-scale takes a factor" --plan "$ONNX" --font-scale 0
bad "a canvas too small for the plan" "a 300x300 canvas leaves the plan's panels no room at font scale 3" \
	--plan "$ONNX" --size 300x300 --font-scale 3 --out small
bad "--sweep of a non-sweep" "not a summarised sweep directory" --sweep zoo
finish
