#!/bin/sh
# qoperator_tool.sh - ONNX Runtime's QOperator ops (qlinearadd, qlinearmul,
# qlinearmean, qlinearavgpool, uint8 and int8; kernels_qlinear.c) join the three-way
# cross-check: over a fixed-seed sample of small shapes, run under the real
# tool with a full trace, the tool's O_s equals the brute force on the
# recorded events, the algorithmic replay gives it too and the closed form
# of docs/formulas.md 4.12 is exact (dmo analyze), and a native run with
# the input and output overlapped by O_s gives the separate-buffer output
# bit for bit (three_ways, lib.sh).  Then the hand figures of section 4.12.
. "$top_srcdir/tests/lib.sh"
COUNT=${QOPERATOR_COUNT:-12}

awk -v count="$COUNT" 'BEGIN {
	srand(20261203)
	split("qlinearadd qlinearmul qlinearmean qlinearavgpool", ops, " ")
	for (made = 0; made < count; made++) {
		op = ops[made % 4 + 1]
		k = op == "qlinearavgpool" ? ",k=" 1 + int(rand() * 3) "x" 1 + int(rand() * 3) \
		    ",stride=" 1 + int(rand() * 2) ",pad=" (rand() < 0.5 ? "same" : "valid") : ""
		print op ":in=" 1 + int(rand() * 3) "x" 3 + int(rand() * 5) "x" \
		      3 + int(rand() * 5) "x" 1 + int(rand() * 6) k ",dtype=" (rand() < 0.5 ? "u8" : "i8")
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"

# Section 4.12: qlinearadd and qlinearmul read element t (and B's) before
# writing it, one element size: O_s = OB = N (in place).  qlinearmean
# writes output t after reading its plane: O_s = OB = planes (the output
# fits at the start of the input); 24 planes of 15 values: 24.
expect_eq "qlinearadd u8 in place (algorithmic,analytic)" "120,120" \
	"$(formula_os "qlinearadd:in=2x3x4x5,dtype=u8")"
expect_eq "qlinearmul i8 in place (algorithmic,analytic)" "60,60" \
	"$(formula_os "qlinearmul:in=1x3x4x5,dtype=i8")"
expect_eq "qlinearmean of 24 planes (algorithmic,analytic)" "24,24" \
	"$(formula_os "qlinearmean:in=24x15x1x1,dtype=u8")"
# qlinearavgpool reads every input element before its first write: O_s =
# min(IB, OB); 2 images of 3 planes 7x9 pooled 3x3 stride 2 pad 1 to 4x5:
# min(378, 120) = 120.
expect_eq "qlinearavgpool, the input read first (algorithmic,analytic)" "120,120" \
	"$(formula_os "qlinearavgpool:in=2x7x9x3,k=3x3,stride=2,pad=1x1,dtype=u8")"
finish
