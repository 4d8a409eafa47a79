#!/bin/sh
# plan_tflm_standin.sh - dmo's side of the proof inside TensorFlow Lite
# Micro (dmo plan --verify for TFLM's kernels, analysis/lib/tflm_run.c)
# against tests/tflm_standin_runner.py, a stand-in that speaks the
# runner's interface (tflm_run.h) with dmo infer's outputs: the plan is
# made in TFLM's arena and written into a temporary .tflite, both models
# run on three inputs, the outputs compared and the arenas' difference
# checked against dmo's saving; a changed output and an arena that is not
# lower by the saving are findings (exit 1); no runner is an error (2).
# The O_s are those of a dmo run of the reference kernels with its
# kernels.csv saying tflm, as `dmo run --runtime tflm` will write it (TFLM's
# reference kernels follow the loop order of dmo's).  tests/plan_tflm.sh
# runs the real proofs once the runner is built.
. "$top_srcdir/tests/lib.sh"
m="$top_srcdir/tests/models/tflm_micro_speech_quantized.tflite"

mkdir "$WORK/runners"
printf '#!/bin/sh\nPYTHONDONTWRITEBYTECODE=1 exec /usr/bin/python3 "%s/tests/tflm_standin_runner.py" "$@"\n' \
	"$top_srcdir" >"$WORK/runners/dmo-tflm-run-tflm"
chmod +x "$WORK/runners/dmo-tflm-run-tflm"
DMO_TFLM_RUNNER_DIR="$WORK/runners"
STANDIN_DMO="$DMO"
TMPDIR="$WORK"
export DMO_TFLM_RUNNER_DIR STANDIN_DMO TMPDIR

"$DMO" run -q --model "$m" --out "$WORK/run" >/dev/null
printf 'kernels,kind,variant,version,isa\ntflm,runtime,,,\n' >"$WORK/run/kernels.csv"
STANDIN_HEAD=$("$DMO" plan -q --align 16 --os "measured:$WORK/run" "$m" 2>/dev/null |
	awk '/^peak without overlaps/ { print $4 }')
export STANDIN_HEAD
expect_eq "TFLM's own plan of micro_speech, 16-aligned" 5968 "$STANDIN_HEAD"

"$DMO" plan -q --os "measured:$WORK/run" --verify "$m" >"$WORK/ok.txt" 2>"$WORK/ok.err"
expect_eq "--verify in the TFLM stand-in: exit status" 0 $?
grep -q "^kernels: *tflm: TensorFlow Lite Micro's reference kernels, inside TFLM" "$WORK/ok.txt" ||
	fail "the header does not name TFLM's kernels: $(head -3 "$WORK/ok.txt")"
grep -q "^peak with overlaps: *4176 bytes, whole non-persistent arena" "$WORK/ok.txt" ||
	fail "the plan for TFLM is not made in its arena: $(grep peak "$WORK/ok.txt")"
grep -q "^verify: outputs of TFLM stand-in (tflm kernels) with dmo's offline plan equal TFLM's own plan's bit for bit on 3 inputs; arena_used_bytes 8272 instead of 10064, 1792 lower as dmo said" \
	"$WORK/ok.txt" || fail "verify line: $(grep verify "$WORK/ok.txt") $(cat "$WORK/ok.err")"
"$DMO" plan -q --kernels tflm --os "measured:$WORK/run" --verify "$m" >/dev/null 2>&1
expect_eq "--kernels tflm with its own run directory: exit status" 0 $?

STANDIN_FLIP=1 "$DMO" plan -q --os "measured:$WORK/run" --verify "$m" >/dev/null 2>"$WORK/flip.err"
expect_eq "an output changed by the plan: exit status" 1 $?
grep -q "input 1: outputs differ at byte 0" "$WORK/flip.err" || fail "$(cat "$WORK/flip.err")"
STANDIN_EXTRA=16 "$DMO" plan -q --os "measured:$WORK/run" --verify "$m" >/dev/null 2>"$WORK/extra.err"
expect_eq "an arena not lower by the saving: exit status" 1 $?
grep -q "TFLM used 10064 bytes with its own plan and 8288 with dmo's, where dmo said 1792 fewer" \
	"$WORK/extra.err" || fail "$(cat "$WORK/extra.err")"
DMO_TFLM_RUNNER_DIR="$WORK/none" "$DMO" plan -q --os "measured:$WORK/run" --verify "$m" \
	>/dev/null 2>"$WORK/none.err"
expect_eq "no runner: exit status" 2 $?
grep -q "configure dmo with --with-tflm=DIR" "$WORK/none.err" || fail "$(cat "$WORK/none.err")"
# Measuring on a TFLM build whose runner is not there: said before anything runs.
"$DMO" plan -q --kernels tflm-cmsis-nn "$m" >/dev/null 2>"$WORK/nomeasure.err"
expect_eq "--kernels tflm-cmsis-nn without its runner: exit status" 2 $?
grep -q "runtime tflm-cmsis-nn is not built (no .*/dmo-tflm-run-tflm-cmsis-nn)" \
	"$WORK/nomeasure.err" || fail "$(cat "$WORK/nomeasure.err")"
# Every temporary folder of the runs is gone.
ls -d "$WORK"/dmo-tflm.* "$WORK"/dmo-plan.* 2>/dev/null | grep -q . &&
	fail "a temporary folder stayed: $(ls -d "$WORK"/dmo-*.*)"
[ "$failures" -eq 0 ]
