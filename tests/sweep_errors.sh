# sweep_errors.sh - `dmo sweep`'s refusals and rarer paths, each checked
# for its status and message: option errors found before any run, result
# files damaged between runs (a resume must refuse, never mix), --collect
# on what is no sweep, a formula that fails on some configurations,
# --emit-commands quoting a path for the shell, and harness programs that
# fail or do not exist.  Two sweeps of relu run under the tool (one batch
# each); everything else stops before Valgrind or its program.
. "$top_srcdir/tests/lib.sh"
PLUGIN=$top_builddir/tests/sweep/.libs/paper_dwconv.so
NOT_A_FORMULA=$top_builddir/tests/targets/badbackend/.libs/dmo-backend-xnnpack.so


# 1. Refused before anything runs.
expect_sweep_error "grid of two lines" 2 "bad grid: column 14: a grid is one line" \
	"$(printf 'relu:in=4x4x1\nrelu:in=8x8x1')" --formula OB
expect_sweep_error "--configs past the last configuration" 2 "--configs 1-2 is outside 0-1" \
	'relu:in=1x1x{4,8}' --formula OB --configs 1-2 --out "$WORK/x"
printf 'OB\0 - 1' >"$WORK/nul.formula"
expect_sweep_error "formula file with a NUL byte" 2 "nul.formula: a formula file holds text, not NUL bytes" \
	'relu:in=4x4x1' --formula "@$WORK/nul.formula" --out "$WORK/x"
expect_sweep_error "formula library that does not exist" 2 "$WORK/none.so: No such file or directory" \
	'relu:in=4x4x1' --formula-lib "$WORK/none.so" --out "$WORK/x"
expect_sweep_error "formula library that is no shared object" 2 "cannot load $WORK/nul.formula" \
	'relu:in=4x4x1' --formula-lib "$WORK/nul.formula" --out "$WORK/x"
expect_sweep_error "shared object without dmo_formula_abi" 2 "exports no dmo_formula_abi" \
	'relu:in=4x4x1' --formula-lib "$NOT_A_FORMULA" --out "$WORK/x"
FUTURE=$top_builddir/tests/sweep/.libs/future_abi.so
expect_sweep_error "formula library of the next ABI" 2 \
	"$FUTURE is built for formula ABI $(($(sed -n 's/^#define DMO_FORMULA_ABI \([0-9]*\).*/\1/p' \
		"$top_srcdir/target-harness/include/dmo/formula.h") + 1))" \
	'relu:in=4x4x1' --formula-lib "$FUTURE" --out "$WORK/x"
# 1030 leading zeros make the only configuration 1042 characters long
# (the limit is 1023), so nothing is left to run.
zeros=$(printf '%01030d' 0)
long=$(printf 'x%.0s' $(seq 4000)) # PATH_MAX is 4096 with "/sweep-KEY" after it
expect_sweep_error "--out of 4000 characters" 2 "dmo sweep: --out path too long" \
	'relu:in=4x4x1' --formula OB --out "$WORK/$long"
expect_sweep_error "spec longer than 1023 characters" 2 "no configuration of the grid is a valid op spec" \
	"relu:in=${zeros}4x4x1" --formula OB --out "$WORK/x"
grep -qF "spec longer than 1023 characters" "$WORK/err" && echo "ok: the reason is counted" ||
	fail "reason for the long spec: $(cat "$WORK/err")"

# 2. A formula that fails where OB = 16 (relu:in=1x1x4 in f32: 4 elements of
# 4 bytes): its one configuration is an error, and no figure can be drawn.
"$DMO" sweep 'relu:in=1x1x4' --formula 'OB / (OB - 16)' --out "$WORK/err16" \
	>"$WORK/err16.out" 2>"$WORK/err16.err"
expect_eq "all configurations errors: exit status" 1 $?
grep -qF "  error  relu:in=1x1x4: column 4: division by zero in '/'" "$WORK/err16.out" &&
	echo "ok: summary lists the error" || fail "summary: $(cat "$WORK/err16.out")"
grep -qF "no figure: no configuration has a formula value yet" "$WORK/err16.err" &&
	echo "ok: no figure without a formula value" || fail "figure: $(cat "$WORK/err16.err")"
