#!/bin/sh
# bench/tape.sh - the tape benchmark table (bench/bench_tape) with, for the
# spill rows, a sequential dd write of the same bytes to the same directory,
# so spill throughput can be judged against what the disk gives anyone.
#
#   bench/tape.sh [--max N] [--dir DIR] [other bench_tape options]
#
# Default sizes 10^3 .. 10^8 (a few minutes).  For 10^9 run
#   bench/tape.sh --max 1e9
# which needs 16 GB free in DIR (default $TMPDIR or /tmp); the in-RAM
# structures are skipped above half of MemAvailable.  Neither dd nor the
# tape syncs, so both measure writes into the page cache.
set -e
bin=${BENCH_TAPE:-$(dirname "$0")/bench_tape}
max=1e8
dir=${TMPDIR:-/tmp}
prev=
for a in "$@"; do
	case $prev in
	--max) max=$a ;;
	--dir) dir=$a ;;
	esac
	prev=$a
done

rates=
n=1000
while [ "$(awk -v n="$n" -v m="$max" 'BEGIN { print (n <= m + 0) }')" = 1 ]; do
	bytes=$((n * 16))
	f="$dir/dmo-dd.$$"
	secs=$(LC_ALL=C dd if=/dev/zero of="$f" bs=1M count="$bytes" \
		iflag=count_bytes 2>&1 |
		awk '/copied/ { for (i = 1; i <= NF; i++) if ($i == "s,") print $(i - 1) }')
	rm -f "$f"
	rate=$(awk -v b="$bytes" -v s="$secs" 'BEGIN { printf "%.1f", (s > 0 ? b / s / 1e6 : 0) }')
	rates="$rates${rates:+,}$n=$rate"
	n=$((n * 10))
done
exec "$bin" --dd "$rates" "$@"
