# annotate_hidden.sh - dmo annotate on kernels none of the other annotate
# tests were written around (tests/targets/annotate_hidden*, each pair and
# O_s derived by hand in annotate_hidden.c's and annotate_hidden_cpp.cpp's
# headers): a kernel over two files and functions, one half -O0 and one
# -O2; a 2-D loop that binds in each row's tail; libc's memmove and a
# lagged read after it; a backward kernel that reaches its bound twice;
# a read and a write on one line; SSE2 intrinsics, whose system header's
# lines give way to the kernel's calls; a C++ template whose names hold " (";
# the kernel's source moved away before profiling; and the layer lists of
# dmo profile --layers and dmo annotate --layer on them.  Lines are found
# in the sources by their ANNOTATE:TAG comments; each C kernel's O_s is
# also run natively with its buffers overlapped (annotate_hidden native).
. "$top_srcdir/tests/lib.sh"

T="$top_srcdir/tests/targets"
at() { # FILE TAG: "FILE:LINE" of the tag in tests/targets/FILE
	echo "$1:$(tag_line "$T/$1" "$2")"
}
define() { awk -v n="$1" '$1 == "#define" && $2 == n { print $3 }' "$T/annotate_hidden.h"; }
n=$(define N) lag=$(define LAG) slag=$(define SLAG) vlag=$(define VLAG) rows=$(define ROWS) cols=$(define COLS)
ob=$((4 * n)) ob2=$((4 * rows * cols))

profile "$WORK/h" -- "$TARGETS/annotate_hidden"
expect_eq "annotate_hidden exit status" 0 $?
"$DMO" annotate "$WORK/h" --csv >"$WORK/h.csv" 2>"$WORK/h.err"
expect_eq "dmo annotate --csv status" 0 $?

# name  O_s (the header's derivation)  the first's line  the second's line
expect_pairs "$WORK/h" "$WORK/h.csv" <<EOF2
two-file $((ob - 4 * lag)) $(at annotate_hidden_b.c two-write) $(at annotate_hidden_b.c two-lag)
tail-2d $((ob2 - 4 * (cols - 1))) $(at annotate_hidden.c tail-body) $(at annotate_hidden.c tail-wrap)
back-diff 0 $(at annotate_hidden_b.c back-write) $(at annotate_hidden_b.c back-prev)
same-line $((ob - 4 * slag)) $(at annotate_hidden_b.c same) $(at annotate_hidden_b.c same)
sse2-lag $((ob - 4 * vlag)) $(at annotate_hidden_b.c sse-store) $(at annotate_hidden_b.c sse-lag)
EOF2

# Every O_s holds natively, input and output really overlapped by it, and
# one element more changes the output (each is below min(IB, OB)).
for name in two-file tail-2d row-copy back-diff same-line sse2-lag; do
	os=$(field "$WORK/h" "$name" os_bytes)
	expect_eq "$name natively at O_s = $os, then one element more" "same differs" \
		"$("$TARGETS/annotate_hidden" native "$name" "$os") $("$TARGETS/annotate_hidden" native "$name" $((os + 4)))"
done

# memmove: the binding store is libc's, named by the kernel's call; the
# read after it is the kernel's own line.
expect_eq "row-copy O_s" $((ob2 - 8 * cols)) "$(field "$WORK/h" row-copy os_bytes)"
expect_line_counts "$WORK/h" "$WORK/h.csv" row-copy
expect_eq "row-copy: the pair (first in libc called from the memmove line, second the lag line)" \
	"first libc row_copy ($(at annotate_hidden.c row-copy-call)) second annotate_hidden:$(tag_line "$T/annotate_hidden.c" row-copy-lag)" \
	"$(csv_rows "$WORK/h.csv" | by_name 'v("name") == "row-copy" && v("binds") != "" {
		o = v("object"); sub(/.*\//, "", o); sub(/[.-].*/, "", o)
		print v("binds"), o, (v("called_from") != "" ? v("called_from") : ":" v("line")) }' |
		sort | tr '\n' ' ' | sed 's/ $//; s/ :/:/')"

# The text: one line marked 1,2; the 2-D pair's bound spelt out.
"$DMO" annotate "$WORK/h" --layer same-line >"$WORK/same.txt" 2>&1
expect_eq "same-line text: the one line marked 1,2" "1,2 $(tag_line "$T/annotate_hidden_b.c" same)" \
	"$(awk '$1 ~ /^[0-9]+$/ && $3 ~ /^[12,]+$/ && $4 ~ /^[0-9]+$/ { print $3, $4 }' "$WORK/same.txt")"
