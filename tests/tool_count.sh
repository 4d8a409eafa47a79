# tool_count.sh - the tool counts guest instructions only where they are
# needed: a summary leaves layers.csv's instructions field empty unless
# asked (--dmo-count=yes), a full trace always counts (its events' times).
# The expected count is the full trace's own, from another run of the same
# deterministic one-thread target; an event's time is an instruction
# count since the layer began, so it is below the layer's total.
. "$top_srcdir/tests/lib.sh"

instructions() { # RUN_DIR LAYER_NAME
	csv_rows "$1/layers.csv" | by_name 'v("name") == n { print v("instructions") }' -v n="$2"
}

profile "$WORK/full" --trace=full -- "$TARGETS/relu"
expect_eq "full trace exit status" 0 $?
counted=$(instructions "$WORK/full" relu_forward)
case $counted in
'' | *[!0-9]*) fail "full trace: instructions '$counted' is not a number" ;;
*) echo "ok: the full trace counted $counted instructions" ;;
esac
"$DMO" export "$WORK/full" >/dev/null 2>&1
last_time=$(csv_rows "$WORK/full/layer-0001.csv" | by_name 'END { print t } { t = v("time") }')
expect_eq "the last event's time is below the count" 1 \
	"$(awk -v t="$last_time" -v n="$counted" 'BEGIN { print (t != "" && t + 0 < n + 0) }')"

profile "$WORK/summary" -- "$TARGETS/relu"
expect_eq "summary exit status" 0 $?
expect_eq "summary: instructions not counted (empty)" "" "$(instructions "$WORK/summary" relu_forward)"
expect_eq "summary: O_s as with the full trace" "$(field "$WORK/full" relu_forward os_bytes)" \
	"$(field "$WORK/summary" relu_forward os_bytes)"

profile "$WORK/asked" --count -- "$TARGETS/relu"
expect_eq "summary with --count exit status" 0 $?
expect_eq "summary with --count: the full trace's count" "$counted" \
	"$(instructions "$WORK/asked" relu_forward)"
finish
