# annotate.sh - code locations (layer-NNNN-where.csv) and dmo annotate on
# tests/targets/annotate_kernels.c, whose binding pairs are derived by hand
# in its header: the expected lines are found in the source itself by
# their ANNOTATE:TAG comments; the O_s by the same derivations.
. "$top_srcdir/tests/lib.sh"

SRC="$top_srcdir/tests/targets/annotate_kernels.c"
line_of() { tag_line "$SRC" "$1"; }

profile "$WORK/a" --trace=full -- "$TARGETS/annotate_kernels"
expect_eq "annotate_kernels exit status" 0 $?
"$DMO" annotate "$WORK/a" --csv >"$WORK/a.csv" 2>"$WORK/a.csv.err"
expect_eq "dmo annotate --csv status" 0 $?

# binds LAYER ROLE: the line(s) of LAYER marked ROLE (first or second).
binds() { marked "$WORK/a.csv" "$1" "$2" | sed 's/[^ ]*://g'; }

# name  O_s (hand derivation)  first's tag  second's tag
while read -r name os first second; do
	expect_eq "$name O_s" "$os" "$(field "$WORK/a" "$name" os_bytes)"
	expect_eq "$name: the binding write's line" "$(line_of "$first")" "$(binds "$name" first)"
	expect_eq "$name: the binding read's line" "$(line_of "$second")" "$(binds "$name" second)"
done <<EOF
forward 1012 forward-write forward-lag
backward 0 backward-write helper-read
tiled 1004 tiled-write tiled-halo
accumulate 60 acc-init acc-add
two-pass 4 two-pass-write two-pass-base
EOF

# Every access is counted on some line: the per-line counts add up to
# layers.csv's counts of the layer.
for name in forward backward tiled accumulate two-pass; do
	expect_line_counts "$WORK/a" "$WORK/a.csv" "$name"
done
# The tile copy reads every input element once, on its own line, and
# binds nothing.
expect_eq "tiled: the copy line's loads" 256 \
	"$(csv_rows "$WORK/a.csv" | by_name 'v("name") == "tiled" && v("line") == l { print v("loads") }' \
		-v l="$(line_of tiled-copy)")"

# The inlined helper's read names the call it was inlined at.
where2=$(where_file "$WORK/a" backward)
expect_eq "backward: the helper's read is inlined at the call" \
	"element backward (annotate_kernels.c:$(line_of backward-call))" \
	"$(csv_rows "$where2" | by_name 'v("role") == "second" { print v("function"), v("inlined_into") }')"

# The text: the pair with file:line, and the source lines marked 1 and 2.
"$DMO" annotate "$WORK/a" --layer tiled >"$WORK/a.txt" 2>&1
expect_eq "dmo annotate --layer tiled status" 0 $?
# First at j = HALO of tile 0: out[HALO-1] ends at 20, then in[0] is read.
grep -q "binding pair: OB + i - o_end = 1024 + 0 - 20 = 1004" "$WORK/a.txt" &&
	echo "ok: the text gives the pair's bound" || fail "no pair bound in: $(cat "$WORK/a.txt")"
grep -q "2 in-read .* tiled (.*annotate_kernels.c:$(line_of tiled-halo))" "$WORK/a.txt" &&
	echo "ok: the text names the binding read's function and file:line" ||
	fail "no binding read line in: $(cat "$WORK/a.txt")"
expect_eq "text marks the halo line 2 and the write line 1" \
	"2 $(line_of tiled-halo) 1 $(line_of tiled-write)" \
	"$(awk '$1 ~ /^[0-9]+$/ && $3 ~ /^[12]$/ && $4 ~ /^[0-9]+$/ { printf "%s%s %s", sep, $3, $4; sep = " " }' "$WORK/a.txt")"
"$DMO" annotate "$WORK/a" --layer 4 --json >"$WORK/a.json"
expect_eq "--json rows of layer 4" 2 "$(grep -c '"layer": 4' "$WORK/a.json")"

# The pair's address in the program's file is where binutils' addr2line
# (binutils comes with build-essential) finds the line the tool named.
expect_eq "backward: addr2line at the pair's object addresses" \
	"$(csv_rows "$where2" | by_name 'v("role") != "site" { print v("line") }' | tr '\n' ' ')" \
	"$(addr2line -e "$TARGETS/annotate_kernels" $(csv_rows "$where2" |
		by_name 'v("role") != "site" { print v("object_address") }') | sed 's/.*://; s/ .*//' | tr '\n' ' ')"

# A stripped program still gives the pair's addresses and object, and the
# same addresses in the file.

cp "$TARGETS/annotate_kernels" "$WORK/stripped" && strip "$WORK/stripped"
profile "$WORK/s" -- "$WORK/stripped"
"$DMO" annotate "$WORK/s" --layer backward --csv >"$WORK/s.csv"
expect_eq "stripped: the binding rows have an address and the object, no line" \
	"first::$WORK/stripped:$(csv_rows "$where2" | by_name 'v("role") == "first" { print v("object_address") }') second::$WORK/stripped:$(csv_rows "$where2" | by_name 'v("role") == "second" { print v("object_address") }')" \
	"$(csv_rows "$WORK/s.csv" | by_name 'v("binds") != "" && v("ip") ~ /^0x[0-9a-f]+$/ {
		print v("binds") ":" v("line") ":" v("object") ":" v("object_address") }' | sort | tr '\n' ' ' | sed 's/ $//')"

