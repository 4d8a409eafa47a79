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
tests/test_plan tests/test_methods tests/test_quant tests/model_damage tests/csv_tsv tests/layers_tsv tests/onnx_net"

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
	test_infer_model test_plan test_methods test_quant; do
	run "$t" "tests/$t"
done
run model_damage tests/model_damage "$src"/tests/models/*.tflite "$src"/tests/models/*.onnx
top_builddir=$dir top_srcdir=$src
export top_builddir top_srcdir
run hostile_inputs sh "$src/tests/hostile_inputs.sh"
# Every real model through the readers, the planner and infer's kernels.
# The PaddleOCR exports have a symbolic input: fixed as in
# tests/onnx_real_models.sh.
for m in "$src"/tests/models/*.tflite "$src"/tests/models/*.onnx; do
	base=$(basename "$m")
	case $base in
	paddleocr_cls_*) shape="--shape=x=1x3x48x192" ;;
	paddleocr_det_*) shape="--shape=x=1x3x64x64" ;;
	*) shape="" ;;
	esac
	run "model $base" analysis/dmo model $shape "$m"
	run "plan --verify $base" sh -c 'analysis/dmo plan --verify $2 "$1" >/dev/null 2>&1; [ $? -le 1 ]' \
		sh "$m" "$shape"
done
# An ONNX CNN with real weights: the NCHW kernels, Gemm's rewritten
# weights and the overlapped arena.
run "onnx_net" tests/onnx_net onnx_net.onnx onnx_net.in
run "infer onnx_net" analysis/dmo infer -q --input onnx_net.in onnx_net.onnx
run "plan --verify onnx_net" analysis/dmo plan --verify onnx_net.onnx
# ONNX's element-wise ops (broadcasting, batchnorm's folded constants,
# commuted Sub and Div) in both arenas.
run "onnx_net --ew" tests/onnx_net --ew onnx_ew.onnx onnx_ew.in
run "infer onnx_net --ew" analysis/dmo infer -q --input onnx_ew.in onnx_ew.onnx
run "infer onnx_net --ew, plain arena" analysis/dmo infer -q --arena plain --input onnx_ew.in onnx_ew.onnx
run "plan --verify onnx_net --ew" analysis/dmo plan --verify onnx_ew.onnx
# ONNX Runtime's QDQ form: uint8 and int8 Q/DQ, int32 biases, a scale per
# channel (its channel index), DequantizeLinear of constants.
for mode in qdq-perchannel qdq-i8; do
	run "onnx_net --$mode" tests/onnx_net --$mode $mode.onnx $mode.in
	run "infer onnx_net --$mode" analysis/dmo infer -q --input $mode.in $mode.onnx
	run "plan --verify onnx_net --$mode" analysis/dmo plan --verify $mode.onnx
done
# Hostile variants of real models (tests/damage_corpus.py: bits flipped
# over the whole file; quantisation scales tiny, subnormal or huge and zero
# points at their type's limits) through infer's reference kernels, and
# the ONNX ones through plan --verify (its overlapped run): each is
# refused or runs (status 0-2), never with a sanitizer report (86) or a
# crash.
for m in tflm_hello_world_int8 tflm_keyword_scrambled_8bit tiny_kws_ref_model; do
	python3 "$src/tests/damage_corpus.py" "$src/tests/models/$m.tflite" "corpus/$m" 32 || exit 2
	run "infer on damaged $m ($(ls "corpus/$m" | wc -l) files)" sh -c '
		for f in "$1"/*; do
			analysis/dmo infer "$f" >/dev/null 2>"$1.err"
			[ $? -le 2 ] || { echo "$f:"; cat "$1.err"; exit 1; }
		done' sh "corpus/$m"
done
for m in "$src"/tests/models/*.onnx; do
	base=$(basename "$m" .onnx)
	python3 "$src/tests/damage_corpus.py" "$m" "corpus/$base" 32 || exit 2
	run "plan --verify on damaged $base" sh -c '
		for f in "$1"/*; do
			analysis/dmo plan --verify "$f" >/dev/null 2>"$1.err"
			[ $? -le 2 ] || { echo "$f:"; cat "$1.err"; exit 1; }
		done' sh "corpus/$base"
done
echo "sanitize: $failed failed"
[ "$failed" -eq 0 ]
