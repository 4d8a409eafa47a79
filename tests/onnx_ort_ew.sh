#!/bin/sh
# onnx_ort_ew.sh - ONNX's element-wise operators dmo maps onto its f32
# kernels of kernels_onnx_ew.c, run by `dmo infer` and compared with ONNX
# Runtime (tests/ort/run.js) on the same input bytes, within f32_close's
# tolerance: ONNX's own single-op cases (libonnx-testdata, their stored
# inputs) of Sub, Div, Add and Mul with a broadcast operand, HardSigmoid,
# HardSwish and Clip, then `dmo plan --verify` of the broadcasting ones;
# and tests/onnx_net --ew, a chain of all of them with BatchNormalization
# (ONNX's own BatchNormalization cases give its constants as graph inputs,
# which dmo refuses, and PyTorch's are opset 6, which ONNX Runtime does
# not run), whose overlapped arena (dmo infer's default) also gives the
# plain arena's bytes, and which `dmo run --model` profiles under the tool
# with O_s exact = algorithmic = analytic.  Skipped (77) without node and
# onnxruntime-node or without libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

for case in node/test_sub_bcast node/test_div_bcast node/test_add_bcast node/test_mul_bcast \
	    node/test_sub_example node/test_hardsigmoid node/test_hardsigmoid_default \
	    node/test_hardswish node/test_clip_default_inbounds pytorch-operator/test_operator_clip; do
	name=${case#*/}
	ort_node_case "$data/$case" "$name"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
done
for name in test_sub_bcast test_div_bcast; do
	plan_verify_bits "$name" "$data/node/$name/model.onnx"
done

"$top_builddir/tests/onnx_net" --ew "$WORK/ew.onnx" "$WORK/ew.in"
expect_eq "onnx_net --ew writes the model" 0 $?
$ORT "$WORK/ew.onnx" "$WORK/ew.in" "$WORK/ew.ort" 2>/dev/null
expect_eq "--ew: ONNX Runtime exit status" 0 $?
for arena in overlap plain; do
	"$DMO" infer -q --arena $arena --input "$WORK/ew.in" --output "$WORK/ew.$arena" "$WORK/ew.onnx" \
		>/dev/null 2>"$WORK/ew.err"
	expect_eq "--ew: dmo infer --arena $arena exit status" 0 $? || cat "$WORK/ew.err"
done
f32_close "BatchNormalization .. Add: dmo infer = ONNX Runtime" "$WORK/ew.ort" "$WORK/ew.overlap"
cmp -s "$WORK/ew.overlap" "$WORK/ew.plain" && echo "ok: --ew: the overlapped arena gives the plain one's bytes" ||
	fail "--ew: the overlapped arena's output differs from the plain one's"
"$DMO" model "$WORK/ew.onnx" >"$WORK/ew.model" 2>&1
expect_eq "--ew: layers with an op spec" 11 "$(grep -c "^ *[0-9][0-9]* .*:in=.*,dtype=f32$" "$WORK/ew.model")"
# Div(g 1x4x1x1, h 1x4x6x6) and Mul(g, q): h and q (tensors 18 and 19)
# come first, the profiled input; Sub(row, m): m (14) first.
for row in "    4  4_sub  *Sub  *none   14;5 .* sub:in=1x4x6x6" "    9  9_div  *Div  *none   18;21 .* div:in=1x4x6x6" \
	   "   10  10_mul  *Mul  *none   19;21 .* mul:in=1x4x6x6"; do
	grep -q "^$row,dtype=f32$" "$WORK/ew.model" && echo "ok: commuted: $row" || fail "not commuted: $row"
done
run_model_analyzed "--ew" "$WORK/ew.onnx" 11
finish
