#!/bin/sh
# compare_model.sh - `dmo compare --model`: every layer of person_detect
# measured on dmo's reference kernels and inside TFLM with CMSIS-NN's DSP
# path as gcc builds it, side by side.  Expected values come from elsewhere:
# the ref column is the algorithmic method's O_s (`dmo formula --model`,
# the reference loop order replayed, no tool), and on CMSIS-NN every 1x1
# convolution with at least 4 output channels allows 2 bytes, by hand:
# arm_nn_mat_mult_nt_t_s8 computes output channels in pairs, each pair over
# every pixel, so the last pass (channels C-2, C-1) reads input byte 0
# after the pass before it wrote channel C-3 of the last pixel, OB-3 bytes
# into the output; input byte 0 must lie above it, X < 3 (docs/deploy.md).
. "$top_srcdir/tests/lib.sh"
. "$top_srcdir/tests/tflm_lib.sh"
case " $KERNELS " in *" tflm-cmsis-nn-dsp "*) ;; *)
	echo "SKIP: no tflm-cmsis-nn-dsp build"; exit 77 ;; esac

"$DMO" compare -o "$WORK/cmp" --model "$PERSON_DETECT" --kernels ref,tflm-cmsis-nn-dsp --csv \
	>"$WORK/cmp.csv" 2>"$WORK/cmp.err"
expect_eq "dmo compare --model: exit status" 0 $?
cmp -s "$WORK/cmp.csv" "$WORK/cmp/compare-model.csv" && echo "ok: --csv is DIR/compare-model.csv" ||
	fail "--csv differs from compare-model.csv"
"$DMO" formula --csv --model "$PERSON_DETECT" >"$WORK/formula.csv" || fail "dmo formula"
/usr/bin/python3 - "$WORK/cmp.csv" "$WORK/formula.csv" <<'PY' || fail "the table differs from the derivations"
import csv, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
algo = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 31 == len(algo), (len(rows), len(algo))
ones = 0
for r, a in zip(rows, algo):
    if a["algorithmic_os"] != "":
        assert r["ref"] == a["algorithmic_os"], (r["name"], r["ref"], a["algorithmic_os"])
    m = re.match(r"conv2d:in=1x\d+x\d+x\d+,k=1x1,.*out_c=(\d+)", a["spec"])
    if m and int(m.group(1)) >= 4:
        ones += 1
        assert r["tflm-cmsis-nn-dsp"] == "2", (r["name"], r["tflm-cmsis-nn-dsp"])
assert ones == 13, ones
print("ok: ref = algorithmic on every layer; 2 bytes on all %d 1x1 convolutions" % ones)
PY
# Misuse: --kernels without --model, and both specs and --model.
refuse "--kernels without --model" "goes with --model" "$DMO" compare --kernels ref relu:in=4
refuse "specs and --model" "not both" "$DMO" compare --model "$PERSON_DETECT" relu:in=4
finish
