# bare_valgrind.sh - `valgrind --tool=dmo PROG` with nothing set up, as any
# Valgrind tool runs (docs/install.md, "Running the tool directly"): no
# FIFO and no --dmo-out, so the tool makes dmo.out.PID with its own FIFO
# inside, the harness asks for it by client request, and dmo analyze reads
# the folder.  A --dmo-out folder is made, or refused before the program
# runs; a program that marks no layer is told why that may be.
# Expected O_s: tests/targets/relu.c's hand derivation (forwards OB = 4096
# bytes, backwards 0).
. "$top_srcdir/tests/lib.sh"
export VALGRIND_LIB="$top_builddir/dmo-tool"
unset DMO_FIFO
mkdir "$WORK/bare" && cd "$WORK/bare" || exit 1

valgrind --tool=dmo "$TARGETS/relu" >"$WORK/relu.out" 2>"$WORK/relu.err"
expect_eq "bare valgrind --tool=dmo: status" 0 $?
run=$(ls -d dmo.out.* 2>/dev/null)
case $run in
dmo.out.[0-9]*) echo "ok: run folder $run" ;;
*) fail "no single dmo.out.PID folder: '$run'"; finish ;;
esac
grep -q "layer 1 'relu_forward': ok, O_s = 4096 of 4096" "$WORK/relu.err" &&
	echo "ok: the tool reports relu_forward" || fail "tool report: $(cat "$WORK/relu.err")"
grep -q "dmo: 3 layers recorded in $WORK/bare/$run; dmo analyze" "$WORK/relu.err" &&
	echo "ok: the tool says where the run went" || fail "no run folder line: $(cat "$WORK/relu.err")"
[ -s "$run/tool-layers.bin" ] && echo "ok: tool-layers.bin written" || fail "no tool-layers.bin in $run"
[ -e "$run/dmo.fifo" ] && fail "the tool's FIFO was left in $run" || echo "ok: the tool's FIFO removed"
"$DMO" analyze "$run" >"$WORK/analyze.out" 2>"$WORK/analyze.err"
expect_eq "dmo analyze of a bare run: status" 0 $?
expect_eq "dmo analyze of a bare run: stderr" "" "$(cat "$WORK/analyze.err")"
expect_eq "relu_forward O_s" 4096 "$(field "$run" relu_forward os_bytes)"
expect_eq "relu_backward O_s" 0 "$(field "$run" relu_backward os_bytes)"
expect_eq "relu_again O_s" 4096 "$(field "$run" relu_again os_bytes)"

# A full trace, bare: the event files are there, and dmo analyze recomputes
# O_s from them (trace_os) to the tool's value, backwards 0 included.
valgrind -q --tool=dmo --dmo-trace=full --dmo-out="$WORK/full" "$TARGETS/relu" >/dev/null 2>&1
expect_eq "bare full trace: status" 0 $?
"$DMO" analyze "$WORK/full" >/dev/null 2>"$WORK/full.err"
expect_eq "dmo analyze of a bare full trace: status" 0 $?
expect_eq "trace O_s of the three layers" "4096 0 4096" \
	"$(csv_rows "$WORK/full/analysis.csv" | by_name '{ printf "%s%s", sep, v("trace_os"); sep = " " }')"

# --dmo-out names a folder that does not exist: made.  One whose parent is
# missing: refused before the program starts.
valgrind -q --tool=dmo --dmo-out="$WORK/made" "$TARGETS/relu" >/dev/null 2>"$WORK/made.err"
expect_eq "--dmo-out=NEW: status" 0 $?
[ -s "$WORK/made/tool-layers.bin" ] && echo "ok: --dmo-out folder made" || fail "--dmo-out=NEW: $(cat "$WORK/made.err")"
valgrind -q --tool=dmo --dmo-out="$WORK/no/such" "$TARGETS/relu" >"$WORK/nodir.out" 2>"$WORK/nodir.err"
[ $? -ne 0 ] && echo "ok: --dmo-out with no parent fails" || fail "--dmo-out with no parent ran"
grep -q "cannot create the run folder $WORK/no/such: No such file or directory" "$WORK/nodir.err" &&
	echo "ok: says why, with the system's reason" || fail "--dmo-out message: $(cat "$WORK/nodir.err")"
[ -e "$WORK/no" ] && fail "something made under $WORK/no" || echo "ok: nothing half-made"
: >"$WORK/file"
valgrind -q --tool=dmo --dmo-out="$WORK/file" "$TARGETS/relu" >/dev/null 2>"$WORK/file.err"
[ $? -ne 0 ] && grep -q "is not a folder" "$WORK/file.err" && echo "ok: a file as --dmo-out is refused" ||
	fail "--dmo-out=FILE: $(cat "$WORK/file.err")"

# A program that marks no layer: the tool says what may be wrong.
valgrind --tool=dmo --dmo-out="$WORK/none" /bin/true >/dev/null 2>"$WORK/none.err"
expect_eq "unmarked program: status (its own)" 0 $?
grep -q "no layer was marked: the program never called dmo_layer_begin, is not linked with libdmo-harness" \
	"$WORK/none.err" && echo "ok: an empty run says why" || fail "empty run: $(cat "$WORK/none.err")"
"$DMO" analyze "$WORK/none" >/dev/null 2>"$WORK/none-analyze.err"
expect_eq "dmo analyze of a run with no layer: status" 2 $?
grep -q "holds no layer: its program never called dmo_layer_begin" "$WORK/none-analyze.err" &&
	echo "ok: dmo analyze says why a run is empty" || fail "empty analyze: $(cat "$WORK/none-analyze.err")"
grep -q "(errno" "$WORK"/*.err && fail "a tool message gives a bare errno" || echo "ok: no bare errno"
finish
