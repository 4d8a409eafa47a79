#!/bin/sh
# demo.sh - `dmo demo`, the README's first command, end to end: it exits 0,
# draws the golden layer's two figures and person_detect's arena plan, profiles
# every layer of person_detect (all rows ok), and runs the model in an
# overlapped arena smaller than TensorFlow Lite Micro's 55296 bytes (its
# greedy arena for this model, the issue's figure) with the plain arena's
# output byte for byte (compared here with cmp, not taken from the demo).
. "$top_srcdir/tests/lib.sh"

"$DMO" demo --out "$WORK/demo" >"$WORK/demo.log" 2>&1
expect_eq "dmo demo exit status" 0 $?
for f in kernels/layer-0001-pattern.png kernels/layer-0001-bounds.png tflm_person_detect-plan.png; do
	is_png "$WORK/demo/$f" && echo "ok: $f is a PNG" || fail "$f: missing or not a PNG"
done
expect_eq "person_detect layers profiled, all ok" "31 31" \
	"$(layer_rows "$WORK/demo/tflm_person_detect" |
	   by_name '{ n++; ok += v("status") == "ok" } END { print n, ok }')"
expect_eq "TFLite Micro's arena (plain plan)" 55296 \
	"$(awk '/-byte arena \(plain plan/ { sub(/-byte/, "", $8); print $8 }' "$WORK/demo.log")"
overlap=$(awk '/-byte arena \(overlap plan/ { sub(/-byte/, "", $8); print $8 }' "$WORK/demo.log")
[ -n "$overlap" ] && [ "$overlap" -lt 55296 ] && echo "ok: overlapped arena $overlap < 55296" ||
	fail "overlapped arena '$overlap' not below 55296"
cmp "$WORK/demo/tflm_person_detect-overlap.out" "$WORK/demo/tflm_person_detect-plain.out" &&
	echo "ok: overlapped and plain outputs identical" || fail "outputs differ"
grep -q "^\$ dmo infer" "$WORK/demo.log" || fail "the demo does not show its commands"

# Built with TFLM: every kernel build's plan was proven inside TFLM (the
# plan's own verify line, each run against TFLM's plan), each emitted model
# carries dmo's plan (dmo model), and the reference plan was refused for
# CMSIS-NN as gcc builds it.
if [ -x "$top_builddir/target-harness/tflm/dmo-tflm-run-tflm" ]; then
	proven=$(grep -c "^verify: outputs of TFLM .* equal TFLM's own plan's bit for bit on 3 inputs; arena_used_bytes [0-9]* instead of [0-9]*, [0-9]* lower as dmo said$" "$WORK/demo.log")
	built=$(ls "$top_builddir"/target-harness/tflm/dmo-tflm-run-tflm* | wc -l)
	expect_eq "kernel builds proven inside TFLM" "$built" "$proven"
	for m in "$WORK"/demo/tflm_person_detect-tflm*.tflite; do
		"$DMO" model "$m" | grep -q "^offline memory plan (OfflineMemoryAllocation" && echo "ok: $(basename "$m") carries the plan" ||
			fail "$(basename "$m"): no offline plan"
	done
	if [ -x "$top_builddir/target-harness/tflm/dmo-tflm-run-tflm-cmsis-nn-dsp" ]; then
		grep -q "^refused, as it must be$" "$WORK/demo.log" && echo "ok: the reference plan refused for tflm-cmsis-nn-dsp" ||
			fail "the reference plan was not refused"
		[ -e "$WORK/demo/tflm_person_detect-refused.tflite" ] && fail "a refused plan was written"
	fi
fi

"$DMO" demo --bogus >/dev/null 2>&1
expect_eq "dmo demo --bogus exit status" 2 $?

finish
