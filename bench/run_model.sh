#!/bin/sh
# bench/run_model.sh - wall time of `dmo run --model FILE.tflite`: every layer
# of a real model under the tool with its real weights (docs/plan.md), and
# the count of layers `dmo analyze` cross-checked (exact = algorithmic,
# analytic <= exact) against those with a spec.
#
#   bench/run_model.sh [MODEL.tflite...]
#
# Default: the .tflite files of tests/models dmo runs whole, then
# $SHARED_MODELS/tflm_mobilenet_v2_quant_224.tflite when SHARED_MODELS is set.
# DMO (default: the build tree's analysis/dmo) may be overridden.
set -e
here=$(cd "$(dirname "$0")" && pwd)
DMO=${DMO:-$here/../analysis/dmo}
work=$(mktemp -d /tmp/dmo-bench-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
if [ $# -eq 0 ]; then
	set -- "$here"/../tests/models/tflm_person_detect.tflite \
		"$here"/../tests/models/tiny_kws_ref_model.tflite
	[ -n "$SHARED_MODELS" ] && set -- "$@" "$SHARED_MODELS/tflm_mobilenet_v2_quant_224.tflite"
fi
printf '%-36s %7s %9s %14s\n' model layers wall_s "ok/with spec"
for m in "$@"; do
	start=$(date +%s.%N)
	"$DMO" run -q --out "$work/run" --model "$m" >/dev/null
	end=$(date +%s.%N)
	"$DMO" analyze "$work/run" >"$work/analyze" || true
	layers=$("$DMO" model --csv "$m" | awk 'END { print NR - 1 }')
	checked=$(python3 -c 'import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["algorithmic_os"]]
print("%d/%d" % (sum(r["verdict"] == "ok" for r in rows), len(rows)))' "$work/run/analysis.csv")
	printf '%-36s %7s %9.1f %14s\n' "$(basename "$m")" "$layers" \
		"$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" "$checked"
	rm -rf "$work/run"
done
