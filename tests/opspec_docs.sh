# opspec_docs.sh - docs/opspec.md documents the grammar the parser accepts,
# no more and no less: its tables of ops and keys against `dmo ops --csv`,
# which prints the parser's own tables (opspec.c's op_keys and key_info),
# so neither side is a hand copy of the other.  Then every op's documented
# keys are parsed for real (dmo formula), and `dmo ops` refuses an unknown
# op with the nearest one.
. "$top_srcdir/tests/lib.sh"
DOC="$top_srcdir/docs/opspec.md"

"$DMO" ops --csv >"$WORK/ops.csv"
expect_eq "dmo ops --csv" 0 $?
csv_rows "$WORK/ops.csv" >"$WORK/ops.tsv"
# The parser's view: "op<TAB>keys" (required ones marked *, the parser's
# order) and "key<TAB>format<TAB>default" for every format and default a key
# has across the ops.
by_name '{ k[v("op")] = k[v("op")] (k[v("op")] == "" ? "" : " ") v("key") (v("required") == "yes" ? "*" : "") }
	END { for (o in k) print o "\t" k[o] }' <"$WORK/ops.tsv" | sort >"$WORK/parser-ops"
by_name '{ print v("key") "\t" v("format") "\t" v("default") }' <"$WORK/ops.tsv" | sort -u >"$WORK/parser-keys"

# The page's view: the rows of its "## Ops" and "## Keys" tables.
section_rows() {
	awk -v s="## $1" '/^## / { on = ($0 == s); next }
		on && /^\| `/ { gsub(/^\| | \|$/, ""); n = split($0, f, / \| /); line = "";
			for (i = 1; i <= n; i++) { gsub(/`/, "", f[i]); line = line (i > 1 ? "\t" : "") f[i] }
			print line }' "$DOC"
}
section_rows Ops | awk -F'\t' '{ print $1 "\t" $3 }' | sort >"$WORK/doc-ops"
section_rows Keys | awk -F'\t' '{ print $1 "\t" $2 "\t" $3 }' | sort >"$WORK/doc-keys"

[ -s "$WORK/parser-ops" ] && [ -s "$WORK/doc-ops" ] && [ -s "$WORK/doc-keys" ] ||
	fail "no ops read from dmo ops --csv or docs/opspec.md"
expect_eq "ops and their keys: docs/opspec.md against the parser" "" \
	"$(diff "$WORK/parser-ops" "$WORK/doc-ops" | grep '^[<>]' | tr '\n' ' ')"
# Every documented key, format and default is one the parser has, and
# every key the parser has is documented.
tab=$(printf '\t')
while IFS="$tab" read -r key format default; do
	if grep -qxF "$key$tab$format$tab$default" "$WORK/parser-keys"; then
		echo "ok: docs/opspec.md key $key"
	else
		fail "docs/opspec.md key $key: format '$format', default '$default' are not the parser's"
	fi
done <"$WORK/doc-keys"
cut -f1 "$WORK/parser-keys" | sort -u >"$WORK/parser-key-names"
cut -f1 "$WORK/doc-keys" | sort -u >"$WORK/doc-key-names"
expect_eq "keys the parser has and docs/opspec.md lacks, or the reverse" "" \
	"$(diff "$WORK/parser-key-names" "$WORK/doc-key-names" | grep '^[<>]' | tr '\n' ' ')"

# The page's examples parse, with README's defaults as the page says:
# conv2d:in=32x32x3,k=3x3,out_c=8 is pad=valid, 30x30x8 f32 = 28800 bytes.
"$DMO" formula --csv 'conv2d:in=32x32x3,k=3x3,out_c=8' >"$WORK/conv.csv"
expect_eq "README's conv2d: output bytes (30x30x8 f32)" 28800 \
	"$(csv_rows "$WORK/conv.csv" | by_name '{ print v("out_bytes") }')"
"$DMO" formula --csv 'transpose:in=1x2x3x4,perm=0,1,3,2,dtype=i8' >"$WORK/perm.csv"
expect_eq "perm=0,1,3,2 parses (24 i8 bytes out)" 24 \
	"$(csv_rows "$WORK/perm.csv" | by_name '{ print v("out_bytes") }')"

"$DMO" ops rleu >"$WORK/out" 2>"$WORK/err"
expect_eq "dmo ops rleu: status" 2 $?
grep -q "did you mean 'relu'" "$WORK/err" && echo "ok: dmo ops suggests relu" ||
	fail "dmo ops rleu: $(cat "$WORK/err")"
"$DMO" ops transpose >"$WORK/out"
grep -q "perm\*" "$WORK/out" && echo "ok: dmo ops transpose marks perm required" ||
	fail "dmo ops transpose: $(cat "$WORK/out")"
finish
