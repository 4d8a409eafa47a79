#!/bin/sh
# fault_injection.sh - every dmo command the tests can run cheaply, with
# each of the libc calls it makes failing in turn (tests/fail_nth.c,
# preloaded).  A command's calls are counted in a run where nothing fails;
# then the Nth call of each kind fails, for every N, or for a fixed, even
# spread of N when there are many.  Whatever fails, dmo must end as
# docs/cli.md promises:
# - no crash: exit status 0, 1 or 2, never a signal;
# - status 0 only if the failure did no harm: stdout and every file
#   byte-identical to the run where nothing failed;
# - else status 1 or 2 and a message "dmo CMD: ..." on stderr, and every
#   file either as it was before or as the complete run leaves it: no
#   half-written result, no temporary left behind, nothing recorded lost.
# By default at most 2 allocations and 1 other call of each kind fail per
# command (the first and last; first only), to keep the test short;
# DMO_FAULT_ALL=1 fails every call (about 5 minutes: for hunting bugs);
# DMO_FAULT_ONLY=PATTERN (a shell pattern) runs only the cases it names.
. "$top_srcdir/tests/lib.sh"
LC_ALL=C; export LC_ALL
MODELS="$top_srcdir/tests/models"
SHIM="$top_builddir/tests/.libs/fail_nth.so"
HARNESS="$top_builddir/target-harness/harness/dmo-harness"
[ -f "$SHIM" ] || { echo "SKIP: $SHIM not built"; exit 77; }
# The program itself, not libtool's wrapper script: that costs a shell
# and a sed per run, and runs are many.
BIN="$top_builddir/analysis/.libs/dmo"
if [ -x "$BIN" ]; then
	LD_LIBRARY_PATH="$top_builddir/target-harness/kernels/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
	export LD_LIBRARY_PATH
else
	BIN=$DMO
fi
PRELOAD="$SHIM${LD_PRELOAD:+ $LD_PRELOAD}"
runs=0

# spread COUNT K: which of COUNT calls to fail: all if K or fewer, else K
# spread evenly from the first to the last.
spread() {
	if [ "$1" -le "$2" ] || [ -n "$DMO_FAULT_ALL" ]; then
		seq 1 "$1"
	else
		awk -v c="$1" -v k="$2" 'BEGIN { for (i = 0; i < k; i++) print 1 + int(i * (c - 1) / (k > 1 ? k - 1 : 1)) }'
	fi
}

# snapshot: every file under the current directory with its checksum.
snapshot() { find . -type f -exec md5sum {} + | sort -k 2; }
# paths SNAPSHOT: its files' names, sorted, in SNAPSHOT.paths.
paths() { awk '{ print $2 }' "$1" | sort >"$1.paths"; echo "$1.paths"; }

# fresh SEED: an empty case directory, holding a copy of SEED if given.
fresh() {
	cd "$WORK" && rm -rf case && mkdir case && cd case || exit 1
	[ -z "$1" ] || cp -R "$1/." .
}

# inject NAME PREFIX SEED PROCESS COMMAND...: COMMAND in a copy of SEED (a
# directory, or ''), under each injected failure; PROCESS is the name of the
# process whose calls fail (dmo, dmo-harness), PREFIX its messages' start.
inject() {
	name=$1 prefix=$2 seed=$3 process=$4; shift 4
	case $name in ${DMO_FAULT_ONLY:-*}) ;; *) return ;; esac
	fresh "$seed"; snapshot >"$WORK/before"
	rm -f "$WORK/count"
	DMO_FAIL_IN=$process DMO_FAIL_COUNT="$WORK/count" LD_PRELOAD="$PRELOAD" "$@" >"$WORK/out0" 2>"$WORK/err0"
	status0=$?
	snapshot >"$WORK/clean"
	paths "$WORK/before" >/dev/null && paths "$WORK/clean" >/dev/null
	if [ "$status0" -ne 0 ]; then
		fail "$name: exit status $status0 with nothing failing: $(head -3 "$WORK/err0")"
		return
	fi
	# A forked dmo reports too, counting on from its parent: the largest.
	sort -k 1,1 -k 2,2nr "$WORK/count" | awk '!seen[$1]++' >"$WORK/calls"
	bad=0 tried=0
	grep -E "^(${calls:-[a-z_]*}) " "$WORK/calls" >"$WORK/failing"
	while read -r call count; do
		case $call in
		malloc|calloc|realloc|posix_memalign) k=2 ;;
		*) k=1 ;;
		esac
		[ "${cap:-$k}" -lt "$k" ] && k=$cap
		for n in $(spread "$count" $k); do
			tried=$((tried + 1))
			fresh "$seed"
			DMO_FAIL_IN=$process DMO_FAIL_CALL=$call DMO_FAIL_AT=$n LD_PRELOAD="$PRELOAD" \
				"$@" >"$WORK/out" 2>"$WORK/err"
			check_failed_run "$name: $call #$n of $count" $? "$prefix" || bad=$((bad + 1))
		done
	done <"$WORK/failing"
	runs=$((runs + tried))
	[ "$bad" -eq 0 ] && echo "ok: $name: $tried failed calls ($(awk '{ printf "%s%s %s", s, $1, $2; s = ", " }' "$WORK/calls")), each ended cleanly"
	cd "$WORK" || exit 1
}

