# tflm_lib.sh - for the TensorFlow Lite Micro runner's tests: which kernel
# builds of dmo-tflm-run-* this build tree has (KERNELS), the TFLM tree they
# were built from (TFLM_DIR), and the runner of one build (tflm_runner).
# Sourced after lib.sh; skips (77) when configure had no --with-tflm.
TFLM_DIR=$(printf 'print-var:\n\t@echo $(TFLM_DIR)\n' |
	env -u MAKEFLAGS -u MFLAGS make -s -C "$top_builddir" -f Makefile -f - print-var)
KERNELS=
for k in tflm tflm-cmsis-nn tflm-cmsis-nn-dsp tflm-cmsis-nn-dsp-ac6; do
	[ -x "$top_builddir/target-harness/tflm/dmo-tflm-run-$k" ] && KERNELS="$KERNELS $k"
done
[ -n "$TFLM_DIR" ] && [ -n "$KERNELS" ] ||
	{ echo "SKIP: dmo was configured without --with-tflm=DIR"; exit 77; }
echo "kernel builds:$KERNELS"
PERSON_DETECT="$top_srcdir/tests/models/tflm_person_detect.tflite"

tflm_runner() { echo "$top_builddir/target-harness/tflm/dmo-tflm-run-$1"; }
