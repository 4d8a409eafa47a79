# event_file_damage.sh - dmo's event-file reader (analysis/lib/trace.c) on a
# real full trace damaged four ways, read by `dmo export --csv`: each is
# refused (exit 2) with the file and what is wrong.  The header is 72 bytes
# (magic 0-7, version 8-11, ..., event_count 48-55) and an
# event 16 (flags at byte 14), as in common/trace_format.h and event.h.
. "$top_srcdir/tests/lib.sh"
HARNESS=$top_builddir/target-harness/harness/dmo-harness
profile "$WORK/run" --trace=full -- "$HARNESS" relu:in=1x1x4
expect_eq "dmo profile --trace=full: exit status" 0 $?
EVENTS=layer-0001.events
size=$(stat -c %s "$WORK/run/$EVENTS")
n=$(( (size - 72) / 16 ))
[ "$n" -ge 2 ] && echo "ok: $n events" || fail "only $n events in $size bytes"

# damaged NAME OFFSET BYTES-IN-PRINTF-FORM: a copy of the run, patched.
damaged() {
	rm -rf "$WORK/$1" && cp -r "$WORK/run" "$WORK/$1"
	printf "$3" | dd of="$WORK/$1/$EVENTS" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
export_refused() { # name what text
	expect_refusal "$2" 2 "$WORK/$1/$EVENTS: $3" "$DMO" export --csv "$WORK/$1"
	expect_eq "$2: the file named once" 1 "$(grep -oF "$WORK/$1/$EVENTS" "$WORK/err" | wc -l)"
}
damaged magic 0 'X'
export_refused magic "wrong magic" "not a dmo event file"
damaged version 8 '\143'
export_refused version "version 99" "unsupported event-file version 99 (header 72, event 16 bytes)"
damaged flags $((72 + 14)) '\377'
export_refused flags "first event's flags 255" "event 0 is malformed (flags 255"
rm -rf "$WORK/short" && cp -r "$WORK/run" "$WORK/short"
truncate -s $((size - 16)) "$WORK/short/$EVENTS"
export_refused short "one event cut off" \
	"header says $n events but the file holds $(( (n - 1) * 16 )) bytes of events"
finish
