#!/bin/sh
# onnx_random_models.sh - dmo on ONNX models nobody on dmo wrote by hand:
# tests/onnx_random_net writes a random small CNN a seed (ops, shapes,
# opsets 7 to 17, Constant nodes or initializers, value_info or not), and
# for each:
#  - `dmo infer` equals ONNX Runtime (tests/ort/run.js) on the same input:
#    within f32_close's tolerance (lib.sh, docs/kernels.md) with a floor
#    of 1e-5 of the larger of 1 and a tenth of the largest output (a Gemm's
#    output near 0 sums ~2000 products of about 1 that cancel: both
#    runtimes are 1e-6 off there; seed 2's MatMul sums 48 terms of up to
#    50 after an Exp, whose last ulps differ, into 3.28: 3.4e-5 apart), and byte for byte when
#    the model ends in QuantizeLinear (int8 or uint8);
#  - `dmo plan --verify` runs the overlapped arena bit for bit;
#  - each layer's O_s in the plan (the algorithmic replay of the NCHW loop
#    order) equals tests/bruteforce_os on the events the real tool recorded
#    running that layer (`dmo run --model --trace=full`), a simulated
#    overlapped arena that shares no code with the replay;
#  - the model stripped of its value_info (tests/onnx_strip) plans the same.
# A model the generator marks "exotic" (a variant dmo may not map, e.g.
# count_include_pad with a ceil_mode window past the padding) may instead be refused, exit 2 with a message naming the
# layer (its number and name); any other refusal, or a wrong answer, fails.
# RANDOM_ONNX_SEEDS="FIRST LAST" picks the seeds (default 1 16, about a
# minute; docs/models.md has a longer run).  Skipped (77) without node
# and onnxruntime-node.
. "$top_srcdir/tests/lib.sh"
need_ort
set -- ${RANDOM_ONNX_SEEDS:-1 16}
seed=$1 last=$2
models=0 refused=0 layers_checked=0

while [ "$seed" -le "$last" ]; do
	m="$WORK/s$seed"
	desc=$("$top_builddir/tests/onnx_random_net" "$seed" "$m.onnx" "$m.in")
	expect_eq "seed $seed: onnx_random_net exit status" 0 $? || { seed=$((seed + 1)); continue; }
	$ORT "$m.onnx" "$m.in" "$m.ort" 2>"$m.ort.err"
	[ $? -eq 0 ] || fail "seed $seed ($desc): ONNX Runtime refuses: $(tail -1 "$m.ort.err")"
	"$DMO" infer -q --input "$m.in" --output "$m.dmo" "$m.onnx" >/dev/null 2>"$m.err"
	rc=$?
	if [ $rc -ne 0 ]; then
		case $desc in
		*exotic)
			if [ $rc -eq 2 ] && grep -q "layer [0-9]* '[^']*': " "$m.err"; then
				refused=$((refused + 1))
				echo "ok: seed $seed: refused, naming the layer: $(head -1 "$m.err")"
			else
				fail "seed $seed ($desc): exit $rc without naming a layer: $(head -2 "$m.err")"
			fi ;;
		*) fail "seed $seed ($desc): dmo infer exit $rc: $(head -2 "$m.err")" ;;
		esac
		seed=$((seed + 1))
		continue
	fi
	models=$((models + 1))
	echo "seed $seed: $desc"
	case $desc in
	*"-> int8"* | *"-> uint8"*)
		cmp -s "$m.ort" "$m.dmo" && echo "ok: seed $seed: 8-bit output equals ONNX Runtime's byte for byte" ||
			fail "seed $seed: $(cmp -l "$m.ort" "$m.dmo" 2>&1 | wc -l) 8-bit bytes differ from ONNX Runtime's" ;;
	# Values near 0 here are sums of up to a few thousand products of
	# about 1 that cancel: 1e-5 of the larger of the value, 1 and a
	# tenth of the largest output (the scale of the summands).
	*) f32_close "seed $seed: dmo infer = ONNX Runtime" "$m.ort" "$m.dmo" \
		"$(od -An -v -tf4 "$m.ort" | tr -s ' ' '\n' |
			awk '{ v = $1 < 0 ? -$1 : $1; if (v > m) m = v } END { print (m / 10 > 1 ? m / 10 : 1) }')" ;;
	esac

	"$DMO" plan --verify "$m.onnx" >"$m.plan" 2>&1
	rc=$?
	grep -q "^verify: .*bit for bit" "$m.plan" && [ $rc -eq 0 ] ||
		fail "seed $seed: plan --verify exit $rc: $(tail -2 "$m.plan")"
	"$DMO" plan --csv "$m.onnx" >"$m.csv" 2>&1
	"$DMO" run -q --model "$m.onnx" --trace=full --out "$m.run" >/dev/null 2>"$m.run.err" ||
		fail "seed $seed: dmo run --model: $(tail -2 "$m.run.err")"
	# The number of every layer the tool profiled (those with an op spec;
	# a DequantizeLinear of a constant has none), with its O_s and op in
	# the plan, matched by name.
	layer_rows "$m.run" | by_name '{ print v("name"), v("layer") }' >"$m.profiled"
	csv_rows "$m.csv" | by_name 'v("layer") != "-" && v("os_bytes") != "" {
		print v("name"), v("os_bytes"), v("op") }' |
		awk 'NR == FNR { number[$1] = $2; next } ($1 in number) { print number[$1], $2, $3 }' \
			"$m.profiled" - >"$m.os"
	expect_eq "seed $seed: profiled layers with a plan O_s" "$(wc -l <"$m.profiled")" "$(wc -l <"$m.os")"
	if grep -qE " (conv2d|dwconv2d|maxpool|avgpool)$" "$m.os" && ! grep -q "^layout: *NCHW" "$m.plan"; then
		fail "seed $seed: the plan does not say its conv/pool O_s are NCHW's: $(grep "^layout" "$m.plan")"
	fi
	while read -r layer os op; do
		brute=$("$top_builddir/tests/bruteforce_os" "$(printf '%s/layer-%04d.events' "$m.run" "$layer")")
		layers_checked=$((layers_checked + 1))
		[ "$brute" = "$os" ] ||
			fail "seed $seed: layer $layer ($op): plan O_s $os, brute force on the tool's trace $brute"
	done <"$m.os"

	"$top_builddir/tests/onnx_strip" --compare "$m.onnx" >"$m.strip" 2>&1
	grep -q "^same " "$m.strip" || fail "seed $seed: stripped of value_info: $(cat "$m.strip")"
	seed=$((seed + 1))
done
echo "$models models run against ONNX Runtime, $refused exotic ones refused; $layers_checked layer O_s checked by brute force"
[ "$models" -gt 0 ] || fail "no model ran"
finish
