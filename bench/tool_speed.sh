#!/bin/sh
# bench/tool_speed.sh - wall time of one 112x112x96 3x3 depthwise layer
# (bench/tool_speed) natively and under valgrind --tool=none, dmo (layers
# on, and the same work outside any layer, before and after one layer has
# run over the same buffers), cachegrind without cache
# simulation and lackey --trace-mem=yes, against the issue's three bars;
# and dmo keeping the full trace (--dmo-trace=full, through the tape), in
# event-file version 2 (compact, dmo-full) and version 1 (16-byte events,
# dmo-full-v1) in the same rounds, beside lackey, the other tool that
# writes every access; and the full trace of a run whose --dmo-layers
# leaves the layer out: with its summary row (dmo-unlisted), or skipped
# (dmo-skip, --dmo-untraced=skip).  Then three more
# kernels (tool_speed.c), each under none, dmo (summary) and cachegrind in
# the same rounds: pw/ an int8 1x1 conv (read-heavy), add/ an element-wise
# op (write-heavy), small/ 64 small layers a pass over fresh buffers.
# Last, the size row: the event files of `dmo run --model
# tests/models/tflm_person_detect.tflite --trace=full` in both versions.
# Prints a table and writes it to bench/results/tool_speed.txt, and each
# round's times to bench/results/tool_speed.rounds.
#
#   top_builddir=... bench/tool_speed.sh     (`make bench` sets it)
#
# Method: every row is timed (CPU time by default) twice, with P passes
# and with 1, and the per-pass time is (t(P) - t(1)) / (P - 1), so that
# what a run does once cancels: valgrind's startup, the program's set-up,
# and the first pass's translations of the kernel's code (with dmo, a
# layer's opening also throws every translation away for checked ones,
# and its end names the code locations from the debug information).
# Until issue 31's ninth session the second run had 0 passes, which left
# those one-time costs in every row, the most in dmo's (bench/README.md).
# RUNS rounds each run every row once, in turn, and each time is the
# fastest of its rounds: a slow spell of the shared VM then falls on one
# round of every row, not on all runs of one row.  Lackey writes ~0.5 GB
# of trace per pass, so it runs once, P = 1 against 0 passes, into a file
# in a temporary folder, deleted afterwards; dmo's full trace in version
# 1, ~50 MB a pass, runs FULL_V1_PASSES (default 5), in version 2, 3.6 MB
# a pass, FULL_PASSES (default 60: with 5, a run took well under a second
# more than its base run, and one round's noise moved the row's ratio to
# none by 30 %; with 30, its 0.6 s of work still stood on 0.4 s of
# start-up, whose noise moved the row by several per cent).  The full
# trace's row runs right after none's in each round, so that the two its
# bar compares share the machine's state of the moment, and FULL_PAIRS
# (default 10) more rounds of those two rows alone follow the others (on
# this shared VM the ratio of one round to the next moved from 1.7 to 4.3
# within minutes, bench/README.md).  Environment: PASSES (valgrind rows,
# default 150, so the work outweighs the startup noise), NATIVE_PASSES
# (500), FULL_PASSES, FULL_PAIRS, FULL_V1_PASSES, SHORT_PASSES (add/ and
# small/, 1500), RUNS (5), TIMER (cpu or wall), TMPDIR.
set -e
top_builddir=${top_builddir:-$(cd "$(dirname "$0")/.." && pwd)}
prog=$top_builddir/bench/tool_speed
tool_dir=$top_builddir/dmo-tool
passes=${PASSES:-150}
native_passes=${NATIVE_PASSES:-500}
full_passes=${FULL_PASSES:-60}
full_pairs=${FULL_PAIRS:-10}
full_v1_passes=${FULL_V1_PASSES:-5}
# The add and small kernels take well under a millisecond a pass without
# the tool: enough passes for a run of about a second, against CPU time's
# 10 ms ticks.
short_passes=${SHORT_PASSES:-1500}
runs=${RUNS:-5}
results=$top_builddir/bench/results
valgrind=${DMO_VALGRIND:-valgrind}

