#!/bin/sh
# onnx_ort_ops.sh - the ONNX operators the reader maps onto dmo's
# layout-free op specs, run by `dmo infer` and compared with ONNX Runtime
# (tests/ort/run.js) on the same input bytes:
#  - tests/onnx_net --qdq: Pad, Clip [0, 6], QuantizeLinear to int8, Pad
#    of the int8 tensor, whose output must equal ONNX Runtime's byte for
#    byte (its input puts values halfway between two quantisation steps,
#    where TFLite's rounding, away from zero, would differ from ONNX's, to
#    even);
#  - tests/onnx_net --ops: the same, then DequantizeLinear,
#    GlobalAveragePool, Flatten and MatMul by a constant, within
#    f32_close's tolerance; `dmo plan --verify` runs it bit for bit;
#  - ONNX's own single-op cases (libonnx-testdata, their stored inputs) of
#    Concat (bit for bit: it copies), ReduceMean and GlobalAveragePool
#    (within f32_close's tolerance).  Cases that feed as graph inputs what
#    dmo needs as constants (Pad's pads) are refused, named.
# Skipped (77) without node and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort

for mode in qdq ops; do
	onnx_net_runs $mode
done
cmp -s "$WORK/qdq.ort" "$WORK/qdq.dmo" && echo "ok: Pad, Clip, QuantizeLinear, Pad: int8 bytes equal ONNX Runtime's" ||
	fail "QuantizeLinear: $(cmp -l "$WORK/qdq.ort" "$WORK/qdq.dmo" | wc -l) bytes differ from ONNX Runtime's"
f32_close "Pad .. MatMul: dmo infer = ONNX Runtime" "$WORK/ops.ort" "$WORK/ops.dmo"
"$DMO" plan --verify "$WORK/ops.onnx" >"$WORK/plan.out" 2>&1
expect_eq "plan --verify of the ops model: exit status" 0 $?
grep -q "^verify: .*bit for bit" "$WORK/plan.out" && echo "ok: the overlapped arena runs bit for bit" ||
	fail "plan --verify: $(tail -3 "$WORK/plan.out")"

data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}/node
[ -d "$data" ] || { echo "no libonnx-testdata in $data: its cases not run"; finish; }

# One case per shape of each op (ONNX Runtime takes about half a second to
# start): concatenation along the first, middle, last and a negative axis;
# means over all, given and negative axes, with and without keepdims.
for name in test_concat_1d_axis_0 test_concat_2d_axis_negative_2 test_concat_3d_axis_0 \
	    test_concat_3d_axis_1 test_concat_3d_axis_2 test_concat_3d_axis_negative_3 \
	    test_reduce_mean_default_axes_keepdims_random test_reduce_mean_do_not_keepdims_random \
	    test_reduce_mean_keepdims_random test_reduce_mean_negative_axes_keepdims_random \
	    test_globalaveragepool test_globalaveragepool_precomputed; do
	ort_node_case "$data/$name" "$name"
	case $name in
	test_concat_*)
		cmp -s "$WORK/$name.ort" "$WORK/$name.dmo" && echo "ok: $name: the same bytes as ONNX Runtime" ||
			fail "$name: dmo's concatenation differs from ONNX Runtime's" ;;
	*) f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo" ;;
	esac
done

# Pad whose pads are a graph input, not a constant: no op spec, refused.
"$DMO" infer -q --zeros "$data/test_constant_pad/model.onnx" >/dev/null 2>"$WORK/pad.err"
expect_eq "Pad with pads an input: dmo infer exit status" 2 $?
grep -q "layer 1 '1_pad': operator Pad has no dmo kernel (node 1: " "$WORK/pad.err" &&
	echo "ok: the refusal names the node and its op" ||
	fail "Pad refusal: $(cat "$WORK/pad.err")"
finish
