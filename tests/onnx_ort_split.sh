#!/bin/sh
# onnx_ort_split.sh - ONNX's Split read as one slice layer per output, in
# output order (opspec/model_onnx.c's split_layers; docs/formulas.md 4.10),
# run by `dmo infer` and compared with ONNX Runtime (tests/ort/run.js) and
# with ONNX's expected outputs on the same input bytes, byte for byte (a
# split copies):
#  - ONNX's own node cases (libonnx-testdata) with `split` made a constant
#    (onnx_strip --constants): equal parts (1-D, 2-D along axis 1, default
#    axis) and variable parts; test_split_zero_size_splits (an empty part)
#    and test_split_variable_parts_2d as stored (`split` a graph input,
#    not a constant) are refused naming the node and why;
#  - tests/onnx_net --split, ShuffleNet v2's channel split of a Conv's 8
#    channels into 3 and 5 (axis -3, no value_info), then opset 18's
#    num_outputs 3 of 8 channels (3, 3 and the last 2), concatenated
#    swapped: within f32_close's tolerance of ONNX Runtime, the overlapped
#    arena gives the plain one's bytes, `dmo plan --verify` runs it bit for
#    bit with the second part overlapping the Conv's output whole (O_s =
#    OB = 720 bytes: 5 x 6 x 6 f32), and `dmo run --model` profiles its 9
#    layers under the tool with O_s exact = algorithmic = analytic.
# Skipped (77) without node and onnxruntime-node or without
# libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

for case in test_split_equal_parts_1d test_split_equal_parts_2d test_split_equal_parts_default_axis \
	    test_split_variable_parts_1d test_split_variable_parts_2d \
	    test_split_variable_parts_default_axis test_split_zero_size_splits; do
	dir=$data/node/$case
	with_constants "$dir" "$case"
	if [ $case = test_split_zero_size_splits ]; then
		refuse "$case" "Split has no dmo kernel (node 1: output 'output_1' is not a nonempty part" \
			"$DMO" infer -q --input "$WORK/$case.in" --output "$WORK/refused" "$WORK/$case.onnx"
		continue
	fi
	# shellcheck disable=SC2046
	$TENSOR_BYTES $(ls "$dir"/test_data_set_0/output_*.pb | sort) >"$WORK/$case.want"
	ort_and_dmo "$case" "$WORK/$case.onnx"
	cmp -s "$WORK/$case.ort" "$WORK/$case.dmo" && cmp -s "$WORK/$case.want" "$WORK/$case.dmo" &&
		echo "ok: $case: dmo infer = ONNX's expected outputs = ONNX Runtime, byte for byte" ||
		fail "$case: dmo infer's outputs differ from ONNX Runtime's or the expected ones"
	"$DMO" model "$WORK/$case.onnx" | grep -q " 2_split1  *Split .* slice:in=" &&
		echo "ok: $case: a slice layer per output" || fail "$case: $("$DMO" model "$WORK/$case.onnx" | grep Split)"
done
refuse "split sizes a graph input" "Split has no dmo kernel (node 1: its split sizes 'split' are not a constant)" \
	"$DMO" infer -q --input /dev/null --output "$WORK/refused" "$data/node/test_split_variable_parts_2d/model.onnx"

onnx_net_runs split
f32_close "--split: dmo infer = ONNX Runtime" "$WORK/split.ort" "$WORK/split.dmo"
plain_arena_same split "$WORK/split.onnx" "$WORK/split.in" "$WORK/split.dmo"
plan_verify_bits "--split" "$WORK/split.onnx"
grep -q "^    3  3_split1  *slice  *720 .* 720 *720$" "$WORK/plan.out" &&
	echo "ok: --split: the second part planned with O_s = OB = 720" || fail "--split: $(grep 3_split1 "$WORK/plan.out")"
"$DMO" model "$WORK/split.onnx" | grep -q " 8_split2  *Split .* slice:in=1x8x6x6,before=0x6x0x0,after=0x0x0x0," &&
	echo "ok: --split: num_outputs 3 of 8 leaves the last part 2" || fail "--split: $("$DMO" model "$WORK/split.onnx" | grep 8_split2)"
run_model_analyzed "--split" "$WORK/split.onnx" 9
finish
