#!/bin/sh
# bench/plan_report.sh - the model-level table of `dmo plan` (docs/plan.md):
# for each model, its tensors and ops (no-ovl: ops dmo has no model for,
# planned without overlap, from dmo plan's "no overlap:" lines), the arena by TFLite Micro's greedy
# rule without overlaps, with diagonal overlaps by the same greedy rule and
# by dmo's placement search, the lower bound, whether the plan is optimal,
# the saving against TFLite Micro's arena, the time planning took, and the
# wall time of the whole `dmo plan --verify` (read, plan, run the model in
# the planned arena and compare it with separate buffers; "FAILED" when the
# outputs differ).
#
#   bench/plan_report.sh [--os algorithmic|analytic|measured:DIR]
#                        [--time-limit SECONDS] [MODEL...]
#
# MODEL: anything `dmo plan` takes (a shipped table name, a table file, and
# model files once dmo reads them); default: every shipped table, then the
# *.tflite and *.onnx files in $SHARED_MODELS if that is set.  DMO (default:
# the build tree's analysis/dmo) and TABLES (default: the source tree's
# target-harness/models) may be overridden.  Arena sizes only: weights and
# the runtime's own memory are not counted.  A model dmo cannot plan gets a
# row with dmo's message, and the script goes on.
set -e
here=$(dirname "$0")
dmo=${DMO:-$here/../analysis/dmo}
tables=${TABLES:-$here/../target-harness/models}
os=algorithmic
limit=10
while [ $# -gt 0 ]; do
	case $1 in
	--os) os=$2; shift 2 ;;
	--time-limit) limit=$2; shift 2 ;;
	-*) echo "usage: $0 [--os SOURCE] [--time-limit SECONDS] [MODEL...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ]; then
	set -- "$tables"/*.csv
	if [ -n "$SHARED_MODELS" ]; then
		for file in "$SHARED_MODELS"/*.tflite "$SHARED_MODELS"/*.onnx; do
			[ -e "$file" ] && set -- "$@" "$file"
		done
	fi
fi

echo "O_s: $os; search time limit: $limit s; saving: TFLite Micro greedy (no overlaps) to the overlap plan."
echo
printf '| %-34s | %7s | %4s | %6s | %12s | %12s | %12s | %12s | %-28s | %11s | %7s | %8s | %8s |\n' \
	model tensors ops no-ovl "TFLM greedy" "greedy+ovl" "dmo plan" "lower bound" status \
	"saving B" saving "time ms" "verify s"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n' ------------------------------------ --------- ------ -------- \
	-------------- -------------- -------------- -------------- ------------------------------ \
	------------- --------- ---------- ----------
for model in "$@"; do
	name=$(basename "$model")
	name=${name%.csv}
	start=$(date +%s.%N)
	out=$("$dmo" plan --verify --os "$os" --time-limit "$limit" "$model" 2>&1) && verified=1 || verified=0
	end=$(date +%s.%N)
	if ! printf '%s\n' "$out" | grep -q '^peak with overlaps:'; then
		printf '| %-34s | error: %s\n' "$name" "$(printf '%s\n' "$out" | head -n 1)"
		continue
	fi
	printf '%s\n' "$out" | awk -v model="$name" -v verified=$verified -v start="$start" -v end="$end" '
		/^model / {
			for (i = 1; i <= NF; i++) {
				if ($(i + 1) ~ /^layers,?$/) ops = $i
				if ($(i + 1) ~ /^tensors,?$/) tensors = $i
			}
		}
		/^peak without overlaps:/ { plain = $4 }
		/^peak with overlaps:/    { dmo = $4; greedy = $0; sub(/.*same rule: /, "", greedy); sub(/,.*/, "", greedy) }
		/^lower bound:/           { bound = $3 }
		/^status:/                { status = $0; sub(/^status: */, "", status) }
		/^planning:/              { ms = 1000 * $2 }
		/^no overlap:/            { unsupported++ }
		/^saving:/                { saving = $2; bytes = $4; sub(/^\(/, "", bytes) }
		END {
			printf "| %-34s | %7d | %4d | %6d | %12d | %12d | %12d | %12d | %-28s | %11d | %6s%% | %8.1f | %8s |\n",
			       model, tensors, ops, unsupported, plain, greedy, dmo, bound, status,
			       bytes, saving, ms, verified ? sprintf("%.2f", end - start) : "FAILED"
		}'
done
