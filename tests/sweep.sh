# sweep.sh - `dmo sweep` end to end under the tool, on the ref backend:
#  1. the paper's depthwise bound typed in as an expression: 0 unsafe over a
#     sample of 220 configurations, equal to dmo's built-in analytic value on
#     every one; the same bound in a shared object gives the same results;
#  2. the wrong formula OB is UNSAFE exactly where the exact O_s < OB, the
#     configurations listed independently (bash's brace expansion of the same
#     grid, each spec's O_s from `dmo formula`, the algorithmic replica);
#  3. a serial run, --jobs 2, and --emit-commands run by `parallel -j 2` then
#     --collect give the same results.csv and summary.csv;
#  4. a sweep killed midway and run again gives the same files, and no batch
#     that had finished before the kill ran again;
#  5. malformed grids and formulas are refused with their column.
. "$top_srcdir/tests/lib.sh"
PAPER=$top_srcdir/tests/sweep/paper_dwconv.formula
PLUGIN=$top_builddir/tests/sweep/.libs/paper_dwconv.so
# summary VALUE DIR: one metric of DIR/sweep-*/summary.csv
summary() { csv_rows "$2"/sweep-*/summary.csv | by_name 'v("metric") == m { print v("value") }' -v m="$1"; }

# 1. The paper's formula, as an expression and as a plugin.
RICH='dwconv2d:in={3,5,8,12}x{3,5,8,12}x{1,3},k={1..4}x{1..4},stride={1..3}x{1..3},dil={1,2}x{1,2},pad={same,valid,1x1},mult={1,2}'
"$DMO" sweep "$RICH" --sample 220 --seed 7 --batch 110 --formula "@$PAPER" \
	--out "$WORK/paper" >"$WORK/paper.out" 2>"$WORK/paper.err"
expect_eq "paper formula: exit status (0: nothing unsafe)" 0 $?
expect_eq "paper formula: configurations run" 220 "$(summary run "$WORK/paper")"
expect_eq "paper formula: unsafe" 0 "$(summary unsafe "$WORK/paper")"
expect_eq "paper formula: equal to dmo's analytic value" 220 \
	"$(summary formula_equals_analytic "$WORK/paper")"
expect_eq "measured exact O_s = algorithmic" 0 "$(summary exact_ne_algorithmic "$WORK/paper")"
# Progress lines only on a terminal (tests/progress.sh): none in a file.
expect_eq "no progress line when stderr is a file" 0 "$(grep -c '^dmo sweep: [0-9]*/220 ' "$WORK/paper.err")"
[ -s "$(echo "$WORK"/paper/sweep-*/sweep.png)" ] && echo "ok: figure written" || fail "no sweep.png"
"$DMO" sweep "$RICH" --sample 220 --seed 7 --batch 110 --formula-lib "$PLUGIN" \
	--out "$WORK/plugin" >"$WORK/plugin.out" 2>&1
expect_eq "plugin formula: exit status" 0 $?
cmp -s "$WORK"/paper/sweep-*/results.csv "$WORK"/plugin/sweep-*/results.csv &&
	echo "ok: plugin results = expression results" || fail "plugin and expression results differ"

# 2. OB is unsafe exactly where the exact O_s is below OB.
GRID='dwconv2d:in={4,7}x{5,8}x{1,3},k={1..3}x{1,3},stride={1,2},pad={same,valid}'
"$DMO" sweep "$GRID" --formula OB --batch 48 --out "$WORK/ob" >"$WORK/ob.out" 2>&1
expect_eq "formula OB: exit status (1: unsafe)" 1 $?
bash -c "printf '%s\n' $GRID" >"$WORK/specs"
"$DMO" formula --csv $(cat "$WORK/specs") | csv_rows /dev/stdin |
	by_name '{ print (v("algorithmic_os") + 0 < v("out_bytes") + 0) }' |
	paste -d' ' - "$WORK/specs" | sed -n 's/^1 //p' >"$WORK/below"
expect_eq "grid size by bash" 192 "$(wc -l <"$WORK/specs")"
[ -s "$WORK/below" ] || fail "the independent count found no configuration below OB"
expect_eq "formula OB: unsafe count" "$(wc -l <"$WORK/below")" "$(summary unsafe "$WORK/ob")"
grep ',UNSAFE,' "$WORK"/ob/sweep-*/results.csv | sed 's/^[0-9]*,"\{0,1\}\([^"]*\)"\{0,1\},.*/\1/' \
	>"$WORK/unsafe"
cmp -s "$WORK/below" "$WORK/unsafe" && echo "ok: unsafe exactly where O_s < OB" ||
	fail "unsafe set differs: $(diff "$WORK/below" "$WORK/unsafe" | head -5)"
# Each batch's Valgrind run directory goes once its results are in, dot
# files (the profiler's .dmo-lock) and all: 192 / 48 = 4 batches, 0 left.
expect_eq "formula OB: batch run directories left" 0 \
	"$(find "$WORK"/ob -name 'run-*' | wc -l)"

