#!/bin/sh
# onnx_ort_resize.sh - ONNX's nearest Resize and Upsample, mapped onto the
# resize op spec (dk_resize_nearest), run by `dmo infer` and compared with
# ONNX Runtime (tests/ort/run.js) on the same input bytes.  ONNX's own
# node cases (libonnx-testdata) give the scales as a graph input: onnx_strip
# --constants makes them the initializer exporters write; nearest resize
# copies elements, so the outputs must be equal byte for byte.  The cases
# dmo does not map are refused naming the node and why.  Then tests/onnx_net
# --resize (Conv, Resize asymmetric/floor by scales, Relu, Resize with
# ONNX's default modes by sizes): dmo infer = ONNX Runtime within f32_close
# (the Conv's sums), the overlapped arena = the plain one, `dmo plan
# --verify` bit for bit, and `dmo run --model` under the tool.  Skipped (77) without node and onnxruntime-node or
# without libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

# scales 1,1,2,3 under half_pixel/round_prefer_floor (Resize, opset 13) and
# Upsample's fixed floor (opset 9).
for name in test_resize_upsample_scales_nearest test_upsample_nearest; do
	with_constants "$data/node/$name" "$name"
	ort_and_dmo "$name" "$WORK/$name.onnx"
	cmp -s "$WORK/$name.ort" "$WORK/$name.dmo" && echo "ok: $name: dmo infer = ONNX Runtime byte for byte" ||
		fail "$name: dmo infer's output differs from ONNX Runtime's"
done

# Not mapped: a downsample, sizes 7x8 of 2x2 (no integer factor), and
# half_pixel with nearest_mode ceil (not floor(o / s)).
for case in "test_resize_downsample_scales_nearest:not an upsample of H and W by integer factors" \
	    "test_resize_upsample_sizes_nearest:not an upsample of H and W by integer factors" \
	    "test_resize_upsample_sizes_nearest_ceil_half_pixel:coordinate_transformation_mode and nearest_mode other than"; do
	name=${case%%:*}
	with_constants "$data/node/$name" "$name"
	expect_refusal "$name" 2 "layer 1 '1_resize': operator Resize has no dmo kernel (node 1: ${case#*:}" \
		"$DMO" infer -q --input "$WORK/$name.in" "$WORK/$name.onnx"
done

onnx_net_runs resize
f32_close "Conv, Resize, Relu, Resize: dmo infer = ONNX Runtime" "$WORK/resize.ort" "$WORK/resize.dmo"
plain_arena_same resize "$WORK/resize.onnx" "$WORK/resize.in" "$WORK/resize.dmo"
"$DMO" model "$WORK/resize.onnx" >"$WORK/resize.model" 2>&1
for spec in "resize:in=1x6x6x4,scale=2x2,dtype=f32" "resize:in=1x12x12x4,scale=2x3,dtype=f32"; do
	grep -q " $spec$" "$WORK/resize.model" && echo "ok: --resize maps $spec" ||
		fail "--resize: no layer $spec: $(cat "$WORK/resize.model")"
done
"$DMO" plan --verify "$WORK/resize.onnx" >"$WORK/plan.out" 2>&1
expect_eq "--resize: plan --verify exit status" 0 $?
grep -q "^verify: .* with the model's real weights .*bit for bit" "$WORK/plan.out" &&
	echo "ok: --resize: the overlapped arena runs bit for bit with its real weights" ||
	fail "--resize: $(grep -E '^(verify|dmo)' "$WORK/plan.out")"
# Every node profiled under the tool: the two Resize layers' measured O_s
# equal the algorithmic and analytic ones (their IB, formulas.md 4.6).
"$DMO" run -q --out "$WORK/run" --model "$WORK/resize.onnx" >/dev/null 2>&1
expect_eq "--resize: dmo run --model exit status" 0 $?
"$DMO" analyze "$WORK/run" >"$WORK/analyze.out" 2>&1
expect_eq "--resize: dmo analyze exit status" 0 $?
expect_eq "--resize: layers with verdict ok" 4 "$(grep -c " ok$" "$WORK/analyze.out")"
expect_eq "--resize: the resize layers' O_s (tool = algorithmic = analytic = IB)" "576 576 576 2304 2304 2304" \
	"$(awk '$2 ~ /_resize$/ { printf "%s%s %s %s", sep, $4, $6, $7; sep = " " }' "$WORK/analyze.out")"
finish