# Resumed with nothing left to run, where results.csv cannot be replaced:
# the summary's write fails, named.
sweep16=$(echo "$WORK"/err16/sweep-*)
rm "$sweep16/results.csv" && mkdir "$sweep16/results.csv"
expect_sweep_error "summary over a results.csv that is a directory" 2 \
	"$sweep16/results.csv is a folder, not a file dmo wrote" \
	'relu:in=1x1x4' --formula 'OB / (OB - 16)' --out "$WORK/err16"

# 3. A sweep of two configurations with only the second run (--configs):
# relu's O_s is OB = 32 bytes for 1x1x8 in f32, and the formula OB - 1 = 31
# is safe (in and out: 8 elements of 4 bytes).  --collect of it reports the first as missing.
GRID='relu:in=1x1x{4,8}'
"$DMO" sweep "$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/half" >/dev/null 2>&1
expect_eq "half sweep: exit status" 0 $?
sweep=$(echo "$WORK"/half/sweep-*)
expect_eq "half sweep's batch file" "1,relu:in=1x1x8,32,32,32,32,32,31,safe," \
	"$(csv_rows "$sweep/parts/part-00000001.csv" | tail -1 | tr '\t' ,)"
"$DMO" sweep --collect "$WORK/half" --out "$WORK/collected" >"$WORK/collected.out" 2>&1
grep -qF "2 in the grid, 0 skipped as invalid, 1 with results, 1 MISSING" "$WORK/collected.out" &&
	echo "ok: collect counts the missing configuration" || fail "collect: $(cat "$WORK/collected.out")"
collected=$(echo "$WORK"/collected/sweep-*)
rm "$collected/results.csv" && mkdir "$collected/results.csv"
expect_sweep_error "collect over a results.csv that is a directory" 2 \
	"$collected/results.csv is a folder, not a file dmo wrote" --collect "$WORK/half" --out "$WORK/collected"

# 4. The same sweep resumed over a damaged directory: refused, with the
# file and line.  Each case damages a fresh copy.
part=parts/part-00000001.csv
header=$(head -1 "$sweep/$part")
damaged() { # what expected-text CONTENT-OF-THE-BATCH-FILE
	rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
	printf '%s\n' "$3" >"$(echo "$WORK"/d/sweep-*)/$part"
	expect_sweep_error "$1" 2 "$2" "$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/d"
}
damaged "row of 3 fields" "part-00000001.csv:2: 3 fields, not 10" "$header
1,x,2"
damaged "row of 12 fields" "part-00000001.csv:2: more than 10 fields" "$header
1,relu:in=1x1x8,32,32,32,32,32,31,safe,,,"
damaged "header without exact_os" "part-00000001.csv: no column 'exact_os'" \
	"$(echo "$header" | sed 's/exact_os/exact/')"
damaged "config index not a number" "part-00000001.csv:2: bad config index 'one'" "$header
one,relu:in=1x1x8,32,32,32,32,32,31,safe,"
damaged "config index past the grid" "bad config index '2'" "$header
2,relu:in=1x1x8,32,32,32,32,32,31,safe,"
damaged "spec of another configuration" \
	"configuration 1 is 'relu:in=1x1x8' in this sweep, not 'relu:in=1x1x4'" "$header
1,relu:in=1x1x4,32,32,32,32,32,31,safe,"
damaged "unknown verdict" "part-00000001.csv:2: malformed result row" "$header
1,relu:in=1x1x8,32,32,32,32,32,31,fine,"
damaged "negative byte count" "part-00000001.csv:2: malformed result row" "$header
1,relu:in=1x1x8,-32,32,32,32,32,31,safe,"
damaged "formula value not a number" "part-00000001.csv:2: bad formula_os '3x'" "$header
1,relu:in=1x1x8,32,32,32,32,32,3x,safe,"
damaged "quote never closed" "part-00000001.csv:2:" "$header
1,\"relu:in=1x1x8,32,32,32,32,32,31,safe,"
damaged "quote inside a field" "part-00000001.csv:2: error parsing data while strict checking enabled" "$header
1,re\"lu:in=1x1x8,32,32,32,32,32,31,safe,"
rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
d=$(echo "$WORK"/d/sweep-*)
sed 's/,31,safe/,30,safe/' "$d/$part" >"$d/parts/part-00000009.csv"
expect_sweep_error "two batch files disagree" 2 "configuration 1 has two different results" \
	"$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/d"