# 3. Serial = --jobs 2 = emitted commands through GNU parallel, collected.
SMALL='dwconv2d:in={4,7}x5x{1,3},k={1..3}x3,stride={1,2},pad={same,valid}'
"$DMO" sweep "$SMALL" --formula OB --batch 12 --out "$WORK/serial" >/dev/null 2>&1
expect_eq "serial: exit status" 1 $?
"$DMO" sweep "$SMALL" --formula OB --batch 12 --jobs 2 --out "$WORK/jobs" >/dev/null 2>&1
expect_eq "--jobs 2: exit status" 1 $?
DMO_COMMAND=$DMO "$DMO" sweep "$SMALL" --formula OB --batch 12 --emit-commands \
	--out "$WORK/emit" >"$WORK/commands"
expect_eq "emitted commands (48 configurations / 12)" 4 "$(wc -l <"$WORK/commands")"
if command -v parallel >/dev/null; then
	parallel -j 2 <"$WORK/commands" >"$WORK/parallel.out" 2>&1
	expect_eq "parallel -j 2: exit status" 0 $?
else
	fail "GNU parallel is not installed (Debian package parallel)"
fi
"$DMO" sweep --collect "$WORK"/emit/part-* --out "$WORK/emit" >"$WORK/collect.out" 2>&1
expect_eq "collect: exit status" 1 $?
for f in results.csv summary.csv; do
	cmp -s "$WORK"/serial/sweep-*/$f "$WORK"/jobs/sweep-*/$f &&
		echo "ok: $f of --jobs 2 = serial" || fail "$f of --jobs 2 differs from serial"
	cmp -s "$WORK"/serial/sweep-*/$f "$WORK"/emit/sweep-*/$f &&
		echo "ok: $f of parallel + collect = serial" || fail "$f of collect differs from serial"
done

# 4. Resume: kill the whole sweep (its Valgrind too) after two batches.
# The wrapper logs the first configuration of every batch Valgrind starts.
VG=$(command -v valgrind)
cat >"$WORK/valgrind" <<WRAP
#!/bin/sh
for a; do case \$a in --dmo-out=*) echo "\${a##*/run-}" | cut -d- -f1 >>"$WORK/starts" ;; esac; done
exec "$VG" "\$@"
WRAP
chmod +x "$WORK/valgrind"
DMO_VALGRIND=$WORK/valgrind setsid "$DMO" sweep "$SMALL" --formula OB --batch 6 \
	--out "$WORK/resume" >/dev/null 2>&1 &
pid=$!
tries=0
while [ "$(ls "$WORK"/resume/sweep-*/parts 2>/dev/null | grep -c '^part-.*csv$')" -lt 2 ] &&
      [ $tries -lt 600 ]; do
	sleep 0.1; tries=$((tries + 1))
done
kill -KILL -- "-$pid"
wait $pid 2>/dev/null
ls "$WORK"/resume/sweep-*/parts | sed -n 's/^part-0*\([0-9]\)/\1/p' | sed 's/\.csv$//' \
	>"$WORK/done-at-kill"
killed_at=$(wc -l <"$WORK/done-at-kill")
[ "$killed_at" -ge 2 ] && [ "$killed_at" -lt 8 ] && echo "ok: killed after $killed_at of 8 batches" ||
	fail "kill came at $killed_at of 8 batches"
DMO_VALGRIND=$WORK/valgrind "$DMO" sweep "$SMALL" --formula OB --batch 6 \
	--out "$WORK/resume" >/dev/null 2>&1
expect_eq "resumed: exit status" 1 $?
for f in results.csv summary.csv; do
	cmp -s "$WORK"/serial/sweep-*/$f "$WORK"/resume/sweep-*/$f &&
		echo "ok: $f after a kill and a resume = uninterrupted" || fail "resumed $f differs"
done
twice=$(while read -r first; do
	[ "$(grep -cx "0*$first" "$WORK/starts")" -eq 1 ] || echo "$first"; done <"$WORK/done-at-kill")
expect_eq "batches finished before the kill that ran again" "" "$twice"
expect_eq "batch files after the resume" 8 "$(ls "$WORK"/resume/sweep-*/parts | grep -c '^part-')"

# 5. Errors name the position.
expect_sweep_error "empty range" 2 "bad grid: column 14: empty range: 8 > 4" \
	'dwconv2d:in={8..4}x8x1,k=3' --formula OB
expect_sweep_error "unclosed set" 2 "bad grid: column 21: '{' is never closed" \
	'dwconv2d:in=8x8x1,k={3' --formula OB
expect_sweep_error "bad formula" 2 "bad formula: column 5: expected a number, name or '(', found '*'" \
	'relu:in=4x4x1' --formula 'OB +* 2'
expect_sweep_error "unknown variable" 2 "bad formula: column 6: unknown name 'in_x'" \
	'relu:in=4x4x1' --formula 'OB - in_x'
expect_sweep_error "no valid configuration" 2 "no configuration of the grid is a valid op spec" \
	'dwconv2d:in=2x2x1,k={5,6},pad=valid' --formula OB
expect_sweep_error "unknown backend" 2 "unknown backend 'nosuch'" \
	'relu:in=4x4x1' --formula OB --backend nosuch
expect_sweep_error "two sweeps in one collect" 2 "is a different sweep" \
	--collect "$WORK/serial" "$WORK/ob"
finish
