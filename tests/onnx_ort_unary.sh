#!/bin/sh
# onnx_ort_unary.sh - ONNX's unary f32 ops (one table, dk_onnx_unary_f32),
# PRelu, Identity, Dropout, Softmax and LogSoftmax over any axis,
# ReduceMax, ReduceMin, ReduceSum and GlobalMaxPool, and Sum (as add), Max
# and Min of two operands:
#  - their op specs join the three-way cross-check (three_ways, lib.sh):
#    under the real tool the O_s equals the brute force on the recorded
#    events and the algorithmic replay, the analytic bound is exact, and a
#    native run overlapped by O_s gives the separate-buffer bytes; then the
#    closed forms of docs/formulas.md 4.7 to 4.9 on one shape each;
#  - `dmo infer` against ONNX Runtime (tests/ort/run.js) on ONNX's own
#    single-op cases (libonnx-testdata, their stored inputs; Pow's exponent
#    and ReduceSum's axes made the initializers exporters write), within
#    f32_close's tolerance (docs/kernels.md states the ulps op by op);
#  - `dmo plan --verify` of four of them runs the overlapped arena bit for
#    bit;
#  - tests/onnx_net --unary, a chain of 14 of them (PRelu, GELU as PyTorch
#    exports it: Div, Erf, Add, Mul, Mul; Softmax and LogSoftmax over
#    middle axes, Log, Elu, Identity, Neg, Sqrt, ReduceSum): dmo infer =
#    ONNX Runtime, its overlapped arena gives the plain one's bytes,
#    `plan --verify` runs it bit for bit with its real weights, and `dmo
#    run --model` profiles its 14 layers under the tool with exact =
#    algorithmic = analytic O_s.
# Skipped (77) without node and onnxruntime-node or libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

ops="leakyrelu elu selu exp log sqrt neg abs reciprocal softplus erf floor ceil pow prelu
softmax logsoftmax reducemax reducemin reducesum max min"
awk -v ops="$ops" 'BEGIN {
	srand(20261202)
	count = split(ops, op, /[ \n]+/)
	for (i = 1; i <= count; i++) {
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 4); w = 1 + int(rand() * 4)
		c = 1 + int(rand() * 5)
		axis = op[i] ~ /softmax/ ? ",axis=" int(rand() * 3) : ""
		print op[i] ":in=" n "x" h "x" w "x" c axis
	}
}' >"$WORK/specs"
count=$(wc -l <"$WORK/specs")
expect_eq "sample size" 22 "$count"
three_ways "$WORK/specs" "$count"
expect_eq "layers with O_s > 0" "$count" "$saved"

# 4.7: flat order, O_s = min(IB, OB) = 4 * 2*3*4*5 = 480 bytes; 4.8: a
# softmax over a middle axis reads all 480 input bytes before its first
# write, O_s = min(IB, OB) = 480; 4.9: a reduction of 2 x 5 x 1 x 3
# writes 2*3 floats, O_s = OB = 24.
for spec in exp:in=2x3x4x5 erf:in=2x3x4x5 prelu:in=2x3x4x5 max:in=2x3x4x5 softmax:in=2x3x4x5,axis=1 \
	    logsoftmax:in=2x3x4x5,axis=0 logsoftmax:in=2x3x4x5; do
	expect_eq "$spec O_s (algorithmic,analytic)" "480,480" "$(formula_os "$spec")"
done
for op in reducemax reducemin reducesum; do
	expect_eq "$op O_s (algorithmic,analytic)" "24,24" "$(formula_os "$op:in=2x5x1x3")"
done

for name in test_leakyrelu test_leakyrelu_default test_elu test_elu_default test_selu \
	    test_selu_default test_exp test_log test_sqrt_example test_neg test_abs test_reciprocal \
	    test_softplus test_erf test_floor test_ceil test_prelu_broadcast test_prelu_example \
	    test_identity test_dropout_default test_softmax_axis_0 test_softmax_axis_1 \
	    test_softmax_negative_axis test_logsoftmax_axis_0 test_logsoftmax_axis_1 \
	    test_logsoftmax_default_axis test_logsoftmax_large_number test_globalmaxpool \
	    test_reduce_max_keepdims_random test_reduce_max_do_not_keepdims_random \
	    test_reduce_min_negative_axes_keepdims_random test_reduce_min_default_axes_keepdims_random \
	    test_max_two_inputs test_max_float32 test_min_two_inputs test_min_float32 test_sum_two_inputs; do
	ort_node_case "$data/node/$name" "$name"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
done
for name in test_pow_bcast_scalar test_reduce_sum_keepdims_random \
	    test_reduce_sum_do_not_keepdims_random; do
	with_constants "$data/node/$name" "$name"
	ort_and_dmo "$name" "$WORK/$name.onnx"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
done
# Refused, naming the reason: an int64 exponent, a Max of int32
# (onnx_ort_variadic.sh runs the forms mapped since).
expect_refusal "test_pow_types_float32_int64" 2 "an exponent 'y' of int64" \
	"$DMO" infer -q "$data/node/test_pow_types_float32_int64/model.onnx"
expect_refusal "test_max_int32" 2 "int32 input to int32 output (dmo's Max is f32)" \
	"$DMO" infer -q "$data/node/test_max_int32/model.onnx"

for name in test_softmax_axis_1 test_logsoftmax_axis_0 test_prelu_broadcast test_globalmaxpool; do
	plan_verify_bits "$name" "$data/node/$name/model.onnx"
done

onnx_net_runs unary
f32_close "PRelu .. ReduceSum: dmo infer = ONNX Runtime" "$WORK/unary.ort" "$WORK/unary.dmo"
plain_arena_same "--unary" "$WORK/unary.onnx" "$WORK/unary.in" "$WORK/unary.dmo"
plan_verify_bits "--unary" "$WORK/unary.onnx"
run_model_analyzed "--unary" "$WORK/unary.onnx" 14
finish
