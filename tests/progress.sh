# progress.sh - the progress lines of long commands (docs/cli.md): on
# stderr, one per completed step with a count, only when stderr is a
# terminal (script(1) gives the command one) and not with -q.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"

# TFLM's hello_world is three FULLY_CONNECTED layers (1 -> 16 -> 16 -> 1),
# every one with an op spec: three steps.  dmo compare of two specs on one
# backend: two steps.
check() { # name total cmd args...
	name=$1 total=$2 cmd=$3; shift 3
	pattern="dmo $cmd: "
	"$DMO" "$cmd" "$@" >"$WORK/out" 2>"$WORK/err"
	grep -q "^dmo .*: [0-9]*/$total " "$WORK/err" &&
		fail "$name: progress with stderr not a terminal: $(cat "$WORK/err")"
	echo "ok: $name: no progress when stderr is a file"
	command -v script >/dev/null || { echo "skip: $name on a terminal: no script(1)"; return; }
	script -qec "$(printf "'%s' " "$DMO" "$cmd" "$@") >'$WORK/out'" /dev/null </dev/null | tr -d '\r' >"$WORK/tty"
	expect_eq "$name: progress lines on a terminal" \
		"$(seq -f "%g/$total" 1 "$total" | tr '\n' ' ')" \
		"$(sed -n "s|^$pattern\([0-9]*/$total\) .*|\1|p" "$WORK/tty" | tr '\n' ' ')"
	script -qec "$(printf "'%s' " "$DMO" "$cmd" -q "$@") >'$WORK/out'" /dev/null </dev/null | tr -d '\r' >"$WORK/tty"
	grep -q "^$pattern[0-9]*/$total " "$WORK/tty" &&
		fail "$name: progress with -q: $(cat "$WORK/tty")"
	echo "ok: $name: no progress with -q"
}

check "verify --model" 3 verify --model "$MODELS/tflm_hello_world_float.tflite"
check "compare" 2 compare --backends ref -o "$WORK/cmp" relu:in=1x1x8 relu:in=1x1x16
finish
