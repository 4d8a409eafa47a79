#!/bin/sh
# onnx_ort_qdq.sh - ONNX's QDQ form as ONNX Runtime's quantiser
# (quantize_static, QuantFormat.QDQ) writes it, run by `dmo infer` and
# compared with ONNX Runtime (tests/ort/run.js) byte for byte:
#  - tests/onnx_net --qdq-u8 (uint8 activations, int8 weights and int32
#    biases with one scale each), --qdq-perchannel (per_channel=True: the
#    weights' and biases' DequantizeLinear with a scale per output channel,
#    axis 0) and --qdq-i8 (the same with int8 activations): Q/DQ pairs
#    around Conv, Relu, Conv, Add, MaxPool, Flatten and Gemm; their outputs
#    (MaxPool's and Gemm's quantised bytes) equal ONNX Runtime's as the
#    graph states them (--opt=disabled: each node its own kernel, as dmo
#    runs them) and, within one quantisation step, ONNX Runtime's default
#    (--opt=all), which fuses them into integer kernels (QLinearConv,
#    QLinearAdd, QGemm: docs/models.md); each plans and verifies with its
#    real weights (`plan --verify`) and runs under the tool (`run
#    --model`, every layer with an op spec ok); stripped of value_info,
#    the same bytes;
#  - ONNX's own node cases test_quantizelinear, test_quantizelinear_axis,
#    test_dequantizelinear and test_dequantizelinear_axis (uint8, per
#    tensor and per channel; libonnx-testdata), their scales and zero
#    points made initializers (onnx_strip --constants): dmo infer gives
#    ONNX's expected output and ONNX Runtime's.
# Skipped (77) without node and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort

for mode in qdq-u8 qdq-perchannel qdq-i8; do
	onnx_net_runs $mode
	ort_bytes_equal $mode "the 106 output bytes (MaxPool's and Gemm's)" 24
	# ONNX Runtime's default level: integer kernels, the same values up
	# to one step where a float result lies at a rounding tie.
	$ORT --opt=all "$WORK/$mode.onnx" "$WORK/$mode.in" "$WORK/$mode.all" 2>/dev/null
	expect_eq "--$mode: ONNX Runtime --opt=all exit status" 0 $?
	type=u1
	[ $mode = qdq-i8 ] && type=d1
	od -An -v -t$type "$WORK/$mode.all" | tr -s ' ' '\n' | sed '/^$/d' >"$WORK/all.txt"
	od -An -v -t$type "$WORK/$mode.dmo" | tr -s ' ' '\n' | sed '/^$/d' >"$WORK/dmo.txt"
	paste "$WORK/all.txt" "$WORK/dmo.txt" | awk -v what="--$mode" '
		{ d = $1 - $2; if (d < 0) d = -d; if (d > worst) worst = d; if (d) n++ }
		END { if (NR != 106 || worst > 1) { printf "FAIL: %s: %d values, worst difference %d steps\n", what, NR, worst; exit 1 }
		      printf "ok: %s: within one step of ONNX Runtime --opt=all (%d of %d bytes differ)\n", what, n, NR }' ||
		failures=$((failures + 1))
	plan_verify_bits "--$mode" "$WORK/$mode.onnx"
	# The DequantizeLinear of constants (3 weights, 2 biases) run in
	# dmo infer but have no op spec: their input is in no arena.
	expect_eq "--$mode: DequantizeLinear of a constant, planned without overlap" 5 \
		"$(grep -c "^no overlap: op DequantizeLinear, input '[wb][12g]' is a constant" "$WORK/plan.out")"
	run_model_analyzed "--$mode" "$WORK/$mode.onnx" 22
	# The quantize and dequantize layers profiled: f32 -> u8 or i8 (768
	# -> 192 bytes) and back (192 -> 768) share min(IB, OB) = 192 bytes,
	# as the tool measures (exact) and formulas.md 4.1 derives.
	grep -Eq "^ *1 +1_quantizelinear +192 +192 +- +192 +192 .* ok$" "$WORK/analyze.out" &&
		grep -Eq "^ *2 +2_dequantizelinear +768 +192 +- +192 +192 .* ok$" "$WORK/analyze.out" &&
		echo "ok: --$mode: the tool measures O_s 192 for QuantizeLinear and DequantizeLinear" ||
		fail "--$mode: Q/DQ O_s: $(grep -E "1_quantizelinear|2_dequantizelinear" "$WORK/analyze.out")"
	"$top_builddir/tests/onnx_strip" "$WORK/$mode.onnx" "$WORK/stripped.onnx"
	"$DMO" infer -q --input "$WORK/$mode.in" --output "$WORK/stripped.dmo" "$WORK/stripped.onnx" >/dev/null 2>&1
	expect_eq "stripped --$mode: dmo infer exit status" 0 $?
	cmp -s "$WORK/$mode.ort" "$WORK/stripped.dmo" && echo "ok: stripped of value_info, the same output" ||
		fail "stripped --$mode: the output differs"
done
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}/node
[ -d "$data" ] || { echo "no libonnx-testdata in $data: its cases not run"; finish; }
passed=0
for case in quantizelinear quantizelinear_axis dequantizelinear dequantizelinear_axis; do
	ort_constants_case "$data/test_$case" "$case" && passed=$((passed + 1))
done
expect_eq "Q/DQ node cases that pass" 4 "$passed"
finish