rm -f "$d/parts/part-00000009.csv"
echo "seed=5" >>"$d/sweep.txt"
expect_sweep_error "sweep.txt of another sweep" 2 "belongs to a different sweep" \
	"$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/d"
rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
d=$(echo "$WORK"/d/sweep-*)
if command -v flock >/dev/null; then
	flock "$d/lock" "$DMO" sweep "$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/d" \
		>/dev/null 2>"$WORK/err"
	expect_eq "sweep directory locked by another: exit status" 2 $?
	grep -qF "is in use by another dmo sweep" "$WORK/err" && echo "ok: lock held is refused" ||
		fail "lock: $(cat "$WORK/err")"
fi

rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
d=$(echo "$WORK"/d/sweep-*)
rm "$d/lock" && mkdir "$d/lock"
expect_sweep_error "lock file a folder" 2 "$d/lock: Is a directory" \
	"$GRID" --formula 'OB - 1' --configs 1-1 --out "$WORK/d"
# --emit-commands over an --out whose part-* folder (a command emitted
# before, run elsewhere) holds configuration 1's result: only configuration
# 0 is left to emit; a damaged batch file there is refused.
mkdir -p "$WORK/emit-parts/part-1" && cp -r "$sweep" "$WORK/emit-parts/part-1/"
"$DMO" sweep "$GRID" --formula 'OB - 1' --emit-commands --out "$WORK/emit-parts" >"$WORK/emitted"
expect_eq "emit with one result in a part-* folder: exit status" 0 $?
expect_eq "emit with one result in a part-* folder: the commands" "1 --configs 0-0" \
	"$(wc -l <"$WORK/emitted") $(grep -o -- '--configs [0-9-]*' "$WORK/emitted")"
printf '%s\n1,x,2\n' "$header" >"$(echo "$WORK"/emit-parts/part-1/sweep-*)/$part"
expect_sweep_error "emit over a damaged part-* folder" 2 "part-00000001.csv:2: 3 fields, not 10" \
	"$GRID" --formula 'OB - 1' --emit-commands --out "$WORK/emit-parts"

# 5. --collect on what is not one sweep.
mkdir -p "$WORK/empty" "$WORK/two/sweep-a" "$WORK/two/sweep-b" "$WORK/bad/sweep-a"
expect_sweep_error "collect: no sweep directory" 2 "holds no sweep directory" --collect "$WORK/empty"
expect_sweep_error "collect: two sweep directories" 2 "holds more than one sweep directory" \
	--collect "$WORK/two"
echo "key=0123456789abcdef" >"$WORK/bad/sweep-a/sweep.txt"
expect_sweep_error "collect: sweep.txt without a grid" 2 "sweep.txt is not a sweep description" \
	--collect "$WORK/bad"

# --collect of a damaged copy of the half sweep of 3.: refused, naming what.
# Given the sweep-KEY folder itself rather than its parent, it reads the
# same (and exits 2 as every summary with a configuration missing does).
"$DMO" sweep --collect "$sweep" --out "$WORK/collected2" >"$WORK/collected2.out" 2>&1
expect_eq "collect of the sweep folder itself: exit status" 2 $?
grep -qF "2 in the grid, 0 skipped as invalid, 1 with results, 1 MISSING" "$WORK/collected2.out" &&
	echo "ok: the same counts" || fail "collect: $(cat "$WORK/collected2.out")"
collect_damaged() { # what expected-text SHELL-COMMAND-IN-THE-COPY'S-SWEEP-FOLDER
	rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
	(cd "$WORK"/d/sweep-* && eval "$3")
	expect_sweep_error "collect, $1" 2 "$2" --collect "$WORK/d" --out "$WORK/collected3"
}
collect_damaged "sweep.txt a folder" "sweep.txt: read error" "rm sweep.txt && mkdir sweep.txt"
collect_damaged "no formula.txt" "formula.txt: No such file or directory" "rm formula.txt"
collect_damaged "a grid that does not parse" "bad grid: column 8: '{' is never closed" \
	"sed -i 's/^grid=.*/grid=relu:in{/' sweep.txt"
