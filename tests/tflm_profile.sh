# tflm_profile.sh - `dmo run --model person_detect --runtime KERNELS`: every
# operator TFLM invokes is a layer, named as dmo's reader names it, and for
# TFLM's reference kernels each layer's O_s equals that of dmo's own
# reference run of the model on the same input (`dmo run --model`), whose
# kernels follow TFLM's reference loop order.  The CMSIS-NN builds are
# profiled and their run directories checked; their O_s differ by design
# (docs/deploy.md has the table).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tflm_lib.sh"

n_ops=31 # person_detect's operators (dmo model counts them)
expect_eq "person_detect's layers" "$n_ops" \
	"$("$DMO" model --csv "$PERSON_DETECT" | tail -n +2 | wc -l)"
"$DMO" run -q -o "$WORK/ref" --model "$PERSON_DETECT" --random 3 >/dev/null ||
	fail "dmo run --model (reference kernels)"
os_table() { layer_rows "$1" | by_name '{ print v("name"), v("os_bytes"), v("status") }'; }
os_table "$WORK/ref" >"$WORK/ref.os"

for k in $KERNELS; do
	"$DMO" run -q -o "$WORK/$k" --model "$PERSON_DETECT" --random 3 --runtime "$k" \
		>/dev/null || { fail "dmo run --runtime $k"; continue; }
	os_table "$WORK/$k" >"$WORK/$k.os"
	expect_eq "$k: layers" "$n_ops" "$(wc -l <"$WORK/$k.os")"
	expect_eq "$k: layers not ok" "" "$(awk '$3 != "ok"' "$WORK/$k.os")"
	expect_eq "$k: layer names = dmo's" "$(cut -d' ' -f1 "$WORK/ref.os")" \
		"$(cut -d' ' -f1 "$WORK/$k.os")"
	expect_eq "$k: backend.csv kernel builds" "$k" \
		"$(csv_rows "$WORK/$k/backend.csv" | by_name '{ print v("backend") }' | sort -u)"
	expect_eq "$k: runtime.txt kernels" "kernels $k" "$(grep '^kernels ' "$WORK/$k/runtime.txt")"
	[ "$k" = tflm ] && expect_eq "tflm: every layer's O_s = dmo's reference run" \
		"$(cat "$WORK/ref.os")" "$(cat "$WORK/$k.os")"
done
# Misuse: not a .tflite dmo runs, an unknown runtime, a backend beside it.
"$DMO" run -q -o "$WORK/x" --model person_detect_96 --runtime tflm 2>"$WORK/err"
expect_eq "--runtime on a layer table: exit" 2 $?
"$DMO" run -q -o "$WORK/x" --model "$PERSON_DETECT" --runtime tflm-gpu 2>"$WORK/err"
expect_eq "unknown --runtime: exit" 2 $?
grep -q "known: tflm tflm-cmsis-nn" "$WORK/err" || fail "unknown runtime: no list of the known ones"
"$DMO" run -q -o "$WORK/x" --model "$PERSON_DETECT" --runtime tflm --backend ref 2>"$WORK/err"
expect_eq "--runtime with --backend: exit" 2 $?
exit $((failures > 0))
