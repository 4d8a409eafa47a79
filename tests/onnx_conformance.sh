# onnx_conformance.sh - ONNX's single-op test cases (Debian libonnx-testdata)
# that dmo models, and the expanded and PyTorch graphs of several nodes
# whose ops it maps (run whole), through dmo's ONNX reader and reference f32
# kernels: every case that applies matches ONNX's expected output
# (onnx_conformance.c).  Skipped when libonnx-testdata is not installed.
. "$top_srcdir/tests/lib.sh"

data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
if [ ! -d "$data/node" ]; then
	echo "SKIP: $data/node not found (apt-get install libonnx-testdata)"
	exit 77
fi
set -- "$data"/node/test_conv_* "$data"/node/test_maxpool_* "$data"/node/test_averagepool_* \
	"$data"/node/test_gemm_* "$data"/node/test_relu "$data"/node/test_add* \
	"$data"/node/test_mul* "$data"/node/test_concat_* "$data"/node/test_constant_pad \
	"$data"/node/test_reduce_mean_* "$data"/node/test_globalaveragepool* \
	"$data"/node/test_softmax_* "$data"/node/test_clip* "$data"/node/test_matmul_* \
	"$data"/node/test_tanh* "$data"/pytorch-converted/test_Tanh \
	"$data"/pytorch-converted/test_Conv2d* "$data"/pytorch-converted/test_*Pool2d* \
	"$data"/pytorch-converted/test_Softmax "$data"/pytorch-converted/test_ReLU \
	"$data"/pytorch-converted/test_Linear "$data"/pytorch-converted/test_*Pad2d \
	"$data"/pytorch-operator/test_operator_concat2 "$data"/pytorch-operator/test_operator_reduced_mean* \
	"$data"/pytorch-operator/test_operator_clip "$data"/pytorch-operator/test_operator_pad \
	"$data"/node/test_sub* "$data"/node/test_div* "$data"/node/test_hardsigmoid* \
	"$data"/node/test_hardswish* "$data"/node/test_batchnorm_* "$data"/pytorch-converted/test_BatchNorm* \
	"$data"/pytorch-operator/test_operator_add* "$data"/pytorch-operator/test_operator_basic \
	"$data"/node/test_convtranspose* "$data"/pytorch-converted/test_ConvTranspose2d* \
	"$data"/pytorch-operator/test_operator_convtranspose \
	"$data"/node/test_leakyrelu* "$data"/node/test_elu* "$data"/node/test_selu* \
	"$data"/node/test_exp "$data"/node/test_exp_example "$data"/node/test_log \
	"$data"/node/test_log_example "$data"/node/test_sqrt* "$data"/node/test_neg* \
	"$data"/node/test_abs "$data"/node/test_reciprocal* "$data"/node/test_softplus* \
	"$data"/node/test_erf "$data"/node/test_floor* "$data"/node/test_ceil* "$data"/node/test_pow* \
	"$data"/node/test_prelu* "$data"/node/test_identity* "$data"/node/test_dropout* \
	"$data"/node/test_logsoftmax_* "$data"/node/test_globalmaxpool* "$data"/node/test_reduce_max_* \
	"$data"/node/test_reduce_min_* "$data"/node/test_reduce_sum_[!s]* \
	"$data"/pytorch-converted/test_ELU "$data"/pytorch-converted/test_LeakyReLU* \
	"$data"/pytorch-converted/test_SELU "$data"/pytorch-converted/test_PReLU* \
	"$data"/pytorch-converted/test_Softplus "$data"/pytorch-converted/test_LogSoftmax \
	"$data"/pytorch-converted/test_log_softmax_* "$data"/pytorch-converted/test_softmax_* \
	"$data"/pytorch-operator/test_operator_exp "$data"/pytorch-operator/test_operator_sqrt \
	"$data"/pytorch-operator/test_operator_pow "$data"/pytorch-operator/test_operator_selu \
	"$data"/pytorch-operator/test_operator_reduced_sum* "$data"/node/test_max_* "$data"/node/test_min_* \
	"$data"/node/test_sum_* "$data"/node/test_mean_* "$data"/node/test_transpose_* "$data"/node/test_celu_expanded \
	"$data"/node/test_mvn_expanded "$data"/pytorch-converted/test_GLU* \
	"$data"/pytorch-converted/test_Softmin "$data"/pytorch-converted/test_Softsign \
	"$data"/pytorch-converted/test_PoissonNLLLLoss_no_reduce \
	"$data"/pytorch-converted/test_Linear_no_bias "$data"/pytorch-converted/test_PixelShuffle \
	"$data"/pytorch-operator/test_operator_chunk "$data"/pytorch-operator/test_operator_index \
	"$data"/pytorch-operator/test_operator_params "$data"/pytorch-operator/test_operator_symbolic_override_nested \
	"$data"/pytorch-converted/test_Conv1d* "$data"/pytorch-converted/test_*Pool1d* \
	"$data"/pytorch-converted/test_Conv3d* "$data"/pytorch-converted/test_*Pool3d*
