# threads_native.sh - a reference kernel split over two threads
# (dmo run --threads 2 --interleave), profiled under two valgrind schedules
# (--runs 2): its os_any_bytes equals the brute force over interleavings,
# is at most every run's os_bytes, and overlapping by it never changes the
# output in native repeated runs.  Overlapping by a run's os_bytes can: how
# often is reported, not asserted, since the threads race natively.
. "$top_srcdir/tests/lib.sh"

SPEC=conv2d:in=24x24x16,k=3x3,out_c=16,pad=same
REPEAT=200

"$DMO" run --out "$WORK/c" --trace=full --runs 2 --threads 2 --interleave "$SPEC" \
	>"$WORK/c.out" 2>"$WORK/c.err"
expect_eq "dmo run --runs 2 exit status" 0 $?
expect_eq "status" ok:threads=2 "$(field "$WORK/c" op1_conv2d status)"
expect_eq "threads" 2 "$(field "$WORK/c" op1_conv2d threads)"
any=$(field "$WORK/c" op1_conv2d os_any_bytes)
for k in 1 2; do
	expect_eq "run $k: os_any_bytes = brute force over interleavings" \
		"$("$top_builddir/tests/bruteforce_os" --any "$WORK/c/run-$k/layer-0001.events")" \
		"$(field "$WORK/c/run-$k" op1_conv2d os_any_bytes)"
done
# layers.csv holds the minimum of the runs (runs.csv).
expect_eq "layers.csv os_any_bytes = minimum over runs.csv" \
	"$(csv_rows "$WORK/c/runs.csv" | by_name '{ print v("os_any_bytes") }' | sort -n | head -1)" "$any"
run_max=$(csv_rows "$WORK/c/runs.csv" | by_name '{ print v("os_bytes") }' | sort -n | tail -1)
csv_rows "$WORK/c/runs.csv" | by_name 'v("os_bytes") + 0 < any + 0 { bad = 1 } END { exit bad }' -v any="$any" &&
	echo "ok: os_any_bytes $any <= every run's os_bytes" || fail "os_any_bytes above a run's os_bytes"
grep -q "warning: 1 layer ran while several threads were alive" "$WORK/c.err" &&
	echo "ok: dmo run warns" || fail "no thread warning: $(cat "$WORK/c.err")"

# Native: the safe side strictly, the other reported.
"$DMO" verify --threads 2 --interleave --overlap "$any" --repeat $REPEAT --scan-limit 0 \
	"$SPEC" >"$WORK/any.out" 2>&1
expect_eq "verify at os_any_bytes exit status" 0 $?
expect_eq "verify at os_any_bytes" "$((REPEAT + 1)) overlapped runs, 0 differed" \
	"$(sed -n 's/^runs: *//p' "$WORK/any.out")"
"$DMO" verify --threads 2 --interleave --overlap "$run_max" --repeat $REPEAT --scan-limit 0 \
	"$SPEC" >"$WORK/run.out" 2>&1
echo "info: at os_bytes $run_max (largest run): $(sed -n 's/^runs: *//p' "$WORK/run.out")"
echo "info: at os_any_bytes $any: $(sed -n 's/^runs: *//p' "$WORK/any.out")"

# Options: what dmo sets itself is refused; bad counts are refused.
"$DMO" run --vg-opt=--tool=none relu:in=1x1x8 >/dev/null 2>"$WORK/vg.err"
expect_eq "--vg-opt --tool exit status" 2 $?
grep -q "dmo sets --tool itself" "$WORK/vg.err" || fail "--vg-opt --tool: $(cat "$WORK/vg.err")"
"$DMO" profile --runs 2 --vg-opt=--fair-sched=no -- /bin/true >/dev/null 2>"$WORK/fs.err"
expect_eq "--runs with --vg-opt=--fair-sched exit status" 2 $?
"$DMO" profile --runs 0 -- /bin/true >/dev/null 2>&1
expect_eq "--runs 0 exit status" 2 $?
"$DMO" verify --repeat x relu:in=1x1x8 >/dev/null 2>&1
expect_eq "verify --repeat x exit status" 2 $?
finish
