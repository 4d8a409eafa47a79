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
		case $f in -l*) srcs="$srcs $f" ;; *) srcs="$srcs $top/$f" ;; esac
	done
	echo "  CC   $out/fuzz_$name"
	# shellcheck disable=SC2086 # srcs is a word list
	$CC $FUZZ_CFLAGS -I"$top/common" -I"$top/opspec" -I"$top/analysis/lib" \
		-I"$top/target-harness/runner" -I"$top/target-harness/include" \
		"$top/tests/fuzz/fuzz_$name.c" $srcs -o "$out/fuzz_$name"
}

target opspec opspec/opspec.c
target wire common/wire_parse.c
target layers_csv analysis/lib/rundir.c -lcsv
target summary analysis/lib/rundir.c -lcsv
target trace analysis/lib/trace.c
target model opspec/model_table.c opspec/opspec.c -lcsv
target backend_info analysis/lib/backend_info.c -lcsv
target grid opspec/grid.c
target formula analysis/lib/formula.c opspec/opspec.c opspec/grid.c
