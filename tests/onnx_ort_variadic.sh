#!/bin/sh
# onnx_ort_variadic.sh - ONNX's Sum, Max, Min and Mean of any number of
# operands (a layer per pass of ONNX Runtime's, Mean's last pass `scale`)
# and Pow by an exponent tensor (`powt`), and Gemm's matrix C,
# docs/formulas.md 4.13:
#  - scale and powt join the three-way cross-check (three_ways, lib.sh:
#    tool O_s = brute force on the recorded events = algorithmic replay,
#    analytic exact, native runs overlapped by O_s bit for bit), and
#    their closed form O_s = OB on one shape;
#  - ONNX Runtime's order of summation, found in its source
#    (UntypedBroadcastVariadic: ((x0 + x1) + x2) + ..., Mean then times
#    the float 1/n): on inputs where every other order rounds otherwise,
#    dmo infer equals ONNX Runtime and the hand-derived values below byte
#    for byte;
#  - ONNX's node cases of the forms (one operand, three, Mean, Pow by a
#    tensor with and without broadcasting): dmo infer = ONNX Runtime;
#  - tests/onnx_net --variadic (Sum, Max, Min and Mean of 1 to 4
#    operands with broadcast and constant ones, Pow by a broadcast
#    exponent activation and of a broadcast base, no value_info): dmo
#    infer = ONNX Runtime, the
#    overlapped arena gives the plain one's bytes, `plan --verify` runs it
#    bit for bit with its real weights, `dmo run --model` profiles its 18
#    layers with exact = algorithmic = analytic, and under a full trace
#    every pass's O_s equals the brute force on its events and 4.13's OB;
#  - Gemm with a matrix C (ONNX's test_gemm_default_matrix_bias, B and C
#    made initializers): dmo infer = ONNX Runtime, plan --verify;
#  - ONNX's seven float Clip cases with their bounds made initializers:
#    dmo infer = ONNX's expected output = ONNX Runtime, byte for byte;
#  - the forms still refused name the node and why (exit 2).
# Skipped (77) without node and onnxruntime-node or libonnx-testdata.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: no libonnx-testdata in $data"; exit 77; }

printf 'scale:in=2x3x2x5\npowt:in=1x4x3x2\nscale:in=1x1x1x7\npowt:in=2x1x5x3\n' >"$WORK/specs"
three_ways "$WORK/specs" 4
expect_eq "layers with O_s > 0" 4 "$saved"
# 4.13: each pass reads element t of its operands, then writes out[t]:
# O_s = OB = 4 * 2*3*4*5 = 480 bytes.
for spec in scale:in=2x3x4x5 powt:in=2x3x4x5; do
	expect_eq "$spec O_s (algorithmic,analytic)" "480,480" "$(formula_os "$spec")"
done

