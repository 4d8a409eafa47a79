# annotate_opt.sh - dmo annotate on kernels built as users build them
# (tests/targets/annotate_opt.c at -O2, annotate_opt_vec.c at -O3 -mavx2
# -funroll-loops, both -g): unrolled and vectorised loops, a line holding
# two loads and a store, a read inlined from a header, a column-tiled
# loop, an im2col + GEMM conv through a scratch buffer, libc's memcpy and
# a call through a function pointer.  The binding pairs and O_s are
# derived by hand in annotate_opt.c's header; the lines are found in the
# sources by their ANNOTATE:TAG comments; which instruction of a shared
# line binds is checked in its disassembly (binutils' objdump).
. "$top_srcdir/tests/lib.sh"

T="$top_srcdir/tests/targets"
at() { # FILE TAG: "FILE:LINE" of the tag in tests/targets/FILE
	echo "$1:$(tag_line "$T/$1" "$2")"
}
define() { awk -v n="$2" '$1 == "#define" && $2 == n { print $3 }' "$T/$1"; }

profile "$WORK/o" -- "$TARGETS/annotate_opt"
expect_eq "annotate_opt exit status" 0 $?
"$DMO" annotate "$WORK/o" --csv >"$WORK/o.csv" 2>"$WORK/o.err"
expect_eq "dmo annotate --csv status" 0 $?

# name  O_s (hand derivation)  the first's line  the second's line
expect_pairs "$WORK/o" "$WORK/o.csv" <<EOF2
shared-line 1012 $(at annotate_opt.c shared-line) $(at annotate_opt.c shared-line)
vec-shift 1012 $(at annotate_opt_vec.c vec-shift) $(at annotate_opt_vec.c vec-shift)
vec-backward 0 $(at annotate_opt_vec.c vec-back-write) $(at annotate_opt.h header-read)
col-tiled 64 $(at annotate_opt.c tiled) $(at annotate_opt.c tiled)
im2col 104 $(at annotate_opt.c gemm-write) $(at annotate_opt.c im2col-read)
fn-pointer 4 $(at annotate_opt.c fp-write) $(at annotate_opt.c fp-read)
EOF2

# Where a line holds several instructions, the pair names the right ones:
# its second is the load of in[i-LAG], displacement -4 LAG from in[i]'s,
# a 32-byte ymm load in the vectorised kernel; its first a store.
lag=$(define annotate_opt.h LAG)
insn() { # LAYER ROLE: the instruction at the pair access's address in the program
	a=$(csv_rows "$(where_file "$WORK/o" "$1")" | by_name 'v("role") == r { print v("object_address") }' -v r="$2")
	objdump -d --no-show-raw-insn --start-address="$a" --stop-address=$((a + 16)) \
		"$TARGETS/annotate_opt" | grep -E '^ +[0-9a-f]+:' | head -1 | cut -f2-
}
for k in shared-line:'%e' vec-shift:'%ymm'; do
	name=${k%%:*} reg=${k#*:}
	load=$(insn "$name" second) store=$(insn "$name" first)
	case $load in
	*"-0x$(printf %x $((4 * lag)))("*"$reg"*) echo "ok: $name: the binding load is in[i-LAG]'s: $load" ;;
	*) fail "$name: the binding load is '$load', not one of in[i-$lag] into $reg" ;;
	esac
	case $store in
	*mov*"$reg"*,*"("*) echo "ok: $name: the binding access first is a store: $store" ;;
	*) fail "$name: the first access is '$store', not a store from $reg" ;;
	esac
done

# The text names the same instruction for objdump, under the access.
"$DMO" annotate "$WORK/o" --layer shared-line >"$WORK/sl.txt" 2>&1
expect_eq "shared-line text: the binding load's instruction in the program" \
	"$(csv_rows "$(where_file "$WORK/o" shared-line)" | by_name 'v("role") == "second" { print v("object_address") }')" \
	"$(awk '$1 == "2" { on = 1; next } on && $1 == "instruction" { print $3; exit }' "$WORK/sl.txt")"

# Column tiles: the read that binds is tile 1's first, in[0][CT] read
# directly at 4 CT, after tile 0 ended with out[ROWS-1][CT-1].
rows=$(define annotate_opt.c ROWS) cols=$(define annotate_opt.c COLS) ct=$(define annotate_opt.c CT)
expect_eq "col-tiled: the pair's accesses (o_end, i)" "$((4 * ((rows - 1) * cols + ct))) $((4 * ct))" \
	"$(csv_rows "$(where_file "$WORK/o" col-tiled)" | by_name 'v("role") == "first" { e = v("offset") + v("size") }
		v("role") == "second" { i = v("offset") } END { print e, i }')"

# The header's read, inlined into the vectorised backward loop, names the
# line it was inlined at.
expect_eq "vec-backward: the read is element_at's, inlined at the write's line" \
	"element_at vec_backward ($(at annotate_opt_vec.c vec-back-write))" \
	"$(csv_rows "$(where_file "$WORK/o" vec-backward)" | by_name 'v("role") == "second" { print v("function"), v("inlined_into") }')"

# libc's memcpy: both accesses are libc's, whose source is not here; the
# tool names the kernel's line that called it.
expect_eq "memcpy-rows O_s" 0 "$(field "$WORK/o" memcpy-rows os_bytes)"
expect_line_counts "$WORK/o" "$WORK/o.csv" memcpy-rows
expect_eq "memcpy-rows: the pair's accesses are in libc, called from the kernel's line" \
	"first libc memcpy_rows ($(at annotate_opt.c memcpy-call)) second libc memcpy_rows ($(at annotate_opt.c memcpy-call))" \
	"$(csv_rows "$WORK/o.csv" | by_name 'v("name") == "memcpy-rows" && v("binds") != "" {
		o = v("object"); sub(/.*\//, "", o); sub(/[.-].*/, "", o); print v("binds"), o, v("called_from") }' |
		sort | tr '\n' ' ' | sed 's/ $//')"
"$DMO" annotate "$WORK/o" --layer memcpy-rows >"$WORK/m.txt" 2>&1
grep -q "no source here (its file was not on this machine when profiled: a library's, or moved): called from memcpy_rows ($(at annotate_opt.c memcpy-call))" "$WORK/m.txt" &&
	echo "ok: the text names memcpy's caller" || fail "memcpy text: $(cat "$WORK/m.txt")"

# Stripped, the same build names the same instructions by object and
# address: the pair rows of every layer of the program's own code have no
# line and the addresses of the unstripped run; memcpy's caller, stripped
# too, is no longer named.
cp "$TARGETS/annotate_opt" "$WORK/stripped" && strip "$WORK/stripped"
profile "$WORK/s" -- "$WORK/stripped"
expect_eq "stripped: exit status" 0 $?
pairs() { # RUN_DIR LAYER: role, line, object address and called_from of the pair rows
	csv_rows "$(where_file "$1" "$2")" | by_name 'v("role") != "site" {
		print v("role") ":" v("line") ":" v("object_address") ":" v("called_from") }' | tr '\n' ' '
}
for name in shared-line vec-shift col-tiled im2col fn-pointer; do
	expect_eq "stripped $name: the pair by address" \
		"$(pairs "$WORK/o" "$name" | sed 's/:[0-9]*:0x/::0x/g')" "$(pairs "$WORK/s" "$name")"
done
expect_eq "stripped memcpy-rows: no caller to name (two rows, both empty)" "2:" \
	"$(csv_rows "$(where_file "$WORK/s" memcpy-rows)" | by_name 'v("role") != "site" { print v("called_from") }' |
		sort | uniq -c | awk '{ print $1 ":" $2 }')"

finish
