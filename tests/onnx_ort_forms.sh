#!/bin/sh
# onnx_ort_forms.sh - the window, pad and pool forms of PyTorch's audio,
# sequence and ResNet-style exports (docs/formulas.md 3.11 and 4.14):
# 1-D Conv, MaxPool, AveragePool and ConvTranspose (N x C x L read as
# N x C x 1 x L), AveragePool's count_include_pad (avgpool's count_pad)
# and dilations (opset 19), Pad's reflect and edge modes (pad's mode,
# dk_pad_onnx in ONNX Runtime's PadImpl order) and a constant value,
# Slice's steps other than 1, negative ones too (slice's step), and
# Gather of any constant indices (gather, dk_gather in ONNX Runtime's
# block order).
#  - op specs of these forms three ways under the real tool (lib.sh's
#    three_ways: tool = tests/bruteforce_os on the trace = algorithmic,
#    analytic <= exact, native overlapped runs bit for bit), and the
#    closed forms' worked examples by their hand derivations;
#  - ONNX's own node cases of these forms against ONNX Runtime (pads and
#    constant values made constants: onnx_strip --constants), and the
#    3-D windows refused naming the node;
#  - tests/onnx_net --audio against ONNX Runtime, the overlapped arena =
#    the plain one, plan --verify with its real weights, run --model under
#    the tool.
# Skipped (77) without node and onnxruntime-node or libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

cat >"$WORK/specs" <<'SPECS'
pad:in=2x3x4x5,before=0x0x1x2,after=0x0x2x1,mode=reflect
pad:in=1x4x3x6,before=0x1x2x0,after=0x2x0x3,mode=edge
pad:in=2x2x3x4,before=0x1x0x1,after=1x0x2x0,dtype=i8,mode=edge
pad:in=1x2x5x7,before=0x0x1x3,after=0x1x2x2,value=0.25
avgpool:in=2x7x8x3,k=3,stride=2,pad=1x1,count_pad=1,layout=nchw
avgpool:in=1x9x9x2,k=3x2,dil=2,pad=1x0x2x1,layout=nchw
avgpool:in=1x1x20x3,k=1x5,stride=1x2,pad=0x2,count_pad=1,layout=nchw
conv2d:in=2x1x16x4,k=1x5,stride=1x2,pad=0x2,out_c=6,layout=nchw
maxpool:in=1x1x15x4,k=1x3,stride=1x2,pad=0x1,layout=nchw
convt:in=1x1x6x4,k=1x4,stride=1x2,pad=0x1x0x1,out_c=3,layout=nchw
slice:in=2x4x5x6,before=0x1x0x2,after=1x0x2x1,step=1x1x-1x-1
slice:in=1x6x7x3,before=0x0x1x0,after=0x1x0x0,step=1x-2x3x1
slice:in=2x3x8x2,step=-1x1x-3x1,dtype=i8
slice:in=3x4x5,before=1x0x1,after=0x1x0,step=2x1x2
gather:in=2x2x6x3,indices=5x0x5x2x1,dtype=i8
gather:in=1x4x6x1,indices=2x2x2x2x2x2x2x2
gather:in=1x1x7x1,indices=6x5x4x3x2x1x0
gather:in=1x5x3x1,indices=1x0
SPECS
three_ways "$WORK/specs" 18

# 4.14: a reflect or edge pad in ONNX Runtime's order keeps O_s = IB:
# 2 x 3 x 4 x 5 f32 = 480 bytes.
expect_eq "4.14: reflect pad, O_s = IB" "480,480" \
	"$(formula_os pad:in=2x3x4x5,before=0x0x1x2,after=0x0x2x1,mode=reflect)"
# 3.11: count_pad changes the divisor, not a read: the same O_s.
expect_eq "3.11: count_pad's O_s is the average's" \
	"$(formula_os avgpool:in=2x7x8x3,k=3,stride=2,pad=1x1,layout=nchw)" \
	"$(formula_os avgpool:in=2x7x8x3,k=3,stride=2,pad=1x1,count_pad=1,layout=nchw)"
# 3.11: Conv1d 4 -> 6 channels over 16, k 5, stride 2, pads 2, two
# images: OB 96 elements, less (M - 1) = 5 planes of 8 and the column lag
# 1 (x = 1 reads from 0): 55 elements.
expect_eq "3.11: a 1-D conv over one row" "220,220" \
	"$(formula_os conv2d:in=2x1x16x4,k=1x5,stride=1x2,pad=0x2,out_c=6,layout=nchw)"