# The reference kernels (target-harness/kernels/kernels_body.h), whose loop
# orders docs/kernels.md gives: conv2d, dwconv2d and fc write each output
# element once, after reading its inputs; the tightest pair is the store
# of an output element (its end) before the first input read of a later
# one, the innermost loop's multiply-accumulate.  The lines: in each
# kernel's function, the first "acc += MAC(" and the "out[e] = FINISH(".
BODY="$top_srcdir/target-harness/kernels/kernels_body.h"
line_in() { # FUNCTION PATTERN: the first line matching PATTERN in DK_FN(FUNCTION)
	awk -v f="DK_FN($1)(" -v p="$2" 'index($0, f) { on = 1 } on && index($0, p) { print NR; exit }' "$BODY"
}
"$DMO" run -o "$WORK/ref" 'conv2d:in=8x8x4,k=3x3,out_c=4,pad=same' \
	'dwconv2d:in=8x8x4,k=3x3,pad=same' 'fc:in=64,units=16' >/dev/null 2>&1
expect_eq "dmo run of three reference kernels" 0 $?
"$DMO" annotate "$WORK/ref" --csv >"$WORK/ref.csv"
for k in conv2d:1 dwconv2d:2 fc:3; do
	fn=${k%:*} n=${k#*:}
	expect_eq "reference $fn: binding lines (first, second) in kernels_body.h" \
		"first:kernels_body.h:$(line_in "$fn" "out[e] = FINISH(") second:kernels_body.h:$(line_in "$fn" "acc += MAC(")" \
		"$(csv_rows "$WORK/ref.csv" | by_name 'v("layer") == n && v("binds") != "" {
			f = v("file"); sub(/.*\//, "", f); print v("binds") ":" f ":" v("line") }' -v n="$n" |
			sort | tr '\n' ' ' | sed 's/ $//')"
done

# Figures: the ringed pair of the tiled layer's pattern is labelled with
# each access's source line (kind, file:line, function); with no where
# file, or one whose pair is not the trace's, the same figure without the
# two labels: its texts (sorted, "|" after each) are the labelled one's
# less those.
svg_texts() { sed -n 's/.*<text>\(.*\)<\/text>.*/\1/p' "$1" | sort | tr '\n' '|'; }
"$DMO" plot "$WORK/a" --layer tiled --format svg >/dev/null 2>"$WORK/plot.err"
expect_eq "dmo plot --layer tiled status" 0 $?
svg=$(printf '%s/layer-%04d-pattern.svg' "$WORK/a" "$(field "$WORK/a" tiled layer)")
with=$(svg_texts "$svg")
expect_eq "the figure labels the binding pair with its lines" \
	"R(I) annotate_kernels.c:$(line_of tiled-halo) (tiled)|W(O) annotate_kernels.c:$(line_of tiled-write) (tiled)|" \
	"$(echo "$with" | tr '|' '\n' | grep 'annotate_kernels\.c:' | tr '\n' '|')"
unlabelled=$(echo "$with" | tr '|' '\n' | grep -v 'annotate_kernels\.c:' | grep -v '^$' | tr '\n' '|')
where3=$(where_file "$WORK/a" tiled)
mv "$where3" "$WORK/where3"
"$DMO" plot "$WORK/a" --layer tiled --format svg --force >/dev/null 2>"$WORK/plot.err"
expect_eq "dmo plot with no where file: status" 0 $?
expect_eq "no where file: the texts less the two labels" "$unlabelled" "$(svg_texts "$svg")"
sed 's/^\(second,[^,]*,in-read,\)[0-9]*/\1999/' "$WORK/where3" >"$where3"
"$DMO" plot "$WORK/a" --layer tiled --format svg --force >/dev/null 2>"$WORK/plot.err"
expect_eq "a where file of another pair: no labels" "$unlabelled" "$(svg_texts "$svg")"
mv "$WORK/where3" "$where3"

# A where file of the tool before called_from (15 columns) still reads:
# the same lines marked.
w1=$(where_file "$WORK/a" forward)
sed '1s/,called_from$//; 2,$s/,\("[^"]*"\)\{0,1\}$//' "$w1" >"$WORK/w1" && cat "$WORK/w1" >"$w1"
"$DMO" annotate "$WORK/a" --layer forward --csv >"$WORK/w1.csv"
expect_eq "an old where file: the pair's lines" "$(marked "$WORK/a.csv" forward first) $(marked "$WORK/a.csv" forward second)" \
	"$(marked "$WORK/w1.csv" forward first) $(marked "$WORK/w1.csv" forward second)"

# Misuse and damage: status 2 with a message, never a crash.
expect_refusal "no such layer" 2 "has no layer 'nope'" "$DMO" annotate "$WORK/a" --layer nope
expect_refusal "bad --context" 2 "--context takes" "$DMO" annotate "$WORK/a" --context -1
printf 'role,ip\nsite,0x1\n' >"$(printf '%s/layer-%04d-where.csv' "$WORK/a" 1)"
expect_refusal "damaged where file" 2 "not the header of a where file" \
	"$DMO" annotate "$WORK/a" --layer 1
sed 's/^first,0x[0-9a-f]*,out-write/first,0x1,in-read/' "$where2" >"$WORK/w" && cat "$WORK/w" >"$where2"
expect_refusal "a pair that forbids nothing" 2 "no forbidding pair" \
	"$DMO" annotate "$WORK/a" --layer backward
w5=$(where_file "$WORK/a" two-pass)
sed '$s/,$/,"main (x.c:1)"/' "$w5" >"$WORK/w" && cat "$WORK/w" >"$w5"
expect_refusal "a site row with a caller" 2 "a site row has no called_from" \
	"$DMO" annotate "$WORK/a" --layer two-pass
"$DMO" annotate "$WORK/a" >/dev/null 2>"$WORK/a.err"
expect_eq "every layer, three damaged: status 1" 1 $?

exit $((failures > 0))
