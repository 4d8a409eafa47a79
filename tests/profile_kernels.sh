# profile_kernels.sh - exact O_s of the test targets under the real tool.
# Expected values: hand derivations (written beside each check) and the
# brute-force oracle tests/bruteforce_os, which replays the recorded events
# in a simulated overlapped arena for every placement.
. "$top_srcdir/tests/lib.sh"

oracle() { # RUN_DIR LAYER_NUMBER [--any]
	"$top_builddir/tests/bruteforce_os" $3 "$(printf '%s/layer-%04d.events' "$1" "$2")"
}

# Every one-thread layer of RUN_DIR: os_any_bytes = os_bytes (formulas.md 1b).
expect_any_is_os() {
	layer_rows "$1" | by_name 'v("threads") == 1 && v("os_any_bytes") != v("os_bytes") {
		print "FAIL: " v("name") ": one thread, os_any_bytes " v("os_any_bytes") " != os_bytes " v("os_bytes"); bad = 1 }
		v("threads") == 1 { n++ } END { if (!bad) print "ok: " n " one-thread layers have os_any_bytes = os_bytes"; exit bad }' ||
		failures=$((failures + 1))
}

# ReLU forwards: every read starts where all earlier writes end: O_s = OB.
# Backwards: the first write ends at OB before element 0 is read: O_s = 0.
profile "$WORK/relu" --trace=full -- "$TARGETS/relu"
expect_eq "relu exit status" 0 $?
expect_eq "relu_forward O_s" 4096 "$(field "$WORK/relu" relu_forward os_bytes)"
expect_eq "relu_forward status" ok "$(field "$WORK/relu" relu_forward status)"
expect_eq "relu_forward in_reads (one per element)" 1024 "$(field "$WORK/relu" relu_forward in_reads)"
expect_eq "relu_forward out_writes (one per element)" 1024 "$(field "$WORK/relu" relu_forward out_writes)"
expect_eq "relu_forward oracle" 4096 "$(oracle "$WORK/relu" 1)"
expect_eq "relu_backward O_s" 0 "$(field "$WORK/relu" relu_backward os_bytes)"
expect_eq "relu_backward oracle" 0 "$(oracle "$WORK/relu" 2)"
# The 307200 reads between the layers are not counted; the third layer,
# after the tool stopped watching the buffers, is measured like the first.
expect_eq "relu_backward in_reads" 1024 "$(field "$WORK/relu" relu_backward in_reads)"
expect_eq "relu_again O_s" 4096 "$(field "$WORK/relu" relu_again os_bytes)"
expect_eq "relu_again in_reads" 1024 "$(field "$WORK/relu" relu_again in_reads)"
expect_eq "relu_again out_writes" 1024 "$(field "$WORK/relu" relu_again out_writes)"
expect_any_is_os "$WORK/relu"

profile "$WORK/k" --trace=full -- "$TARGETS/kernels" dwconv accumulate relu_avx threads handoff
expect_eq "kernels exit status" 0 $?
for name in dwconv accumulate relu_avx threads handoff; do
	n=$(field "$WORK/k" "$name" layer)
	case $name in threads|handoff) status=ok:threads=2 ;; *) status=ok ;; esac
	expect_eq "$name status" $status "$(field "$WORK/k" "$name" status)"
	expect_eq "$name O_s = brute force" "$(oracle "$WORK/k" "$n")" "$(field "$WORK/k" "$name" os_bytes)"
	expect_eq "$name os_any_bytes = brute force over interleavings" \
		"$(oracle "$WORK/k" "$n" --any)" "$(field "$WORK/k" "$name" os_any_bytes)"
