# guest_streams.sh - issue 14, group 4: the program's streams and status
# are its own.  dmo's table goes to stderr (-q: none), never to the
# program's stdout; the exit status is the program's for a normal exit,
# _exit and a signal.
. "$top_srcdir/tests/lib.sh"

# cat copies a file byte for byte through dmo profile.  It marks no
# layer, which dmo says on stderr (and exits 2, cat having exited 0),
# never on the program's stdout.
head -c 100000 /dev/urandom >"$WORK/f"
"$DMO" profile --out "$WORK/cat" -- cat "$WORK/f" >"$WORK/g" 2>"$WORK/cat.err"
expect_eq "cat under dmo profile: status (no layer recorded)" 2 $?
cmp "$WORK/f" "$WORK/g" && echo "ok: stdout is the program's, byte for byte" \
	|| fail "stdout changed: $(cmp "$WORK/f" "$WORK/g" 2>&1)"
grep -q "^dmo profile: no layer was recorded: cat never called dmo_layer_begin" "$WORK/cat.err" &&
	echo "ok: the empty run is told on stderr" || fail "no message on stderr: $(cat "$WORK/cat.err")"
# A program with layers gets its table on stderr.
"$DMO" profile --out "$WORK/relu" -- "$TARGETS/relu" >"$WORK/relu.out" 2>"$WORK/relu.err"
expect_eq "relu under dmo profile: status" 0 $?
grep -q "^layer .*O_s bytes" "$WORK/relu.err" && echo "ok: the table is on stderr" \
	|| fail "no table on stderr: $(cat "$WORK/relu.err")"
expect_eq "relu under dmo profile: stdout" "" "$(cat "$WORK/relu.out")"
# Profiling into the same folder again says what it replaced.
# The count: every file the first run left but its lock.
earlier=$(find "$WORK/relu" -maxdepth 1 -type f ! -name .dmo-lock | wc -l)
"$DMO" profile --out "$WORK/relu" -- "$TARGETS/relu" >/dev/null 2>"$WORK/again.err"
expect_eq "re-profile: status" 0 $?
grep -q "^dmo profile: $WORK/relu held an earlier run; its $earlier files (.*) were removed$" \
	"$WORK/again.err" && echo "ok: a re-profile says what it removed" ||
	fail "re-profile: $(head -2 "$WORK/again.err")"
# stdin too.
"$DMO" profile --out "$WORK/cat-in" -- cat <"$WORK/f" >"$WORK/g2" 2>/dev/null
cmp -s "$WORK/f" "$WORK/g2" && echo "ok: stdin is the program's" || fail "stdin not passed"

# -q: no table; layers.csv as always.
"$DMO" profile -q --out "$WORK/quiet" -- "$TARGETS/relu" >"$WORK/quiet.out" 2>"$WORK/quiet.err"
expect_eq "-q: status" 0 $?
expect_eq "-q: nothing on stderr" "" "$(cat "$WORK/quiet.err")"
expect_eq "-q: nothing on stdout" "" "$(cat "$WORK/quiet.out")"
expect_eq "-q: layers.csv written" ok "$(field "$WORK/quiet" relu_forward status)"

# Exit statuses: exit(7) inside a layer, _exit(5), a signal.
profile "$WORK/exit" -- "$TARGETS/misuse" exit-mid-layer
expect_eq "exit(7): status" 7 $?
profile "$WORK/_exit" -- "$TARGETS/misuse" _exit
expect_eq "_exit(5): status" 5 $?
expect_eq "_exit(5): layer before kept" ok "$(field "$WORK/_exit" before status)"
profile "$WORK/segv" -- "$TARGETS/misuse" crash-mid-layer
expect_eq "SIGSEGV: status 128+11" 139 $?
profile "$WORK/shexit" -- sh -c 'exit 3'
expect_eq "sh -c 'exit 3': status" 3 $?
finish
