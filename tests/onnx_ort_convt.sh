#!/bin/sh
# onnx_ort_convt.sh - ONNX's ConvTranspose, mapped onto dmo's convt
# (kernels_convt.c), run by `dmo infer` and compared with ONNX Runtime
# (tests/ort/run.js) on the same input bytes within f32_close's tolerance:
# ONNX's own 2-D node cases (libonnx-testdata, their stored inputs, the
# weights a graph input: pads, output_padding, output_shape, dilations,
# kernel_shape, SAME_UPPER) and PyTorch's (pytorch-converted,
# pytorch-operator), test_convtranspose_autopad_same with SAME_LOWER
# written over its SAME_UPPER (an odd total: the extra row moves to the
# top), and tests/onnx_net --convt, four layers with
# constant weights (2x2 stride 2 as in PaddleOCR's detector, 3x3 stride 2
# whose windows overlap, then PyTorch's decoder forms k=4 stride 2 pads 1
# and k=3 stride 2 pads 1 output_padding 1 in two groups) over two images,
# whose overlapped arena gives the plain arena's bytes, which `dmo plan
# --verify` runs bit for bit, and which `dmo run --model` profiles under
# the tool with O_s exact = algorithmic = analytic.  Then the first six
# models of tests/onnx_random_net (seeds from 1 on) that hold a
# ConvTranspose and no variant dmo may refuse, and more until an
# output_shape is among them (an odd output_shape total goes first: a
# model found it), against
# ONNX Runtime and through plan --verify.  The 3-D node case is refused
# naming the node and the reason (the 1-D one runs: onnx_ort_forms.sh).
# Skipped (77) without
# node and onnxruntime-node or without libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

for dir in "$data"/node/test_convtranspose "$data"/node/test_convtranspose_autopad_same \
	   "$data"/node/test_convtranspose_dilations "$data"/node/test_convtranspose_kernel_shape \
	   "$data"/node/test_convtranspose_output_shape "$data"/node/test_convtranspose_pad \
	   "$data"/node/test_convtranspose_pads "$data"/node/test_convtranspose_with_kernel \
	   "$data"/pytorch-converted/test_ConvTranspose2d "$data"/pytorch-converted/test_ConvTranspose2d_no_bias \
	   "$data"/pytorch-operator/test_operator_convtranspose; do
	name=${dir##*/}
	ort_node_case "$dir" "$name"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
done
# The same string length, so the protobuf stays well formed.
LC_ALL=C sed 's/SAME_UPPER/SAME_LOWER/' "$data/node/test_convtranspose_autopad_same/model.onnx" \
	>"$WORK/same_lower.onnx"
cp "$WORK/test_convtranspose_autopad_same.in" "$WORK/same_lower.in"
ort_and_dmo same_lower "$WORK/same_lower.onnx"
f32_close "SAME_LOWER: dmo infer = ONNX Runtime" "$WORK/same_lower.ort" "$WORK/same_lower.dmo"
cmp -s "$WORK/same_lower.dmo" "$WORK/test_convtranspose_autopad_same.dmo" &&
	fail "SAME_LOWER gave SAME_UPPER's output" || echo "ok: SAME_LOWER differs from SAME_UPPER"
"$DMO" model "$WORK/same_lower.onnx" | grep -q "convt:in=1x3x3x1,k=3x3,stride=2x2,dil=1x1,pad=1x1x0x0," &&
	echo "ok: SAME_LOWER puts the odd pad first" || fail "SAME_LOWER: $("$DMO" model "$WORK/same_lower.onnx")"

onnx_net_runs convt
f32_close "--convt: dmo infer = ONNX Runtime" "$WORK/convt.ort" "$WORK/convt.dmo"
plain_arena_same "--convt" "$WORK/convt.onnx" "$WORK/convt.in" "$WORK/convt.dmo"
plan_verify_bits "--convt" "$WORK/convt.onnx"
grep -q "^layout: *NCHW ConvTranspose: O_s of 4 convt layers in the order of ONNX Runtime's ConvTranspose" \
	"$WORK/plan.out" && echo "ok: --convt: the plan header names the loop order" ||
	fail "--convt: $(grep '^layout' "$WORK/plan.out")"
# A group of an image at a time (docs/formulas.md 3.8): O_s = min(IB, OB)
# = IB, the input, 4*2*4*5*6 = 960, 4*2*3*10*12 = 2880, 4*2*2*21*25 = 8400
# and 4*2*2*42*50 = 33600 bytes.
for row in "    1  1_convtranspose    convt .* 960 *960" "    3  3_convtranspose    convt .* 2880 *2880" \
	   "    4  4_convtranspose    convt .* 8400 *0" "    5  5_convtranspose    convt .* 33600 *33600"; do
	grep -q "^$row$" "$WORK/plan.out" && echo "ok: planned: $row" || fail "not planned: $row"
done
run_model_analyzed "--convt" "$WORK/convt.onnx" 5

seed=0 found=0 kinds=
while { [ $found -lt 6 ] || [ "${kinds#*shape}" = "$kinds" ] || [ "${kinds#*same}" = "$kinds" ]; } &&
	[ $seed -lt 400 ]; do
	seed=$((seed + 1))
	desc=$("$top_builddir/tests/onnx_random_net" "$seed" "$WORK/r.onnx" "$WORK/r.in")
	case $desc in *exotic) continue ;; *ConvTranspose*) ;; *) continue ;; esac
	found=$((found + 1))
	case $desc in *"ConvTranspose("*output_shape*) kinds="$kinds shape" ;; esac
	case $desc in *"ConvTranspose("*SAME_*) kinds="$kinds same" ;; esac
	echo "seed $seed: $desc"
	ort_and_dmo r "$WORK/r.onnx"
	case $desc in
	*"-> int8"*) cmp -s "$WORK/r.ort" "$WORK/r.dmo" &&
		echo "ok: seed $seed: int8 output equals ONNX Runtime's byte for byte" ||
		fail "seed $seed: int8 output differs from ONNX Runtime's" ;;
	*) f32_close "seed $seed: dmo infer = ONNX Runtime" "$WORK/r.ort" "$WORK/r.dmo" 1 ;;
	esac
	plan_verify_bits "seed $seed" "$WORK/r.onnx"
done
[ $found -ge 6 ] && echo "ok: $found random models with a ConvTranspose" || fail "$found random models with a ConvTranspose"
case $kinds in *shape*same* | *same*shape*) echo "ok: output_shape and SAME among them" ;;
*) fail "random ConvTranspose forms:$kinds" ;; esac

refuse test_convtranspose_3d "ConvTranspose has no dmo kernel (node 1: not a 1-D or 2-D" \
	"$DMO" infer -q --input /dev/null --output "$WORK/refused" "$data/node/test_convtranspose_3d/model.onnx"
finish