"$DMO" annotate "$WORK/h" --layer tail-2d >"$WORK/tail.txt" 2>&1
grep -q "binding pair: OB + i - o_end = $ob2 + 0 - $((4 * (cols - 1))) = $((ob2 - 4 * (cols - 1)))" \
	"$WORK/tail.txt" && echo "ok: tail-2d text gives the pair's bound" || fail "tail-2d text: $(head -5 "$WORK/tail.txt")"

# --layer lists, as dmo plot's: numbers, ranges, names, globs; a layer's
# exact name first; a malformed list is misuse.
layers_of() { "$DMO" annotate "$WORK/h" --csv --layer "$1" | csv_rows /dev/stdin |
	by_name '{ print v("layer") }' | sort -un | tr '\n' ' ' | sed 's/ $//'; }
expect_eq "--layer 1,4-5" "1 4 5" "$(layers_of 1,4-5)"
expect_eq "--layer '*-2d,row-?opy'" "2 3" "$(layers_of '*-2d,row-?opy')"
expect_eq "--layer same-line --json: its rows only" "5" \
	"$("$DMO" annotate "$WORK/h" --json --layer same-line | sed -n 's/.*"layer": \([0-9]*\).*/\1/p' | sort -u)"
for bad in 0 2- '' 3-1 -1; do
	expect_refusal "--layer '$bad'" 2 "is not a layer number, range N-M" "$DMO" annotate "$WORK/h" --layer "$bad"
done
expect_refusal "--layer 9: no such layer" 2 "has no layer '9'" "$DMO" annotate "$WORK/h" --layer 9

# dmo profile --layers: only the listed layers have event files, every
# layer its row, the same O_s; an item that matches nothing is named.
events_of() { ls "$1" | sed -n 's/^layer-0*\([0-9]*\)\.events$/\1/p' | sort -n | tr '\n' ' ' | sed 's/ $//'; }
profile "$WORK/l" --trace=full --layers '2,4-5,two-*' -- "$TARGETS/annotate_hidden"
expect_eq "--layers '2,4-5,two-*': status" 0 $?
expect_eq "--layers '2,4-5,two-*': the event files" "1 2 4 5" "$(events_of "$WORK/l")"
expect_eq "--layers: every layer's O_s as untraced" \
	"$(layer_rows "$WORK/h" | by_name '{ print v("os_bytes") }' | tr '\n' ' ')" \
	"$(layer_rows "$WORK/l" | by_name '{ print v("os_bytes") }' | tr '\n' ' ')"
profile "$WORK/m" --trace=full --layers 'row-copy,9,tail_2d' -- "$TARGETS/annotate_hidden"
expect_eq "--layers with items matching nothing: status" 0 $?
expect_eq "--layers 'row-copy,9,tail_2d': the event files" "3" "$(events_of "$WORK/m")"
expect_eq "--layers: the items that matched nothing are named" \
	"'9' 'tail_2d'" "$(sed -n "s/.*--layers item \('[^']*'\) matches no layer.*/\1/p" "$WORK/m.err" | tr '\n' ' ' | sed 's/ $//')"
expect_refusal "--layers '3-1'" 2 "--layers: '3-1' at '3-1' is not a layer number" \
	"$DMO" profile --out "$WORK/x" --trace=full --layers 3-1 -- "$TARGETS/annotate_hidden"

# C++: the names are the demangled symbols (binutils' nm -C), " (" and all.
CPP=annotate_hidden_cpp.cpp
profile "$WORK/c" -- "$TARGETS/annotate_hidden_cpp"
expect_eq "annotate_hidden_cpp exit status" 0 $?
"$DMO" annotate "$WORK/c" --csv >"$WORK/c.csv"
expect_eq "template O_s" $((2 * 512 - 2 * 9)) "$(field "$WORK/c" template os_bytes)"
expect_eq "template: the binding write's line" "$(at $CPP tpl-write)" "$(marked "$WORK/c.csv" template first)"
expect_eq "template: the binding read's line" "$(at $CPP tpl-read)" "$(marked "$WORK/c.csv" template second)"
symbol() { nm -C "$TARGETS/annotate_hidden_cpp" | sed -n "s/^[0-9a-f]* [tTwW] \(.*$1.*\)$/\1/p" | head -1; }
expect_eq "template: the functions of the pair" "first:$(symbol 'shift_add<') second:$(symbol '::back(')" \
	"$(csv_rows "$(where_file "$WORK/c" template)" | by_name 'v("role") != "site" { print v("role") ":" v("function") }' |
		tr '\n' ' ' | sed 's/ $//')"

