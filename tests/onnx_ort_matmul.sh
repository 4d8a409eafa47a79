#!/bin/sh
# onnx_ort_matmul.sh - ONNX's MatMul of two activations (matmul op spec,
# kernels_matmul.c) run by `dmo infer` and compared with ONNX Runtime
# (tests/ort/run.js, MLAS's SGEMM) on the same input bytes within
# f32_close's tolerance: ONNX's own node cases test_matmul_2d, _3d and _4d
# (A and B both graph inputs, their stored values), each also through `dmo
# plan --verify` (B a second operand, never overlapped); then tests/onnx_net
# --matmul, a CNN with a batched and a 2-D MatMul of two activations:
# against ONNX Runtime, the overlapped arena = the plain one, plan --verify
# bit for bit with its real weights, `dmo run --model` under the tool with
# exact = algorithmic = analytic on every layer, and the plan's matmul O_s
# those of docs/formulas.md 4.11 by hand; and --matmul-bcast, whose batch
# dims broadcast, refused naming the node.  Skipped (77) without node and
# onnxruntime-node or without libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

for name in test_matmul_2d test_matmul_3d test_matmul_4d; do
	ort_node_case "$data/node/$name" "$name"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
	plan_verify_bits "$name" "$data/node/$name/model.onnx"
done
# test_matmul_4d: A 1x2x3x4, B 1x2x4x3: R = 6 rows, K = 4 >= N = 3, so
# O_s = OB - 4 (N - 1) = 72 - 8 = 64 (4.11).
"$DMO" plan "$data/node/test_matmul_4d/model.onnx" >"$WORK/plan4d.out" 2>&1
expect_eq "test_matmul_4d: matmul O_s" 64 \
	"$(awk '$3 == "matmul" { print $9 }' "$WORK/plan4d.out")"

onnx_net_runs matmul
# FLOOR 1: y's values reach about 23, each a sum of 6 products of terms
# about 1 (conv outputs) that can cancel to near 0, where MLAS's blocked
# FMA order and dmo's k-ascending sum differ by a few 1e-6 absolute.
f32_close "--matmul: dmo infer = ONNX Runtime" "$WORK/matmul.ort" "$WORK/matmul.dmo" 1
plain_arena_same matmul "$WORK/matmul.onnx" "$WORK/matmul.in" "$WORK/matmul.dmo"
plan_verify_bits "--matmul" "$WORK/matmul.onnx"
# Both MatMuls: the batched 4 x (6x6 times 6x6), R = 24, K = N = 6:
# 576 - 4 x 5 = 556; the 2-D 24x6 times 6x24, K < N: 2304 - 4 (23 x 18 +
# 23) = 556.
"$DMO" plan "$WORK/matmul.onnx" >"$WORK/plan.out" 2>&1
expect_eq "--matmul: the two matmul O_s" "556 556" \
	"$(awk '$3 == "matmul" { printf "%s%s", sep, $9; sep = " " }' "$WORK/plan.out")"
# B is never overlapped: the second MatMul's B (e, layer 8's output) and
# its output share no byte.
awk '$3 == "matmul" && $1 == 9 { o = $6; ob = $4 } $1 == 8 { e = $6; eb = $4 }
	END { exit !(e >= o + ob || o >= e + eb) }' "$WORK/plan.out" &&
	echo "ok: --matmul: B and the output share no byte" ||
	fail "--matmul: B overlaps the output: $(cat "$WORK/plan.out")"
run_model_analyzed "--matmul" "$WORK/matmul.onnx" 9

# A batch dim that broadcasts (s 4x6x6 times e 6x24) is refused, named:
# planned without overlap, and dmo infer exits 2 naming the node.
"$top_builddir/tests/onnx_net" --matmul-bcast "$WORK/bcast.onnx" "$WORK/bcast.in"
expect_eq "onnx_net --matmul-bcast writes the model" 0 $?
"$DMO" plan "$WORK/bcast.onnx" >"$WORK/bcast.plan" 2>&1
expect_eq "--matmul-bcast: dmo plan exit status" 0 $?
grep -q "^no overlap: op MatMul, MatMul of two activations that are not A \[..., M, K\] and B \[..., K, N\] with equal batch dims (dmo broadcasts none) (layer 9_matmul)$" \
	"$WORK/bcast.plan" && echo "ok: a broadcast MatMul plans without overlap, named" ||
	fail "--matmul-bcast: $(cat "$WORK/bcast.plan")"
refuse "--matmul-bcast: dmo infer" "layer 9 '9_matmul'.*node 9: MatMul of two activations" \
	"$DMO" infer -q --input "$WORK/bcast.in" --output "$WORK/bcast.dmo" "$WORK/bcast.onnx"
finish
