#!/bin/sh
# onnx_ort.sh - ONNX models end to end, with ONNX Runtime (tests/ort/run.js)
# as the independent oracle:
#  - a small NCHW CNN written by tests/onnx_net (Conv, depthwise Conv,
#    pointwise Conv, Relu, Add, MaxPool, AveragePool, Flatten, Gemm with
#    alpha, Softmax; real weights as initializers): `dmo infer` on the same
#    input bytes equals ONNX Runtime within f32_close's tolerance;
#  - ONNX's own single-op cases (libonnx-testdata) of the ops dmo runs in
#    NCHW, on their stored inputs: dmo infer equals ONNX Runtime likewise;
#  - `dmo plan --verify` runs the CNN with its real weights in the
#    overlapped arena, bit for bit, and its header says the O_s are NCHW's;
#  - `dmo run --model` profiles every node under the tool: the measured O_s
#    equal the algorithmic replay of the NCHW loop order (dmo analyze) and
#    the brute force on the recorded events; dmo compare --model shows them.
# Skipped (77) without node and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort
NET="$WORK/net.onnx"
"$top_builddir/tests/onnx_net" "$NET" "$WORK/net.in"
expect_eq "onnx_net writes the model" 0 $?

$ORT "$NET" "$WORK/net.in" "$WORK/net.ort" 2>/dev/null
expect_eq "ONNX Runtime runs the CNN" 0 $?
"$DMO" infer -q --input "$WORK/net.in" --output "$WORK/net.dmo" "$NET" >"$WORK/infer.out" 2>&1
expect_eq "dmo infer runs the CNN" 0 $?
f32_close "CNN: dmo infer = ONNX Runtime" "$WORK/net.ort" "$WORK/net.dmo"
# The same with the plain arena: the overlaps change no value.
"$DMO" infer -q --arena plain --input "$WORK/net.in" --output "$WORK/plain.dmo" "$NET" >/dev/null 2>&1
cmp -s "$WORK/net.dmo" "$WORK/plain.dmo" && echo "ok: overlapped and plain arenas give the same bytes" ||
	fail "the overlap plan changed the output"

data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
if [ -d "$data/node" ]; then
	# One case a kind (ONNX Runtime takes a second or more to start).
	for case in node/test_conv_with_strides_and_asymmetric_padding node/test_averagepool_2d_pads \
		    pytorch-converted/test_Conv2d_depthwise_with_multiplier pytorch-converted/test_Conv2d_dilated \
		    pytorch-converted/test_MaxPool2d pytorch-converted/test_Softmax pytorch-converted/test_Sigmoid; do
		name=${case#*/}
		ort_node_case "$data/$case" "$name"
		f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
	done
	# A Gemm whose B is a graph input, not a constant, cannot become fc's
	# weights: refused, named.
	"$DMO" infer -q --zeros "$data/node/test_gemm_default_no_bias/model.onnx" >/dev/null 2>"$WORK/gemm.err"
	expect_eq "Gemm with B an input: dmo infer exit status" 2 $?
	grep -q "Gemm needs float32 constants B" "$WORK/gemm.err" && echo "ok: the refusal names Gemm's B" ||
		fail "Gemm refusal: $(cat "$WORK/gemm.err")"
fi

"$DMO" plan --verify "$NET" >"$WORK/plan.out" 2>&1
expect_eq "plan --verify with the real weights: exit status" 0 $?
grep -q "^verify: .*bit for bit" "$WORK/plan.out" && echo "ok: the overlapped arena runs bit for bit" ||
	fail "plan --verify: $(tail -3 "$WORK/plan.out")"
grep -q "^layout: *NCHW: O_s of 5 conv/pool layers in the NCHW loop order" "$WORK/plan.out" &&
	echo "ok: the plan says its O_s are the NCHW loop order's" || fail "layout line: $(grep layout "$WORK/plan.out")"

"$DMO" run -q --out "$WORK/run" --trace=full --model "$NET" >"$WORK/run.out" 2>&1
expect_eq "dmo run --model: exit status" 0 $?
expect_eq "every node profiled" 11 "$(layer_rows "$WORK/run" | by_name 'v("status") == "ok" { n++ } END { print n + 0 }')"
"$DMO" analyze "$WORK/run" >"$WORK/analyze.out" 2>&1
expect_eq "dmo analyze: measured = algorithmic, analytic <= exact" 0 $?
expect_eq "layers with verdict ok" 11 "$(grep -c " ok$" "$WORK/analyze.out")"
# The NCHW layers' measured O_s against the brute force on their events,
# and the first conv's against formulas.md 3.6 by hand: 8 planes of 12x12
# from 3, pad 1: OB_e - 7*144 - (12 + 1) = 1152 - 1021 = 131 elements.
for n in 1 3 5 7 8; do
	os=$(layer_rows "$WORK/run" | by_name 'v("layer") == n { print v("os_bytes") }' -v n="$n")
	brute=$("$top_builddir/tests/bruteforce_os" "$(printf '%s/layer-%04d.events' "$WORK/run" "$n")")
	expect_eq "layer $n: tool O_s = brute force" "$brute" "$os"
done
expect_eq "first conv's O_s (hand derivation, bytes)" 524 \
	"$(layer_rows "$WORK/run" | by_name 'v("layer") == 1 { print v("os_bytes") }')"
"$DMO" compare --out "$WORK/compare" --model "$NET" >"$WORK/compare.out" 2>&1
expect_eq "dmo compare --model: exit status" 0 $?
grep -q "^ *1 *1_conv .* 524$" "$WORK/compare.out" && echo "ok: compare shows the NCHW conv's O_s" ||
	fail "compare: $(cat "$WORK/compare.out")"
finish
