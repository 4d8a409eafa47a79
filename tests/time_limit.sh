# time_limit.sh - --time-limit of dmo sweep, profile and run (issue 28): a
# sweep that cannot end in time stops cleanly: its running batches stop as
# on SIGTERM (nothing left in TMPDIR), what ran is kept, dmo says so and
# exits 2; the same command then continues and finishes the rest.  A
# program that never ends stops the same way under dmo profile and dmo run.
#
# 16 configurations, one Valgrind run each, 2 at a time: at least 8 rounds
# of Valgrind's start-up (about a second each here), so a 1-second limit
# stops it whatever the machine's speed.  No time is asserted: only that
# the limit ended the run, and what it left.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99
TMPDIR="$WORK/tmp"
export TMPDIR
mkdir "$TMPDIR"

grid='relu:in={4..64:4}x4x1'
"$DMO" sweep "$grid" --formula OB --batch 1 --jobs 2 --time-limit 1 -o tl >out 2>err
expect_eq "time limit: status" 2 $?
grep -q "^dmo sweep: the time limit of 1 s was reached: [0-9]* of 16 configurations ran" err &&
	echo "ok: time limit: said" || fail "time limit: $(cat err)"
expect_eq "time limit: nothing left in TMPDIR" "" "$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"
[ -e tl/sweep-*/results.csv ] && fail "a summary of a sweep that did not finish"

"$DMO" sweep "$grid" --formula OB --batch 1 --jobs 2 -o tl >out 2>err
expect_eq "continued: status" 0 $?
expect_eq "continued: every configuration has a result" 16 \
	"$(csv_rows tl/sweep-*/results.csv | by_name '{ n++ } END { print n + 0 }')"

expect_refusal "--time-limit 0" 2 "--time-limit takes seconds above 0" \
	"$DMO" sweep "$grid" --formula OB --time-limit 0 -o tl

# spin CASE ARGS...: dmo profile --time-limit LIMIT ARGS -- misuse CASE:
# spin-in-layer records one whole layer ("before"), then works in its next
# layer for ever; spin-ignoring-sigterm too, deaf to SIGTERM.  Each stop must be clean (status 2, the message, as many rows
# as it says); a limit that ran out before Valgrind reached the endless
# layer (a loaded machine) is tried again longer, so no speed is assumed.
# timeout only keeps a broken limit from hanging the test.
spin() {
	case=$1; shift
	for limit in 1 5 30; do
		timeout 300 "$DMO" profile --time-limit $limit "$@" -- "$TARGETS/misuse" \
			"$case" >out 2>err
		expect_eq "time limit $limit s: status" 2 $?
		n=$(sed -n "s/^dmo profile: .*the time limit of $limit s was reached: \([0-9]*\) layers\{0,1\} recorded\(;.*\)\{0,1\}$/\1/p" err)
		[ -n "$n" ] || fail "time limit $limit s: $(cat err)"
		[ "$n" = 2 ] && return
	done
}

# dmo profile: stopped as SIGTERM stops it, the whole layer is kept ok, the
# open one incomplete, nothing left in TMPDIR.
spin spin-in-layer -o pr
grep -q "outlived SIGTERM" err && fail "profile: SIGTERM did not stop it: $(cat err)"
expect_eq "profile: the whole layer is kept" ok "$(field pr before status)"
expect_eq "profile: the stopped layer is incomplete" incomplete "$(field pr spinning status)"
expect_eq "profile: nothing left in TMPDIR" "" "$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"

# --runs K: the limit bounds the runs together; the run it stops says so.
spin spin-in-layer --runs 2 -o runs
grep -q "^dmo profile: run 1: the time limit" err && echo "ok: profile --runs: run 1 said" ||
	fail "profile --runs: $(cat err)"
expect_eq "profile --runs: run 1's whole layer is kept" ok "$(field runs/run-1 before status)"

# A program that ignores SIGTERM is killed a grace time later: the open
# layer stays as the tool claimed it (incomplete), and Valgrind's vgdb
# pipes, which a killed Valgrind leaves, go with dmo's private folder.
spin spin-ignoring-sigterm -o deaf
grep -q "; the program outlived SIGTERM and was killed [0-9]* s later$" err &&
	echo "ok: deaf to SIGTERM: said" || fail "deaf to SIGTERM: $(cat err)"
expect_eq "deaf to SIGTERM: the whole layer is kept" ok "$(field deaf before status)"
expect_eq "deaf to SIGTERM: the stopped layer is incomplete" incomplete "$(field deaf spinning status)"
expect_eq "deaf to SIGTERM: nothing left in TMPDIR" "" "$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"

# dmo run --model: a shipped network's hundreds of layers take minutes
# under the tool.  Every row kept but the last is whole; the last is
# whole or the stopped layer.
timeout 300 "$DMO" run --model mobilenet_v2_1.0_224 --time-limit 1 -o model >out 2>err
expect_eq "run --model: status" 2 $?
grep -q "^dmo run: the time limit of 1 s was reached: [0-9]* layers\{0,1\} recorded$" err &&
	echo "ok: run --model: said" || fail "run --model: $(cat err)"
expect_eq "run --model: rows before the last are ok" "" \
	"$(layer_rows model | by_name '{ if (prev != "" && prev != "ok") print prev; prev = v("status") }')"
expect_eq "run --model: nothing left in TMPDIR" "" "$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"

expect_refusal "profile --time-limit 0" 2 "--time-limit takes seconds above 0" \
	"$DMO" profile --time-limit 0 -o pr -- "$TARGETS/misuse" spin-in-layer
expect_refusal "run --time-limit x" 2 "--time-limit takes seconds above 0" \
	"$DMO" run --time-limit x -o pr relu:in=4x4x1

finish