collect_damaged "a batch file of 3 fields" "part-00000001.csv:2: 3 fields, not 10" \
	"printf '%s\\n1,x,2\\n' '$header' >$part"
collect_damaged "parts a file" "parts: Not a directory" "rm -r parts && : >parts"
# The sweep ran on a backend whose plugin no longer loads.
rm -rf "$WORK/d" && cp -r "$WORK/half" "$WORK/d"
sed -i 's/^backend=.*/backend=xnnpack/' "$WORK"/d/sweep-*/sweep.txt
mkdir -p "$WORK/junk" && printf 'not an ELF file' >"$WORK/junk/dmo-backend-xnnpack.so"
DMO_BACKEND_DIR=$WORK/junk "$DMO" sweep --collect "$WORK/d" --out "$WORK/collected3" \
	>/dev/null 2>"$WORK/err"
expect_eq "collect, its backend's plugin damaged: exit status" 2 $?
grep -qF "dmo sweep: backend xnnpack: $WORK/junk/dmo-backend-xnnpack.so: file too short" "$WORK/err" &&
	echo "ok: the plugin is named" || fail "collect, damaged plugin: $(cat "$WORK/err")"
: >"$WORK/plain"
expect_sweep_error "collect into an --out below a file" 2 "plain/x/sweep-" \
	--collect "$WORK/half" --out "$WORK/plain/x"

# 6. --emit-commands with a formula library whose path holds a quote and
# a sample: the emitted line, read back by the shell, has the path whole.
cp "$PLUGIN" "$WORK/it's.so"
DMO_COMMAND=$DMO "$DMO" sweep 'dwconv2d:in=4x4x1,k={1,3}x1' --formula-lib "$WORK/it's.so" \
	--sample 1 --seed 3 --emit-commands --out "$WORK/emit" >"$WORK/commands"
expect_eq "emit: exit status" 0 $?
eval "set -- $(head -1 "$WORK/commands")"
lib= sample=
while [ $# -gt 0 ]; do
	case $1 in --formula-lib) lib=$2 ;; --sample) sample=$2 ;; esac
	shift
done
expect_eq "emitted --formula-lib, after the shell's quote removal" "$WORK/it's.so" "$lib"
expect_eq "emitted --sample" 1 "$sample"
# 7. Batches whose harness fails: each is reported, the sweep exits 2 and
# asks for a rerun, and the summary counts both configurations as missing.
DMO_HARNESS=/bin/false "$DMO" sweep "$GRID" --formula OB --batch 1 --out "$WORK/false" \
	>"$WORK/false.out" 2>"$WORK/false.err"
expect_eq "harness exits 1: exit status" 2 $?
expect_eq "harness exits 1: batches reported" 2 \
	"$(grep -c "configurations [01]-[01]: the harness exited with status 1" "$WORK/false.err")"
grep -qF "2 configurations failed to run; run the same command again to retry them" \
	"$WORK/false.err" && echo "ok: rerun asked for" || fail "rerun: $(cat "$WORK/false.err")"
grep -qF "0 with results, 2 MISSING" "$WORK/false.out" && echo "ok: both missing" ||
	fail "summary: $(cat "$WORK/false.out")"
# A harness that runs and records nothing (/bin/true): the batch of two
# configurations recorded 0 layers, and both are missing.
DMO_HARNESS=/bin/true "$DMO" sweep "$GRID" --formula OB --out "$WORK/true" \
	>"$WORK/true.out" 2>"$WORK/true.err"
expect_eq "harness records nothing: exit status" 2 $?
grep -qF "configurations 0-1: 0 layers recorded, not 2" "$WORK/true.err" &&
	echo "ok: the empty batch is named" || fail "empty batch: $(cat "$WORK/true.err")"
DMO_HARNESS=$WORK/no-harness "$DMO" sweep "$GRID" --formula OB --out "$WORK/none" \
	>/dev/null 2>"$WORK/none.err"
expect_eq "no harness program: exit status" 2 $?
grep -qF "cannot run the harness program $WORK/no-harness" "$WORK/none.err" &&
	echo "ok: the missing harness is named" || fail "missing harness: $(cat "$WORK/none.err")"
finish
