# model_damage.sh - truncated and corrupted copies of every real model file
# in tests/models (model_damage.c) never crash the readers, never read out
# of bounds (memcheck) and never hang: each is read or refused with a
# message naming it.
. "$top_srcdir/tests/lib.sh"

valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
	"$top_builddir/tests/model_damage" "$top_srcdir"/tests/models/*.tflite \
	"$top_srcdir"/tests/models/*.onnx >"$WORK/out" 2>&1
status=$?
cat "$WORK/out"
expect_eq "model_damage under memcheck exit status" 0 "$status"
finish
