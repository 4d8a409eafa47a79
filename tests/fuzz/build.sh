#!/bin/sh
# build.sh OUTDIR - build every libFuzzer target (ASan + UBSan) into OUTDIR
# with clang, straight from the sources: no configure needed.
# CC and FUZZ_CFLAGS override the compiler and the instrumentation.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
top=$(cd "$(dirname "$0")/../.." && pwd)
CC=${CC:-clang}
FUZZ_CFLAGS=${FUZZ_CFLAGS:--g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined}
mkdir -p "$out"

# target NAME SOURCES... [-lLIB...]: one fuzzer from its harness and the
# reader's own sources.
target() {
	name=$1; shift
	srcs=
	for f in "$@"; do
		case $f in -[lI]* | /*) srcs="$srcs $f" ;; *) srcs="$srcs $top/$f" ;; esac
	done
	echo "  CC   $out/fuzz_$name"
	# shellcheck disable=SC2086 # srcs is a word list
	$CC $FUZZ_CFLAGS -I"$top/common" -I"$top/opspec" -I"$top/analysis/lib" \
		-I"$top/runner" -I"$top/target-harness/include" \
		"$top/tests/fuzz/fuzz_$name.c" $srcs -o "$out/fuzz_$name"
}

target opspec opspec/opspec.c
target wire common/wire_parse.c common/protocol.c
target protocol common/protocol.c common/wire_parse.c
target layers_csv analysis/lib/rundir.c analysis/lib/fs.c analysis/lib/textcol.c -lcsv
target summary analysis/lib/rundir.c analysis/lib/fs.c analysis/lib/textcol.c -lcsv
target trace analysis/lib/trace.c analysis/lib/rundir.c analysis/lib/fs.c analysis/lib/textcol.c \
	common/event_code.c -lcsv
# The model readers need the C protoc-c generates from onnx.proto.
ONNX_PROTO=${ONNX_PROTO:-/usr/include/onnx/onnx.proto}
cp "$ONNX_PROTO" "$out/onnx.proto" && (cd "$out" && protoc-c --c_out=. onnx.proto)
models="opspec/model.c opspec/model_table.c opspec/flatbuf.c opspec/model_tflite.c opspec/tflite_plan.c
	opspec/model_onnx.c opspec/opspec.c $out/onnx.pb-c.c -I$out -lprotobuf-c -lcsv"
# shellcheck disable=SC2086 # models is a word list
target model $models
# shellcheck disable=SC2086
target tflite $models
# shellcheck disable=SC2086
target onnx $models
target backend_info analysis/lib/backend_info.c -lcsv
target grid opspec/grid.c
target formula analysis/lib/formula.c opspec/opspec.c opspec/grid.c
