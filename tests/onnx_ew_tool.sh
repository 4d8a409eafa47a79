#!/bin/sh
# onnx_ew_tool.sh - ONNX's element-wise op specs (sub, div, hardsigmoid,
# hardswish, clip, batchnorm; kernels_onnx_ew.c) join the three-way
# cross-check: over a fixed-seed sample of small shapes, run under the
# real tool with a full trace, the tool's O_s equals the brute force on the
# recorded events, the algorithmic replay of the flat order gives it too
# and the analytic bound stays below (dmo analyze), and a native run with
# the buffers overlapped by O_s gives the separate-buffer output bit for
# bit (three_ways, lib.sh).  Then the hand derivation of docs/formulas.md
# section 4.5: the flat order allows the whole buffer.
. "$top_srcdir/tests/lib.sh"
COUNT=${ONNX_EW_COUNT:-12}

awk -v count="$COUNT" 'BEGIN {
	srand(20261202)
	split("sub div hardsigmoid hardswish clip batchnorm", ops, " ")
	for (made = 0; made < count; made++) {
		op = ops[1 + made % 6]
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 5); w = 1 + int(rand() * 5)
		c = 1 + int(rand() * 6)
		print op ":in=" n "x" h "x" (op == "batchnorm" ? 1 : w) "x" c
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"
expect_eq "layers with O_s > 0" "$COUNT" "$saved"

# Element e is read right before out[e] is written, nothing after it
# reads an earlier element: O_s = min(IB, OB) = 4 * 2*3*4*5 = 480 bytes.
for op in sub div hardsigmoid hardswish clip batchnorm; do
	expect_eq "$op O_s (algorithmic,analytic)" "480,480" "$(formula_os "$op:in=2x3x4x5")"
done
# Their kernels are float: another dtype is refused with the reason.
"$DMO" verify sub:in=4x4x2,dtype=i8 >/dev/null 2>"$WORK/i8.err"
expect_eq "i8 sub: verify exit status" 2 $?
grep -q "there are f32" "$WORK/i8.err" && echo "ok: the refusal names f32" ||
	fail "i8 sub refusal: $(cat "$WORK/i8.err")"
finish
