#!/bin/sh
# onnx_ort_conv_forms.sh - the Conv and pooling forms of real PyTorch/ONNX
# exports that dmo used to plan at O_s 0: grouped Conv (conv2d's group key,
# float and 8-bit), asymmetric padding (pad=TxLxBxR: explicit pads,
# SAME_LOWER with an odd total), ceil_mode windows (more bottom/right
# padding), MaxPool's dilations (maxpool's dil, NCHW) and Gemm's transA
# (fc's trans_a).  First op specs of these forms three ways under the real tool
# (tool = tests/bruteforce_os on the trace = algorithmic, analytic <= exact,
# native overlapped runs; lib.sh's three_ways) and the worked examples of
# docs/formulas.md 3.9 and 3.10 by their hand derivations; then
# tests/onnx_net --conv-forms (two grouped Convs, one dilated with pads
# 1,0,2,1, one SAME_LOWER; a ceil_mode MaxPool; an AveragePool with pads
# 0,1,1,0) against ONNX Runtime, overlapped arena = plain, plan --verify
# with its real weights and run --model under the tool; a grouped uint8
# QLinearConv (onnx_net --qlinear-grouped) byte for byte; and ONNX's own
# cases of these forms against ONNX Runtime.  Skipped (77) without node and
# onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort

cat >"$WORK/specs" <<'EOF'
conv2d:in=8x8x4,k=3,out_c=4,pad=1x1,group=2,layout=nchw
conv2d:in=2x13x14x4,k=3,dil=2,pad=1x0x2x1,out_c=6,group=2,layout=nchw
conv2d:in=1x9x7x6,k=3x2,stride=2,pad=same,out_c=9,group=3,layout=nchw
conv2d:in=2x6x6x4,k=3,pad=1x0x0x1,out_c=6,group=2,dtype=i8,layout=nchw
conv2d:in=1x6x5x6,k=3,out_c=3,group=3,dtype=u8,layout=nchw
conv2d:in=9x9x3,k=3,stride=2,pad=1x1x0x0,out_c=4
dwconv2d:in=9x8x3,k=3,stride=2,pad=0x1x2x1,mult=2
dwconv2d:in=2x9x8x3,k=3,dil=2,pad=2x0x1x2,layout=nchw
maxpool:in=7x7x3,k=3,stride=2,pad=0x0x1x1
maxpool:in=2x6x6x3,k=3,stride=2,pad=1x1x0x0,layout=nchw
avgpool:in=7x6x2,k=2,stride=2,pad=1x0x0x1,layout=nchw
maxpool:in=2x9x8x3,k=2x3,dil=2,stride=1x2,pad=1x0x0x2,layout=nchw
fc:in=3x6,units=4,trans_a=1
EOF
three_ways "$WORK/specs" 13

# The worked examples (formulas.md 3.9, 3.10): O_s = algorithmic = analytic.
# Grouped, 8x8x4 to 4 planes in 2 groups, pads 1: OB 256 elements, minus
# (M/G - 1) = 1 plane of 64, minus the pixel lags 8 and 1: 183 elements.
expect_eq "3.9: conv2d group 2 (one plane and the lags below OB)" "732,732" \
	"$(formula_os conv2d:in=8x8x4,k=3,out_c=4,pad=1x1,group=2,layout=nchw)"
# group 1 keeps (M - 1) = 3 planes less: 256 - 192 - 9 = 55 elements.
expect_eq "3.9: the same with group 1" "220,220" "$(formula_os conv2d:in=8x8x4,k=3,out_c=4,pad=1x1,layout=nchw)"
# The --conv-forms model's first layer: 1584 - 64 - 32 - 264 - 11 = 1213.
expect_eq "3.9: the dilated grouped layer, pads 1,0,2,1" "4852,4852" \
	"$(formula_os conv2d:in=2x13x14x4,k=3,dil=2,pad=1x0x2x1,out_c=6,group=2,layout=nchw)"
# Grouped 8-bit: an image at a time, min(IB, OB) = min(288, 300).
expect_eq "3.9: grouped int8, an image at a time" "288,288" \
	"$(formula_os conv2d:in=2x6x6x4,k=3,pad=1x0x0x1,out_c=6,group=2,dtype=i8,layout=nchw)"
# 3.10: depthwise 3x3 over 6x6x2 with pads top 2, left 1, bottom 0, right
# 1 (6x6 out, OB 72 elements): the row lag is max over y of 6y - 6 max(0,
# y - 2) = 12, the column lag 1: 59 elements.  The same padding upside
# down (top 0, bottom 2) has no row lag: 71 elements.
expect_eq "3.10: dwconv2d, two rows of padding above" "236,236" \
	"$(formula_os dwconv2d:in=1x6x6x2,k=3,pad=2x1x0x1,layout=nchw)"
