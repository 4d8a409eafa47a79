#!/bin/sh
# onnx_ort_slice.sh - ONNX's Slice of an activation (constant starts, ends,
# axes and steps, negative ones too) and Gather of consecutive constant indices, mapped onto
# dmo's slice (kernels_layout.c's dk_slice), run
# by `dmo infer` and compared with ONNX Runtime (tests/ort/run.js) on the
# same input bytes, byte for byte (a slice copies):
#  - ONNX's own node cases (libonnx-testdata) with their starts, ends, axes
#    and steps made initializers (onnx_strip --constants: the cases give
#    them as graph inputs): default axes and steps, negative starts,
#    axes and steps (test_slice_neg_steps: steps -1, -3, -1), ends past
#    the end;
#  - test_slice's overlapped arena gives the plain arena's bytes, `dmo plan
#    --verify` runs it bit for bit with O_s = OB (docs/formulas.md 4.10:
#    20x10x5 f32 sliced to 3x10x5, 600 bytes), and `dmo run --model`
#    profiles it under the tool with O_s exact = algorithmic = analytic;
#  - an empty slice is refused naming the node;
#  - Gather of a constant scalar index (PyTorch's x[:, 2]) or consecutive
#    indices, read as the slice of that box: the first four models of
#    tests/onnx_random_net (seeds from 1 on) that hold a Gather and no
#    variant dmo may refuse, and more until one holds a scalar index, within
#    f32_close's tolerance of ONNX Runtime (byte for byte for an int8
#    output), plan --verify bit for bit (other indices: gather,
#    tests/onnx_ort_forms.sh).
# Skipped (77) without node and onnxruntime-node or without
# libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

for case in test_slice test_slice_default_axes test_slice_default_steps test_slice_end_out_of_bounds \
	    test_slice_neg test_slice_negative_axes test_slice_neg_steps test_slice_start_out_of_bounds; do
	dir=$data/node/$case
	"$top_builddir/tests/onnx_strip" --constants "$dir" "$dir/model.onnx" "$WORK/$case.onnx"
	expect_eq "$case: onnx_strip --constants" 0 $?
	$TENSOR_BYTES "$dir/test_data_set_0/input_0.pb" >"$WORK/$case.in"
	case $case in
	test_slice_start_out_of_bounds)
		refuse "$case" "Slice has no dmo kernel (node 1: an empty slice" \
			"$DMO" infer -q --input "$WORK/$case.in" --output "$WORK/refused" "$WORK/$case.onnx"
		continue ;;
	esac
	ort_and_dmo "$case" "$WORK/$case.onnx"
	cmp -s "$WORK/$case.ort" "$WORK/$case.dmo" && echo "ok: $case: dmo infer = ONNX Runtime byte for byte" ||
		fail "$case: dmo infer's output differs from ONNX Runtime's"
done

plain_arena_same test_slice "$WORK/test_slice.onnx" "$WORK/test_slice.in" "$WORK/test_slice.dmo"
plan_verify_bits test_slice "$WORK/test_slice.onnx"
grep -q "^    1  1_slice  *slice  *600 .* 600 *600$" "$WORK/plan.out" &&
	echo "ok: test_slice: planned with O_s = OB = 600" || fail "test_slice: $(grep 1_slice "$WORK/plan.out")"
run_model_analyzed test_slice "$WORK/test_slice.onnx" 1

seed=0 found=0 scalar=0
while { [ $found -lt 4 ] || [ $scalar -lt 1 ]; } && [ $seed -lt 1000 ]; do
	seed=$((seed + 1))
	desc=$("$top_builddir/tests/onnx_random_net" "$seed" "$WORK/g.onnx" "$WORK/g.in")
	case $desc in *exotic) continue ;; *"Gather(axis"*) ;; *) continue ;; esac
	found=$((found + 1))
	case $desc in *"Gather(axis "?", index "*) scalar=$((scalar + 1)) ;; esac
	echo "seed $seed: $desc"
	ort_and_dmo g "$WORK/g.onnx"
	case $desc in
	*"-> int8"*) cmp -s "$WORK/g.ort" "$WORK/g.dmo" &&
		echo "ok: seed $seed: int8 output equals ONNX Runtime's byte for byte" ||
		fail "seed $seed: int8 output differs from ONNX Runtime's" ;;
	*) f32_close "seed $seed: dmo infer = ONNX Runtime" "$WORK/g.ort" "$WORK/g.dmo" 1 ;;
	esac
	"$DMO" model "$WORK/g.onnx" | grep -q "Gather .* slice:in=" &&
		echo "ok: seed $seed: the Gather is a slice" || fail "seed $seed: $("$DMO" model "$WORK/g.onnx" | grep Gather)"
	plan_verify_bits "seed $seed" "$WORK/g.onnx"
done
[ $found -ge 4 ] && echo "ok: $found random models with a Gather" || fail "$found random models with a Gather"
[ $scalar -ge 1 ] && echo "ok: $scalar of them a scalar index" || fail "no scalar index among them"
finish
