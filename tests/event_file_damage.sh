# event_file_damage.sh - dmo's event-file reader (analysis/lib/trace.c) on a
# real full trace damaged four ways, read by `dmo export --csv`: each is
# refused (exit 2) with the file and what is wrong.  Then the figures of a
# trace cut short but whole, as a run killed early leaves it: no event at
# all, and one input read.  The header is 72 bytes (magic 0-7, version
# 8-11, ..., in_bytes 24-31, out_bytes 32-39, event_count 40-47) and an
# event 16 (flags at byte 14), as in common/trace_format.h and event.h:
# the trace is written in version 1 (--trace-version 1), which dmo still
# reads; tests/trace_versions.sh damages version 2.
. "$top_srcdir/tests/lib.sh"
HARNESS=$top_builddir/target-harness/harness/dmo-harness
profile "$WORK/run" --trace=full --trace-version 1 -- "$HARNESS" relu:in=1x1x4
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
# dmo analyze skips that layer, names it, and exits 1 (bad input skipped).
expect_refusal "analyze of the same" 1 "dmo analyze: layer 1: $WORK/flags/$EVENTS: event 0 is malformed (flags 255" \
	"$DMO" analyze "$WORK/flags"
rm -rf "$WORK/short" && cp -r "$WORK/run" "$WORK/short"
truncate -s $((size - 16)) "$WORK/short/$EVENTS"
export_refused short "one event cut off" \
	"header says $n events but the file holds $(( (n - 1) * 16 )) bytes of events"

# cut NAME K: a copy of the run whose trace is its first K events, the
# header saying so (event_count, little-endian, K < 256).
cut() {
	rm -rf "$WORK/$1" && cp -r "$WORK/run" "$WORK/$1"
	truncate -s $((72 + 16 * $2)) "$WORK/$1/$EVENTS"
	printf "\\$(printf %o "$2")\\0\\0\\0\\0\\0\\0\\0" |
		dd of="$WORK/$1/$EVENTS" bs=1 seek=40 conv=notrunc 2>/dev/null
}
cut none 0
for kind in pattern bounds threads; do
	expect_refusal "plot --kind $kind of no event" 2 "$WORK/none/$EVENTS holds no event: nothing to plot" \
		"$DMO" plot --kind "$kind" --out "$WORK/none.png" "$WORK/none"
done
# relu reads an element before it writes it: the first event is an input
# read.  Its access figures draw it alone; its bounds have no step.
cut read 1
expect_eq "export of the cut trace: kind and buffer of its one event" "R I" \
	"$("$DMO" export --csv "$WORK/read" >/dev/null && csv_rows "$WORK/read/layer-0001.csv" |
		by_name '{ print v("kind"), v("buffer") }')"
for kind in pattern threads; do
	"$DMO" plot --kind "$kind" --out "$WORK/read-$kind.png" "$WORK/read" >"$WORK/out" 2>"$WORK/err"
	expect_eq "plot --kind $kind of one input read: exit status" 0 $?
	is_png "$WORK/read-$kind.png" && echo "ok: a $kind figure" || fail "$kind: $(cat "$WORK/err")"
done
expect_refusal "plot --kind bounds of one input read" 2 "layer 1 has no output write: no step to plot" \
	"$DMO" plot --kind bounds --out "$WORK/read.png" "$WORK/read"
finish