"$top_builddir/tests/onnx_conformance" "$@" >"$WORK/cases" 2>&1
status=$?
cat "$WORK/cases"
expect_eq "onnx_conformance exit status" 0 "$status"
# Each operator dmo models has passing cases (a reader that refused them
# all would pass vacuously).
for op in conv2d dwconv2d maxpool avgpool fc relu add mul concat pad mean softmax tanh sub div \
	  hardsigmoid hardswish clip batchnorm convt leakyrelu elu selu exp log sqrt neg abs reciprocal \
	  softplus erf floor ceil prelu reshape logsoftmax reducemax reducemin reducesum max min matmul \
	  scale powt transpose; do
	# A layer's spec ("op:in=...") or an op among a whole graph's layers.
	grep -Eq "^pass .* $op(:|,| \\()" "$WORK/cases" && echo "ok: $op cases pass" || fail "no passing $op case"
done
# The layout-free ops read with op specs over the stored dims (no expected
# outputs are run for them here): each plans and verifies.
for pair in sigmoid:logistic softmax_axis_2:softmax transpose_default:transpose \
	    transpose_all_permutations_3:transpose flatten_axis1:reshape unsqueeze_axis_0:reshape; do
	file="$data/node/test_${pair%%:*}/model.onnx"
	"$DMO" model "$file" >"$WORK/layout.out" 2>&1
	grep -q " ${pair#*:}:in=" "$WORK/layout.out" && echo "ok: ${pair%%:*} read as ${pair#*:}" ||
		fail "${pair%%:*}: $(head -3 "$WORK/layout.out")"
	"$DMO" plan --verify "$file" >"$WORK/layout.out" 2>&1
	expect_eq "${pair%%:*} plan --verify exit status" 0 $?
done
# Every whole graph that passes plans, and its overlapped arena runs bit
# for bit (the graphs' inputs are activations: --verify runs them).
grep "^pass .* whole graph of" "$WORK/cases" | awk '{ print $2 }' >"$WORK/graphs"
[ -s "$WORK/graphs" ] || fail "no whole graph passes"
while read -r name; do
	plan_verify_bits "$name" "$(ls -d "$data"/*/"$name")/model.onnx"
done <"$WORK/graphs"
# ReduceSum's axes as a graph input (opset 13's cases) cannot be known
# before the run: refused, naming the node and the input.  (Axes from a
# Constant node: the expanded softmax bodies above; from an initializer:
# onnx_ort_unary.sh.)
refuse "ReduceSum with axes a graph input" \
	"layer 1 '1_reducesum'.*node '1_reducesum' takes its axes from graph input 'axes', not a constant" \
	"$DMO" infer --zeros "$data/node/test_reduce_sum_keepdims_example/model.onnx"
"$DMO" model "$data/node/test_softmax_axis_1/model.onnx" >"$WORK/axis1.out" 2>&1
grep -q " softmax:in=1x3x4x5,axis=2,dtype=f32$" "$WORK/axis1.out" &&
	echo "ok: a softmax over a middle axis (opset 13) is read over W of outer x axis x inner" ||
	fail "softmax axis 1: $(cat "$WORK/axis1.out")"
# dmo infer of Tanh (dmo's tanh kernel) and of a Softmax by opset 11's
# rule against ONNX Runtime, when installed (tests/ort).
# infer_vs_ort WHAT MODEL INPUT_PB: dmo infer = ONNX Runtime on the input.
infer_vs_ort() {
	node "$top_srcdir/tests/ort/tensor_bytes.js" "$3" >"$WORK/ort.in"
	node "$top_srcdir/tests/ort/run.js" "$2" "$WORK/ort.in" "$WORK/ort.out" 2>/dev/null
	expect_eq "$1: ONNX Runtime exit status" 0 $?
	"$DMO" infer -q --input "$WORK/ort.in" --output "$WORK/dmo.out" "$2" >/dev/null 2>&1
	expect_eq "$1: dmo infer exit status" 0 $?
	f32_close "$1: dmo infer = ONNX Runtime" "$WORK/ort.out" "$WORK/dmo.out"
}
if command -v node >/dev/null 2>&1 && [ -d "$top_srcdir/tests/ort/node_modules/onnxruntime-node" ]; then
	infer_vs_ort Tanh "$data/node/test_tanh/model.onnx" "$data/node/test_tanh/test_data_set_0/input_0.pb"
	# Softmax over axis 1 of 3x4x5 under opset 11 (onnx_strip --opset):
	# rows of the 4 x 5 elements from axis 1 on, not of the last axis.
	case="$data/node/test_softmax_axis_1"
	"$top_builddir/tests/onnx_strip" --opset 11 "$case/model.onnx" "$WORK/softmax11.onnx"
	"$DMO" model "$WORK/softmax11.onnx" | grep -q " softmax:in=1x3x20,dtype=f32" &&
		echo "ok: an opset 11 softmax at axis 1 has rows of 20" ||
		fail "softmax11: $("$DMO" model "$WORK/softmax11.onnx" 2>&1 | head -3)"
	infer_vs_ort "opset 11 Softmax" "$WORK/softmax11.onnx" "$case/test_data_set_0/input_0.pb"
	# Whole graphs (function bodies, PyTorch exports, a Transpose): dmo
	# infer of the whole model = ONNX Runtime on the case's input.
	for name in node/test_softmax_axis_1_expanded node/test_logsoftmax_axis_0_expanded \
		    node/test_hardswish_expanded node/test_celu_expanded pytorch-converted/test_Softmin \
		    node/test_transpose_all_permutations_4; do
		infer_vs_ort "$name" "$data/$name/model.onnx" "$data/$name/test_data_set_0/input_0.pb"
	done
fi
finish