for f in "$prog" "$tool_dir/dmo-amd64-linux"; do
	if [ ! -x "$f" ]; then
		echo "tool_speed.sh: $f is missing; run make bench" >&2
		exit 1
	fi
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dmo-speed.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
mkfifo "$tmp/fifo"
mkdir "$tmp/pw" "$tmp/add" "$tmp/small"
mkdir "$tmp/out"
timer_kind=${TIMER:-cpu}
case $timer_kind in
cpu) timer="CPU time (user + system) of each run, fastest of $runs alternating rounds" ;;
wall) timer="date +%s.%N around each run, fastest of $runs alternating rounds" ;;
*) echo "tool_speed.sh: TIMER is cpu or wall, not $timer_kind" >&2; exit 2 ;;
esac
timer="$timer (none and dmo-full: of $((runs + full_pairs)))"

# children_cpu: user + system seconds of this shell's finished children,
# from the `times` builtin's second line (POSIX; 10 ms ticks here).  It
# writes to a file: in a pipe it would run in a subshell with no children.
children_cpu() {
	times >"$tmp/times"
	awk 'NR == 2 { gsub(/[ms]/, " "); print $1 * 60 + $2 + $3 * 60 + $4 }' "$tmp/times"
}

# seconds CMD: the time of one run of the shell command CMD: CPU time
# (user + system, TIMER=cpu, the default) or wall time (TIMER=wall).  On
# this shared VM other engineers' work lengthens wall time far more than
# CPU time.  The shell's own start costs the same with P passes and with
# 0, so it cancels.  The command's messages (cachegrind's cache notes)
# show only if it fails.  Called in $(...), so `times` sees only CMD.
seconds() {
	t0=$(date +%s.%N)
	sh -c "$1" >/dev/null 2>"$tmp/run.err" || {
		cat "$tmp/run.err" >&2
		return 1
	}
	t1=$(date +%s.%N)
	if [ "$timer_kind" = cpu ]; then
		children_cpu
	else
		echo "$t1 $t0" | awk '{ print $1 - $2 }'
	fi
}

# keep_min FILE T: FILE holds the smallest T it was given.
keep_min() {
	if [ ! -f "$1" ] || awk -v t="$2" '{ exit !(t < $1) }' "$1"; then
		echo "$2" >"$1"
	fi
}

dmo="DMO_FIFO='$tmp/fifo' VALGRIND_LIB='$tool_dir' $valgrind -q --tool=dmo \
--dmo-fifo='$tmp/fifo' --dmo-out='$tmp/out' --dmo-trace"
lackey_log=$tmp/lackey.trace
layers=$tmp/out/tool-layers.bin

# bytes PATH: size of the file PATH, or of all files in the folder PATH;
# 0 if absent.
bytes() {
	if [ -d "$1" ]; then du -sb "$1" | cut -f1
	elif [ -f "$1" ]; then wc -c <"$1"; else echo 0; fi
}

# time_row NAME PASSES PREFIX MODE [PATH]: one run of PREFIX tool_speed
# PASSES MODE and one with $base passes (1; lackey's 0), each kept in
# $tmp/NAME.p and .base if it is the fastest yet; $tmp/NAME.n gets the passes
# between them, and $tmp/NAME.b how much larger PATH (the tool's output)
# is after the P run than after the other.  The P run's event files are
# removed before the other run.
base=1
time_row() {
	echo "timing $1 ($2 passes and $base) ..." >&2
	tp=$(seconds "$3 '$prog' $2 $4") || exit 1
	bp=$(bytes "$5")
	rm -f "$tmp"/out/layer-*.events
	t0=$(seconds "$3 '$prog' $base $4") || exit 1
	echo $((bp - $(bytes "$5"))) >"$tmp/$1.b"
	rm -f "$tmp"/out/layer-*.events
	between=$(($2 - base))
	echo "$between" >"$tmp/$1.n"
	keep_min "$tmp/$1.p" "$tp"
	keep_min "$tmp/$1.base" "$t0"
	echo "$1 $round $between $tp $t0" >>"$tmp/rounds"
	rm -f "$lackey_log" "$layers"
}

