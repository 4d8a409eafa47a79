# hostile_inputs.sh - issue 28, bounded work: inputs built to make dmo run
# forever or fill memory are refused at once, with a message, status 2.
# Each command runs under `timeout`, so a hang is a failure, not a stall.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99
MODELS="$top_srcdir/tests/models"
float="$MODELS/tflm_hello_world_float.tflite"

# bounded WHAT PATTERN COMMAND...: exit 2 within 20 s, stderr matching
# PATTERN (a basic regular expression).
bounded() {
	what=$1 pattern=$2; shift 2
	timeout 20 "$@" >out 2>err
	rc=$?
	if [ $rc -eq 2 ] && grep -q -e "$pattern" err; then
		echo "ok: $what: $(head -1 err)"
	else
		fail "$what: status $rc (124: timed out), message '$(head -3 err)'"
	fi
}

# A 2^31 x 2^31 pool window over 8x8: 2^62 steps per output element.
bounded "verify: a 2^31 x 2^31 pool window" "window of 'k'" \
	"$DMO" verify 'maxpool:in=8x8x3,k=2147483647x2147483647,pad=same'
bounded "verify: 2^40 window steps" "more than 2^40 window steps" \
	"$DMO" verify 'conv2d:in=1024x1024x256,k=64x64,out_c=16,pad=same'

# Model files: a device never ends; a file over the limit is refused by
# its size before it is read; a pipe is read up to the limit only.
bounded "model /dev/zero" "^dmo model: /dev/zero: a device, not a model file" \
	"$DMO" model /dev/zero
DMO_MAX_MODEL_SIZE=1K bounded "model over DMO_MAX_MODEL_SIZE" \
	"more than the 1024 a model file may have (set DMO_MAX_MODEL_SIZE to raise it)" \
	"$DMO" model "$float"
DMO_MAX_MODEL_SIZE=4K timeout 20 "$DMO" model "$float" >out 2>err &&
	echo "ok: the same model within a raised limit" || fail "4K limit: $(cat err)"
mkfifo endless
(yes >endless 2>/dev/null &)
DMO_MAX_MODEL_SIZE=64K bounded "model from an endless pipe" \
	"endless: more than the 65536 bytes a model file may have" "$DMO" model endless
DMO_MAX_MODEL_SIZE=12Q bounded "a DMO_MAX_MODEL_SIZE that is no size" \
	"DMO_MAX_MODEL_SIZE='12Q' is not a size" "$DMO" plan "$float"

# A hand-edited --arena plan with one offset at 4e9: infer filled a 4 GB
# arena.  Refused by the bytes it needs (more than all tensors end to end).
"$DMO" plan --csv "$float" >plan.csv || fail "plan --csv"
awk -F, 'BEGIN { OFS = "," } NR > 1 && $1 == "2" { $9 = "4000000000" } { print }' plan.csv >sparse.csv
bounded "infer --arena with a 4e9 offset" \
	"the plan needs a 4000000064-byte arena, more than the 136 bytes of all its tensors" \
	"$DMO" infer --arena sparse.csv "$float"

# A chain of 10^5 layers as a layer table: the reader's name lookup, the
# greedy placement, the plan check and the lower bound were each quadratic
# (over 100 s).  Now about a second; 120 s is only a guard against a hang.
awk 'BEGIN { print "layer,name,spec,inputs"; for (i = 1; i <= 100000; i++) print i ",r" i ",relu:in=4x4x4," }' >chain.csv
timeout 120 "$DMO" plan --csv chain.csv >chain.plan 2>err
expect_eq "plan of a 10^5-layer chain: status" 0 $?
expect_eq "plan of a 10^5-layer chain: one row per tensor" 100002 "$(wc -l <chain.plan)"

# infer's top classes (one pass now) are the three of rank 1, 2, 3 in the
# --csv rows (a sort of every element): equal values by index.
for m in "$MODELS/tflm_simple_add_model.tflite"; do
	[ -f "$m" ] || continue
	top=$("$DMO" infer "$m" 2>/dev/null | sed -n 's/.*top classes //p' | sed 's/ ([^)]*)//g')
	ranked=$("$DMO" infer --csv "$m" 2>/dev/null |
		by_name 'v("rank") <= 3 { r[v("rank")] = v("index") } END { print r[1], r[2], r[3] }' -F, )
	[ -n "$top" ] && [ "$top" = "$ranked" ] && echo "ok: $(basename "$m"): top classes $top" ||
		fail "$(basename "$m"): top classes '$top', ranks 1-3 of --csv '$ranked'"
done

finish
