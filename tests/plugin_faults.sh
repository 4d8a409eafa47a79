# plugin_faults.sh - issue 28, plugins: a backend plugin that crashes in
# its run, or writes past its output, is that backend's failure: `dmo
# verify` names the signal (status 2), `dmo compare` keeps every other
# backend's row and marks the plugin's rows failed with the signal; dmo
# itself never dies of it.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99
DMO_BACKEND_DIR="$top_builddir/tests/targets/faultybackend/.libs"
export DMO_BACKEND_DIR

expect_refusal "verify: a plugin that crashes" 2 \
	"backend xnnpack crashed: killed by signal 11 (Segmentation fault)" \
	"$DMO" verify --backend xnnpack relu:in=4x4x4
# A write a page past the output: the arena ends at a guard page.
expect_refusal "verify: a plugin that writes past its output" 2 \
	"backend onednn crashed: killed by signal 11 (Segmentation fault)" \
	"$DMO" verify --backend onednn relu:in=4x4x4

"$DMO" compare -q --backends ref,xnnpack,onednn -o cmp relu:in=4x4x4 >out 2>err
rc=$?
expect_eq "compare: dmo's status (a row failed: 2, not a crash)" 2 $rc
rows=$(csv_rows cmp/compare.csv | by_name '{ print v("backend"), v("status") }')
expect_eq "compare: the rows" "ref ok
xnnpack failed
onednn failed" "$rows"
for b in xnnpack onednn; do
	csv_rows cmp/compare.csv | by_name 'v("backend") == b { print v("reason") }' -v b=$b |
		grep -q "crashed: killed by signal\|profiling under the tool failed" &&
		echo "ok: compare: $b's row says why" ||
		fail "compare: $b's reason: $(csv_rows cmp/compare.csv)"
done
csv_rows cmp/compare.csv | by_name 'v("backend") == "ref" { print v("safe") }' | grep -q . &&
	echo "ok: compare: ref's row kept whole" || fail "compare: ref's row: $(cat cmp/compare.csv)"

finish