# check_failed_run WHAT STATUS PREFIX: the invariant above, in the case
# directory after the run.
check_failed_run() {
	what=$1 status=$2 prefix=$3
	if [ "$status" -gt 2 ]; then
		fail "$what: exit status $status: $(head -3 "$WORK/err")"
		return 1
	fi
	snapshot >"$WORK/after"
	if [ "$status" -eq 0 ]; then
		cmp -s "$WORK/out" "$WORK/out0" && cmp -s "$WORK/after" "$WORK/clean" && return 0
		# A figure is an extra: without it dmo says "no figure" and leaves
		# it out of the list of results (and of the folder's record of
		# figures, .dmo-figures).
		[ -n "${figure:-}" ] && [ "$(cat "$WORK/out")" = "$(sed "s|, ${figure#/})|)|" "$WORK/out0")" ] &&
			grep -q "^$prefix: no figure: " "$WORK/err" &&
			[ "$(grep -v -e "$figure\$" -e "/\.dmo-figures\$" "$WORK/after")" = \
			  "$(grep -v -e "$figure\$" -e "/\.dmo-figures\$" "$WORK/clean")" ] && return 0
		fail "$what: exit status 0 but the output differs from the complete run's"
		return 1
	fi
	if ! grep -q "^$prefix: " "$WORK/err"; then
		fail "$what: status $status with no '$prefix: ' message: $(head -3 "$WORK/err")"
		return 1
	fi
	# Each file as before or as complete; each file both runs keep, kept.
	# A finding (status 1) may rewrite the report named by $report.
	stray=$(sort -u "$WORK/before" "$WORK/clean" >"$WORK/allowed"; sort "$WORK/after" |
		comm -13 "$WORK/allowed" - | awk -v r="${report:-}" -v s="$status" '!(s == 1 && $2 == r)')
	lost=$(comm -12 "$WORK/before.paths" "$WORK/clean.paths" | comm -23 - "$(paths "$WORK/after")")
	if [ -n "$stray" ] || [ -n "$lost" ]; then
		fail "$what: status $status, files left half-written or stray: ${stray:-none}; lost: ${lost:-none}"
		return 1
	fi
	return 0
}

int8="$MODELS/tflm_hello_world_int8.tflite"
inject "formula --json" "dmo formula" "" dmo "$BIN" formula --json relu:in=4x4x4
inject "verify --model" "dmo verify" "" dmo "$BIN" verify --model "$int8"
# Loading a backend plugin fails (OpenBLAS's own allocations at load are
# its own: when they fail, OpenBLAS exits).
calls=dlopen
[ -f "$top_builddir/target-harness/backends/.libs/dmo-backend-openblas.so" ] &&
	inject "verify --backend openblas" "dmo verify" "" dmo "$BIN" verify --backend openblas --overlap 0 fc:in=4,units=4
calls=
inject "model --csv (.tflite)" "dmo model" "" dmo "$BIN" model --csv "$int8"
inject "model (.onnx)" "dmo model" "" dmo "$BIN" model "$MODELS/onnx_conv_with_strides_padding.onnx"
inject "plan --verify --csv" "dmo plan" "" dmo "$BIN" plan --verify --csv "$int8"
inject "plan --json (layer table)" "dmo plan" "" dmo "$BIN" plan --json ds_cnn_kws
inject "infer --output" "dmo infer" "" dmo "$BIN" infer --output result.bin "$int8"
inject "dmo-harness" "dmo-harness" "" dmo-harness "$HARNESS" relu:in=1x1x8

# A run directory with a full trace (the one Valgrind run of this test).
"$DMO" profile --out "$WORK/run" --trace=full -- "$HARNESS" relu:in=1x1x4 >/dev/null 2>"$WORK/profile.err" ||
	fail "dmo profile: $(cat "$WORK/profile.err")"
# A layer analyze cannot analyse is skipped (status 1), and analysis.csv
# reports the others (docs/cli.md).
report=./analysis.csv
inject "analyze" "dmo analyze" "$WORK/run" dmo "$BIN" analyze .
report=
inject "export --csv" "dmo export" "$WORK/run" dmo "$BIN" export --csv .
# Each run of these two runs gnuplot too: fewer failures of each kind.
cap=1
inject "plot" "dmo plot" "$WORK/run" dmo "$BIN" plot --out pattern.png .
"$DMO" sweep -o "$WORK/sweep" --formula OB 'relu:in=1x1x{4,8,12}' >/dev/null 2>"$WORK/sweep.err" ||
	fail "dmo sweep: $(cat "$WORK/sweep.err")"
figure=/sweep.png
inject "sweep --collect" "dmo sweep" "" dmo "$BIN" sweep --collect "$WORK/sweep" --out collected
cap= figure=

echo "$runs runs with a call failing"
finish
