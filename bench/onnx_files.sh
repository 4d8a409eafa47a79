#!/bin/sh
# onnx_files.sh [FILE.onnx...] - dmo on every ONNX file given (default: every
# .onnx this machine holds outside /proc, /sys and /tmp):
# `dmo model`, `dmo plan --verify` and `dmo infer` on the case's stored
# input (test_data_set_0/input_*.pb beside the model, else --zeros),
# compared with ONNX Runtime (tests/ort/run.js) on the same bytes within
# tests/lib.sh's f32_close tolerance.  One line a file on stdout:
#   FILE  model=ok|2  plan=ok|2  infer=same|DIFFERS|refused|ort-refuses  WHY
# WHY is the first refusal's reason.  The tallies end the output; the
# table behind docs/models.md's "Every ONNX file on this machine".
# Needs node and onnxruntime-node in tests/ort; DMO (default analysis/dmo).
top_srcdir=${top_srcdir:-.}
DMO=${DMO:-analysis/dmo}
ORT="node $top_srcdir/tests/ort/run.js"
TENSOR_BYTES="node $top_srcdir/tests/ort/tensor_bytes.js"
work=$(mktemp -d /tmp/dmo-onnx-files.XXXXXX) || exit 2
trap 'rm -rf "$work"' EXIT

if [ $# -eq 0 ]; then
	find / -xdev \( -path /proc -o -path /sys -o -path /tmp \) -prune \
		-o -name '*.onnx' -print 2>/dev/null | sort >"$work/files"
else
	printf '%s\n' "$@" >"$work/files"
fi

# within WANT GOT: the float32 files agree as f32_close (tests/lib.sh) asks.
within() {
	od -An -v -tf4 "$1" | tr -s ' ' '\n' | sed '/^$/d' >"$work/want"
	od -An -v -tf4 "$2" | tr -s ' ' '\n' | sed '/^$/d' >"$work/got"
	[ "$(wc -l <"$work/want")" = "$(wc -l <"$work/got")" ] &&
		paste "$work/want" "$work/got" | awk '{ d = $1 - $2; if (d < 0) d = -d
			m = $1 < 0 ? -$1 : $1; if (m < 0.1) m = 0.1; if (d / m > 1e-5) bad = 1 }
			END { exit bad }'
}

while read -r f; do
	why=
	"$DMO" model "$f" >/dev/null 2>"$work/err" && model=ok || { model=2; why=$(head -1 "$work/err"); }
	"$DMO" plan --verify "$f" >/dev/null 2>"$work/err" && plan=ok ||
		{ plan=2; [ -n "$why" ] || why=$(head -1 "$work/err"); }
	set -- "$(dirname "$f")"/test_data_set_0/input_*.pb
	if [ -f "$1" ]; then
		$TENSOR_BYTES "$@" >"$work/in" 2>/dev/null || : >"$work/in"
		from="--input $work/in"
	else
		# Zero bytes, as many as the model's inputs hold (dmo's tensor table).
		from=--zeros
		"$DMO" model "$f" 2>/dev/null | awk '$1 == "tensor" { t = 1; next }
			t && $6 == "input" { n += $5 } END { print n + 0 }' >"$work/n"
		head -c "$(cat "$work/n")" /dev/zero >"$work/in"
	fi
	if "$DMO" infer -q $from --output "$work/dmo" "$f" >/dev/null 2>"$work/err"; then
		if $ORT "$f" "$work/in" "$work/ort" 2>/dev/null; then
			cmp -s "$work/ort" "$work/dmo" || within "$work/ort" "$work/dmo" && infer=same || infer=DIFFERS
		else
			infer=ort-refuses
		fi
	else
		infer=refused
		[ -n "$why" ] || why=$(head -1 "$work/err")
	fi
	printf '%s\tmodel=%s\tplan=%s\tinfer=%s\t%s\n' "$f" "$model" "$plan" "$infer" "$why"
done <"$work/files" | tee "$work/table"
awk -F'\t' '{ n++; m[$2]++; p[$3]++; i[$4]++ }
	END { printf "%d files:", n; for (k in m) printf " %s %d", k, m[k]; for (k in p) printf ", %s %d", k, p[k]
	      for (k in i) printf ", %s %d", k, i[k]; print "" }' "$work/table"
