#!/bin/sh
# onnx_ort_ops.sh - the ONNX operators the reader maps onto dmo's
# layout-free op specs (Concat, ReduceMean, GlobalAveragePool), run by
# `dmo infer` on ONNX's own single-op cases (libonnx-testdata, their stored
# inputs) and compared with ONNX Runtime (tests/ort/run.js) on the same
# bytes: within f32_close's tolerance (a concatenation copies, so it must
# match bit for bit).  Cases whose operands dmo needs as constants but the
# case feeds as graph inputs (Pad's pads) are refused with a message naming
# them.  Skipped (77) without node and onnxruntime-node or the test data.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}/node
[ -d "$data" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

# One case per shape of each op (ONNX Runtime takes about half a second to
# start): concatenation along the first, middle, last and a negative axis;
# means over all, given and negative axes, with and without keepdims.
for name in test_concat_1d_axis_0 test_concat_2d_axis_negative_2 test_concat_3d_axis_0 \
	    test_concat_3d_axis_1 test_concat_3d_axis_2 test_concat_3d_axis_negative_3 \
	    test_reduce_mean_default_axes_keepdims_random test_reduce_mean_do_not_keepdims_random \
	    test_reduce_mean_keepdims_random test_reduce_mean_negative_axes_keepdims_random \
	    test_globalaveragepool test_globalaveragepool_precomputed; do
	d="$data/$name"
	# shellcheck disable=SC2086
	$TENSOR_BYTES $(ls "$d"/test_data_set_0/input_*.pb | sort) >"$WORK/$name.in"
	$ORT "$d/model.onnx" "$WORK/$name.in" "$WORK/$name.ort" 2>/dev/null
	expect_eq "$name: ONNX Runtime exit status" 0 $?
	"$DMO" infer -q --input "$WORK/$name.in" --output "$WORK/$name.dmo" "$d/model.onnx" \
		>/dev/null 2>"$WORK/$name.err"
	expect_eq "$name: dmo infer exit status" 0 $? || cat "$WORK/$name.err"
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
grep -q "'pads'" "$WORK/pad.err" && echo "ok: the refusal names the pads" ||
	fail "Pad refusal: $(cat "$WORK/pad.err")"
finish
