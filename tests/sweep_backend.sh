# sweep_backend.sh - issue 20: `dmo sweep --backend` on a third-party
# library (xnnpack, or $SWEEP_BACKEND), capped at sse4 so that Valgrind runs
# no 256-bit FMA.  Skipped (77) when configure did not build the backend.
#  1. configurations the backend cannot run (XNNPACK runs f32 only) are
#     skipped and counted: the count is the grid's i8 half, by bash;
#  2. every exact O_s measured under the tool is safe natively: the same
#     library, same cap, run with its buffers really overlapped at that
#     value gives the separate-buffer output bit for bit (dmo verify);
#  3. the formula column is the paper's bound, which `dmo formula` computes
#     independently for the reference loop order; UNSAFE exactly where it
#     exceeds the measured O_s, and the exit status says so;
#  4. the backend and cap are part of the sweep: another directory than
#     the ref sweep of the same grid and formula, named in summary.csv and
#     in the emitted commands, which, run and collected, give the same
#     results as the single run.
. "$top_srcdir/tests/lib.sh"
BACKEND=${SWEEP_BACKEND:-xnnpack}
ISA=sse4
PAPER=$top_srcdir/tests/sweep/paper_dwconv.formula
# summary METRIC DIR: one value of DIR/sweep-*/summary.csv, unquoted (the
# formula's text spans lines, but no metric name starts one of them).
summary() { awk -F, -v m="$1" '$1 == m { gsub(/"/, "", $2); print $2 }' "$2"/sweep-*/summary.csv; }

if ! "$DMO" verify --backend "$BACKEND" --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>"$WORK/load.err"; then
	if grep -q "is not available" "$WORK/load.err"; then
		echo "skip: $(cat "$WORK/load.err")"
		exit 77
	fi
	fail "backend $BACKEND does not run fc: $(cat "$WORK/load.err")"
fi

GRID='dwconv2d:in={4,7}x5x{1,3},k={2,3}x3,stride={1,2},pad={same,valid},dtype={f32,i8}'
"$DMO" sweep "$GRID" --backend "$BACKEND" --isa "$ISA" --formula "@$PAPER" --batch 32 \
	--out "$WORK/sw" >"$WORK/sw.out" 2>"$WORK/sw.err"
status=$?
cat "$WORK/sw.out"
bash -c "printf '%s\n' $GRID" >"$WORK/specs"
expect_eq "grid size by bash" 64 "$(wc -l <"$WORK/specs")"

# 1. Skipped: the i8 configurations.
expect_eq "skipped (the backend's unsupported configurations)" "$(grep -c 'dtype=i8' "$WORK/specs")" \
	"$(summary skipped_invalid "$WORK/sw")"
expect_eq "configurations run" "$(grep -c 'dtype=f32' "$WORK/specs")" "$(summary run "$WORK/sw")"
expect_eq "backend in summary.csv" "$BACKEND" "$(summary backend "$WORK/sw")"
expect_eq "ISA cap in summary.csv" "$ISA" "$(summary isa_cap "$WORK/sw")"

# results.csv rows as "spec exact formula verdict".
csv_rows "$WORK"/sw/sweep-*/results.csv |
	by_name '{ print v("spec"), v("exact_os"), v("formula_os"), v("verdict") }' >"$WORK/rows"
expect_eq "rows in results.csv" 32 "$(wc -l <"$WORK/rows")"

# 2. Every measured O_s is safe natively.
unsafe_native=0
while read -r spec exact formula verdict; do
	"$DMO" verify --backend "$BACKEND" --isa "$ISA" --scan-limit 0 --overlap "$exact" "$spec" \
		>"$WORK/verify.out" 2>&1 || { unsafe_native=$((unsafe_native + 1)); echo "at O_s: $spec"; cat "$WORK/verify.out"; }
done <"$WORK/rows"
expect_eq "measured O_s that change the output natively" 0 "$unsafe_native"

# 3. The formula column is dmo's analytic bound (the paper's), and the
# verdicts follow from it and the exact value.
cut -d' ' -f1 "$WORK/rows" >"$WORK/run_specs"
"$DMO" formula --csv $(cat "$WORK/run_specs") >"$WORK/formula.csv"
csv_rows "$WORK/formula.csv" | by_name '{ print v("analytic_os") }' >"$WORK/analytic"
cut -d' ' -f3 "$WORK/rows" | cmp -s - "$WORK/analytic" && echo "ok: formula = dmo formula's analytic value" ||
	fail "formula column differs from dmo formula: $(cut -d' ' -f3 "$WORK/rows" | paste - "$WORK/analytic" | head -3)"
want=$(awk '$3 > $2 { n++ } END { print n + 0 }' "$WORK/rows")
expect_eq "UNSAFE where formula > exact" "$want" "$(awk '$4 == "UNSAFE"' "$WORK/rows" | wc -l)"
expect_eq "summary's unsafe count" "$want" "$(summary unsafe "$WORK/sw")"
expect_eq "exit status (1 when unsafe)" "$([ "$want" -gt 0 ] && echo 1 || echo 0)" "$status"
# Where the formula is unsafe, what the native run at its value shows
# (reported, not asserted: a value check cannot prove an overlap unsafe).
awk '$4 == "UNSAFE"' "$WORK/rows" | while read -r spec exact formula verdict; do
	"$DMO" verify --backend "$BACKEND" --isa "$ISA" --scan-limit 0 --overlap "$formula" "$spec" >/dev/null 2>&1 &&
		echo "unsafe by definition, output unchanged at $formula: $spec (exact $exact)" ||
		echo "unsafe, output changed at $formula: $spec (exact $exact)"
done

# 4. The backend is part of the sweep's identity (the key names the
# directory, and the formula file of emitted commands).
"$DMO" sweep "$GRID" --formula "@$PAPER" --out "$WORK/ref" --emit-commands >/dev/null
ref_key=$(ls "$WORK/ref" | sed -n 's/^formula-\(.*\)\.txt$/\1/p')
key=$(basename "$(echo "$WORK"/sw/sweep-*)" | sed 's/^sweep-//')
[ -n "$ref_key" ] && [ "$ref_key" != "$key" ] && echo "ok: the ref sweep of the same grid is another sweep" ||
	fail "keys: ref '$ref_key', $BACKEND '$key'"
# Emitted commands (smaller batches), run and collected: the same results
# as the single run.
DMO_COMMAND=$DMO "$DMO" sweep "$GRID" --backend "$BACKEND" --isa "$ISA" --formula "@$PAPER" \
	--out "$WORK/emit" --batch 16 --emit-commands >"$WORK/cmds"
grep -q -- "--backend '$BACKEND' --isa '$ISA' " "$WORK/cmds" && echo "ok: emitted commands name backend and cap" ||
	fail "emitted commands: $(cat "$WORK/cmds")"
expect_eq "emitted commands (32 configurations / 16)" 2 "$(wc -l <"$WORK/cmds")"
sh "$WORK/cmds" >"$WORK/cmds.out" 2>&1
expect_eq "emitted commands: exit status" 0 $?
"$DMO" sweep --collect "$WORK"/emit/part-* --out "$WORK/emit" >"$WORK/collect.out" 2>&1
expect_eq "collect: exit status (as the single run's)" "$status" $?
for f in results.csv summary.csv; do
	cmp -s "$WORK"/sw/sweep-*/$f "$WORK"/emit/sweep-*/$f && echo "ok: $f of the collected commands = the single run's" ||
		fail "$f of the collected commands differs"
done
finish
