#!/bin/sh
# sweep_jobs.sh - the bar of the sweep issue: a 2000-configuration depthwise
# sweep of the paper's formula on the ref backend (0 unsafe), its wall time
# serial against --jobs 2, and the two runs' results.csv compared.
# Run from a built tree:  make bench-sweep   (or set top_builddir,
# top_srcdir and run it; SWEEP_N changes the sample size, SWEEP_BATCH the
# configurations per Valgrind process).  Do not rebuild the tree meanwhile:
# batches that find no harness fail (and say so).
set -eu
: "${top_builddir:?}" "${top_srcdir:?}"
DMO=$top_builddir/analysis/dmo
GRID='dwconv2d:in={8..64:8}x{8..64:8}x{1,3,16},k={1..5}x{1..5},stride={1,2},pad={same,valid}'
N=${SWEEP_N:-2000}
BATCH=${SWEEP_BATCH:-20}
out=$(mktemp -d /tmp/dmo-sweep-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT

echo "grid: $GRID, a sample of $N (seed 1), batches of $BATCH"
printf '%-6s %10s %8s %8s\n' jobs wall_s run unsafe
for jobs in 1 2; do
	start=$(date +%s.%N)
	status=0
	"$DMO" sweep "$GRID" --sample "$N" --seed 1 --batch "$BATCH" --jobs "$jobs" \
		--formula "@$top_srcdir/tests/sweep/paper_dwconv.formula" \
		--out "$out/jobs$jobs" >"$out/jobs$jobs.out" 2>"$out/jobs$jobs.err" || status=$?
	end=$(date +%s.%N)
	s=$(echo "$out/jobs$jobs"/sweep-*/summary.csv)
	printf '%-6s %10.1f %8s %8s\n' "$jobs" "$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')" \
		"$(awk -F, '$1 == "run" { print $2 }' "$s")" "$(awk -F, '$1 == "unsafe" { print $2 }' "$s")"
	[ "$status" -eq 0 ] || { echo "dmo sweep --jobs $jobs exited $status"; tail -5 "$out/jobs$jobs.err"; }
done
cmp "$out"/jobs1/sweep-*/results.csv "$out"/jobs2/sweep-*/results.csv &&
	echo "results.csv: serial = --jobs 2"
sed -n 's/^penalty/penalty/p' "$out/jobs1.out"
