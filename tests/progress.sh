# progress.sh - the progress lines of long commands (docs/cli.md): on
# stderr, one per completed step with a count, only when stderr is a
# terminal (script(1) gives the command one) and not with -q.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"

# TFLM's hello_world is three FULLY_CONNECTED layers (1 -> 16 -> 16 -> 1),
# every one with an op spec: three steps for verify --model, infer and
# plan --verify (a step a layer), and a harness line a layer for run.  dmo
# compare of two specs on one backend: two steps.  dmo sweep of a grid of
# two configurations: two steps.
# quoted RUN ARGS...: ARGS quoted for a shell, every "@" made a path of
# its own for RUN of this check (a sweep resumes from an old OUT, and a
# sweep's OUT is no run folder for dmo run: each run needs a new one).
checks=0
quoted() {
	run=$1; shift
	for a; do printf "'%s' " "$(printf %s "$a" | sed "s|@|$WORK/check$checks-run$run|g")"; done
}

check() { # NAME TOTAL CMD ARGS...
	name=$1 total=$2 cmd=$3; shift 3
	checks=$((checks + 1))
	pattern="dmo $cmd: "
	eval "\"\$DMO\" \"\$cmd\" $(quoted 1 "$@")" >"$WORK/out" 2>"$WORK/err"
	grep -q "^dmo .*: [0-9]*/$total " "$WORK/err" &&
		fail "$name: progress with stderr not a terminal: $(cat "$WORK/err")"
	echo "ok: $name: no progress when stderr is a file"
	command -v script >/dev/null || { echo "skip: $name on a terminal: no script(1)"; return; }
	script -qec "'$DMO' '$cmd' $(quoted 2 "$@") >'$WORK/out'" /dev/null </dev/null | tr -d '\r' >"$WORK/tty"
	expect_eq "$name: progress lines on a terminal" \
		"$(seq -f "%g/$total" 1 "$total" | tr '\n' ' ')" \
		"$(sed -n "s|^$pattern\([0-9]*/$total\) .*|\1|p" "$WORK/tty" | tr '\n' ' ')"
	script -qec "'$DMO' '$cmd' -q $(quoted 3 "$@") >'$WORK/out'" /dev/null </dev/null | tr -d '\r' >"$WORK/tty"
	grep -q "^$pattern[0-9]*/$total " "$WORK/tty" &&
		fail "$name: progress with -q: $(cat "$WORK/tty")"
	echo "ok: $name: no progress with -q"
}

# A table of four layers: plan --verify checks each on the reference
# kernels (not the real-weight path of a .tflite).
printf '%s\n' 'layer,name,spec,inputs' '1,a,"relu:in=4x4x2",' '2,b,"relu:in=4x4x2",' \
	'3,c,"relu:in=4x4x2",' '4,d,"add:in=4x4x2",a;c' >"$WORK/table.csv"

# Three traced layers for dmo analyze, a step each.
"$DMO" run -q --trace=full -o "$WORK/traced" relu:in=1x1x8 relu:in=1x1x16 relu:in=1x1x4 >/dev/null 2>&1 ||
	fail "dmo run for analyze's run directory"

check "verify --model" 3 verify --model "$MODELS/tflm_hello_world_float.tflite"
check "compare" 2 compare --backends ref -o "$WORK/cmp" relu:in=1x1x8 relu:in=1x1x16
check "infer" 3 infer "$MODELS/tflm_hello_world_float.tflite"
check "plan --verify" 3 plan --verify "$MODELS/tflm_hello_world_float.tflite"
check "plan --verify, a layer table" 4 plan --verify "$WORK/table.csv"
# person_detect: 31 layers, 32 activation tensors (its input and each
# layer's output).  Neither greedy plan is at the lower bound (36871 bytes),
# so the placement search runs and places every tensor: 32 steps.
check "plan, the placement search" 32 plan "$MODELS/tflm_person_detect.tflite"
check "sweep" 2 sweep -o @ --formula OB 'relu:in=1x1x{4,8}'
check "analyze" 3 analyze "$WORK/traced"
check "run --model" 3 run -o @ --model "$MODELS/tflm_hello_world_float.tflite"
check "run SPEC..." 2 run -o @ relu:in=1x1x8 relu:in=1x1x16
finish
