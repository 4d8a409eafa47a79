# trace_versions.sh - event-file version 2 (compact, coded events) against
# version 1 (16-byte events), both written by the real tool for the same
# programs the other trace tests profile: every reader sees the same
# events (dmo export byte for byte, dmo analyze's table and curves), the
# compact file is smaller, and a layer that spills in the tool (--max-mem
# 2M) and in dmo analyze's tape (more than its 32 MiB of events) gives the
# same curves both ways.  Then version 2 damaged: cut short, lengthened,
# and a file the tool never finished, whose whole events are read (the
# same as the first events of version 1's file).
. "$top_srcdir/tests/lib.sh"
HARNESS=$top_builddir/target-harness/harness/dmo-harness
SPECS="relu:in=8x8x4 dwconv2d:in=12x12x8,k=3x3,stride=2,pad=same add:in=6x6x3"

# both NAME ARGS...: profile with --trace=full in both versions, into
# $WORK/NAME-1 and $WORK/NAME-2.
both() {
	name=$1; shift
	for v in 1 2; do
		profile "$WORK/$name-$v" --trace=full --trace-version "$v" "$@"
		expect_eq "$name, version $v: exit status" 0 $?
	done
}

# same_events NAME: every event file of the two runs exports to the same
# CSV, the compact file being the smaller (and its header's version 2).
same_events() {
	for v in 1 2; do
		"$DMO" export --csv "$WORK/$1-$v" >/dev/null 2>"$WORK/export.err" ||
			fail "$1: export of version $v: $(cat "$WORK/export.err")"
	done
	for f in "$WORK/$1-1"/layer-*.events; do
		layer=$(basename "$f" .events)
		if cmp -s "$WORK/$1-1/$layer.csv" "$WORK/$1-2/$layer.csv"; then
			echo "ok: $1 $layer: the same $(($(wc -l <"$WORK/$1-1/$layer.csv") - 1)) events in both versions"
		else
			fail "$1 $layer: the versions' exports differ"
		fi
		old=$(stat -c %s "$f") new=$(stat -c %s "$WORK/$1-2/$layer.events")
		[ "$new" -lt "$old" ] && echo "ok: $1 $layer: $new bytes, not $old" ||
			fail "$1 $layer: version 2 takes $new bytes, version 1 $old"
		expect_eq "$1 $layer: versions in the headers" "1 2" \
			"$(od -An -tu4 -j8 -N4 "$f" | tr -d ' ') $(od -An -tu4 -j8 -N4 "$WORK/$1-2/$layer.events" | tr -d ' ')"
	done
}

# same_analysis NAME: dmo analyze gives the same table and curves.
same_analysis() {
	for v in 1 2; do
		"$DMO" analyze --csv "$WORK/$1-$v" >"$WORK/$1-$v.analysis" 2>"$WORK/$1-$v.analyze.err"
		expect_eq "$1: analyze of version $v: status" 0 $?
	done
	cmp -s "$WORK/$1-1.analysis" "$WORK/$1-2.analysis" && echo "ok: $1: the same analysis" ||
		fail "$1: analyses differ: $(diff "$WORK/$1-1.analysis" "$WORK/$1-2.analysis" | head -5)"
	for f in "$WORK/$1-1"/layer-*-curves.csv; do
		cmp -s "$f" "$WORK/$1-2/$(basename "$f")" && echo "ok: $1: the same $(basename "$f")" ||
			fail "$1: $(basename "$f") differs"
	done
}

# The test targets of profile_kernels.sh (the one-thread ones: the
# threaded layers' interleaving differs from run to run) and op specs of
# dmo run through dmo-harness.
both relu -- "$TARGETS/relu"
same_events relu
same_analysis relu
both kernels -- "$TARGETS/kernels" dwconv accumulate relu_avx
same_events kernels
both specs -- "$HARNESS" $SPECS
same_events specs
same_analysis specs

# 2.4 M events (88x88x32 depthwise, 3x3): 39 MB in version 1, beyond
# dmo analyze's 32 MiB in RAM, and beyond the tool's 2 MiB in either.
both spill --max-mem 2M -- "$HARNESS" dwconv2d:in=88x88x32,k=3x3,stride=1,pad=same
events=$(header_u64 "$WORK/spill-1/layer-0001.events" 40)
[ "$events" -gt 2200000 ] && echo "ok: $events events spill in the tool and in analyze" ||
	fail "only $events events"
expect_eq "spill: version 2 holds them all" "$events" "$(header_u64 "$WORK/spill-2/layer-0001.events" 40)"
same_analysis spill

# Damage to version 2, read by dmo export: the layer is skipped, named,
# and the others exported (exit 1).
EVENTS=layer-0001.events
run=$WORK/specs-2
size=$(stat -c %s "$run/$EVENTS")
n=$(header_u64 "$run/$EVENTS" 40)
copy() { rm -rf "$WORK/$1" && cp -r "$run" "$WORK/$1"; }
copy short
truncate -s $((size - 1)) "$WORK/short/$EVENTS"
expect_refusal "a byte cut off" 1 \
	"$WORK/short/$EVENTS: header says $n events in $((size - 72)) bytes but the file holds $((size - 73)) bytes" \
	"$DMO" export --csv "$WORK/short"
copy long
printf '\0' >>"$WORK/long/$EVENTS"
expect_refusal "a byte added" 1 "$WORK/long/$EVENTS: header says $n events" "$DMO" export --csv "$WORK/long"
# The header's count one more than the bytes hold: the bytes run out.
copy more
printf "$(printf '\\%03o' $(((n + 1) % 256)) $(((n + 1) / 256 % 256)))" |
	dd of="$WORK/more/$EVENTS" bs=1 seek=40 conv=notrunc 2>/dev/null
expect_refusal "one event more in the header" 1 "$WORK/more/$EVENTS: the events end inside event $n" \
	"$DMO" export --csv "$WORK/more"
# No events in the header, bytes in the file: more than 21 bytes an event.
copy zero
printf '\0\0\0\0\0\0\0\0' | dd of="$WORK/zero/$EVENTS" bs=1 seek=40 conv=notrunc 2>/dev/null
expect_refusal "no events but bytes" 1 "$WORK/zero/$EVENTS: header says 0 events in $((size - 72)) bytes" \
	"$DMO" export --csv "$WORK/zero"
# Unfinished (event_count 2^64 - 1) and cut inside an event: its whole
# events are read, the same as version 1's first events.
copy open
printf '\377\377\377\377\377\377\377\377' | dd of="$WORK/open/$EVENTS" bs=1 seek=40 conv=notrunc 2>/dev/null
truncate -s $((size - 2)) "$WORK/open/$EVENTS"
"$DMO" export --csv "$WORK/open" >/dev/null 2>"$WORK/open.err"
rows=$(($(wc -l <"$WORK/open/layer-0001.csv") - 1))
[ "$rows" -gt 0 ] && [ "$rows" -lt "$n" ] && echo "ok: unfinished file: $rows of $n events read" ||
	fail "unfinished file: $rows events read of $n: $(cat "$WORK/open.err")"
head -n $((rows + 1)) "$WORK/specs-1/layer-0001.csv" | cmp -s - "$WORK/open/layer-0001.csv" &&
	echo "ok: they are version 1's first $rows events" || fail "unfinished file: other events"
finish
