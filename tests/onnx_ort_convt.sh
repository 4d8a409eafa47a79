#!/bin/sh
# onnx_ort_convt.sh - ONNX's ConvTranspose, mapped onto dmo's convt
# (kernels_convt.c), run by `dmo infer` and compared with ONNX Runtime
# (tests/ort/run.js) on the same input bytes within f32_close's tolerance:
# ONNX's own node case test_convtranspose (libonnx-testdata, its stored
# inputs, the weights a graph input) and tests/onnx_net --convt, two
# layers with constant weights (2x2 stride 2 as in PaddleOCR's detector,
# then 3x3 stride 2 whose windows overlap) over two images, whose
# overlapped arena gives the plain arena's bytes, which `dmo plan --verify`
# runs bit for bit, and which `dmo run --model` profiles under the tool
# with O_s exact = algorithmic = analytic.  The node cases outside dmo's
# family (padding, output_shape, dilation, 1-D, 3-D) are refused naming
# the node and the reason.  Skipped (77) without node and onnxruntime-node
# or without libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

ort_node_case "$data/node/test_convtranspose" test_convtranspose
f32_close "test_convtranspose: dmo infer = ONNX Runtime" "$WORK/test_convtranspose.ort" \
	"$WORK/test_convtranspose.dmo"

onnx_net_runs convt
f32_close "--convt: dmo infer = ONNX Runtime" "$WORK/convt.ort" "$WORK/convt.dmo"
plain_arena_same "--convt" "$WORK/convt.onnx" "$WORK/convt.in" "$WORK/convt.dmo"
plan_verify_bits "--convt" "$WORK/convt.onnx"
grep -q "^layout: *NCHW ConvTranspose: O_s of 2 convt layers in the order of ONNX Runtime's ConvTranspose" \
	"$WORK/plan.out" && echo "ok: --convt: the plan header names the loop order" ||
	fail "--convt: $(grep '^layout' "$WORK/plan.out")"
# Image at a time (docs/formulas.md 3.8): O_s = min(IB, OB) = IB, the
# input, 4*2*4*5*6 = 960 and 4*2*3*10*12 = 2880 bytes.
for row in "    1  1_convtranspose    convt .* 960 *960" "    3  3_convtranspose    convt .* 2880 *2880"; do
	grep -q "^$row$" "$WORK/plan.out" && echo "ok: planned: $row" || fail "not planned: $row"
done
run_model_analyzed "--convt" "$WORK/convt.onnx" 3

for case in autopad_same:"auto_pad" dilations:"dilated" output_shape:"output_shape" pads:"pads" \
	    1d:"not a 2-D" 3d:"not a 2-D"; do
	name=test_convtranspose_${case%%:*}
	"$DMO" infer -q --input /dev/null --output "$WORK/refused" "$data/node/$name/model.onnx" \
		>/dev/null 2>"$WORK/refused.err"
	expect_eq "$name: dmo infer exit status" 2 $?
	grep -q "ConvTranspose has no dmo kernel (node 1: .*${case#*:}" "$WORK/refused.err" &&
		echo "ok: $name: refused naming the node and why" || fail "$name: $(cat "$WORK/refused.err")"
done
finish
