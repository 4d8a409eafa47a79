#!/bin/sh
# slice_tool.sh - ONNX's Slice with steps 1 (slice, any element type;
# kernels_layout.c's dk_slice: the output in flat order, each element
# copying input element o + before) joins the three-way cross-check: over a
# fixed-seed sample of small shapes and element types, run under the real
# tool with a full trace, the tool's O_s equals the brute force on the
# recorded events, the algorithmic replay gives it too and the analytic
# closed form stays below (dmo analyze), and a native run with the buffers
# overlapped by O_s gives the separate-buffer output bit for bit
# (three_ways, lib.sh).  Then the hand derivation of docs/formulas.md
# section 4.10 for one shape, and a slice that removes a whole axis.
. "$top_srcdir/tests/lib.sh"
COUNT=${SLICE_COUNT:-8}

awk -v count="$COUNT" 'BEGIN {
	srand(20261202)
	split("f32 i8 i16 i32", types, " ")
	for (made = 0; made < count; made++) {
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 5); w = 1 + int(rand() * 5)
		c = 1 + int(rand() * 6)
		b[1] = int(rand() * n); b[2] = int(rand() * h); b[3] = int(rand() * w); b[4] = int(rand() * c)
		a[1] = int(rand() * (n - b[1])); a[2] = int(rand() * (h - b[2]))
		a[3] = int(rand() * (w - b[3])); a[4] = int(rand() * (c - b[4]))
		print "slice:in=" n "x" h "x" w "x" c ",before=" b[1] "x" b[2] "x" b[3] "x" b[4] \
		      ",after=" a[1] "x" a[2] "x" a[3] "x" a[4] ",dtype=" types[1 + made % 4]
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"
expect_eq "layers with O_s > 0" "$COUNT" "$saved"

# Section 4.10: every element t copies input element m(t) >= t, so O_s is
# the whole output.  in=2x4x5x6 f32 with before=0x1x0x2, after=1x0x2x1
# keeps 1x3x3x3 = 27 elements: OB = 108 bytes (IB = 960): O_s = 108.
expect_eq "slice O_s (algorithmic,analytic)" "108,108" \
	"$(formula_os "slice:in=2x4x5x6,before=0x1x0x2,after=1x0x2x1")"
"$DMO" verify slice:in=4x4x2,before=2x0,after=2x0 >/dev/null 2>"$WORK/empty.err"
expect_eq "empty slice: verify exit status" 2 $?
grep -q "remove every element of axis 1" "$WORK/empty.err" && echo "ok: the refusal names the axis" ||
	fail "empty slice: $(cat "$WORK/empty.err")"
finish
