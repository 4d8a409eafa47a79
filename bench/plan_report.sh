#!/bin/sh
# bench/plan_report.sh - the model-level table of `dmo plan`: for every
# shipped layer table, the arena without and with diagonal overlaps, the
# lower bound, the saving, and the micro-controller RAM sizes the model
# fits only thanks to the overlaps (plain peak > RAM >= overlapped peak).
#
#   bench/plan_report.sh [--os algorithmic|analytic|measured:DIR]
#
# DMO (default: the build tree's analysis/dmo) and MODELS (default: the
# source tree's target-harness/models) may be overridden.  Arena sizes only:
# weights and the runtime's own memory are not counted.
set -e
here=$(dirname "$0")
dmo=${DMO:-$here/../analysis/dmo}
models=${MODELS:-$here/../target-harness/models}
os=${2:-algorithmic}
[ "$1" = --os ] || [ $# -eq 0 ] || { echo "usage: $0 [--os SOURCE]" >&2; exit 2; }

echo "O_s: $os.  RAM sizes: 64, 128, 256, 320, 512 KB, 1 MB (KB = 1024 bytes)."
echo
printf '| %-22s | %12s | %12s | %12s | %7s | %-22s |\n' model "no overlaps" "overlaps" \
	"lower bound" saving "fits only with overlaps"
printf '|%s|%s|%s|%s|%s|%s|\n' ------------------------ -------------- -------------- \
	-------------- --------- ------------------------
for table in "$models"/*.csv; do
	model=$(basename "$table" .csv)
	"$dmo" plan --os "$os" "$table" | awk -v model="$model" '
		/^peak without overlaps:/ { plain = $4 }
		/^peak with overlaps:/    { dmo = $4 }
		/^lower bound:/           { bound = $3 }
		/^saving:/                { saving = $2 }
		END {
			split("64 128 256 320 512 1024", kb, " ")
			fits = ""
			for (i = 1; i <= 6; i++) {
				ram = kb[i] * 1024
				if (dmo <= ram && plain > ram)
					fits = fits (fits == "" ? "" : ", ") \
					       (kb[i] == 1024 ? "1 MB" : kb[i] " KB")
			}
			printf "| %-22s | %12d | %12d | %12d | %6s%% | %-22s |\n", model, plain,
			       dmo, bound, saving, fits == "" ? "-" : fits
		}'
done
