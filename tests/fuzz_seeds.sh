# fuzz_seeds.sh - replay every fuzz seed and every input that once crashed a
# reader (tests/fuzz/seeds, tests/fuzz/regressions, and the model files of
# tests/models for the .tflite and .onnx readers) through the harnesses
# built without libFuzzer (tests/fuzz/fuzz.mk): the contracts the fuzzers
# check hold on them, with no clang needed.
. "$top_srcdir/tests/lib.sh"
for target in opspec wire protocol layers_csv summary trace model backend_info grid formula; do
	for file in "$top_srcdir/tests/fuzz/seeds/$target"/* "$top_srcdir/tests/fuzz/regressions/$target"/*; do
		[ -f "$file" ] || continue
		if "$top_builddir/tests/fuzz/replay_$target" "$file" >"$WORK/out" 2>&1; then
			echo "ok: $target ${file#"$top_srcdir/"}"
		else
			fail "$target ${file#"$top_srcdir/"}: $(tail -n 3 "$WORK/out")"
		fi
	done
done
# The model-file readers start from the real models of tests/models.
for target in tflite onnx; do
	for file in "$top_srcdir/tests/models"/*."$target" "$top_srcdir/tests/fuzz/regressions/$target"/*; do
		[ -f "$file" ] || continue
		if "$top_builddir/tests/fuzz/replay_$target" "$file" >"$WORK/out" 2>&1; then
			echo "ok: $target ${file#"$top_srcdir/"}"
		else
			fail "$target ${file#"$top_srcdir/"}: $(tail -n 3 "$WORK/out")"
		fi
	done
done
finish
