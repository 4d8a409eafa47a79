#!/bin/sh
# run.sh [SECONDS] - build every fuzzer and run each for SECONDS (default
# 30) on a fresh corpus: the checked-in seeds and past crashes, the model
# tables, and, when dmo is built, a real run directory.  Work goes to
# $FUZZ_OUT (default a new temporary directory); a crash leaves its input
# in $FUZZ_OUT/artifacts/TARGET/ and makes the script fail.
set -eu
seconds=${1:-30}
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
out=${FUZZ_OUT:-$(mktemp -d /tmp/dmo-fuzz-run.XXXXXX)}
targets="opspec wire protocol layers_csv summary trace model backend_info tflite onnx grid formula"

"$here/build.sh" "$out/bin"
for t in $targets; do
	mkdir -p "$out/corpus/$t" "$out/artifacts/$t"
	for d in seeds regressions; do
		[ -d "$here/$d/$t" ] && cp "$here/$d/$t"/* "$out/corpus/$t/"
	done
done
cp "$top"/target-harness/models/*.csv "$out/corpus/model/"
cp "$top"/tests/models/*.tflite "$out/corpus/tflite/"
cp "$top"/tests/models/*.onnx "$out/corpus/onnx/"
# Real files from the real code paths, if this tree has a working dmo.
if [ -x "$top/analysis/dmo" ] &&
   "$top/analysis/dmo" run --out "$out/run" --trace=full relu:in=4x4x2 >/dev/null 2>&1; then
	cp "$out/run/layers.csv" "$out/corpus/layers_csv/run.csv"
	cp "$out/run/tool-layers.bin" "$out/corpus/summary/run.bin"
	cp "$out/run"/layer-*.events "$out/corpus/trace/"
else
	echo "run.sh: no working analysis/dmo; checked-in seeds only" >&2
fi

# The path-taking readers write every input to a file: on tmpfs if we can.
[ -w /dev/shm ] && TMPDIR=${TMPDIR:-/dev/shm} && export TMPDIR
status=0
for t in $targets; do
	dict=
	case $t in opspec | model | grid) dict=-dict=$here/opspec.dict ;; formula) dict=-dict=$here/formula.dict ;; esac
	echo "== fuzz_$t for ${seconds}s"
	# shellcheck disable=SC2086 # dict is empty or one word
	if "$out/bin/fuzz_$t" -max_total_time="$seconds" -print_final_stats=1 \
		-artifact_prefix="$out/artifacts/$t/" $dict "$out/corpus/$t" \
		>"$out/fuzz_$t.log" 2>&1; then
		grep -E '^#[0-9]+[[:space:]]+DONE' "$out/fuzz_$t.log" || true
	else
		echo "fuzz_$t FAILED: see $out/fuzz_$t.log and $out/artifacts/$t/"
		status=1
	fi
done
echo "run.sh: logs, corpora and artifacts in $out"
exit $status
