#!/bin/sh
# plan_tflm.sh - dmo's plan proven inside TensorFlow Lite Micro (issue 26,
# item 6, the plan side): for each TFLM kernel build whose runner
# dmo-tflm-run-KERNELS is built (configure --with-tflm=DIR; skipped, 77,
# when none is),
# - dmo plan --kernels KERNELS --verify --emit-tflite: the O_s measured on
#   those kernels inside TFLM (dmo run --runtime), the plan emitted and
#   verified in TFLM by dmo;
# - independently of dmo's verify: the emitted model and the original (TFLM's
#   own plan) run here in the runner on inputs of this script, outputs
#   equal byte for byte, and arena_used_bytes lower by exactly the saving
#   dmo printed;
# - the negative case: the plan of dmo's reference kernels, run by TFLM
#   with CMSIS-NN built by gcc, changes the output (its 1x1 convolution
#   re-reads its input), and dmo refuses O_s of ref for those kernels.
# The runner's interface: tflm_run.h.
. "$top_srcdir/tests/lib.sh"
MODELS="$top_srcdir/tests/models"
m="$MODELS/tflm_person_detect.tflite"
RUNNERS=${DMO_TFLM_RUNNER_DIR:-$top_builddir/target-harness/tflm}

found=0
for k in tflm tflm-cmsis-nn tflm-cmsis-nn-dsp tflm-cmsis-nn-dsp-ac6; do
	[ -x "$RUNNERS/dmo-tflm-run-$k" ] && found=1
done
if [ $found -eq 0 ]; then
	echo "SKIP: no TFLM runner in $RUNNERS (configure --with-tflm=DIR)"
	exit 77
fi

# arena FILE: arena_used_bytes of a runner's report.
arena() { awk '$1 == "arena_used_bytes" { print $2 }' "$1"; }

# both RUNNER PLANNED SEED: the original model (TFLM's own plan) and
# PLANNED on input SEED, reports in own.txt and dmo.txt; 0 when the
# outputs are equal byte for byte.
both() {
	"$1" --input "$WORK/in$3.bin" --output "$WORK/own.out" "$m" >"$WORK/own.txt"
	"$1" --input "$WORK/in$3.bin" --output "$WORK/dmo.out" "$2" >"$WORK/dmo.txt"
	cmp -s "$WORK/own.out" "$WORK/dmo.out"
}

# The inputs: 9216 bytes each (96x96x1 int8), from this script's own seeds.
for seed in 1 2 3; do
	/usr/bin/python3 -c "import random,sys; random.seed($seed); sys.stdout.buffer.write(bytes(random.randrange(256) for _ in range(9216)))" \
		>"$WORK/in$seed.bin"
done

# The reference kernels' plan, for the negative case.
"$DMO" plan -q --emit-tflite "$WORK/ref.tflite" "$m" >"$WORK/ref.txt"
ref_saving=$(( $(awk '/^peak without overlaps/ { print $4 }' "$WORK/ref.txt") -
	$(awk '/^peak with overlaps/ { print $4 }' "$WORK/ref.txt") ))
"$DMO" run -q --out "$WORK/refrun" relu:in=4x4x2 >/dev/null
# Measuring inside TFLM needs dmo run --runtime (issue 26, item 3).
"$DMO" run --help | grep -q -- "--runtime" && measures=1 || measures=0
[ $measures -eq 1 ] || echo "note: dmo run has no --runtime: the plans measured inside TFLM are not run"

# dmo's reference kernels follow TFLM's reference loop order: their plan
# runs in TFLM with its reference kernels as TFLM's own does, in 18416
# bytes less (55296 - 36880).
if [ -x "$RUNNERS/dmo-tflm-run-tflm" ]; then
	for seed in 1 2 3; do
		both "$RUNNERS/dmo-tflm-run-tflm" "$WORK/ref.tflite" $seed &&
			echo "ok: tflm, input $seed: outputs with the reference plan = TFLM's own plan" ||
			fail "tflm, input $seed: the reference plan changes TFLM's reference kernels' output"
		expect_eq "tflm, input $seed: arena_used_bytes lower by dmo's saving" 18416 \
			$(( $(arena "$WORK/own.txt") - $(arena "$WORK/dmo.txt") ))
	done
	expect_eq "the reference plan's saving in TFLM's arena" 18416 "$ref_saving"
fi

# negative KERNELS: dmo refuses O_s of its reference kernels for KERNELS,
# and, for CMSIS-NN built by gcc, their plan changes TFLM's output (the 1x1
# convolution re-reads its whole input for each pair of output channels).
negative() {
	k=$1 runner="$RUNNERS/dmo-tflm-run-$1"
	# dmo refuses O_s of its reference kernels for these kernels.
	"$DMO" plan --kernels "$k" --os "measured:$WORK/refrun" "$m" >/dev/null 2>"$WORK/$k.refused"
	expect_eq "$k: O_s of ref refused: exit status" 2 $?
	grep -q "runs $k kernels, but the O_s were measured on ref" "$WORK/$k.refused" ||
		fail "$k: the refusal does not name both: $(cat "$WORK/$k.refused")"
	case $k in
	tflm-cmsis-nn | tflm-cmsis-nn-dsp)
		# gcc's CMSIS-NN 1x1 convolution: the reference plan corrupts it.
		differs=0
		for seed in 1 2 3; do
			both "$runner" "$WORK/ref.tflite" $seed || differs=1
		done
		expect_eq "$k: the reference plan changes TFLM's output" 1 $differs ;;
	esac
}

for k in tflm tflm-cmsis-nn tflm-cmsis-nn-dsp tflm-cmsis-nn-dsp-ac6; do
	runner="$RUNNERS/dmo-tflm-run-$k"
	[ -x "$runner" ] || { echo "note: $runner not built"; continue; }
	[ $measures -eq 1 ] || { negative "$k"; continue; }
	"$DMO" plan --kernels "$k" --verify --emit-tflite "$WORK/$k.tflite" "$m" >"$WORK/$k.txt" 2>"$WORK/$k.err"
	expect_eq "$k: dmo plan --kernels --verify --emit-tflite exit status" 0 $?
	grep -q "^kernels: *$k: " "$WORK/$k.txt" || fail "$k: the header does not name the kernels"
	grep -q "^verify: outputs of TFLM" "$WORK/$k.txt" || fail "$k: no verify in TFLM: $(cat "$WORK/$k.err")"
	plain=$(awk '/^peak without overlaps/ { print $4 }' "$WORK/$k.txt")
	ours=$(awk '/^peak with overlaps/ { print $4 }' "$WORK/$k.txt")
	for seed in 1 2 3; do
		both "$runner" "$WORK/$k.tflite" $seed &&
			echo "ok: $k, input $seed: outputs with dmo's plan = TFLM's own plan" ||
			fail "$k, input $seed: outputs differ"
		grep -q "^offline_plan yes" "$WORK/dmo.txt" || fail "$k: the runner did not take the plan"
		# Only a plan of TFLM's whole arena (the kernels' scratch buffers
		# known to dmo) can say what TFLM will use.
		grep -q "^peak with overlaps: .*whole non-persistent arena" "$WORK/$k.txt" &&
			expect_eq "$k, input $seed: arena_used_bytes lower by dmo's saving" $((plain - ours)) \
				$(( $(arena "$WORK/own.txt") - $(arena "$WORK/dmo.txt") ))
	done
	negative "$k"
done
[ "$failures" -eq 0 ]
