# trace_beyond_ram.sh - a layer whose full trace is several times the RAM
# the profiled program may use still completes.  dmo profile runs inside a
# memory cgroup of 192 MiB without swap, the program's RAM, and traces a
# depthwise convolution of about 64M events (1 GB) with --max-mem 8M: every
# event reaches the file, and dmo analyze, in the same cgroup, reads the
# trace back and agrees with the tool and the algorithmic method.  The same
# run with --max-mem 2G, which would keep the trace in RAM, is killed: the
# limit is real, the layer is kept as incomplete, with no O_s shown, and
# dmo says why.
# Needs root and a cgroup memory controller (v1 or v2); skipped without.
. "$top_srcdir/tests/lib.sh"
HARNESS="$top_builddir/target-harness/harness/dmo-harness"
SPEC=dwconv2d:in=224x224x128,k=3x3,stride=1,pad=same
LIMIT=$((192 * 1024 * 1024))

# A fresh memory cgroup of LIMIT bytes, swap included, in $CG; or exit 77.
make_cgroup() {
	if grep -qw memory /sys/fs/cgroup/cgroup.controllers 2>/dev/null; then
		CG=/sys/fs/cgroup/dmo-test.$$
		mkdir "$CG" 2>/dev/null && echo "$LIMIT" >"$CG/memory.max" || return 1
		[ -e "$CG/memory.swap.max" ] && echo 0 >"$CG/memory.swap.max"
	elif [ -d /sys/fs/cgroup/memory ]; then
		CG=/sys/fs/cgroup/memory/dmo-test.$$
		mkdir "$CG" 2>/dev/null && echo "$LIMIT" >"$CG/memory.limit_in_bytes" || return 1
		[ -e "$CG/memory.memsw.limit_in_bytes" ] &&
			echo "$LIMIT" >"$CG/memory.memsw.limit_in_bytes"
	else
		return 1
	fi
	# With swap on and no way to limit it, the cgroup would not bound RAM.
	if [ -n "$(swapon --noheadings 2>/dev/null)" ] &&
		[ ! -e "$CG/memory.swap.max" ] && [ ! -e "$CG/memory.memsw.limit_in_bytes" ]; then
		return 1
	fi
}

if ! make_cgroup; then
	[ -n "${CG:-}" ] && rmdir "$CG" 2>/dev/null
	echo "note: no memory cgroup could be made here (needs root); skipped"
	exit 77
fi
trap 'rmdir "$CG" 2>/dev/null; rm -rf "$WORK"' EXIT

# in_cgroup COMMAND...: run COMMAND as a member of the cgroup.
in_cgroup() {
	sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$CG" "$@"
}

in_cgroup "$DMO" profile --out "$WORK/bounded" --trace=full --max-mem 8M -- "$HARNESS" "$SPEC" \
	>"$WORK/bounded.out" 2>"$WORK/bounded.err"
expect_eq "dmo profile status within the cgroup" 0 $?
expect_eq "layer status" ok "$(field "$WORK/bounded" op1_dwconv2d status)"
expect_full_trace "$WORK/bounded" op1_dwconv2d
[ $((16 * events)) -gt $((4 * LIMIT)) ] &&
	echo "ok: the trace, $((16 * events)) bytes, is over 4 times the cgroup's $LIMIT" ||
	fail "trace of $((16 * events)) bytes is not 4 times the cgroup's $LIMIT"

in_cgroup "$DMO" analyze "$WORK/bounded" >"$WORK/analyze.out" 2>&1
expect_eq "dmo analyze status within the cgroup" 0 $?
expect_analyze_ok "$WORK/analyze.out"

in_cgroup "$DMO" profile --out "$WORK/unbounded" --trace=full --max-mem 2G -- "$HARNESS" "$SPEC" \
	>"$WORK/unbounded.out" 2>"$WORK/unbounded.err"
expect_eq "with --max-mem 2G the program is killed" 137 $?
expect_eq "the killed layer is kept" incomplete "$(field "$WORK/unbounded" op1_dwconv2d status)"
grep -q "killed by signal 9" "$WORK/unbounded.err" && echo "ok: dmo says the program was killed" ||
	fail "no message about the kill: $(cat "$WORK/unbounded.err")"
# Its O_s so far is no answer: dmo analyze shows none and skips the layer.
"$DMO" analyze "$WORK/unbounded" >"$WORK/unbounded.analyze" 2>&1
expect_eq "analyze of the killed layer: exact O_s, verdict" "- skipped" \
	"$(awk '$2 == "op1_dwconv2d" { print $4, $9 }' "$WORK/unbounded.analyze")"
finish
