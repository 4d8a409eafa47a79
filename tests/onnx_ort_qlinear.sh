#!/bin/sh
# onnx_ort_qlinear.sh - ONNX's QOperator integer ops (QLinearConv, plain
# and depthwise, per-channel and per-tensor weight scales, and
# QLinearMatMul) run by `dmo infer` on the NCHW integer kernels and
# compared with ONNX Runtime (tests/ort/run.js) byte for byte:
#  - tests/onnx_net --qlinear (uint8 activations, int8 weights, as ONNX
#    Runtime's quantiser writes them; a dilated conv with per-channel
#    scales, a strided depthwise one with a weight zero point, two images)
#    and --qlinear-i8 (int8 activations), their depthwise output and final
#    output compared;
#    each also plans and verifies (`plan --verify`, real weights) and runs
#    under the tool (`run --model`, every layer's status ok);
#  - ONNX's own node cases test_qlinearconv and test_qlinearmatmul_2D
#    (libonnx-testdata), their weights and quantisation made initializers
#    (onnx_strip --constants): dmo infer gives ONNX's expected output and
#    ONNX Runtime's; test_qlinearmatmul_3D (a batched B) is refused, named.
# Skipped (77) without node and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort

for mode in qlinear qlinear-i8; do
	onnx_net_runs $mode
	ort_bytes_equal $mode "the 348 output bytes (the depthwise output and y)" 16
	plan_verify_bits "--$mode" "$WORK/$mode.onnx"
	grep -q "^layout: *NCHW integers: O_s of 2 conv layers in the order of ONNX Runtime's QLinearConv" \
		"$WORK/plan.out" && echo "ok: --$mode: the plan names the integer loop order" ||
		fail "--$mode: layout line: $(grep layout "$WORK/plan.out")"
	"$DMO" run --model "$WORK/$mode.onnx" --out "$WORK/run-$mode" >"$WORK/run.out" 2>&1
	expect_eq "--$mode: run --model exit status" 0 $?
	expect_eq "--$mode: layers profiled with status ok" 4 "$(grep -c " ok$" "$WORK/run.out")"
done
# The first QLinearConv (two images of 300 input and 600 output bytes)
# reads each input image before writing its output image: O_s = min(IB,
# OB) = 600 (formulas.md 3.7).
grep -Eq "^ *1 +1_qlinearconv +conv2d +600 +1200 +[0-9]+ +600 .* ok$" "$WORK/run.out" &&
	echo "ok: the tool measures O_s 600 for the first QLinearConv" ||
	fail "first QLinearConv: $(grep 1_qlinearconv "$WORK/run.out")"

# Without value_info (onnx_strip) the shapes come from dmo's inference of
# QLinearConv and QLinearMatMul: the same plan and the same output bytes.
stripped_same qlinear

data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}/node
[ -d "$data" ] || { echo "no libonnx-testdata in $data: its cases not run"; finish; }
passed=0
for case in qlinearconv qlinearmatmul_2D; do
	ort_constants_case "$data/test_$case" "$case" && passed=$((passed + 1))
done
expect_eq "QLinear node cases that pass" 2 "$passed"
# As stored, the case feeds W and the quantisation as graph inputs: dmo
# infer needs them constant and says so.
expect_refusal "QLinearConv with W a graph input" 2 "W must be a constant 4-D int8 or uint8 tensor" \
	"$DMO" infer -q --input "$WORK/qlinearconv.in" --output "$WORK/refused.out" "$data/test_qlinearconv/model.onnx"
dir="$data/test_qlinearmatmul_3D"
"$top_builddir/tests/onnx_strip" --constants "$dir" "$dir/model.onnx" "$WORK/3d.onnx"
"$DMO" model "$WORK/3d.onnx" >"$WORK/3d.out" 2>&1
grep -q "^no overlap: op QLinearMatMul, not A \[..., M, K\] times a constant B \[K, N\]" "$WORK/3d.out" &&
	echo "ok: a batched B is planned without overlap, named" || fail "3D: $(head -3 "$WORK/3d.out")"
finish
