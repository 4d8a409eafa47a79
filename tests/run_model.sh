#!/bin/sh
# run_model.sh - `dmo run --model FILE.tflite`: every layer of a real model
# profiled under the tool with its real weights, on the previous layers'
# real outputs.  Checked: one row per layer of the model with the reader's
# buffer sizes (dmo model --csv), every row ok; dmo analyze's exact O_s
# equals the algorithmic value and the analytic one is below it on every
# layer with an op spec (and layers with a spec get no other verdict);
# dmo plan --os measured:DIR gives the same peak as the algorithmic O_s and
# passes --verify; the harness run under the tool computes the same output
# bytes as `dmo infer` on the same input; progress lines only on a terminal
# and not with -q; bad options refused.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"
HARNESS="$top_builddir/target-harness/harness/dmo-harness"

# same_layers RUN_DIR MODEL: layers.csv and dmo model --csv agree row by row
# on name and buffer sizes, and every status is ok.
same_layers() {
	"$DMO" model --csv "$2" >"$WORK/model.csv"
	python3 - "$1/layers.csv" "$WORK/model.csv" <<'PY'
import csv, sys
run = list(csv.DictReader(open(sys.argv[1])))
model = list(csv.DictReader(open(sys.argv[2])))
bad = [] if len(run) == len(model) else ["%d rows for %d layers" % (len(run), len(model))]
for r, m in zip(run, model):
    if (r["name"], r["in_bytes"], r["out_bytes"], r["status"]) != (m["name"], m["in_bytes"], m["out_bytes"], "ok"):
        bad.append("%s %s/%s %s, model %s %s/%s" % (r["name"], r["in_bytes"], r["out_bytes"], r["status"],
                                                    m["name"], m["in_bytes"], m["out_bytes"]))
print("\n".join(bad) if bad else "same")
PY
}

# methods RUN_DIR: from analysis.csv, "SPEC_LAYERS BAD" where BAD counts
# layers with a spec whose exact differs from algorithmic, whose analytic
# exceeds exact or whose verdict is not ok.
methods() {
	python3 - "$1/analysis.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["algorithmic_os"]]
bad = [r for r in rows if r["exact_os"] != r["algorithmic_os"] or
       int(r["analytic_os"]) > int(r["exact_os"]) or r["verdict"] != "ok"]
print(len(rows), len(bad))
PY
}

for name in tflm_person_detect tiny_kws_ref_model tflm_micro_speech_quantized; do
	m="$MODELS/$name.tflite"
	d="$WORK/$name"
	"$DMO" run --out "$d" --model "$m" >"$d.out" 2>"$d.err"
	expect_eq "$name: dmo run exit status" 0 $?
	grep -q "^dmo run: [0-9]*/[0-9]* layer " "$d.err" && fail "$name: progress lines on a stderr that is not a terminal"
	expect_eq "$name: layers and sizes against dmo model" same "$(same_layers "$d" "$m")"
	"$DMO" analyze "$d" >"$d.analyze" 2>&1
	expect_eq "$name: dmo analyze exit status" 0 $?
	set -- $(methods "$d")
	specs=$("$DMO" model --csv "$m" | python3 -c 'import csv, sys; print(sum(r["supported"] == "1" for r in csv.DictReader(sys.stdin)))')
	expect_eq "$name: layers cross-checked (every layer with an op spec)" "$specs" "$1"
	expect_eq "$name: layers where exact != algorithmic or analytic > exact" 0 "$2"
	algo=$("$DMO" plan "$m" | awk '/^peak with overlaps/ { print $4 }')
	"$DMO" plan --os "measured:$d" --verify "$m" >"$d.plan" 2>&1
	expect_eq "$name: dmo plan --os measured --verify exit status" 0 $?
	expect_eq "$name: peak planned with measured O_s (= algorithmic)" "$algo" \
		"$(awk '/^peak with overlaps/ { print $4 }' "$d.plan")"
	grep -q "real weights" "$d.plan" || fail "$name: --verify did not run the real weights: $(tail -1 "$d.plan")"
	# One thread alive in every layer: the as-run values, and the kernels'.
	grep -q "^measured O_s taken: *safe_os_bytes ([0-9]* as-run)$" "$d.plan" &&
		grep -q "^kernels: *ref: dmo's reference kernels.*, compiled$" "$d.plan" &&
		echo "ok: $name: the plan names the values and the ISA" ||
		fail "$name: plan header: $(head -4 "$d.plan")"
done

# --verify with real weights catches an O_s 7 bytes above the measured one:
# 3_conv_2d (1x1, 48x48x8 -> 48x48x16, O_s 18425) claimed fully overlappable
# (18432) clobbers input channel 0 of the last pixel before output channels
# 9-15 read it (out channel 8 lands on it), so layer 2's output differs.
d="$WORK/tflm_person_detect"
python3 - "$d/layers.csv" "$WORK/doctored" <<'PY'
import csv, os, sys
os.mkdir(sys.argv[2])
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
for r in rows[1:]:
    if r[1] == "3_conv_2d":
        assert r[h.index("os_bytes")] == "18425", r
        for c in ("os_bytes", "os_any_bytes", "os_split_bytes", "safe_os_bytes"):
            r[h.index(c)] = "18432"
