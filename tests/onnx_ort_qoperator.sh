#!/bin/sh
# onnx_ort_qoperator.sh - ONNX Runtime's QOperator format (quantize_static
# with QuantFormat.QOperator): the com.microsoft domain's QLinearAdd,
# QLinearMul, QLinearGlobalAveragePool, QLinearAveragePool, QLinearConcat
# (kernels_qlinear.c) and QGemm (as QLinearMatMul) beside ONNX's QLinearConv,
# run by `dmo infer`
# and compared with ONNX Runtime (tests/ort/run.js) byte for byte:
#  - tests/onnx_net --qoperator-pairs and -pairs-i8: QLinearAdd and
#    QLinearMul over all 65536 pairs of 8-bit values, B broadcasting, and
#    a QLinearGlobalAveragePool of the products, at scales where a plain
#    float formula rounds 6 sums and 19 products otherwise (docs/kernels.md,
#    "QOperator ops"): all 131328 output bytes equal;
#  - --qoperator and --qoperator-i8, a small CNN as the quantiser writes
#    it (QuantizeLinear, QLinearConv, QLinearAdd residual,
#    QLinearGlobalAveragePool, QLinearMul by a per-channel B, again the
#    pool, QGemm, DequantizeLinear): its uint8 (int8) output s and
#    its float output y equal ONNX Runtime's; plan --verify with the real
#    weights bit for bit; the plan's O_s those of docs/formulas.md 4.12
#    (qlinearadd and qlinearmul the whole 288-byte buffer, qlinearmean its
#    8-byte output); run --model of the uint8 one under the tool, every
#    layer exact = algorithmic = analytic; stripped of value_info, the
#    same bytes;
#  - --qoperator-pool: QLinearAveragePool with a padded window, the whole
#    plane (ONNX Runtime's global pool) and SAME_UPPER: 336 bytes equal,
#    plan --verify, the plan's O_s;
#  - --qoperator-concat: QLinearConcat of three inputs (two requantised,
#    one copied): 360 bytes equal, plan --verify;
#  - --qoperator-bcast-a (QLinearMul's A broadcasting) is refused, exit 2,
#    naming the node and why.
# Skipped (77) without node and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort

for mode in qoperator-pairs qoperator-pairs-i8; do
	onnx_net_runs $mode
	ort_bytes_equal $mode "the 131328 output bytes (sums, products, plane means)" 100
done

# QLinearAveragePool three ways (a padded 3x3 window, the whole plane,
# SAME_UPPER 2x3): 336 bytes; its O_s min(IB, OB), the input read first
# (formulas.md 4.12), the whole-plane one the global pool's OB.
onnx_net_runs qoperator-pool
ort_bytes_equal qoperator-pool "the 336 output bytes" 16
plan_verify_bits "--qoperator-pool" "$WORK/qoperator-pool.onnx"
expect_eq "--qoperator-pool: plan O_s of the three pools" "120 6 210" \
	"$(awk '$3 ~ /^qlinear/ { printf "%s%s", sep, $9; sep = " " }' "$WORK/plan.out")"

# QLinearConcat of three inputs, two requantised by ONNX Runtime's lookup
# table, one copied: 360 bytes.
onnx_net_runs qoperator-concat
ort_bytes_equal qoperator-concat "the 360 output bytes" 16
plan_verify_bits "--qoperator-concat" "$WORK/qoperator-concat.onnx"

for mode in qoperator qoperator-i8; do
	onnx_net_runs $mode
	cmp -s "$WORK/$mode.ort" "$WORK/$mode.dmo" &&
		echo "ok: --$mode: s (288 bytes) and y (10 floats) equal ONNX Runtime's" ||
		fail "--$mode: $(cmp -l "$WORK/$mode.ort" "$WORK/$mode.dmo" | wc -l) bytes differ"
	plan_verify_bits "--$mode" "$WORK/$mode.onnx"
done
run_model_analyzed "--qoperator" "$WORK/qoperator.onnx" 9
# formulas.md 4.12: element-wise in flat order with one element size, every
# term m(t) - t = 0: O_s = OB = 288 (2 x 4 x 6 x 6 bytes); the pool's
# output fits at the start of its input: O_s = OB = 8.
"$DMO" plan "$WORK/qoperator.onnx" >"$WORK/plan.out" 2>&1
expect_eq "plan O_s of qlinearadd, qlinearmul, qlinearmean (twice)" "288 8 288 8" \
	"$(awk '$3 ~ /^qlinear/ { printf "%s%s", sep, $9; sep = " " }' "$WORK/plan.out")"
grep -q "^layout: *NCHW QOperator: O_s of 4 layers in the order of ONNX Runtime's com.microsoft" \
	"$WORK/plan.out" && echo "ok: the plan names the QOperator layers' loop order" ||
	fail "layout lines: $(grep layout "$WORK/plan.out")"

# Without value_info the shapes come from dmo's rules for the com.microsoft
# ops: the same output bytes.
stripped_same qoperator

"$top_builddir/tests/onnx_net" --qoperator-bcast-a "$WORK/bcast.onnx" "$WORK/bcast.in"
refuse "QLinearMul with A broadcasting" \
	"layer 5 '5_qlinearmul': operator com.microsoft:QLinearMul has no dmo kernel (node 5: A does not have the output's shape" \
	"$DMO" infer -q --input "$WORK/bcast.in" --output "$WORK/bcast.out" "$WORK/bcast.onnx"
finish
