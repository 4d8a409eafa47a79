# profile_misuse.sh - every protocol misuse gets one clear message, an
# error row in layers.csv, a negative return to the program, and leaves
# the program and the good layers around it untouched.
. "$top_srcdir/tests/lib.sh"

check_case() { # CASE REASON_STATUS
	profile "$WORK/$1" -- "$TARGETS/misuse" "$1"
	expect_eq "$1: program exit status" 0 $?
	expect_eq "$1: layer before" ok "$(field "$WORK/$1" before status)"
	expect_eq "$1: layer after" ok "$(field "$WORK/$1" after status)"
	grep -q "returned -" "$WORK/$1.out" && echo "ok: $1: harness call returned an error" \
		|| fail "$1: harness call did not return an error"
	layer_rows "$WORK/$1" | by_name '{ print v("status") }' | grep -qx "$2" \
		&& echo "ok: $1: status $2 recorded" || fail "$1: no $2 row in layers.csv"
	grep -q "dmo: protocol error: .*\[$2\]" "$WORK/$1.err" \
		&& echo "ok: $1: message on valgrind's output" || fail "$1: no message for $2"
}

check_case end-without-begin error:end-without-begin
check_case nested error:nested-begin
check_case zero-size error:zero-size-buffer
check_case overlap error:overlapping-buffers
check_case unmapped error:unmapped-buffer
check_case two-threads error:nested-begin
# The outer layer of the nested cases completes normally; in two-threads
# only the main thread touched its buffers, but a second thread was alive
# while it was open, so it is not plain ok (docs/threads.md).
expect_eq "nested: outer layer" ok "$(field "$WORK/nested" outer status)"
expect_eq "two-threads: outer layer" ok:alive=2 "$(field "$WORK/two-threads" outer status)"

# Ending the program inside a layer keeps what was recorded, marked
# incomplete, and dmo profile exits with the program's status.
profile "$WORK/exit" -- "$TARGETS/misuse" exit-mid-layer
expect_eq "exit-mid-layer: exit status passed through" 7 $?
expect_eq "exit-mid-layer: layer before" ok "$(field "$WORK/exit" before status)"
expect_eq "exit-mid-layer: open layer" incomplete "$(field "$WORK/exit" dying status)"
expect_eq "exit-mid-layer: its write was counted" 1 "$(field "$WORK/exit" dying out_writes)"

profile "$WORK/crash" -- "$TARGETS/misuse" crash-mid-layer
expect_eq "crash-mid-layer: status 128+SIGSEGV" 139 $?
expect_eq "crash-mid-layer: layer before" ok "$(field "$WORK/crash" before status)"
expect_eq "crash-mid-layer: open layer" incomplete "$(field "$WORK/crash" crashing status)"
# The table shows no O_s for the layer cut short (columns 7, 8: O_s bytes,
# O_s %), and says what killed the program.
expect_eq "crash-mid-layer: no O_s shown" "- -" \
	"$(awk '$2 == "crashing" { print $7, $8 }' "$WORK/crash.err")"
grep -q "killed by signal 11" "$WORK/crash.err" && echo "ok: crash-mid-layer: the signal is named" \
	|| fail "crash-mid-layer: no message about the signal: $(cat "$WORK/crash.err")"

# An output directory that cannot be written: a clear error, status 2.
"$DMO" profile --out /proc/dmo-cannot-exist -- "$TARGETS/relu" >"$WORK/ro.out" 2>&1
expect_eq "unwritable --out: exit status" 2 $?
grep -q "cannot create output directory /proc/dmo-cannot-exist" "$WORK/ro.out" \
	&& echo "ok: unwritable --out: message" || fail "unwritable --out: no message"

# Bad command lines.
"$DMO" profile --trace=everything -- "$TARGETS/relu" >/dev/null 2>&1
expect_eq "bad --trace: exit status" 2 $?
"$DMO" profile >/dev/null 2>&1
expect_eq "no program: exit status" 2 $?
"$DMO" no-such-command >/dev/null 2>&1
expect_eq "unknown command: exit status" 2 $?
finish
