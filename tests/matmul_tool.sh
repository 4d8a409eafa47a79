#!/bin/sh
# matmul_tool.sh - ONNX's MatMul of two activations (matmul, f32;
# kernels_matmul.c's dk_matmul_f32: output elements in flat order, each
# reading its whole row of A, then written) joins the three-way cross-check:
# over a fixed-seed sample of small shapes, run under the real tool with a
# full trace (B is the runner's second operand, outside the profiled
# input), the tool's O_s equals the brute force on the recorded events, the
# algorithmic replay gives it too and the closed form of docs/formulas.md
# 4.11 is exact (dmo analyze), and a native run with A and the output
# overlapped by O_s gives the separate-buffer output bit for bit
# (three_ways, lib.sh).  Then the hand derivations of section 4.11.
. "$top_srcdir/tests/lib.sh"
COUNT=${MATMUL_COUNT:-8}

awk -v count="$COUNT" 'BEGIN {
	srand(20261202)
	for (made = 0; made < count; made++)
		print "matmul:in=1x" 1 + int(rand() * 3) "x" 1 + int(rand() * 5) "x" 1 + int(rand() * 9) \
		      ",units=" 1 + int(rand() * 9)
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"

# Section 4.11, R rows of K times K x N, es = 4, OB = 4 R N:
# K < N: O_s = OB - 4 ((R - 1)(N - K) + N - 1).  R = 3, K = 4, N = 5:
#   60 - 4 (2 + 4) = 36.
# K >= N: O_s = OB - 4 (N - 1).  R = 2 x 3, K = 6, N = 2: 48 - 4 = 44.
# N = 1: OB + 4 (K - 1) >= OB, clamped to min(IB, OB) = OB = 16 (R = 4).
expect_eq "matmul K < N (algorithmic,analytic)" "36,36" "$(formula_os "matmul:in=1x1x3x4,units=5")"
expect_eq "matmul K >= N, batched (algorithmic,analytic)" "44,44" "$(formula_os "matmul:in=1x2x3x6,units=2")"
expect_eq "matmul N = 1 (algorithmic,analytic)" "16,16" "$(formula_os "matmul:in=1x1x4x3,units=1")"
# Tight: one element more than O_s changes the output.
"$DMO" verify --overlap 40 matmul:in=1x1x3x4,units=5 >"$WORK/over.out" 2>&1
[ $? -ne 0 ] && echo "ok: an overlap of O_s + 4 bytes changes the output" ||
	fail "matmul at O_s + 4: $(tail -2 "$WORK/over.out")"
finish
