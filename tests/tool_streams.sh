# tool_streams.sh - issue 31: the tool's streams (dmo-tool/dmo_stream.h)
# change no byte of what a run writes.  Each program below runs under the
# real tool twice: with streams, and with --dmo-streams=no, where every
# access takes the long way, the path the other tests check against the
# brute-force oracle and hand derivations.  The two run directories must
# be the same byte for byte: event files in both versions, tool-layers.bin
# (with instruction counts), the where files.  --stats=yes shows that the
# streams did take the accesses.  A layer of two threads runs differently
# each time, so those are checked against the brute-force oracle instead.
. "$top_srcdir/tests/lib.sh"
export VALGRIND_LIB="$top_builddir/dmo-tool"
unset DMO_FIFO

# taken DIR: the accesses the streams took, from the --stats line.
taken() {
	sed -n 's/.*dmo: accesses the helpers saw: \([0-9]*\) in streams.*/\1/p' "$1.err"
}
long_way() {
	sed -n 's/.*off the stream.s steps), \([0-9]*\) the long way.*/\1/p' "$1.err"
}
# replayed DIR: runs with moves written again from kept bytes.
replayed() {
	sed -n 's/.*dmo: runs with moves traced again from kept bytes: \([0-9]*\)$/\1/p' "$1.err"
}

# same_runs NAME OPTIONS PROGRAM ARG...: both ways; the same files.
same_runs() {
	name=$1 opts=$2; shift 2
	same_tool_runs "$name" --dmo-streams=no "$opts" "$@"
	expect_eq "$name: nothing in streams with --dmo-streams=no" 0 "$(taken "$WORK/$name-off")"
	echo "$name: $(taken "$WORK/$name-on") accesses in streams, $(long_way "$WORK/$name-on") the long way"
}

# Every case of tests/targets/streams.c, and the kernels of the other
# tests, each in a full trace of both event-file versions and a summary
# that counts instructions.
ONE_THREAD="forward backward strided same uneven past_end rows taps"
both_ways() {
	same_runs "streams-$tag" "$opts" "$TARGETS/streams" $ONE_THREAD
	same_runs "kernels-$tag" "$opts" "$TARGETS/kernels" dwconv accumulate relu_avx fxsave
	same_runs "annotate_opt-$tag" "$opts" "$TARGETS/annotate_opt"
}
each_counting_mode both_ways

# The streams did the work.  forward's 2400 accesses take three the long
# way in each of its two loops: the instruction's first access in the
# layer (which puts its site on the layer's list), the next (the first
# its stream key sees), and the third (which learns the steps from the
# two before); the rest are in streams.  uneven's read loop, off its step
# in most passes, stays in one stream.
for name in forward uneven; do
	tool_run "$WORK/$name" --dmo-trace=full "$TARGETS/streams" "$name"
	expect_eq "$name: status" 0 $?
done
expect_eq "forward: accesses the long way" 6 "$(long_way "$WORK/forward")"
# taps' 148 pixels each flush a run with two moves; all but the first two
# (whose first event follows no output write of a pixel before) are
# described as the one kept, and their bytes, written again, are the ones
# the long way codes (same_runs above).
tool_run "$WORK/taps" --dmo-trace=full "$TARGETS/streams" taps
expect_eq "taps: status" 0 $?
expect_eq "taps: runs written again from kept bytes" 146 "$(replayed "$WORK/taps")"
expect_eq "forward: accesses in streams" 2394 "$(taken "$WORK/forward")"
expect_eq "uneven: reads, all counted" 1200 "$(field "$WORK/uneven" uneven in_reads)"
expect_at_least "uneven: accesses in streams" 1190 "$(taken "$WORK/uneven")"

# Two threads: O_s and the any-interleaving O_s equal the brute force
# over the events, and every read is counted.
oracle() { # RUN_DIR LAYER_NUMBER [--any]
	"$top_builddir/tests/bruteforce_os" $3 "$(printf '%s/layer-%04d.events' "$1" "$2")"
}
tool_run "$WORK/threads" --dmo-trace=full "$TARGETS/streams" threads2
expect_eq "threads2: status" 0 $?
expect_eq "threads2: reads of both threads" 1200 "$(field "$WORK/threads" threads2 in_reads)"
expect_eq "threads2: O_s = brute force" "$(oracle "$WORK/threads" 1)" \
	"$(field "$WORK/threads" threads2 os_bytes)"
expect_eq "threads2: os_any_bytes = brute force over interleavings" \
	"$(oracle "$WORK/threads" 1 --any)" "$(field "$WORK/threads" threads2 os_any_bytes)"
tool_run "$WORK/kthreads" --dmo-trace=full "$TARGETS/kernels" threads handoff
expect_eq "kernels threads handoff: status" 0 $?
for n in 1 2; do
	name=$(layer_rows "$WORK/kthreads" | by_name 'v("layer") == n { print v("name") }' -v n=$n)
	expect_eq "$name: O_s = brute force" "$(oracle "$WORK/kthreads" $n)" \
		"$(field "$WORK/kthreads" "$name" os_bytes)"
done
finish
