# layer_spec.sh - issue 17, item 6: dmo_layer_begin checks the op spec.
# A spec that does not parse, or whose input/output bytes are not the
# buffers', is refused with its reason, the same natively and under the
# tool; under the tool the refusal is a row of layers.csv and a message,
# and the layers before and after it are recorded as usual.
. "$top_srcdir/tests/lib.sh"

statuses() { layer_rows "$1" | by_name '{ print v("layer"), v("name"), v("status") }' | tr '\n' ' ' | sed 's/ $//'; }

# CASE NAME CODE REASON ROW_STATUS: the target's misuse CASE begins layer
# NAME with a bad spec; the parser's or the size check's REASON is the
# expected explanation (written from the spec by hand).
check() {
	"$TARGETS/misuse" "$1" >"$WORK/$1.native" 2>&1
	expect_eq "$1 natively: exit status" 0 $?
	expect_eq "$1 natively: return value" "misuse $1 returned -$3" "$(tail -n 1 "$WORK/$1.native")"
	expect_eq "$1 natively: dmo_layer_error" "begin: $4" "$(head -n 1 "$WORK/$1.native")"

	profile "$WORK/$1" -- "$TARGETS/misuse" "$1"
	expect_eq "$1 under the tool: exit status" 0 $?
	cmp -s "$WORK/$1.native" "$WORK/$1.out" && echo "ok: $1: the program saw the same natively and under the tool" ||
		fail "$1: natively $(cat "$WORK/$1.native"), under the tool $(cat "$WORK/$1.out")"
	expect_eq "$1: rows" "1 before ok 2 $2 $5 3 after ok" "$(statuses "$WORK/$1")"
	# The refused layer made no access: no O_s in the table, not "0 0.00%".
	grep -qE "^ +2  $2 +relu +[0-9]+ +[0-9]+ +0 +- +- +$5$" "$WORK/$1.err" &&
		echo "ok: $1: the table shows no O_s for the refused layer" ||
		fail "$1: table row: $(grep " $2 " "$WORK/$1.err")"
	grep -qF "layer 2 '$2': refused by the program: $4 [$5]" "$WORK/$1.err" &&
		echo "ok: $1: the reason on valgrind's output" || fail "$1: no message: $(cat "$WORK/$1.err")"
}

# relu takes no kernel size: the parser names the key.
check bad-spec badspec 6 "bad op spec: key 'k' does not apply to relu" error:bad-op-spec
# relu:in=1x1x256 is 256 f32 = 1024 bytes each way; the input given is 512.
check spec-size specsize 7 \
	"the op spec describes 1024 input and 1024 output bytes, the buffers hold 512 and 1024" \
	error:op-spec-size
# The row keeps the buffers' sizes (layers.csv columns 4, 5: in_bytes, out_bytes).
expect_eq "spec-size: the row's buffer sizes" "512 1024" \
	"$("$top_builddir/tests/csv_tsv" "$WORK/spec-size/layers.csv" | awk -F'\t' '$2 == "specsize" { print $4, $5 }')"

# The good layers with a spec are unaffected: dmo-harness passes its own
# canonical specs, natively and under the tool.
"$top_builddir/target-harness/harness/dmo-harness" 'dwconv2d:in=9x9x4,k=3x3,stride=2,pad=same' 'add:in=4x4x2' \
	>"$WORK/harness.out" 2>&1
expect_eq "dmo-harness natively with specs" 0 $?
"$DMO" run -o "$WORK/run" 'dwconv2d:in=9x9x4,k=3x3,stride=2,pad=same' 'add:in=4x4x2' >"$WORK/run.out" 2>&1
expect_eq "dmo run with specs" 0 $?
expect_eq "dmo run: rows" "1 op1_dwconv2d ok 2 op2_add ok" "$(statuses "$WORK/run")"
finish
