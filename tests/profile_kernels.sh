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
	"$top_builddir/tests/layers_tsv" "$1/layers.csv" | awk -F'\t' '$12 == 1 && $13 != $4 {
		print "FAIL: " $2 ": one thread, os_any_bytes " $13 " != os_bytes " $4; bad = 1 }
		$12 == 1 { n++ } END { if (!bad) print "ok: " n " one-thread layers have os_any_bytes = os_bytes"; exit bad }' ||
		failures=$((failures + 1))
}

# ReLU forwards: every read starts where all earlier writes end: O_s = OB.
# Backwards: the first write ends at OB before element 0 is read: O_s = 0.
profile "$WORK/relu" --trace=full -- "$TARGETS/relu"
expect_eq "relu exit status" 0 $?
expect_eq "relu_forward O_s" 4096 "$(field "$WORK/relu" relu_forward 4)"
expect_eq "relu_forward status" ok "$(field "$WORK/relu" relu_forward 3)"
expect_eq "relu_forward in_reads (one per element)" 1024 "$(field "$WORK/relu" relu_forward 6)"
expect_eq "relu_forward out_writes (one per element)" 1024 "$(field "$WORK/relu" relu_forward 9)"
expect_eq "relu_forward oracle" 4096 "$(oracle "$WORK/relu" 1)"
expect_eq "relu_backward O_s" 0 "$(field "$WORK/relu" relu_backward 4)"
expect_eq "relu_backward oracle" 0 "$(oracle "$WORK/relu" 2)"
# The 307200 reads between the layers are not counted; the third layer,
# after the tool stopped watching the buffers, is measured like the first.
expect_eq "relu_backward in_reads" 1024 "$(field "$WORK/relu" relu_backward 6)"
expect_eq "relu_again O_s" 4096 "$(field "$WORK/relu" relu_again 4)"
expect_eq "relu_again in_reads" 1024 "$(field "$WORK/relu" relu_again 6)"
expect_eq "relu_again out_writes" 1024 "$(field "$WORK/relu" relu_again 9)"
expect_any_is_os "$WORK/relu"

profile "$WORK/k" --trace=full -- "$TARGETS/kernels" dwconv accumulate relu_avx threads handoff
expect_eq "kernels exit status" 0 $?
for name in dwconv accumulate relu_avx threads handoff; do
	n=$(field "$WORK/k" "$name" 1)
	case $name in threads|handoff) status=ok:threads=2 ;; *) status=ok ;; esac
	expect_eq "$name status" $status "$(field "$WORK/k" "$name" 3)"
	expect_eq "$name O_s = brute force" "$(oracle "$WORK/k" "$n")" "$(field "$WORK/k" "$name" 4)"
	expect_eq "$name os_any_bytes = brute force over interleavings" \
		"$(oracle "$WORK/k" "$n" --any)" "$(field "$WORK/k" "$name" 13)"
done
expect_any_is_os "$WORK/k"
# threads: thread 2 may write the last output element before thread 1
# reads input element 0: OB + 0 - OB = 0.
expect_eq "threads os_any_bytes" 0 "$(field "$WORK/k" threads 13)"
# handoff (IB = OB = 256): thread 1 reads in[i+8], writes out[i], i < 16;
# thread 2 writes out[32..63] (end 256); thread 1 reads in[24..39], writes
# out[16..31].  As run, the tightest pair is thread 2's write ending at 256
# before thread 1's read of in[24] (byte 96): 256 + 96 - 256 = 96.  In any
# interleaving thread 2 may write before thread 1's first read, of in[8]
# (byte 32): 256 + 32 - 256 = 32.  (Within thread 1, out[i] is written
# after in[i+8] is read: no pair; thread 2's reads of in[32..63] against
# thread 1's writes ending at 128 give 256 + 128 - 128, above min(IB, OB).)
expect_eq "handoff threads" 2 "$(field "$WORK/k" handoff 12)"
expect_eq "handoff O_s as run" 96 "$(field "$WORK/k" handoff 4)"
expect_eq "handoff os_any_bytes" 32 "$(field "$WORK/k" handoff 13)"
# threads.csv: each thread read 32 input and wrote 32 output elements; the
# main thread is valgrind's tid 1, the one it made tid 2.
expect_eq "handoff per-thread counts (threads.csv)" "1,0,32,0,0,32 2,0,32,0,0,32" \
	"$(awk -F, -v n="$(field "$WORK/k" handoff 1)" '$1 == n { print $2 "," $3 "," $4 "," $5 "," $6 "," $7 }' \
		"$WORK/k/threads.csv" | sort | tr '\n' ' ' | sed 's/ $//')"
"$DMO" analyze "$WORK/k" >"$WORK/k.analyze" 2>&1
# Its columns: layer name out_bytes exact trace ... verdict.
expect_eq "dmo analyze handoff: exact (os_any) and trace's recomputed os_any" "32 32 ok" \
	"$(awk '$2 == "handoff" { print $4, $5, $NF }' "$WORK/k.analyze")"
grep -q "warning: 2 layers ran on several threads" "$WORK/k.err" &&
	echo "ok: dmo profile warns about the multi-thread layers" ||
	fail "no thread warning: $(cat "$WORK/k.err")"
# dwconv 9x9x4 -> 5x5x4, SAME pads one row on top: output rows 0..4 see
# input rows {0,1} {1,2,3} {3,4,5} {5,6,7} {7,8}: 13 in-image taps; the same
# 13 across, so 13*13 taps per channel, times 4 channels = 676 reads.
expect_eq "dwconv in_reads" 676 "$(field "$WORK/k" dwconv 6)"
expect_eq "dwconv out_writes" 100 "$(field "$WORK/k" dwconv 9)"
# accumulate zeroes its whole output before reading the input: O_s = 0.
expect_eq "accumulate O_s" 0 "$(field "$WORK/k" accumulate 4)"
# relu_avx: 32-byte loads and stores, still in order: O_s = OB = 4012.
expect_eq "relu_avx O_s" 4012 "$(field "$WORK/k" relu_avx 4)"
avx_reads=$(field "$WORK/k" relu_avx 6)
[ "$avx_reads" -lt 1003 ] && echo "ok: relu_avx vectorised ($avx_reads input reads < 1003)" \
	|| fail "relu_avx was not vectorised ($avx_reads input reads)"
# threads: the trace must hold events of two threads other than main.
tids=$("$DMO" export --csv "$WORK/k" >/dev/null && awk -F, 'NR > 1 { print $3 }' \
	"$(printf '%s/layer-%04d.csv' "$WORK/k" "$(field "$WORK/k" threads 1)")" | sort -u | wc -l)
expect_eq "threads: distinct thread ids in the trace" 2 "$tids"

# Summary mode gives the same O_s as full mode.
profile "$WORK/ks" -- "$TARGETS/kernels" dwconv
expect_eq "summary-mode dwconv O_s" "$(field "$WORK/k" dwconv 4)" "$(field "$WORK/ks" dwconv 4)"
# Summary mode counts input reads inline, without the helper: same count.
expect_eq "summary-mode dwconv in_reads" 676 "$(field "$WORK/ks" dwconv 6)"
finish
