#!/bin/sh
# armnn_oracle.sh - dmo-armnn-run, the Arm NN oracle, on the small real models
# of tests/models: it runs every model Arm NN can (exit 0, the output bytes
# its binding info announces, the same bytes twice), refuses the SVDF model
# with exit 3 and Arm NN's reason, computes what hello_world's float model
# was trained for (sin x, to about 0.1), and rejects bad usage and input
# files.  Skipped (77) when configure did not find Arm NN.
. "$top_srcdir/tests/lib.sh"
need_armnn_oracle
MODELS="$top_srcdir/tests/models"

# announced LOG: the output bytes the oracle's summary lists.
announced() {
	awk '$1 == "output" { s += $(NF - 1) } END { print s + 0 }' "$1"
}

for m in tflm_hello_world_int8:1 tflm_hello_world_float:4 tflm_micro_speech_quantized:1960 \
	 tflm_simple_add_model:32768 tiny_kws_ref_model:490; do
	name=${m%%:*}
	bytes "${m##*:}" 7 >"$WORK/$name.in"
	"$ORACLE" "$MODELS/$name.tflite" "$WORK/$name.in" "$WORK/$name.out" 2>"$WORK/$name.log"
	expect_eq "$name: exit status" 0 $?
	expect_eq "$name: output bytes" "$(announced "$WORK/$name.log")" "$(stat -c %s "$WORK/$name.out")"
	"$ORACLE" "$MODELS/$name.tflite" "$WORK/$name.in" "$WORK/$name.again" 2>/dev/null
	cmp -s "$WORK/$name.out" "$WORK/$name.again" && echo "ok: $name: same output twice" ||
		fail "$name: two runs differ"
done

# hello_world's float model approximates sin x on [0, 2 pi]: x = pi/2, 3pi/2
# as little-endian float32 (0x3fc90fdb, 0x4096cbe4).
for case in '\333\017\311\077:1' '\344\313\226\100:-1'; do
	printf "${case%%:*}" >"$WORK/x.in"
	"$ORACLE" "$MODELS/tflm_hello_world_float.tflite" "$WORK/x.in" "$WORK/y.out" 2>/dev/null
	y=$(od -An -tf4 "$WORK/y.out" | tr -d ' ')
	awk -v y="$y" -v want="${case##*:}" 'BEGIN { d = y - want; exit !(d < 0.15 && d > -0.15) }' &&
		echo "ok: hello_world float: $y ~ ${case##*:}" || fail "hello_world float gave $y, sin is ${case##*:}"
done

# --debug: one line per layer output; the last is the model output, the
# same values as the output file (kws_ref: 12 int8 scores).
"$ORACLE" --debug "$MODELS/tiny_kws_ref_model.tflite" "$WORK/tiny_kws_ref_model.in" "$WORK/d.out" \
	>"$WORK/debug.txt" 2>/dev/null
expect_eq "--debug: exit status" 0 $?
cmp -s "$WORK/d.out" "$WORK/tiny_kws_ref_model.out" && echo "ok: --debug leaves the output alone" ||
	fail "--debug changed the output"
last=$(grep '"layerName"' "$WORK/debug.txt" | tail -n 1 | sed 's/.*"data": \[\[\(.*\)\]\].*/\1/' | tr -d ' ')
expect_eq "--debug: last layer's values are the output" \
	"$(od -An -v -td1 "$WORK/tiny_kws_ref_model.out" | tr -s ' \n' ',' | sed 's/^,//; s/,$//')" "$last"

"$ORACLE" "$MODELS/tflm_keyword_scrambled_8bit.tflite" "$WORK/x.in" "$WORK/k.out" 2>"$WORK/k.log"
expect_eq "SVDF model refused: exit status" 3 $?
grep -q "refuses the model at parse.*SVDF" "$WORK/k.log" && echo "ok: the refusal names SVDF" ||
	fail "refusal message: $(cat "$WORK/k.log")"

"$ORACLE" "$MODELS/tiny_kws_ref_model.tflite" >/dev/null 2>&1
expect_eq "usage error: exit status" 2 $?
head -c 100 "$WORK/tiny_kws_ref_model.in" >"$WORK/short.in"
"$ORACLE" "$MODELS/tiny_kws_ref_model.tflite" "$WORK/short.in" "$WORK/s.out" 2>"$WORK/s.log"
expect_eq "short input: exit status" 1 $?
grep -q "too short for input input_1 \[1x49x10x1\]" "$WORK/s.log" && echo "ok: the short input is named" ||
	fail "short input message: $(cat "$WORK/s.log")"
cat "$WORK/tiny_kws_ref_model.in" "$WORK/short.in" >"$WORK/long.in"
"$ORACLE" "$MODELS/tiny_kws_ref_model.tflite" "$WORK/long.in" "$WORK/l.out" 2>/dev/null
expect_eq "long input: exit status" 1 $?
"$ORACLE" "$MODELS/no-such.tflite" "$WORK/x.in" "$WORK/n.out" 2>/dev/null
expect_eq "missing model: exit status" 1 $?

[ "$failures" -eq 0 ]