expect_eq "3.10: dwconv2d, two rows of padding below" "284,284" \
	"$(formula_os dwconv2d:in=1x6x6x2,k=3,pad=0x1x2x1,layout=nchw)"

# 3.10.1: the dilated maxpool, OB 144 elements less lag_y 3: 141.
expect_eq "3.10.1: dilated NCHW maxpool" "564,564" \
	"$(formula_os maxpool:in=2x9x8x3,k=2x3,dil=2,stride=1x2,pad=1x0x0x2,layout=nchw)"

# 3.10.2: Gemm's transA, 3 rows of 4 units: O_s = es * N = 12 bytes.
expect_eq "3.10.2: fc with trans_a" "12,12" "$(formula_os fc:in=3x6,units=4,trans_a=1)"

onnx_net_runs conv-forms
f32_close "grouped Conv, SAME_LOWER, ceil_mode, pads 0,1,1,0: dmo infer = ONNX Runtime" \
	"$WORK/conv-forms.ort" "$WORK/conv-forms.dmo"
plain_arena_same conv-forms "$WORK/conv-forms.onnx" "$WORK/conv-forms.in" "$WORK/conv-forms.dmo"
model_maps --conv-forms "$WORK/conv-forms.onnx" \
	"conv2d:in=2x13x14x4,k=3x3,stride=1x1,dil=2x2,pad=1x0x2x1,out_c=6,group=2,dtype=f32,layout=nchw" \
	"conv2d:in=2x12x11x6,k=3x3,stride=2x2,dil=1x1,pad=1x1x0x1,out_c=6,group=3,dtype=f32,layout=nchw" \
	"maxpool:in=2x6x6x6,k=3x3,stride=2x2,pad=same,dtype=f32,layout=nchw" \
	"avgpool:in=2x3x3x6,k=2x2,stride=1x1,pad=0x1x1x0,dtype=f32,layout=nchw"
plan_verify_weights --conv-forms "$WORK/conv-forms.onnx"
run_model_analyzed "--conv-forms" "$WORK/conv-forms.onnx" 5
expect_eq "--conv-forms: the grouped convs' O_s (tool = algorithmic = analytic)" "4852 4852 4852 1584 1584 1584" \
	"$(awk '$2 ~ /_conv$/ { printf "%s%s %s %s", sep, $4, $6, $7; sep = " " }' "$WORK/analyze.out")"

# A grouped QLinearConv (uint8, per-channel int8 weights, pads 1,0,0,1):
# byte for byte, ONNX Runtime's requantisation; O_s = min(IB, OB) = 288.
onnx_net_runs qlinear-grouped
cmp -s "$WORK/qlinear-grouped.ort" "$WORK/qlinear-grouped.dmo" &&
	echo "ok: grouped QLinearConv: dmo infer = ONNX Runtime byte for byte" ||
	fail "grouped QLinearConv: dmo infer's output differs from ONNX Runtime's"
plan_verify_bits "--qlinear-grouped" "$WORK/qlinear-grouped.onnx"
run_model_analyzed "--qlinear-grouped" "$WORK/qlinear-grouped.onnx" 1
expect_eq "--qlinear-grouped: O_s (tool = algorithmic = analytic = IB)" "288 288 288" \
	"$(awk '$2 ~ /_qlinearconv$/ { print $4, $6, $7 }' "$WORK/analyze.out")"

# A backend plugin's op has NHWC buffers and no group: where XNNPACK is
# built, the grouped NCHW spec is refused, not run as an NHWC conv reading
# its filters past their end.
if "$DMO" verify --backend xnnpack --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>&1; then
	expect_refusal "xnnpack: a grouped NCHW conv2d" 2 "backend xnnpack takes NHWC op specs only" \
		"$DMO" verify --backend xnnpack conv2d:in=8x8x4,k=3,out_c=4,pad=1x1,group=2,layout=nchw
fi

# ONNX's own cases of these forms (PyTorch's grouped Conv2d, a dilated
# MaxPool, SAME_LOWER and ceil_mode pools), their stored inputs, against
# ONNX Runtime.
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
if [ -d "$data/node" ]; then
	for case in pytorch-converted/test_Conv2d_groups node/test_maxpool_2d_dilations node/test_maxpool_2d_same_lower \
		    node/test_averagepool_2d_same_lower node/test_maxpool_2d_ceil node/test_averagepool_2d_ceil; do
		name=${case#*/}
		ort_node_case "$data/$case" "$name"
		f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
	done
else
	echo "no libonnx-testdata in $data: its cases not run"
fi
finish