csv.writer(open(os.path.join(sys.argv[2], "layers.csv"), "w"), lineterminator="\n").writerows(rows)
PY
# Still a run of dmo's reference kernels: its kernels.csv comes along.
cp "$d/kernels.csv" "$WORK/doctored/"
grep -q '^"ref","ref",' "$d/kernels.csv" || fail "dmo run --model's kernels.csv does not say ref: $(cat "$d/kernels.csv")"
"$DMO" plan --os "measured:$WORK/doctored" --verify "$MODELS/tflm_person_detect.tflite" \
	>/dev/null 2>"$WORK/doctored.err"
expect_eq "--verify of a plan from an O_s 7 bytes too high: exit status" 1 $?
grep -q "layer 3 '3_conv_2d'" "$WORK/doctored.err" || fail "not caught at 3_conv_2d: $(cat "$WORK/doctored.err")"

# --arena PLAN.csv: dmo plan --csv's plan runs as the overlap plan does; one
# that overlaps live tensors beyond O_s, or of another model, is refused.
m="$MODELS/tflm_person_detect.tflite"
"$DMO" plan --csv "$m" >"$WORK/plan.csv"
"$DMO" infer --arena "$WORK/plan.csv" --output "$WORK/a.out" "$m" >"$WORK/a.log"
expect_eq "infer --arena PLAN.csv exit status" 0 $?
"$DMO" infer --output "$WORK/o.out" "$m" >/dev/null
cmp -s "$WORK/a.out" "$WORK/o.out" && echo "ok: --arena PLAN.csv output = --arena overlap output" ||
	fail "--arena PLAN.csv output differs"
grep -q "36871-byte arena" "$WORK/a.log" || fail "--arena PLAN.csv: $(cat "$WORK/a.log")"
awk -F, 'BEGIN { OFS = "," } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "offset_dmo") c = i }
	$2 == "3_conv_2d" { $c = 10 } { print }' "$WORK/plan.csv" >"$WORK/bad-plan.csv"
"$DMO" infer --arena "$WORK/bad-plan.csv" "$m" >/dev/null 2>"$WORK/bad-plan.err"
expect_eq "infer --arena with live tensors overlapping: exit status" 2 $?
grep -q "not a safe plan" "$WORK/bad-plan.err" || fail "unsafe plan message: $(cat "$WORK/bad-plan.err")"
"$DMO" plan --csv "$MODELS/tiny_kws_ref_model.tflite" >"$WORK/other.csv"
"$DMO" infer --arena "$WORK/other.csv" "$m" >/dev/null 2>"$WORK/other.err"
expect_eq "infer --arena with another model's plan: exit status" 2 $?
# Damaged plan files: a message naming the file, status 2.
: >"$WORK/empty.csv"
head -1 "$WORK/plan.csv" >"$WORK/header.csv"
printf 'layer,name\n1,"x\n' >"$WORK/quote.csv"
sed '3s/,18432,/,-5,/' "$WORK/plan.csv" >"$WORK/negative.csv"
sed '4s/$/,extra/' "$WORK/plan.csv" >"$WORK/wide.csv"
printf 'a\000b,c\n' >"$WORK/nul.csv"
for f in empty header quote negative wide nul none; do
	"$DMO" infer --arena "$WORK/$f.csv" "$m" >/dev/null 2>"$WORK/$f.err"
	expect_eq "infer --arena $f.csv: exit status" 2 $?
	grep -q "$f.csv" "$WORK/$f.err" || fail "$f.csv: message does not name the file: $(cat "$WORK/$f.err")"
done

# Under the tool the harness computes what dmo infer computes.
m="$MODELS/tflm_person_detect.tflite"
"$DMO" profile -q --out "$WORK/prof" -- "$HARNESS" --model "$m" --random 7 --output "$WORK/h.out" \
	>/dev/null 2>"$WORK/prof.err"
expect_eq "harness under dmo profile exit status" 0 $?
"$DMO" infer --random 7 --output "$WORK/i.out" "$m" >/dev/null
cmp -s "$WORK/h.out" "$WORK/i.out" && echo "ok: profiled run's output = dmo infer's" ||
	fail "profiled run's output differs from dmo infer's"
"$DMO" infer --random 8 --output "$WORK/i8.out" "$m" >/dev/null
cmp -s "$WORK/h.out" "$WORK/i8.out" && fail "another seed gave the same output: the input is not used"

# Progress: a line per layer, with its count, on a terminal; none with -q.
if command -v script >/dev/null; then
	m="$MODELS/tflm_micro_speech_quantized.tflite"
	n=$("$DMO" model --csv "$m" | python3 -c 'import csv, sys; print(len(list(csv.DictReader(sys.stdin))))')
	script -qec "'$DMO' run --zeros --out '$WORK/tty' --model '$m'" /dev/null >"$WORK/tty.log" 2>&1
	expect_eq "progress lines on a terminal" "$n" "$(grep -c "^dmo run: [0-9]*/$n layer " "$WORK/tty.log")"
	script -qec "'$DMO' run -q --out '$WORK/tty-q' --model '$m'" /dev/null >"$WORK/tty-q.log" 2>&1
	expect_eq "progress lines with -q" 0 "$(grep -c "^dmo run: [0-9]*/$n layer " "$WORK/tty-q.log")"
fi

# Bad options: a clear message and status 2 before valgrind starts.
for args in "--random x --model $m" "--random 1 --zeros --model $m" "--threads 2 --model $m" \
	    "--random 1 relu:in=4x4x1" "--input $WORK/none --model $m"; do
	"$DMO" run --out "$WORK/bad" $args >/dev/null 2>"$WORK/bad.err"
	expect_eq "dmo run $args: exit status" 2 $?
	[ -s "$WORK/bad.err" ] || fail "dmo run $args: no message"
done

finish
