# header_clean.sh - <dmo/harness.h> compiles clean under -Wall -Wextra
# -Werror with GCC and Clang, at each optimisation level and C standard a
# user may pick, for a program whose output buffers are uninitialised when
# the layer begins (tests/header_clean.c); and the program, run natively,
# gets a refusal in words.  Clang missing: its part is skipped, said so.
. "$top_srcdir/tests/lib.sh"
SRC="$top_srcdir/tests/header_clean.c"
INC="$top_srcdir/target-harness/include"

for cc in gcc clang; do
	if ! command -v $cc >/dev/null; then
		echo "note: no $cc here; its part is skipped"
		continue
	fi
	for std in c99 gnu11 c17; do
		for opt in -O0 -O2 -O3; do
			$cc -std=$std $opt -Wall -Wextra -Werror -I"$INC" -c "$SRC" \
				-o "$WORK/h.o" 2>"$WORK/cc.err"
			expect_eq "$cc -std=$std $opt -Wall -Wextra -Werror" \
				"0 " "$? $(head -n 2 "$WORK/cc.err" | tr '\n' ' ')"
		done
	done
done

gcc -O2 -I"$INC" -o "$WORK/user" "$SRC" "$top_builddir/target-harness/lib/.libs/libdmo-harness.a"
expect_eq "the program links" 0 $?
env -u DMO_FIFO "$WORK/user" >"$WORK/user.out"
expect_eq "natively: status" 0 $?
expect_eq "natively: overlapping buffers, in words" \
	"bad buffers: the input and output share memory; give two separate buffers, and dmo measures how far they could overlap [overlapping-buffers]" \
	"$(cat "$WORK/user.out")"
finish
