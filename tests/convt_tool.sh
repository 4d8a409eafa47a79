#!/bin/sh
# convt_tool.sh - ONNX's ConvTranspose (convt, layout=nchw, f32;
# kernels_convt.c) joins the three-way cross-check: over a fixed-seed
# sample of small shapes, windows apart (k = stride, PaddleOCR's 2x2 stride
# 2) and overlapping (k > stride), one image or several, run under the real
# tool with a full trace, the tool's O_s equals the brute force on the
# recorded events, the algorithmic replay of the image-at-a-time order gives
# it too and the analytic bound stays below (dmo analyze), and a native run
# with the buffers overlapped by O_s gives the separate-buffer output bit for
# bit (three_ways, lib.sh).  Then the hand derivation of docs/formulas.md
# section 3.7 for one shape, and the refusals.
. "$top_srcdir/tests/lib.sh"
COUNT=${CONVT_COUNT:-8}

awk -v count="$COUNT" 'BEGIN {
	srand(20261203)
	for (made = 0; made < count; made++) {
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 4); w = 1 + int(rand() * 4)
		c = 1 + int(rand() * 4); m = 1 + int(rand() * 4)
		s = 1 + int(rand() * 2); k = s + (made % 2 ? int(rand() * 2) : 0)
		print "convt:in=" n "x" h "x" w "x" c ",k=" k ",stride=" s ",out_c=" m ",layout=nchw"
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"
expect_eq "layers with O_s > 0" "$COUNT" "$saved"

# Image at a time: image b's input is all read before its output is
# written, and image b+1's input lies past image b's (section 3.7).  The
# spec's in=2x3x4x5 is N=2, H=3, W=4, C=5: IB = 4 * 120 = 480 bytes; k=2
# stride 2 doubles H and W, so with out_c 3 OB = 4 * 2*6*8*3 = 1152 bytes;
# O_s = min(IB, OB) = 480.
expect_eq "convt O_s (algorithmic,analytic)" "480,480" \
	"$(formula_os "convt:in=2x3x4x5,k=2,stride=2,out_c=3,layout=nchw")"
# Only the NCHW float kernel exists; padding is refused at the spec.
"$DMO" verify convt:in=4x4x2,k=2,stride=2,out_c=2 >/dev/null 2>"$WORK/nhwc.err"
expect_eq "NHWC convt: verify exit status" 2 $?
grep -q "f32 in NCHW" "$WORK/nhwc.err" && echo "ok: the refusal names NCHW" ||
	fail "NHWC convt refusal: $(cat "$WORK/nhwc.err")"
"$DMO" verify convt:in=4x4x2,k=2,stride=2,out_c=2,pad=same,layout=nchw >/dev/null 2>"$WORK/pad.err"
expect_eq "padded convt: verify exit status" 2 $?
grep -q "convt takes no padding" "$WORK/pad.err" && echo "ok: the refusal names the padding" ||
	fail "padded convt refusal: $(cat "$WORK/pad.err")"
# Overlapping windows whose column buffer (4 x 64 x 60 x 60 x 100 x 100 =
# 9.2e9 bytes) would exceed 4 GiB though input (2.6 MB) and output
# (159 x 159 x 64 x 4 = 6.5 MB) are small: refused at the spec, before
# any allocation.
"$DMO" verify convt:in=100x100x64,k=60,stride=1,out_c=64,layout=nchw >/dev/null 2>"$WORK/col.err"
expect_eq "huge column buffer: verify exit status" 2 $?
grep -q "column buffer .* exceeds 4 GiB" "$WORK/col.err" && echo "ok: the refusal names the column buffer" ||
	fail "huge column buffer: $(cat "$WORK/col.err")"
finish
