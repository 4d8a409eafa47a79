#!/bin/sh
# resize_tool.sh - the nearest resize op spec (dk_resize_nearest over NCHW,
# ONNX Runtime's flat output order) joins the three-way cross-check: over
# a fixed-seed sample of small shapes, integer scales 1-3 and three element
# types, run under the real tool with a full trace, the tool's O_s equals
# the brute force on the recorded events, the algorithmic replay gives it
# too and the analytic closed form stays below (dmo analyze), and a native
# run with the buffers overlapped by O_s gives the separate-buffer output
# bit for bit (three_ways, lib.sh).  Then the hand derivation of
# docs/formulas.md section 4.6.
. "$top_srcdir/tests/lib.sh"
COUNT=${RESIZE_COUNT:-12}

awk -v count="$COUNT" 'BEGIN {
	srand(20261203)
	split("f32 i8 i16", types, " ")
	for (made = 0; made < count; made++) {
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 4); w = 1 + int(rand() * 4)
		c = 1 + int(rand() * 3)
		sh = 1 + int(rand() * 3); sw = 1 + int(rand() * 3)
		print "resize:in=" n "x" h "x" w "x" c ",scale=" sh "x" sw ",dtype=" types[1 + made % 3]
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"
expect_eq "layers with O_s > 0" "$COUNT" "$saved"

# Hand derivation (formulas.md 4.6): a 1x3x2x2 f32 tensor upsampled 2x2
# to 1x3x4x4.  The last output element (plane 2, row 3, column 3, t = 47)
# reads the last input element (plane 2, row 1, column 1, m = 11) after 47
# writes: OB + 4 (11 - 47) = 192 - 144 = 48 bytes = IB; every other
# element's term is larger.
expect_eq "resize 2x2 O_s (algorithmic,analytic)" "48,48" \
	"$(formula_os "resize:in=1x2x2x3,scale=2")"
# Scale 3x1 of 2x5x4x1 int8 (N=2, C=1, H=5, W=4): IB = 40 bytes.
expect_eq "resize 3x1 O_s (algorithmic,analytic)" "40,40" \
	"$(formula_os "resize:in=2x5x4x1,scale=3x1,dtype=i8")"
refuse "a zero scale" "bad value for 'scale'" "$DMO" formula "resize:in=1x2x2x3,scale=0x2"
finish
