# plan_models.sh - `dmo plan` and `dmo plan --verify` on every shipped model
# table: both plans are valid (dmo plan checks its own invariant), overlaps
# never need more than no overlaps, every plan is settled (at the bound or
# proven optimal), and the model run inside the overlapped arena gives
# bit-identical outputs.  About 4 s in all (MobileNet v1 1.0
# --verify is the slowest, under 2 s).
. "$top_srcdir/tests/lib.sh"

for table in "$top_srcdir"/target-harness/models/*.csv; do
	model=$(basename "$table" .csv)
	for os in algorithmic analytic; do
		"$DMO" plan --os "$os" "$model" >"$WORK/$model.$os" 2>&1
		expect_eq "$model --os $os exit status" 0 $?
		plain=$(awk '/^peak without overlaps:/ { print $4 }' "$WORK/$model.$os")
		dmo=$(awk '/^peak with overlaps:/ { print $4 }' "$WORK/$model.$os")
		bound=$(awk '/^lower bound:/ { print $3 }' "$WORK/$model.$os")
		status=$(sed -n 's/^status: *//p' "$WORK/$model.$os")
		case $status in
		"optimal (= bound)") expect_eq "$model ($os) at the bound" "$bound" "$dmo" ;;
		"optimal, bound not reachable") ;;
		*) fail "$model ($os): status '$status'" ;;
		esac
		if [ -n "$plain" ] && [ -n "$dmo" ] && [ -n "$bound" ] &&
		   [ "$bound" -le "$dmo" ] && [ "$dmo" -le "$plain" ]; then
			echo "ok: $model ($os): bound $bound <= overlaps $dmo <= plain $plain"
		else
			fail "$model ($os): bound '$bound', overlaps '$dmo', plain '$plain'"
		fi
	done
	"$DMO" plan --verify "$model" >"$WORK/$model.verify" 2>&1
	expect_eq "$model --verify exit status" 0 $?
done

# CSV: a header and one row per tensor (layers + the model input).
"$DMO" plan --csv ds_cnn_kws >"$WORK/ds.csv"
expect_eq "--csv rows" 13 "$(wc -l <"$WORK/ds.csv")"
"$DMO" plan --os bogus ds_cnn_kws >/dev/null 2>&1
expect_eq "--os bogus exit status" 2 $?
for limit in -1 abc 1e9 ''; do
	"$DMO" plan --time-limit "$limit" ds_cnn_kws >/dev/null 2>&1
	expect_eq "--time-limit '$limit' exit status" 2 $?
done
"$DMO" plan --os measured:"$WORK/nowhere" ds_cnn_kws >/dev/null 2>&1
expect_eq "--os measured: without layers.csv exit status" 2 $?

[ "$failures" -eq 0 ]
