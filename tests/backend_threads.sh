# backend_threads.sh - XNNPACK (pthreadpool) and oneDNN (OpenMP) on their
# own pools of two threads, through dmo compare: under the tool no layer is
# plain ok while the pool's threads are alive, the value dmo calls safe is
# the any-split one, and it is verified natively by dmo verify's automatic
# repeat (at least 1000 overlapped runs), none of which may differ.  A
# backend without a pool refuses --threads 2.  Each library is skipped when
# its plugin was not built.
. "$top_srcdir/tests/lib.sh"

SPECS="dwconv2d:in=12x12x8,k=3x3,pad=same conv2d:in=10x10x8,k=3x3,out_c=8,pad=same"
tried=0
for b in xnnpack onednn; do
	"$DMO" verify --backend $b --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>&1 ||
		{ echo "skip: $b not available"; continue; }
	tried=$((tried + 1))
	# shellcheck disable=SC2086 # one argument per spec
	"$DMO" compare --backends $b --threads 2 -o "$WORK/$b" $SPECS >"$WORK/$b.txt" 2>&1
	expect_eq "$b: dmo compare --threads 2 exit status" 0 $?
	grep -q "2 threads: O_s safe for any split" "$WORK/$b.txt" &&
		echo "ok: $b: the table says which O_s" || fail "$b: $(cat "$WORK/$b.txt")"
	layer_rows "$WORK/$b/$b" | by_name '{ print v("status"), v("alive_threads"), v("safe_os_rule"), v("safe_os_bytes") == v("os_split_bytes") }' >"$WORK/$b.layers"
	expect_eq "$b: layers, none plain ok, safe = os_split_bytes" \
		"2 2" "$(awk '$1 != "ok" && $2 >= 2 && $3 == "any-split" && $4 == 1 { n++ } END { print NR, n + 0 }' "$WORK/$b.layers")"
	csv_rows "$WORK/$b/compare.csv" | by_name '{ print v("threads"), v("safe"), v("differed"), (v("runs") >= 1001), (v("tested_bytes") == v("os_bytes")) }' >"$WORK/$b.rows"
	expect_eq "$b: rows verified at the safe value, >= 1001 native runs, none differed" \
		"2 1 0 1 1
2 1 0 1 1" "$(cat "$WORK/$b.rows")"
done
refuse "a backend without a pool" "runs one thread" "$DMO" run --backend ref --threads 2 relu:in=4
[ "$tried" -gt 0 ] || { echo "skip: neither xnnpack nor onednn built"; exit 77; }
finish
