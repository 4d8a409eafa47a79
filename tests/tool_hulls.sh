# tool_hulls.sh - issue 31: the tool's hulls (dmo-tool/dmo_hull.h), one
# check at a block's start for the accesses of one address sum, change no
# byte of what a run writes, and lose no access that a hull had taken
# for a miss once it touches a buffer.  Each program below runs under the
# real tool twice: with hulls, and with --dmo-hulls=no, where every
# access is checked where it is, as the other tests check against the
# brute-force oracle and hand derivations.  The two run directories must
# be the same byte for byte: event files in both versions, tool-layers.bin
# (with instruction counts), the where files.  --stats=yes shows that
# hulls were made and that their checks passed where the cases say.
. "$top_srcdir/tests/lib.sh"
export VALGRIND_LIB="$top_builddir/dmo-tool"
unset DMO_FIFO

# hull_stat DIR WHAT: a figure of the tool's hull line (--stats=yes): blocks
# (translated with hulls) or passed (hull checks that passed).
hull_stat() {
	case $2 in
	blocks) sed -n 's/.*dmo: blocks translated with hulls: \([0-9]*\);.*/\1/p' "$1.err" ;;
	passed) sed -n 's/.*hull checks that passed: \([0-9]*\)$/\1/p' "$1.err" ;;
	esac
}

both_ways() {
	same_tool_runs "hulls-$tag" --dmo-hulls=no "$opts" "$TARGETS/hulls" swap stack edge
	same_tool_runs "kernels-$tag" --dmo-hulls=no "$opts" "$TARGETS/kernels" dwconv accumulate \
		relu_avx fxsave
	same_tool_runs "streams-$tag" --dmo-hulls=no "$opts" "$TARGETS/streams" forward backward \
		strided rows
	expect_eq "$tag: no hulls with --dmo-hulls=no" 0 "$(hull_stat "$WORK/hulls-$tag-off" blocks)"
}
each_counting_mode both_ways

# Every read of the input is seen (hand count: each case reads the input's
# 1024 floats once a layer), though in swap_b the reads are by b's
# loads, which swap_a's hull had taken for misses, and in edge by the
# loads whose hull first passed just below the input, over the weights.
run=$WORK/hulls-dmotracefull-on
for layer in swap_a swap_b stack edge; do
	expect_eq "$layer: reads of the input" 1024 "$(field "$run" $layer in_reads)"
done
expect_eq "swap_a: writes of the output" 1024 "$(field "$run" swap_a out_writes)"
expect_at_least "blocks translated with hulls" 1 "$(hull_stat "$run" blocks)"
# Passed at least: a's hull and out's in swap_a, b's in swap_b, the
# weights' below the input in edge.
expect_at_least "hull checks that passed" 4 "$(hull_stat "$run" passed)"
finish
