#!/bin/sh
# nchw_ops_tool.sh - the NCHW kernels (layout=nchw conv2d, dwconv2d,
# maxpool, avgpool; kernels_nchw.c, and the int8 conv2d and dwconv2d of
# kernels_nchw_quant.c) join the three-way cross-check: over a
# fixed-seed sample of small configurations (strides, dilations, explicit
# and SAME padding, batches), run under the real tool, the tool's O_s
# equals the brute force on the recorded events, the algorithmic replay of
# the NCHW loop order gives it too and the analytic bound stays below
# (dmo analyze), and a native run with the buffers overlapped by O_s gives
# the separate-buffer output bit for bit (three_ways, lib.sh).  Then hand
# derivations of docs/formulas.md sections 3.6 and 3.7.
. "$top_srcdir/tests/lib.sh"
COUNT=${NCHW_COUNT:-24}

awk -v count="$COUNT" 'BEGIN {
	srand(20261201)
	split("conv2d dwconv2d maxpool avgpool", ops, " ")
	for (made = 0; made < count; made++) {
		op = ops[1 + made % 4]
		n = 1 + int(rand() * 2); h = 3 + int(rand() * 5); w = 3 + int(rand() * 5)
		c = 1 + int(rand() * 4); k = 1 + int(rand() * 3); s = 1 + int(rand() * 2)
		r = rand()
		pad = r < 0.3 ? "valid" : r < 0.6 ? "same" : int(rand() * k) "x" int(rand() * k)
		spec = op ":in=" n "x" h "x" w "x" c ",k=" k ",stride=" s ",pad=" pad ",layout=nchw"
		if (op == "conv2d")
			spec = spec ",out_c=" (1 + int(rand() * 4)) ",dil=" (1 + int(rand() * 2))
		if (op == "dwconv2d")
			spec = spec ",mult=" (1 + int(rand() * 2))
		print spec
	}
}' >"$WORK/specs"
# The int8 convolutions (kernels_nchw_quant.c, image at a time) over
# half as many random layers of their own, batches up to 3.
awk -v count="$((COUNT / 2))" 'BEGIN {
	srand(20261202)
	for (made = 0; made < count; made++) {
		n = 1 + int(rand() * 3); h = 3 + int(rand() * 5); w = 3 + int(rand() * 5)
		c = 1 + int(rand() * 4); k = 1 + int(rand() * 3); s = 1 + int(rand() * 2)
		spec = (made % 2 ? "dwconv2d" : "conv2d") ":in=" n "x" h "x" w "x" c ",k=" k \
		       ",stride=" s ",pad=" (rand() < 0.5 ? "same" : "valid") ",dtype=i8,layout=nchw"
		print spec (made % 2 ? ",mult=" (1 + int(rand() * 3)) : ",out_c=" (1 + int(rand() * 8)))
	}
}' >>"$WORK/specs"
COUNT=$((COUNT + COUNT / 2))
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"
three_ways "$WORK/specs" "$COUNT"
echo "layers with O_s > 0: $saved of $COUNT"

# A 3x3 convolution, padding 1, of 3 planes 8x8 into 4: the last output
# plane is written after the first three, and its pixel (1, 1) reads input
# element 0 after 3*64 + 9 elements were written: O_s = 4 * (4*64 - 201)
# = 220 bytes, about one output plane (256).  NHWC: 652.
expect_eq "NCHW conv O_s (algorithmic,analytic)" "220,220" \
	"$(formula_os conv2d:in=8x8x3,k=3,out_c=4,pad=1x1,layout=nchw)"
expect_eq "NHWC conv O_s, the same geometry" "652,652" \
	"$(formula_os conv2d:in=8x8x3,k=3,out_c=4,pad=1x1)"
# A 2x2 stride-2 max pool, plane by plane: element e reads no earlier
# input than 4e, so the output always trails: O_s = min(IB, OB) = OB.
expect_eq "NCHW maxpool O_s" "256,256" "$(formula_os maxpool:in=8x8x4,k=2,stride=2,layout=nchw)"
# One byte above O_s the conv's output changes: the bound is tight.
"$DMO" verify --overlap 221 conv2d:in=8x8x3,k=3,out_c=4,pad=1x1,layout=nchw >"$WORK/tight.out" 2>&1
expect_eq "NCHW conv one byte above O_s: verify exit status" 1 $?
grep -q UNSAFE "$WORK/tight.out" || fail "above O_s: $(cat "$WORK/tight.out")"
# The int8 conv reads a whole input image before it writes the image's
# output (docs/formulas.md 3.7): O_s = min(IB, OB) = IB = 192, where the
# float kernel above allows 220 of 768 bytes; in a batch of 2 with a
# larger output image (3*64 < 4*64), still min(IB, OB) = 384.
expect_eq "NCHW i8 conv O_s" "192,192" \
	"$(formula_os conv2d:in=8x8x3,k=3,out_c=4,pad=1x1,dtype=i8,layout=nchw)"
expect_eq "NCHW i8 conv O_s, batch 2" "384,384" \
	"$(formula_os conv2d:in=2x8x8x3,k=3,out_c=4,pad=1x1,dtype=i8,layout=nchw)"
# The NCHW pools are float: another dtype is refused with the reason.
"$DMO" verify maxpool:in=4x4x2,k=3,dtype=i8,layout=nchw >/dev/null 2>"$WORK/i8.err"
expect_eq "NCHW i8 maxpool: verify exit status" 2 $?
grep -q "f32 in NCHW, and i8 and u8 for conv2d and dwconv2d" "$WORK/i8.err" &&
	echo "ok: the refusal names the NCHW types" || fail "i8 NCHW refusal: $(cat "$WORK/i8.err")"
"$DMO" formula conv2d:in=4x4x2,k=3,out_c=2,layout=nchv >/dev/null 2>"$WORK/bad.err"
expect_eq "bad layout: exit status" 2 $?
grep -q "did you mean 'nchw'" "$WORK/bad.err" && echo "ok: a misspelt layout gets the nearest" ||
	fail "bad layout message: $(cat "$WORK/bad.err")"
finish
