# tool_fault.sh - a layer's kernel takes a fault and goes on
# (tests/targets/fault.c): its 40 reads before the faulting store and 40
# after are all there, once each, in order, and the events' times never go
# backwards, though the signal left the instructions of the block before
# the store uncounted.  The store that faulted wrote nothing: no event.
. "$top_srcdir/tests/lib.sh"
export VALGRIND_LIB="$top_builddir/dmo-tool"
unset DMO_FIFO

for opts in "--dmo-trace=full" "--dmo-trace=full --dmo-streams=no"; do
	tag=$(echo "$opts" | tr -dc 'a-z')
	rm -rf "$WORK/$tag"
	valgrind -q --tool=dmo --dmo-out="$WORK/$tag" $opts "$TARGETS/fault" >/dev/null 2>"$WORK/$tag.err"
	expect_eq "$opts: status" 0 $?
	"$DMO" export --csv "$WORK/$tag" >/dev/null 2>>"$WORK/$tag.err"
	expect_eq "$opts: export" 0 $?
	events="$WORK/$tag/layer-0001.csv"
	# The reads in order: offsets 0, 4, ..., 316, one event each.
	expect_eq "$opts: the input's reads, in order" "$(seq 0 4 316 | tr '\n' ' ')" \
		"$(csv_rows "$events" | by_name 'v("buffer") == "I" && v("kind") == "R" { printf "%s ", v("offset") }' )"
	expect_eq "$opts: the output's writes: the four floats after" "W 0 W 4 W 8 W 12 " \
		"$(csv_rows "$events" | by_name 'v("buffer") == "O" { printf "%s %s ", v("kind"), v("offset") }' )"
	expect_eq "$opts: times that go backwards" "" \
		"$(csv_rows "$events" | by_name 'NR > 2 && v("time") + 0 < last { print v("index") } { last = v("time") + 0 }' )"
done
finish