# The two rows the full trace's bar compares, run in every round and in
# the pairs after the rounds.
none_row() {
	time_row none "$passes" "$valgrind -q --tool=none" layer
}
full_row() {
	time_row dmo-full "$full_passes" "$dmo=full" layer "$tmp/out"
}

cachegrind="$valgrind -q --tool=cachegrind --cache-sim=no \
--cachegrind-out-file=/dev/null"
round=1
while [ "$round" -le "$runs" ]; do
	echo "round $round of $runs" >&2
	time_row native "$native_passes" "" layer
	none_row
	full_row
	time_row dmo-layers "$passes" "$dmo=summary" layer "$layers"
	time_row dmo-outside "$passes" "$dmo=summary" outside "$layers"
	time_row dmo-after "$passes" "$dmo=summary" after "$layers"
	time_row dmo-full-v1 "$full_v1_passes" "$dmo=full --dmo-trace-version=1" layer "$tmp/out"
	time_row dmo-unlisted "$passes" "$dmo=full --dmo-layers=not-this-one" layer "$tmp/out"
	time_row dmo-skip "$passes" "$dmo=full --dmo-layers=not-this-one --dmo-untraced=skip" \
		layer "$tmp/out"
	time_row cachegrind "$passes" "$cachegrind" layer
	for k in pw:conv1x1:$passes add:add:$short_passes small:small:$short_passes; do
		row=${k%%:*} kernel=${k#*:} kp=${k##*:}
		kernel=${kernel%%:*}
		time_row "$row/none" "$kp" "$valgrind -q --tool=none" "layer $kernel"
		time_row "$row/dmo" "$kp" "$dmo=summary" "layer $kernel" "$layers"
		time_row "$row/cg" "$kp" "$cachegrind" "layer $kernel"
	done
	round=$((round + 1))
done
# More rounds of the full trace's bar alone: none and the full trace, in
# turn, the first of the two swapped from pair to pair, so that a slow
# spell or a drift of the machine weighs on both alike.  Their times join
# the rows' (fastest of all rounds) and the median of rounds.
pair=1
while [ "$pair" -le "$full_pairs" ]; do
	echo "full trace's pair $pair of $full_pairs" >&2
	if [ $((pair % 2)) = 1 ]; then
		none_row
		full_row
	else
		full_row
		none_row
	fi
	pair=$((pair + 1))
	round=$((round + 1))
done
# The size row: one model run in each event-file version.
model=$top_builddir/tests/models/tflm_person_detect.tflite
[ -f "$model" ] || model=$(cd "$(dirname "$0")/.." && pwd)/tests/models/tflm_person_detect.tflite
for v in 1 2; do
	echo "size row: person_detect, event-file version $v ..." >&2
	"$top_builddir/analysis/dmo" run -q --out "$tmp/model-v$v" --trace=full --trace-version "$v" \
		--model "$model" >/dev/null 2>"$tmp/model.err" || { cat "$tmp/model.err" >&2; exit 1; }
	cat "$tmp/model-v$v"/layer-*.events | wc -c >"$tmp/model-v$v.b"
	ls "$tmp/model-v$v"/layer-*.events | wc -l >"$tmp/model-v$v.n"
	rm -rf "$tmp/model-v$v"
done
# Lackey is timed once: a minute a run, and its bar has a wide margin.
base=0
time_row lackey 1 "$valgrind -q --tool=lackey --trace-mem=yes \
--log-file='$lackey_log'" layer "$lackey_log"

: >"$tmp/rows"
for name in native none dmo-layers dmo-outside dmo-after dmo-full dmo-full-v1 dmo-unlisted \
	dmo-skip cachegrind lackey \
	pw/none pw/dmo pw/cg add/none add/dmo add/cg small/none small/dmo small/cg; do
	f=$tmp/$name
	echo "$name $(cat "$f.n") $(cat "$f.p") $(cat "$f.base") $(cat "$f.b")" >>"$tmp/rows"
done

mkdir -p "$results"
# median_ratios: per row, the median over the rounds of its per-pass time
# in a round over its none row's in the same round (a kernel row's own
# none).  The fastest-of-rounds table takes each row's best round on its
# own, so a fast spell of the VM that falls on one row's run (none's,
# say) moves every ratio to it; a round's rows run within minutes of each
# other, and the median of their ratios sets aside a round that a spell
# split.
median_ratios() {
	awk '{ k = index($1, "/") ? substr($1, 1, index($1, "/")) : ""
	       t[$1, $2] = ($4 - $5) / $3; none[$1] = k "none"; rounds[$2] = 1; rows[$1] = 1 }
	END { for (r in rows) { n = 0
		for (d in rounds) if ((r, d) in t && (none[r], d) in t && t[none[r], d] > 0)
			v[++n] = t[r, d] / t[none[r], d]
		# insertion sort: a few rounds
		for (i = 2; i <= n; i++) { x = v[i]; for (j = i - 1; j > 0 && v[j] > x; j--) v[j + 1] = v[j]; v[j + 1] = x }
		if (n > 0) print r, (n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2) } }' "$tmp/rounds"
}
median_ratios >"$tmp/medians"
{
	echo "# row round P-base t(P) t(base): seconds of $timer_kind time; base is 1 pass" \
		"(lackey's 0), P-base the passes between the two runs (bench/tool_speed.sh)"
	cat "$tmp/rounds"
} >"$results/tool_speed.rounds"

