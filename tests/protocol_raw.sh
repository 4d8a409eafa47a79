# protocol_raw.sh - the wire protocol of docs/protocol.md spoken byte by
# byte by a target that does not use libdmo-harness; garbage and truncated
# records are reported and recorded without losing good layers.
. "$top_srcdir/tests/lib.sh"

profile "$WORK/good" -- "$TARGETS/raw_protocol" good
expect_eq "raw good: exit status" 0 $?
# In-order copy: O_s = OB = 512; reversed: the first write ends at OB: 0.
expect_eq "raw copy_forward O_s" 512 "$(field "$WORK/good" copy_forward os_bytes)"
expect_eq "raw copy_backward O_s" 0 "$(field "$WORK/good" copy_backward os_bytes)"

profile "$WORK/garbage" -- "$TARGETS/raw_protocol" garbage
expect_eq "raw garbage: exit status" 0 $?
layer_rows "$WORK/garbage" | by_name '{ print v("status") }' | grep -qx error:bad-fifo-record \
	&& echo "ok: garbage recorded" || fail "garbage not recorded"
grep -q "bad FIFO record: bad magic" "$WORK/garbage.err" && echo "ok: garbage message" \
	|| fail "no garbage message"
expect_eq "layer after garbage" ok "$(field "$WORK/garbage" after_garbage status)"
expect_eq "layer after garbage O_s" 512 "$(field "$WORK/garbage" after_garbage os_bytes)"

profile "$WORK/trunc" -- "$TARGETS/raw_protocol" truncated
expect_eq "raw truncated: exit status" 0 $?
expect_eq "layer before truncation" ok "$(field "$WORK/trunc" before_truncation status)"
layer_rows "$WORK/trunc" | by_name '{ print v("status") }' | grep -qx error:truncated-fifo-record \
	&& echo "ok: truncation recorded" || fail "truncation not recorded"
finish
