# time_limit.sh - dmo sweep --time-limit (issue 28): a sweep that cannot
# end in time stops cleanly: its running batches stop as on SIGTERM
# (nothing left in TMPDIR), what ran is kept, dmo says so and exits 2; the
# same command then continues and finishes the rest.
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

finish