awk -v timer="$timer" -v passes="$passes" -v model_v1="$(cat "$tmp/model-v1.b")" \
	-v model_v2="$(cat "$tmp/model-v2.b")" -v model_files="$(cat "$tmp/model-v2.n")" '
# -1: no ratio, a time in it not measured (0 or less: a row of too few
# passes for the timer): a bar on it fails, never passes by default.
function ratio(a, b) { return a > 0 && b > 0 ? a / b : -1 }
# A ratio as the table prints it: "-" for none.
function shown(r, format) { return r < 0 ? "-" : sprintf(format, r) }
function bar(what, r, op, limit) {
	if (r < 0) {
		printf "  %-32s =        -   bar %s %-6s FAIL (not measured)\n", what, op, limit
		return
	}
	printf "  %-32s = %8.2f   bar %s %-6s %s\n", what, r, op, limit,
	       (op == "<=" ? r <= limit : r >= limit) ? "PASS" : "FAIL"
}
FILENAME == ARGV[1] { med[$1] = $2; nmed++; next }
{ name[NR - nmed] = $1; p[NR - nmed] = $2; tp[NR - nmed] = $3; t0[NR - nmed] = $4
  pp[$1] = ($3 - $4) / $2; tot[$1] = $3; out[$1] = $5 / $2; rows = NR - nmed }
