# lib.sh - shared helpers for the shell tests: where things are, and
# assertions that print what differed.  Sourced, not run.
: "${top_builddir:?run through make check}"
DMO="$top_builddir/analysis/dmo"
TARGETS="$top_builddir/tests/targets"
WORK=$(mktemp -d /tmp/dmo-test.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

expect_eq() { # what expected actual
	if [ "$2" = "$3" ]; then echo "ok: $1 = $3"; else fail "$1: expected $2, got $3"; fi
}

# field RUN_DIR LAYER_NAME COLUMN: one value of layers.csv, via layers_tsv.
# Columns: 1 layer 2 name 3 status 4 os_bytes 5 out_bytes 6 in_reads
# 7 in_writes 8 out_reads 9 out_writes 10 steps 11 instructions 12 threads
# 13 os_any_bytes
field() {
	"$top_builddir/tests/layers_tsv" "$1/layers.csv" | awk -F'\t' -v n="$2" -v c="$3" '$2 == n { print $c }'
}

# expect_full_trace DIR LAYER_NAME: the layer's event file holds every
# event it counted (72-byte header + 16 bytes an event; the kernels only
# read the input and write the output).  Leaves the count in $events.
expect_full_trace() {
	events=$(( $(field "$1" "$2" 6) + $(field "$1" "$2" 9) ))
	expect_eq "event file holds every event" $((72 + 16 * events)) \
		"$(stat -c %s "$(printf '%s/layer-%04d.events' "$1" "$(field "$1" "$2" 1)")")"
}

# expect_analyze_ok FILE: dmo analyze's output in FILE gives its layer the
# verdict ok, so the trace's O_s, the tool's and the algorithmic agree.
expect_analyze_ok() {
	grep -q " ok$" "$1" && echo "ok: trace O_s = tool O_s = algorithmic" ||
		fail "analyze verdict: $(cat "$1")"
}

# profile DIR [--trace=full] -- PROGRAM...: runs dmo profile, keeps output.
profile() {
	dir=$1; shift
	"$DMO" profile --out "$dir" "$@" >"$dir.out" 2>"$dir.err"
}

finish() {
	if [ "$failures" -ne 0 ]; then
		echo "$failures check(s) failed"
		exit 1
	fi
	exit 0
}