# 4.14: a slice walked backward: 9 of 12 f32 elements reversed, output t
# reads 10 - t, least m(t) - t = -6 at t = 8: OB 36 - 4 x 6 = 12 bytes.
expect_eq "4.14: a reversed slice" "12,12" "$(formula_os slice:in=1x1x1x12,before=0x0x0x2,after=0x0x0x1,step=1x1x1x-1)"

# 4.14: gather 5, 0, 5, 2, 1 of 6 columns of 3 int8, 4 rows: the rows'
# term o (D - n) C >= 0, least 0; the picks' (indices[i] - i) C least at i
# = 4, (1 - 4) 3 = -9: OB 60 - 9 = 51 bytes.
expect_eq "4.14: a gather" "51,51" "$(formula_os gather:in=2x2x6x3,indices=5x0x5x2x1,dtype=i8)"

# ONNX's Gather cases (indices made constants: a list, along axis 1, 2-D,
# negative) byte for byte; test_gather_1 planned and run under the tool.
for case in test_gather_0 test_gather_1 test_gather_2d_indices test_gather_negative_indices; do
	ort_constants_case "$data/node/$case" "$case"
done
plan_verify_bits test_gather_1 "$WORK/test_gather_1.onnx"
run_model_analyzed test_gather_1 "$WORK/test_gather_1.onnx" 1

# ONNX's negative steps (-1, -3, -1 over 20x10x5): planned and run.
with_constants "$data/node/test_slice_neg_steps" neg_steps
plan_verify_bits test_slice_neg_steps "$WORK/neg_steps.onnx"
run_model_analyzed test_slice_neg_steps "$WORK/neg_steps.onnx" 1

# ONNX's node cases: Pad's modes and value byte for byte (a pad copies),
# the 1-D windows and count_include_pad within f32_close.
for case in test_edge_pad test_reflect_pad test_constant_pad; do
	ort_constants_case "$data/node/$case" "$case"
done
for case in test_maxpool_1d_default test_averagepool_1d_default test_convtranspose_1d \
	    test_averagepool_2d_pads_count_include_pad test_averagepool_2d_precomputed_pads_count_include_pad; do
	ort_node_case "$data/node/$case" "$case"
	f32_close "$case: dmo infer = ONNX Runtime" "$WORK/$case.ort" "$WORK/$case.dmo"
done
refuse "a 3-D MaxPool" "layer 1 '1_maxpool': operator MaxPool has no dmo kernel (node 1: 5-D input (dmo's MaxPool is 1-D or 2-D" \
	"$DMO" infer -q --input /dev/null --output "$WORK/refused" "$data/node/test_maxpool_3d_default/model.onnx"
refuse "a 3-D ConvTranspose" "node 1: not a 1-D or 2-D float32 ConvTranspose" \
	"$DMO" infer -q --input /dev/null --output "$WORK/refused" "$data/node/test_convtranspose_3d/model.onnx"

onnx_net_runs audio
f32_close "--audio: dmo infer = ONNX Runtime" "$WORK/audio.ort" "$WORK/audio.dmo"
plain_arena_same audio "$WORK/audio.onnx" "$WORK/audio.in" "$WORK/audio.dmo"
model_maps --audio "$WORK/audio.onnx" \
	"pad:in=1x1x4x40,before=0x0x0x3,after=0x0x0x3,dtype=f32,mode=reflect" \
	"conv2d:in=1x1x46x4,k=1x7,stride=1x1,dil=1x1,pad=0x0,out_c=8,dtype=f32,layout=nchw" \
	"avgpool:in=1x1x20x8,k=1x3,stride=1x1,pad=0x1,dtype=f32,layout=nchw,count_pad=1" \
	"convt:in=1x1x20x8,k=1x4,stride=1x2,dil=1x1,pad=0x1x0x1,out_pad=0x0,group=1,out_c=4,dtype=f32,layout=nchw" \
	"pad:in=1x1x4x40,before=0x0x0x2,after=0x0x0x2,dtype=f32,mode=edge" \
	"pad:in=1x4x4x11,before=0x0x1x2,after=0x0x2x1,dtype=f32,value=0.5" \
	"avgpool:in=1x7x14x4,k=3x3,stride=1x1,pad=1x1,dtype=f32,layout=nchw,dil=2x2"
plan_verify_weights --audio "$WORK/audio.onnx"
run_model_analyzed "--audio" "$WORK/audio.onnx" 10
finish