END {
	printf "dmo tool speed: 112x112x96 f32 depthwise conv, 3x3, stride 1, SAME\n"
	printf "timing: %s; per pass = (t(P passes) - t(1 pass)) / (P - 1)\n", timer
	printf "(lackey: t(1 pass) - t(0 passes)); the P column is P - 1\n\n"
	printf "%-12s %6s %9s %9s %10s %10s %9s %9s\n", "run", "P - 1", "t(P) s", "t(1) s",
	       "ms/pass", "x native", "x none", "rounds"
	for (i = 1; i <= rows; i++) {
		# a kernel row (KERNEL/TOOL) is judged against its own none
		k = index(name[i], "/") ? substr(name[i], 1, index(name[i], "/")) : ""
		printf "%-12s %6d %9.3f %9.3f %10.2f %10s %9s %9s\n", name[i], p[i],
		       tp[i], t0[i], pp[name[i]] * 1e3,
		       k == "" ? shown(ratio(pp[name[i]], pp["native"]), "%.1f") : "-",
		       shown(ratio(pp[name[i]], pp[k "none"]), "%.2f"),
		       name[i] in med ? sprintf("%.2f", med[name[i]]) : "-"
	}
	printf "\n(rounds: the median over the rounds of the row\047s time over none\047s in " \
	       "the same round;\nthe bars judge the fastest-of-rounds ratios, the line " \
	       "after the full trace\047s the rounds\047.)\n"
	printf "\n(x native and x none compare per-pass times; pw/ = int8 1x1 conv " \
	       "28x28x128, add/ = element-wise\nf32 over the depthwise buffers, small/ = " \
	       "64 layers of 4 KiB a pass, cg = cachegrind.)\n"
	printf "dmo-layers wrote %d bytes of layer summary per pass, dmo-outside %d\n",
	       out["dmo-layers"], out["dmo-outside"]
	printf "(0 = no layer opened); lackey wrote %.0f MB of trace per pass " \
	       "(to a temporary file, deleted),\n", out["lackey"] / 1e6
	printf "dmo-full %.1f MB of events (version 2, coded), dmo-full-v1 %.1f MB (16 bytes " \
	       "each),\nwith at most --dmo-max-mem (64 MB) in RAM.\n", out["dmo-full"] / 1e6,
	       out["dmo-full-v1"] / 1e6
	printf "Full trace, per pass: lackey / dmo-full = %.1fx; dmo-full / " \
	       "dmo-layers = %.2fx.\n\n", ratio(pp["lackey"], pp["dmo-full"]),
	       ratio(pp["dmo-full"], pp["dmo-layers"])
	r1 = ratio(pp["dmo-layers"], pp["cachegrind"])
	r2 = ratio(pp["lackey"], pp["dmo-layers"])
	r3 = ratio(pp["dmo-outside"], pp["none"])
	r3w = ratio(tot["dmo-outside"], tot["none"])
	r4 = ratio(pp["dmo-after"], pp["none"])
	printf "bars (per pass of work; issue 18):\n"
	bar("dmo (layers on) / none", ratio(pp["dmo-layers"], pp["none"]), "<=", 1.6)
	bar("dmo (layers on) / cachegrind", r1, "<=", 0.7)
	bar("pw: dmo / cachegrind", ratio(pp["pw/dmo"], pp["pw/cg"]), "<=", 0.7)
	bar("add: dmo / cachegrind", ratio(pp["add/dmo"], pp["add/cg"]), "<=", 0.7)
	bar("small: dmo / cachegrind", ratio(pp["small/dmo"], pp["small/cg"]), "<=", 0.7)
	bar("dmo full trace / none", ratio(pp["dmo-full"], pp["none"]), "<=", 3.0)
	bar("  the same, median of rounds", "dmo-full" in med ? med["dmo-full"] : -1, "<=", 3.0)
	printf "  (version 1 events: full trace / none = %.2f, v1 / v2 = %.2f; the layer\n" \
	       "   left out of --dmo-layers, with its row: %.2f x none, %.2f of the full trace)\n",
	       ratio(pp["dmo-full-v1"], pp["none"]), ratio(pp["dmo-full-v1"], pp["dmo-full"]),
	       ratio(pp["dmo-unlisted"], pp["none"]), ratio(pp["dmo-unlisted"], pp["dmo-full"])
	bar("layer left out, skipped / none", ratio(pp["dmo-skip"], pp["none"]), "<=", 1.05)
	printf "size row: person_detect, %d event files: version 1 %d bytes, version 2 %d\n",
	       model_files, model_v1, model_v2
	bar("person_detect: v1 bytes / v2 bytes", ratio(model_v1, model_v2), ">=", 4.0)
	bar("dmo outside layers / none", r3, "<=", 1.05)
	bar("  the same after a layer / none", r4, "<=", 1.05)
	bar("lackey trace / dmo (layers on)", r2, ">=", 1000)
	printf "  (whole runs at P = %d, startup included: dmo outside / none = %.2f)\n",
	       passes, r3w
}' "$tmp/medians" "$tmp/rows" | tee "$results/tool_speed.txt"