# The kernel's source moved away after its build (-O0 here): its lines
# still come from the debug information, its code counts as having no
# source here, and the caller named is the header's layer runner, whose
# file is still here; the text says so and lists the counted lines.
mkdir "$WORK/src" && cp "$T/annotate_hidden.c" "$T/annotate_hidden_b.c" "$T/annotate_hidden.h" "$WORK/src/"
libs="$top_builddir/target-harness/lib/.libs"
cc -O0 -g -I"$T" -I"$top_srcdir/target-harness/include" -o "$WORK/moved" "$WORK/src/annotate_hidden.c" \
	"$WORK/src/annotate_hidden_b.c" -L"$libs" -Wl,-rpath,"$libs" -ldmo-harness
expect_eq "the moved kernel builds" 0 $?
rm "$WORK/src/annotate_hidden.c" "$WORK/src/annotate_hidden_b.c"
profile "$WORK/v" -- "$WORK/moved"
"$DMO" annotate "$WORK/v" --layer two-file --csv >"$WORK/v.csv"
runner="annotate_layer (annotate_layer.h:$(grep -n 'kernel(in, out);' "$T/annotate_layer.h" | cut -d: -f1))"
expect_eq "moved source: the pair's lines and the caller named" \
	"first:$WORK/src/annotate_hidden_b.c:$(tag_line "$T/annotate_hidden_b.c" two-write):$runner second:$WORK/src/annotate_hidden_b.c:$(tag_line "$T/annotate_hidden_b.c" two-lag):$runner" \
	"$(csv_rows "$WORK/v.csv" | by_name 'v("binds") != "" { print v("binds") ":" v("file") ":" v("line") ":" v("called_from") }' |
		sort | tr '\n' ' ' | sed 's/ $//')"
"$DMO" annotate "$WORK/v" --layer two-file >"$WORK/v.txt" 2>&1
expect_eq "moved source: the text's account of both accesses" 2 \
	"$(grep -c "no source here (its file was not on this machine when profiled: a library's, or moved): called from $runner" "$WORK/v.txt")"
grep -q "(cannot read it: No such file or directory; its counted lines only)" "$WORK/v.txt" &&
	echo "ok: moved source: the counted lines without their text" || fail "moved source text: $(cat "$WORK/v.txt")"
# Put back after the run, the source is shown, with a warning when it is
# newer than the run's where file (its lines may have moved), none when
# older.
cp "$T/annotate_hidden_b.c" "$WORK/src/"
for when in "$(($(date +%s) + 60)):1" "946684800:0"; do
	touch -d "@${when%:*}" "$WORK/src/annotate_hidden_b.c"
	"$DMO" annotate "$WORK/v" --layer two-file >"$WORK/v.txt" 2>&1
	expect_eq "a source put back at @${when%:*}: warned" "${when#*:}" \
		"$(grep -c "(changed since the run: its lines may not be the ones counted)" "$WORK/v.txt")"
done
grep -q "two_write(int32_t \*out" "$WORK/v.txt" && echo "ok: the source put back is shown" ||
	fail "the source put back is not shown: $(cat "$WORK/v.txt")"

# The other file built without -g: its store and load have no line; both
# are named by the call in the file with one, and listed by instruction
# under their own header.
cc -O0 -g -I"$T" -I"$top_srcdir/target-harness/include" -c -o "$WORK/a.o" "$T/annotate_hidden.c" &&
	cc -O0 -I"$T" -c -o "$WORK/b.o" "$T/annotate_hidden_b.c" &&
	cc -o "$WORK/mixed" "$WORK/a.o" "$WORK/b.o" -L"$libs" -Wl,-rpath,"$libs" -ldmo-harness
expect_eq "the half -g kernel builds" 0 $?
profile "$WORK/x" -- "$WORK/mixed"
"$DMO" annotate "$WORK/x" --layer two-file >"$WORK/x.txt" 2>&1
expect_eq "half -g: both accesses named by the call" 2 \
	"$(grep -c "no source here (no line: code built without -g): called from two_file ($(at annotate_hidden.c two-call))" "$WORK/x.txt")"
expect_eq "half -g: the instructions' header" "loads stores bind instruction" \
	"$(sed -n '/^-- instructions with no source line/{n;p;}' "$WORK/x.txt" | tr -s ' ' | sed 's/^ //')"
expect_eq "half -g: the marked instructions" "1 two_write 2 two_read" \
	"$(awk '/^-- instructions/ { on = 1; next } on && $3 ~ /^[12]$/ { printf "%s%s %s", sep, $3, $5; sep = " " }' "$WORK/x.txt")"

finish
