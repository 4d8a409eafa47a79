#!/bin/sh
# out_of_resources.sh - dmo when the system refuses it memory or a process:
# tests/fail_nth.c, preloaded, fails one chosen call of calloc, fork or
# execv in the dmo process, and each command ends with its one-line
# message and exit 2 (127 for a child that cannot run dmo), never a crash.
# The calloc calls are counted first (DMO_FAIL_COUNT), so "the last one"
# stays the last one when the code before it changes.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"
SHIM="$top_builddir/tests/.libs/fail_nth.so"
[ -f "$SHIM" ] || { echo "SKIP: $SHIM not built"; exit 77; }
cd "$WORK" || exit 1

# calloc_calls COMMAND...: how many calloc calls dmo makes for it.
calloc_calls() {
	rm -f count
	LD_PRELOAD="$SHIM" DMO_FAIL_CALL=calloc DMO_FAIL_COUNT="$WORK/count" "$DMO" "$@" >/dev/null 2>&1
	awk '$1 == "calloc" { print $2 }' count
}
# failing CALL N NAME PATTERN COMMAND...: the Nth CALL fails: exit 2, PATTERN on stderr.
failing() {
	call=$1 n=$2; shift 2
	LD_PRELOAD="$SHIM" DMO_FAIL_CALL=$call DMO_FAIL_AT=$n refuse "$@"
}

mkdir run
printf '%s\n%s\n' \
	"layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status" \
	"1,op1_relu,relu:in=4x4x4,256,256,64,0,0,64,64,1000,256,ok" >run/layers.csv
# Each command's calloc calls: formula's one is its table of rows, verify's
# first the runner's op, analyze's one its table of layers, and infer's last
# the offsets of its arena.
failing calloc 1 "formula: its rows" "^dmo formula: out of memory$" "$DMO" formula relu:in=4x4x4
failing calloc 1 "verify: the op" "^dmo verify: 'relu:in=4x4x4': out of memory$" "$DMO" verify relu:in=4x4x4
failing calloc "$(calloc_calls analyze run)" "analyze: its layers" "^dmo analyze: out of memory$" \
	"$DMO" analyze run
m="$MODELS/tflm_hello_world_int8.tflite"
failing calloc "$(calloc_calls infer "$m")" "infer: the arena's offsets" \
	"^dmo infer: out of memory for a [0-9]*-byte arena$" "$DMO" infer "$m"

# dmo demo runs each step as a child dmo.
failing fork 1 "demo: no process" "^dmo demo: fork: " "$DMO" demo --out "$WORK/d1"
LD_PRELOAD="$SHIM" DMO_FAIL_CALL=execv DMO_FAIL_AT=1 "$DMO" demo --out "$WORK/d2" >/dev/null 2>err
expect_eq "demo: a child that cannot run dmo: exit status" 127 $?
grep -q "^dmo demo: cannot run /proc/self/exe: " err && echo "ok: the child says so" ||
	fail "demo: a child that cannot run dmo: $(cat err)"
finish