# The order of summation.  Sum(a, b, c) with a = (1e8, 1, 0.1), b = (-1e8,
# 1e8, 0.2), c = (1, -1e8, 0.3): left to right (a + b) + c = (1, 0,
# 0.6f) = 3f800000 00000000 3f19999a, where a + (b + c) gives (0, 1, ..)
# (-1e8 + 1 rounds to -1e8 in float32, whose step there is 8) and (a + c)
# + b gives (0, 0, ..).  Mean of a = (1e8, 1, 2), b = (-1e8, 1e8, 2), c =
# (1, -1e8, 1): sums (1, 0, 5) times the float 1/3 (0x3eaaaaab):
# 3eaaaaab 00000000 3fd55556, where 5 / 3 would round to 3fd55555.
# pack "HEX ...": each 32-bit word little-endian.
pack() { LC_ALL=C awk -v hex="$1" 'function d(c) { return index("0123456789abcdef", c) - 1 }
	BEGIN { n = split(hex, w, " "); for (i = 1; i <= n; i++) for (b = 7; b > 0; b -= 2)
		printf "%c", 16 * d(substr(w[i], b, 1)) + d(substr(w[i], b + 1, 1)) }'; }
pack "4cbebc20 3f800000 3dcccccd ccbebc20 4cbebc20 3e4ccccd 3f800000 ccbebc20 3e99999a" >"$WORK/sum.in"
pack "3f800000 00000000 3f19999a" >"$WORK/sum.want"
pack "4cbebc20 3f800000 40000000 ccbebc20 4cbebc20 40000000 3f800000 ccbebc20 3f800000" >"$WORK/mean.in"
pack "3eaaaaab 00000000 3fd55556" >"$WORK/mean.want"
for op in sum mean; do
	ort_and_dmo "$op" "$data/node/test_${op}_example/model.onnx"
	cmp -s "$WORK/$op.want" "$WORK/$op.ort" && cmp -s "$WORK/$op.want" "$WORK/$op.dmo" &&
		echo "ok: $op of three: dmo infer = ONNX Runtime = left to right, byte for byte" ||
		fail "$op: want $(od -An -tx4 "$WORK/$op.want"), ONNX Runtime $(od -An -tx4 "$WORK/$op.ort"), dmo $(od -An -tx4 "$WORK/$op.dmo")"
done

for name in test_sum_example test_sum_one_input test_max_example test_max_one_input \
	    test_min_example test_min_one_input test_mean_example test_mean_one_input \
	    test_mean_two_inputs test_pow test_pow_example test_pow_bcast_array test_pow_bcast_scalar; do
	ort_node_case "$data/node/$name" "$name"
	f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.ort" "$WORK/$name.dmo"
done

# Gemm with a matrix C (M x N, B and C made initializers): fc with a bias
# per output element, against ONNX Runtime and through plan --verify.
with_constants "$data/node/test_gemm_default_matrix_bias" gemm_matrix
ort_and_dmo gemm_matrix "$WORK/gemm_matrix.onnx"
f32_close "Gemm with C of 3 x 4: dmo infer = ONNX Runtime" "$WORK/gemm_matrix.ort" "$WORK/gemm_matrix.dmo"
plan_verify_bits "Gemm with C of 3 x 4" "$WORK/gemm_matrix.onnx"

# Clip's bounds as initializers (opset 11 on: inputs, either left out):
# ONNX's float Clip cases with their bounds made constants, byte for byte.
clips=0
for name in test_clip test_clip_default_max test_clip_default_min test_clip_example \
	    test_clip_inbounds test_clip_outbounds test_clip_splitbounds; do
	ort_constants_case "$data/node/$name" "$name" && clips=$((clips + 1))
done
expect_eq "Clip cases with constant bounds equal" 7 "$clips"

onnx_net_runs variadic
f32_close "Sum .. Pow: dmo infer = ONNX Runtime" "$WORK/variadic.ort" "$WORK/variadic.dmo"
plain_arena_same "--variadic" "$WORK/variadic.onnx" "$WORK/variadic.in" "$WORK/variadic.dmo"
plan_verify_bits "--variadic" "$WORK/variadic.onnx"
# Every further operand stays live through its pass: the plan never
# overlaps it.  Max(r, s, c, g)'s second pass (7_max1) reads c with its
# first pass's temporary: the temporary is overlapped, c is live on.
grep -qE "^ +7 +7_max1 +max +576 .* 576 +576$" "$WORK/plan.out" &&
	echo "ok: 7_max1 shares its temporary's 576 bytes" || fail "7_max1: $(grep 7_max1 "$WORK/plan.out")"
run_model_analyzed "--variadic" "$WORK/variadic.onnx" 18
"$DMO" run -q --out "$WORK/full" --trace=full --model "$WORK/variadic.onnx" >/dev/null 2>&1
expect_eq "--variadic: dmo run --model --trace=full exit status" 0 $?
passes=0
for layer in 4_sum0 5_sum1 6_max0 7_max1 8_max2 9_mean0 10_mean1 11_mean2 14_pow 15_min0 16_min1 \
	     17_pow; do
	n=$(field "$WORK/full" "$layer" layer)
	brute=$("$top_builddir/tests/bruteforce_os" "$(printf '%s/layer-%04d.events' "$WORK/full" "$n")")
	[ "$brute" = 576 ] && [ "$(field "$WORK/full" "$layer" os_bytes)" = 576 ] && passes=$((passes + 1)) ||
		fail "$layer: brute force $brute, tool $(field "$WORK/full" "$layer" os_bytes), 4.13: OB = 576"
done
expect_eq "passes whose O_s = brute force = OB" 12 "$passes"

# Still refused, naming the node and why.
expect_refusal "an int32 exponent" 2 \
	"layer 1 '1_pow': operator Pow has no dmo kernel (node 1: an exponent 'y' of int32" \
	"$DMO" infer -q "$data/node/test_pow_types_float32_int32/model.onnx"
expect_refusal "a Max of int8" 2 \
	"layer 1 '1_max': operator Max has no dmo kernel (node 1: int8 input to int8 output" \
	"$DMO" infer -q "$data/node/test_max_int8/model.onnx"
finish
