# tool_chains.sh - the tool's chains (dmo-tool/dmo_chain.h), one check and
# one helper call for two accesses of one instruction in a block, change
# no byte of what a run writes.  Each program below runs under the real
# tool twice: with chains, and with --dmo-chains=no, where every access
# is checked where it is, as the other tests check against the
# brute-force oracle and hand derivations.  The two run directories must
# be the same byte for byte: event files in both versions, tool-layers.bin
# (with instruction counts), the where files.  --stats=yes shows that
# chains were made and that followers were settled each way the cases of
# tests/targets/chains.c say.
. "$top_srcdir/tests/lib.sh"
export VALGRIND_LIB="$top_builddir/dmo-tool"
unset DMO_FIFO

# chain_stat DIR WHAT: a figure of the tool's chain line (--stats=yes):
# blocks (translated with chains), given_back, or own (followers taken by
# their own helper).
chain_stat() {
	case $2 in
	blocks) sed -n 's/.*dmo: blocks translated with chains: \([0-9]*\);.*/\1/p' "$1.err" ;;
	given_back) sed -n 's/.*followers given back: \([0-9]*\),.*/\1/p' "$1.err" ;;
	own) sed -n 's/.*taken by their own helper: \([0-9]*\)$/\1/p' "$1.err" ;;
	esac
}

# Chains need a count: a full trace, or a summary with --dmo-count=yes.
both_ways() {
	same_tool_runs "chains-$tag" --dmo-chains=no "$opts" "$TARGETS/chains" odd edges fault
	same_tool_runs "streams-$tag" --dmo-chains=no "$opts" "$TARGETS/streams" forward backward \
		strided same uneven past_end rows taps
	same_tool_runs "kernels-$tag" --dmo-chains=no "$opts" "$TARGETS/kernels" dwconv accumulate \
		relu_avx fxsave
	same_tool_runs "hulls-$tag" --dmo-chains=no "$opts" "$TARGETS/hulls" swap stack edge
	same_tool_runs "annotate_opt-$tag" --dmo-chains=no "$opts" "$TARGETS/annotate_opt"
	expect_eq "$tag: no chains with --dmo-chains=no" 0 "$(chain_stat "$WORK/chains-$tag-off" blocks)"
}
each_counting_mode both_ways

# A summary that counts nothing makes no chains.
tool_run "$WORK/summary" --dmo-trace=summary "$TARGETS/chains" odd
expect_eq "summary: status" 0 $?
expect_eq "summary: no chains without a count" 0 "$(chain_stat "$WORK/summary" blocks)"

# Each way of settling a follower happened, case by case.
for name in odd edges fault; do
	tool_run "$WORK/$name" --dmo-trace=full "$TARGETS/chains" $name
	expect_eq "$name: status" 0 $?
	expect_at_least "$name: blocks translated with chains" 1 "$(chain_stat "$WORK/$name" blocks)"
done
# odd: every loop of an odd count but 1 leaves its block between a lead
# and its follower (VEX unrolls each loop two or four times).
expect_at_least "odd: followers given back" 1 "$(chain_stat "$WORK/odd" given_back)"
# edges: the follower of the lead before a buffer is the buffer's first
# access, which no stream takes ahead.
expect_at_least "edges: followers taken by their own helper" 1 "$(chain_stat "$WORK/edges" own)"
# Hand counts: odd reads 2 * (1 + ... + 9) floats and writes as many;
# edges reads and writes each buffer's 64 floats twice (the floats on
# either side are not the layer's); fault reads the page's last 32
# floats from the first or second on, and the load that faults.
expect_eq "odd: reads of the input" 90 "$(field "$WORK/odd" odd in_reads)"
expect_eq "odd: writes of the output" 90 "$(field "$WORK/odd" odd out_writes)"
expect_eq "edges: reads of the input" 128 "$(field "$WORK/edges" edges in_reads)"
expect_eq "edges: writes of the output" 128 "$(field "$WORK/edges" edges out_writes)"
expect_eq "fault: reads from the first float" 33 "$(field "$WORK/fault" fault_even in_reads)"
expect_eq "fault: reads from the second float" 32 "$(field "$WORK/fault" fault_odd in_reads)"
finish