done
expect_any_is_os "$WORK/k"
# threads: thread 2 may write the last output element before thread 1
# reads input element 0: OB + 0 - OB = 0.
expect_eq "threads os_any_bytes" 0 "$(field "$WORK/k" threads os_any_bytes)"
# handoff (IB = OB = 256): thread 1 reads in[i+8], writes out[i], i < 16;
# thread 2 writes out[32..63] (end 256); thread 1 reads in[24..39], writes
# out[16..31].  As run, the tightest pair is thread 2's write ending at 256
# before thread 1's read of in[24] (byte 96): 256 + 96 - 256 = 96.  In any
# interleaving thread 2 may write before thread 1's first read, of in[8]
# (byte 32): 256 + 32 - 256 = 32.  (Within thread 1, out[i] is written
# after in[i+8] is read: no pair; thread 2's reads of in[32..63] against
# thread 1's writes ending at 128 give 256 + 128 - 128, above min(IB, OB).)
expect_eq "handoff threads" 2 "$(field "$WORK/k" handoff threads)"
expect_eq "handoff O_s as run" 96 "$(field "$WORK/k" handoff os_bytes)"
expect_eq "handoff os_any_bytes" 32 "$(field "$WORK/k" handoff os_any_bytes)"
# threads.csv: each thread read 32 input and wrote 32 output elements; the
# main thread, which opened the layer, is tid 1, the one it made, which
# ran next, tid 2 (docs/threads.md, "Thread numbers").
expect_eq "handoff per-thread counts (threads.csv)" "1,0,32,0,0,32 2,0,32,0,0,32" \
	"$(csv_rows "$WORK/k/threads.csv" | by_name 'v("layer") == n { print v("tid") "," v("lumped") "," \
		v("in_reads") "," v("in_writes") "," v("out_reads") "," v("out_writes") }' \
		-v n="$(field "$WORK/k" handoff layer)" | sort | tr '\n' ' ' | sed 's/ $//')"
"$DMO" analyze "$WORK/k" >"$WORK/k.analyze" 2>&1
# Its columns: layer name out_bytes exact trace ... verdict.
expect_eq "dmo analyze handoff: exact (os_any) and trace's recomputed os_any" "32 32 ok" \
	"$(awk '$2 == "handoff" { print $4, $5, $NF }' "$WORK/k.analyze")"
grep -q "warning: 2 layers ran while several threads were alive" "$WORK/k.err" &&
	echo "ok: dmo profile warns about the multi-thread layers" ||
	fail "no thread warning: $(cat "$WORK/k.err")"
# dwconv 9x9x4 -> 5x5x4, SAME pads one row on top: output rows 0..4 see
# input rows {0,1} {1,2,3} {3,4,5} {5,6,7} {7,8}: 13 in-image taps; the same
# 13 across, so 13*13 taps per channel, times 4 channels = 676 reads.
expect_eq "dwconv in_reads" 676 "$(field "$WORK/k" dwconv in_reads)"
expect_eq "dwconv out_writes" 100 "$(field "$WORK/k" dwconv out_writes)"
# accumulate zeroes its whole output before reading the input: O_s = 0.
expect_eq "accumulate O_s" 0 "$(field "$WORK/k" accumulate os_bytes)"
# relu_avx: 32-byte loads and stores, still in order: O_s = OB = 4012.
expect_eq "relu_avx O_s" 4012 "$(field "$WORK/k" relu_avx os_bytes)"
avx_reads=$(field "$WORK/k" relu_avx in_reads)
[ "$avx_reads" -lt 1003 ] && echo "ok: relu_avx vectorised ($avx_reads input reads < 1003)" \
	|| fail "relu_avx was not vectorised ($avx_reads input reads)"
# threads: the trace must hold events of two threads other than main.
tids=$("$DMO" export --csv "$WORK/k" >/dev/null &&
	csv_rows "$(printf '%s/layer-%04d.csv' "$WORK/k" "$(field "$WORK/k" threads layer)")" |
	by_name '{ print v("tid") }' | sort -u | wc -l)
expect_eq "threads: distinct thread ids in the trace" 2 "$tids"

# Summary mode gives the same O_s as full mode.
profile "$WORK/ks" -- "$TARGETS/kernels" dwconv
expect_eq "summary-mode dwconv O_s" "$(field "$WORK/k" dwconv os_bytes)" "$(field "$WORK/ks" dwconv os_bytes)"
# Summary mode counts input reads inline, without the helper: same count.
expect_eq "summary-mode dwconv in_reads" 676 "$(field "$WORK/ks" dwconv in_reads)"
# fxsave: FXSAVE stores its 512-byte area from the output's first byte, in
# part as one access wider than 32 bytes (the x87 state, under Valgrind),
# which the tool's check handles apart: the lowest byte written must be 0,
# as the instruction's definition says, wherever the check moved it.
profile "$WORK/fx" --trace=full -- "$TARGETS/kernels" fxsave
expect_eq "fxsave exit status" 0 $?
"$DMO" export "$WORK/fx" >/dev/null 2>&1
expect_eq "fxsave: lowest output byte written" 0 \
	"$(csv_rows "$WORK/fx/layer-0001.csv" | by_name 'v("kind") == "W" && v("buffer") == "O" {
		if (lo == "" || v("offset") + 0 < lo + 0) lo = v("offset") } END { print lo }')"
finish
