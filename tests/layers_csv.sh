# layers_csv.sh - dmo's reader of a run directory's layers.csv (through
# tests/layers_tsv) on damaged files: a bad header refuses the file (exit
# 1), a bad row is skipped with the first problem named and the other rows
# kept (exit 0), each with its message.
. "$top_srcdir/tests/lib.sh"
TSV=$top_builddir/tests/layers_tsv
H=layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status,threads,os_any_bytes
# relu on 4 floats: 16 bytes in and out, O_s = OB = 16 (one thread).
GOOD=2,op2_relu,relu:in=1x1x4,16,16,4,0,0,4,4,100,16,ok,1,16

# refused FILE-TEXT WHAT TEXT: the whole file is refused.
refused() {
	printf '%s' "$1" >"$WORK/layers.csv"
	expect_refusal "$2" 1 "$3" "$TSV" "$WORK/layers.csv"
}
# skipped ROW WHAT TEXT: ROW is skipped, GOOD after it is kept.
skipped() {
	printf '%s\n%s\n%s\n' "$H" "$1" "$GOOD" >"$WORK/layers.csv"
	expect_refusal "$2" 0 "$3" "$TSV" "$WORK/layers.csv"
	expect_eq "$2: the good row is kept" "2" "$(by_name '{ print v("layer") }' <"$WORK/out")"
}
refused "" "empty file" "empty file, no header"
refused "$H,layer
" "a column named twice" "column named twice"
refused "$(echo "$H" | sed 's/,status//')
" "no status column" "line 1: no column 'status'"
refused "${H%,os_any_bytes}
" "threads without os_any_bytes" "line 1: 'threads' and 'os_any_bytes' go together"
refused "$H$(printf ',x%.0s' $(seq 50))
" "65 columns (64 at most)" "too many columns"
refused "$H
1,\"op1_relu" "a quote never closed" "line 2:"
# libcsv's strict mode: a quote inside an unquoted field.
refused "$H
1,op\"1,relu:in=1x1x4,16,16,4,0,0,4,4,100,16,ok,1,16
" "a quote inside a field" "line 2: error parsing data while strict checking enabled"
skipped "$GOOD,9" "a field past the header" "too many fields"
skipped "1,op1_relu" "two fields" "too few fields"
skipped "1,op1_relu,relu:in=1x1x4,16,16,4,0,0,4,4,100,16,fine,1,16" "status 'fine'" \
	"status is not ok, ok:threads=N, ok:alive=N, incomplete or error:<reason>"
skipped "4294967296,op1_relu,relu:in=1x1x4,16,16,4,0,0,4,4,100,16,ok,1,16" "layer 2^32" \
	"number too large"
skipped "1,op1_relu,relu:in=1x1x4,16,16,-4,0,0,4,4,100,16,ok,1,16" "in_reads -4" \
	"(in_reads): not a non-negative integer"
skipped "1,op1_relu,relu:in=1x1x4,16,16,4x,0,0,4,4,100,16,ok,1,16" "in_reads 4x" \
	"(in_reads): not a non-negative integer"
skipped "1,$(printf 'n%.0s' $(seq 300)),relu:in=1x1x4,16,16,4,0,0,4,4,100,16,ok,1,16" \
	"a name of 300 characters" "(name): too long or holds a NUL byte"
skipped "1,op1_relu,relu:in=1x1x4,16,16,4,0,0,4,4,100,16,ok,1,17" "os_any_bytes 17 > os_bytes 16" \
	"(os_any_bytes): os_any_bytes exceeds os_bytes"
finish
