# threads_reuse.sh - Valgrind gives the ThreadId of a thread that has
# exited to the next one created, yet the tool counts each thread of a
# layer as its own (dmo-tool/dmo_threads.h).  tests/targets/relay's
# layers are each done by 4 workers, one after another, each created once
# the one before was joined: all of them run under one ThreadId, and
# each layer still has 4 threads, whose accesses the multi-thread rule
# takes in any order (docs/threads.md).
. "$top_srcdir/tests/lib.sh"

# --trace-sched=yes: Valgrind's scheduler names each thread it starts.
profile "$WORK/r" --trace=full --static-split --vg-opt=--trace-sched=yes -- "$TARGETS/relay" 2
expect_eq "relay: dmo profile exit status" 0 $?

# (a) Valgrind reused the id: the main thread is 1, and the 8 workers of
# the two layers all started as thread 2; no thread ran under another id.
started=$(grep 'acquired lock (thread_wrapper(starting new thread))' "$WORK/r.err" |
	sed 's/.*SCHED\[\([0-9]*\)\].*/\1/' | sort | uniq -c | awk '{ print $2 ":" $1 }' | tr '\n' ' ')
expect_eq "threads Valgrind started, as id:count" "1:1 2:8 " "$started"
expect_eq "thread ids Valgrind's scheduler ran" "1 2" \
	"$(sed -n 's/.*SCHED\[\([0-9]*\)\].*/\1/p' "$WORK/r.err" | sort -un | tr '\n' ' ' | sed 's/ $//')"

oracle() { # LAYER_NUMBER [--any]
	"$top_builddir/tests/bruteforce_os" $2 "$(printf '%s/layer-%04d.events' "$WORK/r" "$1")"
}

# (b) Each layer: 4 threads, numbered afresh in each layer (1 is the main
# thread, which opened it and touches neither buffer; the workers are 2
# to 5 in the order they ran), each with its share of 16 reads and 16
# writes, in threads.csv and in the event file.
#
# O_s, by hand (IB = OB = 256 bytes).  As run, worker k reads in[i] and
# writes out[i] for i in 16k..16k+15 in turn, after every worker before
# it: each read of in[i] (byte 4i) comes after writes of out ending at
# 4i at most, and OB + 4i - 4i = 256 forbids nothing; with no input
# write there is no other pair: os_bytes = 256.  In some interleaving of
# the 4 threads worker 3's write of out[63], ending at byte 256, comes
# before worker 0's read of in[0]: 256 + 0 - 256 = 0, so os_any_bytes = 0,
# and os_split_bytes = 0.  Declared --static-split, the safe value is
# os_any_bytes: 0 (taken as one thread, it was 256).
for n in 1 2; do
	name=relay-$n
	expect_eq "$name: status" ok:threads=4 "$(field "$WORK/r" $name status)"
	expect_eq "$name: threads" 4 "$(field "$WORK/r" $name threads)"
	expect_eq "$name: threads.csv (tid,lumped,in_reads,in_writes,out_reads,out_writes)" \
		"2,0,16,0,0,16 3,0,16,0,0,16 4,0,16,0,0,16 5,0,16,0,0,16" \
		"$(csv_rows "$WORK/r/threads.csv" | by_name 'v("layer") == n { print v("tid") "," \
			v("lumped") "," v("in_reads") "," v("in_writes") "," v("out_reads") "," \
			v("out_writes") }' -v n=$n | sort | tr '\n' ' ' | sed 's/ $//')"
	expect_eq "$name: os_bytes (hand derivation)" 256 "$(field "$WORK/r" $name os_bytes)"
	expect_eq "$name: os_any_bytes (hand derivation)" 0 "$(field "$WORK/r" $name os_any_bytes)"
	expect_eq "$name: os_split_bytes (hand derivation)" 0 "$(field "$WORK/r" $name os_split_bytes)"
	expect_eq "$name: safe_os_bytes, static-split" "0 static-split" \
		"$(field "$WORK/r" $name safe_os_bytes) $(field "$WORK/r" $name safe_os_rule)"
	expect_eq "$name: os_bytes = brute force over the events" "$(oracle $n)" \
		"$(field "$WORK/r" $name os_bytes)"
	expect_eq "$name: os_any_bytes = brute force over interleavings of the event file's threads" \
		"$(oracle $n --any)" "$(field "$WORK/r" $name os_any_bytes)"
done
"$DMO" analyze "$WORK/r" >"$WORK/r.an" 2>&1
expect_eq "dmo analyze: the trace agrees with the tool" 0 $?
finish
