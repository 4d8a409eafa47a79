#!/bin/sh
# sweep_backend.sh - the third-party bar of the sweep issue: the paper's
# depthwise formula swept on kernel libraries (default xnnpack and onednn,
# each capped at sse4 so that Valgrind runs no 256-bit FMA), and where it is
# unsafe for each: the unsafe configurations grouped by kernel size, channel
# count and stride, each checked natively (the same library and cap, buffers
# really overlapped) at the measured O_s, which must keep the output, and at
# the formula's value.  Backends that were not built are skipped.
# Run from a built tree:  make bench-sweep   (or set top_builddir,
# top_srcdir and run it; SWEEP_BACKENDS, SWEEP_ISA, SWEEP_N, SWEEP_JOBS and
# SWEEP_BATCH change the defaults).
set -eu
: "${top_builddir:?}" "${top_srcdir:?}"
DMO=$top_builddir/analysis/dmo
GRID='dwconv2d:in={8..64:8}x{8..64:8}x{1,3,16},k={1..5}x{1..5},stride={1,2},pad={same,valid}'
N=${SWEEP_N:-1000}
ISA=${SWEEP_ISA:-sse4}
JOBS=${SWEEP_JOBS:-2}
BATCH=${SWEEP_BATCH:-20}
out=${SWEEP_OUT:-$(mktemp -d /tmp/dmo-sweep-backend.XXXXXX)}

echo "grid: $GRID, a sample of $N (seed 1), the paper's formula, --isa $ISA, --jobs $JOBS"
for backend in ${SWEEP_BACKENDS:-xnnpack onednn}; do
	if ! "$DMO" verify --backend "$backend" --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>&1; then
		echo "$backend: not built, skipped"
		continue
	fi
	start=$(date +%s.%N)
	status=0
	"$DMO" sweep "$GRID" --backend "$backend" --isa "$ISA" --sample "$N" --seed 1 \
		--batch "$BATCH" --jobs "$JOBS" --formula "@$top_srcdir/tests/sweep/paper_dwconv.formula" \
		--out "$out/$backend" >"$out/$backend.out" 2>"$out/$backend.err" || status=$?
	end=$(date +%s.%N)
	echo
	echo "== $backend: dmo sweep exited $status in $(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.0f", b - a }') s"
	grep -v '^  UNSAFE\|^  \.\.\.' "$out/$backend.out" || true
	dir=$(echo "$out/$backend"/sweep-*)
	# Rows "spec exact formula verdict"; the spec is quoted and holds commas.
	sed 1d "$dir/results.csv" | awk -F, '{ spec = $0; sub(/^[0-9]*,"/, "", spec); sub(/",.*/, "", spec)
		print spec, $(NF - 5), $(NF - 2), $(NF - 1) }' >"$out/$backend.rows"
	echo "unsafe configurations by kernel, channels and stride (count, worst excess in bytes):"
	awk '$4 == "UNSAFE" { split($1, kv, /[:,]/)
		for (i in kv) { if (kv[i] ~ /^in=/) c = kv[i]; if (kv[i] ~ /^k=/) k = kv[i]; if (kv[i] ~ /^stride=/) s = kv[i] }
		sub(/^in=[0-9]*x[0-9]*x/, "c=", c); key = k " " c " " s
		n[key]++; if ($3 - $2 > w[key]) w[key] = $3 - $2 }
		END { for (key in n) printf "  %-22s %5d %8d\n", key, n[key], w[key] }' "$out/$backend.rows" | sort
	safe=0 changed=0 total=0
	while read -r spec exact formula verdict; do
		[ "$verdict" = UNSAFE ] || continue
		total=$((total + 1))
		"$DMO" verify --backend "$backend" --isa "$ISA" --scan-limit 0 --overlap "$exact" "$spec" \
			>/dev/null 2>&1 && safe=$((safe + 1))
		"$DMO" verify --backend "$backend" --isa "$ISA" --scan-limit 0 --overlap "$formula" "$spec" \
			>/dev/null 2>&1 || changed=$((changed + 1))
	done <"$out/$backend.rows"
	echo "natively, on the $total unsafe configurations: the measured O_s kept the output on $safe;" \
		"the formula's overlap changed it on $changed"
done
echo "results: $out"
