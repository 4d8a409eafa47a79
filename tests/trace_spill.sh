# trace_spill.sh - the tool's full trace keeps at most --max-mem in RAM:
# a layer of ~10^6 events with a 2 MiB budget spills to its event file and
# still matches the tool's exact O_s event for event; a full disk stops the
# trace but keeps the layer's counts and exact O_s.
. "$top_srcdir/tests/lib.sh"
HARNESS="$top_builddir/target-harness/harness/dmo-harness"
SPEC=dwconv2d:in=56x56x32,k=3x3,stride=1,pad=same

profile "$WORK/spill" --trace=full --max-mem 2M -- "$HARNESS" "$SPEC"
expect_eq "spilled layer status" ok "$(field "$WORK/spill" op1_dwconv2d status)"
expect_full_trace "$WORK/spill" op1_dwconv2d
[ "$events" -gt 300000 ] && echo "ok: $events events > the 2 MiB budget (131072)" \
	|| fail "layer too small to spill ($events events)"
"$DMO" analyze "$WORK/spill" >"$WORK/spill.analyze" 2>&1
expect_eq "analyze on the spilled trace" 0 $?
expect_analyze_ok "$WORK/spill.analyze"

# A full disk: a 1 MiB tmpfs as the run directory (needs root; skipped
# without permission to mount).
mkdir -p "$WORK/small"
if mount -t tmpfs -o size=1m tmpfs "$WORK/small" 2>/dev/null; then
	"$DMO" profile --out "$WORK/small/run" --trace=full --max-mem 2M -- "$HARNESS" "$SPEC" \
		>"$WORK/full.out" 2>"$WORK/full.err"
	# The disk is too full for layers.csv too: dmo says so (status 2),
	# but the tool's row, claimed at begin, survived and is printed.
	expect_eq "full disk: dmo profile status" 2 $?
	grep -q "No space left on device" "$WORK/full.err" \
		&& echo "ok: full disk: dmo profile says why" || fail "full disk: no dmo message"
	grep -q "disk full" "$WORK/full.err" && echo "ok: full disk: tool message" \
		|| fail "full disk: no tool message"
	row=$(grep op1_dwconv2d "$WORK/full.err")
	case "$row" in
	*"$(field "$WORK/spill" op1_dwconv2d os_bytes)"*error:trace-write-failed*)
		echo "ok: full disk: row kept with the exact O_s: $row" ;;
	*) fail "full disk: row lost or wrong: $row" ;;
	esac
	# What reached the disk is still a readable, incomplete trace (read
	# from a copy: the full disk has no room for the CSV).
	cp -r "$WORK/small/run" "$WORK/copy"
	"$DMO" export --csv "$WORK/copy" >"$WORK/small.export" 2>&1
	grep -q "incomplete run" "$WORK/small.export" && echo "ok: full disk: partial trace readable" \
		|| fail "full disk: partial trace unreadable: $(cat "$WORK/small.export")"
	umount "$WORK/small"
else
	echo "note: cannot mount a tmpfs here; full-disk case not run"
fi
finish
