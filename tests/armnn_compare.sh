#!/bin/sh
# armnn_compare.sh - dmo infer in its overlapped arena against Arm NN (the
# independent oracle) on every model of tests/models Arm NN runs, on the
# same random input: with single rounding (what Arm NN computes) the int8
# outputs are identical byte for byte; with TFLite Micro's default double
# rounding they may differ (one unit at a layer, docs/kernels.md, which later
# layers can grow), reported, not checked; the float model agrees to 1e-5.
# Skipped (77) without Arm NN.
. "$top_srcdir/tests/lib.sh"
need_armnn_oracle
MODELS="$top_srcdir/tests/models"

# differing A B: how many bytes differ, and the largest int8 difference.
differing() {
	cmp -l "$1" "$2" | awk 'function s(o) { v = 0; while (length(o)) { v = v * 8 + substr(o, 1, 1); o = substr(o, 2) } return v > 127 ? v - 256 : v }
		{ d = s($2) - s($3); d = d < 0 ? -d : d; n++; if (d > m) m = d } END { print n + 0, m + 0 }'
}

for m in tflm_hello_world_int8:1 tflm_micro_speech_quantized:1960 tflm_simple_add_model:32768 \
	 tiny_kws_ref_model:490; do
	name=${m%%:*}
	for seed in 1 2 3; do
		bytes "${m##*:}" $seed >"$WORK/in"
		"$ORACLE" "$MODELS/$name.tflite" "$WORK/in" "$WORK/arm" 2>/dev/null ||
			{ fail "$name: Arm NN failed"; continue; }
		for rounding in single double; do
			"$DMO" infer --rounding $rounding --arena overlap --input "$WORK/in" --output "$WORK/dmo" \
				"$MODELS/$name.tflite" >"$WORK/log" 2>&1 || { fail "$name: $(cat "$WORK/log")"; continue; }
			set -- $(differing "$WORK/dmo" "$WORK/arm")
			total=$(stat -c %s "$WORK/arm")
			echo "$name seed $seed, $rounding rounding: $((total - $1)) of $total bytes identical (largest difference $2)"
			[ $rounding = double ] ||
				expect_eq "$name seed $seed: bytes differing from Arm NN (single rounding)" 0 "$1"
		done
	done
done

# The float model: within 1e-5 of Arm NN.
printf '\333\017\311\077' >"$WORK/x"
"$ORACLE" "$MODELS/tflm_hello_world_float.tflite" "$WORK/x" "$WORK/arm" 2>/dev/null
"$DMO" infer --input "$WORK/x" --output "$WORK/dmo" "$MODELS/tflm_hello_world_float.tflite" >/dev/null
a=$(od -An -tf4 "$WORK/arm" | tr -d ' '); d=$(od -An -tf4 "$WORK/dmo" | tr -d ' ')
awk -v a="$a" -v d="$d" 'BEGIN { e = a - d; exit !(e < 1e-5 && e > -1e-5) }' &&
	echo "ok: hello_world float: dmo $d, Arm NN $a" || fail "hello_world float: dmo $d, Arm NN $a"

[ "$failures" -eq 0 ]
