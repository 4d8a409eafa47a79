# tflm_dmo_plan.sh - dmo's plan of person_detect (`dmo plan --csv`, O_s of
# dmo's reference kernels: TFLM's reference loop order) written into the
# model as TFLM's offline plan by the test's own writer, and run inside
# TFLM.  With TFLM's reference kernels the outputs are those of TFLM's own
# plan on every input, and arena_used_bytes falls by exactly the bytes dmo
# plan says it saves.  The Arm Compiler 6 CMSIS-NN build allows at least
# the reference O_s on every layer (docs/deploy.md), so its outputs hold
# too.  CMSIS-NN built by gcc allows 2 bytes on every 1x1 convolution
# where the plan overlaps thousands: its outputs change (the person image
# is no longer a person), which is why a plan must be bound to its kernels.
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tflm_lib.sh"

"$DMO" plan --csv "$PERSON_DETECT" >"$WORK/plan.csv" || fail "dmo plan --csv"
saving=$("$DMO" plan "$PERSON_DETECT" | sed -n 's/^saving: .*(\([0-9]*\) bytes) .*$/\1/p')
"$DMO" model --csv "$PERSON_DETECT" >"$WORK/model.csv" || fail "dmo model --csv"
run=$(tflm_runner tflm)
"$run" --tensor-offsets "$WORK/own.csv" "$PERSON_DETECT" >/dev/null || fail "tflm run"
# The plan's rows (the model input, then each layer's output) as tensor
# offsets: a layer's output tensor from dmo model's results column; the
# input is the one tensor TFLM placed that no layer produces.
/usr/bin/python3 - "$WORK/plan.csv" "$WORK/model.csv" "$WORK/own.csv" "$WORK/dmo.csv" <<'PY' ||
import csv, sys
plan, model, own = (list(csv.DictReader(open(f))) for f in sys.argv[1:4])
result = {r["name"]: int(r["results"]) for r in model}
inputs = [int(r["tensor"]) for r in own if int(r["tensor"]) not in result.values()]
assert len(inputs) == 1
with open(sys.argv[4], "w") as out:
    out.write("tensor,offset,bytes\n")
    for r in plan:
        t = inputs[0] if r["name"] == "input" else result[r["name"]]
        out.write("%d,%s,%s\n" % (t, r["offset_dmo"], r["out_bytes"]))
PY
	fail "cannot map dmo's plan to tensors"
/usr/bin/python3 "$top_srcdir/tests/tflm_offline_plan.py" "$PERSON_DETECT" "$WORK/dmo.csv" 0 \
	"$WORK/dmo.tflite" || fail "the writer failed"

images="$TFLM_DIR/tensorflow/lite/micro/examples/person_detection/testdata"
tail -c 9216 "$images/person.bmp" >"$WORK/in1.bin" # a person, rows upside down
LC_ALL=C awk 'BEGIN { srand(6); for (i = 0; i < 9216; i++) printf "%c", int(rand() * 256) }' \
	>"$WORK/in2.bin"
head -c 9216 /dev/zero | tr '\0' '\177' >"$WORK/in3.bin"
arena() { sed -n 's/^arena_used_bytes //p' "$1"; }
for k in $KERNELS; do
	run=$(tflm_runner "$k")
	changed=0
	for i in 1 2 3; do
		"$run" --input "$WORK/in$i.bin" --output "$WORK/own$i.out" "$PERSON_DETECT" \
			>"$WORK/own.lines" || fail "$k: run on TFLM's plan"
		"$run" --input "$WORK/in$i.bin" --output "$WORK/dmo$i.out" "$WORK/dmo.tflite" \
			>"$WORK/dmo.lines" 2>/dev/null || fail "$k: run on dmo's plan"
		cmp -s "$WORK/own$i.out" "$WORK/dmo$i.out" || changed=$((changed + 1))
	done
	echo "$k: arena_used_bytes $(arena "$WORK/own.lines") with TFLM's plan," \
		"$(arena "$WORK/dmo.lines") with dmo's; outputs changed on $changed of 3 inputs"
	case $k in
	tflm)
		expect_eq "$k: inputs whose outputs changed" 0 "$changed"
		expect_eq "$k: arena_used_bytes saved" "$saving" \
			"$(($(arena "$WORK/own.lines") - $(arena "$WORK/dmo.lines")))" ;;
	tflm-cmsis-nn-dsp-ac6)
		expect_eq "$k: inputs whose outputs changed" 0 "$changed" ;;
	*)
		[ "$changed" -gt 0 ] && echo "ok: $k: the reference plan changes its outputs" ||
			fail "$k: the reference plan left every output unchanged" ;;
	esac
done
exit $((failures > 0))
