#!/bin/sh
# sanitize.sh - `make check-sanitize` (and a step of .ci/run): dmo built
# with AddressSanitizer and UndefinedBehaviorSanitizer, in a copy of the
# source tree (sanitize-build/ below the build folder), running what reads
# untrusted input natively: the op-spec parser, the model readers on the
# damaged-model corpus, the planner, the reference kernels through infer
# (an ONNX CNN's NCHW kernels too), and the hostile-input cases.  Any
# sanitizer report fails the run.  Tests under Valgrind are left out
# (Valgrind and ASan do not mix).
set -u
src=$(cd "${top_srcdir:?}" && pwd)
dir=$(pwd)/sanitize-build
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
programs="analysis/dmo tests/test_opspec tests/test_models tests/test_model_tflite \
tests/test_model_onnx tests/test_infer tests/test_infer_ops tests/test_infer_model \
tests/test_plan tests/test_methods tests/model_damage tests/csv_tsv tests/layers_tsv tests/onnx_net"

rm -rf "$dir" && mkdir -p "$dir" || exit 2
# The tracked files as they are now (uncommitted edits included).
(cd "$src" && git ls-files -z | xargs -0 cp --parents -t "$dir") || exit 2
cd "$dir" || exit 2
echo "sanitize: building in $dir"
if ! { autoreconf -fi && ./configure -q CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined" &&
	make -j2 $programs; } >build.log 2>&1; then
	tail -30 build.log
	echo "sanitize: build failed"
	exit 2
fi
# Leaks are memcheck's business (model_damage.sh); here: bad accesses and UB.
ASAN_OPTIONS=detect_leaks=0:abort_on_error=0:exitcode=86
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=86
export ASAN_OPTIONS UBSAN_OPTIONS
# Check forks each test; under ASan the children's reports must reach us.
CK_FORK=no
export CK_FORK
failed=0
run() {
	name=$1; shift
	if "$@" >"$name.log" 2>&1; then
		echo "PASS: $name"
	else
		echo "FAIL: $name (status $?)"; tail -20 "$name.log"; failed=$((failed + 1))
	fi
}
for t in test_opspec test_models test_model_tflite test_model_onnx test_infer test_infer_ops \
	test_infer_model test_plan test_methods; do
	run "$t" "tests/$t"
done
run model_damage tests/model_damage "$src"/tests/models/*.tflite "$src"/tests/models/*.onnx
top_builddir=$dir top_srcdir=$src
export top_builddir top_srcdir
run hostile_inputs sh "$src/tests/hostile_inputs.sh"
# Every real model through the readers, the planner and infer's kernels.
for m in "$src"/tests/models/*.tflite "$src"/tests/models/*.onnx; do
	base=$(basename "$m")
	run "model $base" analysis/dmo model "$m"
	run "plan --verify $base" sh -c 'analysis/dmo plan --verify "$1" >/dev/null 2>&1; [ $? -le 1 ]' sh "$m"
done
# An ONNX CNN with real weights: the NCHW kernels, Gemm's rewritten
# weights and the overlapped arena.
run "onnx_net" tests/onnx_net onnx_net.onnx onnx_net.in
run "infer onnx_net" analysis/dmo infer -q --input onnx_net.in onnx_net.onnx
run "plan --verify onnx_net" analysis/dmo plan --verify onnx_net.onnx
echo "sanitize: $failed failed"
[ "$failed" -eq 0 ]
