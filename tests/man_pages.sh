# man_pages.sh - the manual pages docs/man.mk makes: dmo(1) and one page
# per command `dmo --help` lists, each rendered by `man -l` at 80 columns
# without a warning; dmo(1) holds every --dmo-* option the tool itself
# prints; `make install` puts them in share/man/man1.
. "$top_srcdir/tests/lib.sh"
MAN="$top_builddir/docs/man"
command -v man >/dev/null || { echo "man (Debian package man-db) is missing"; exit 77; }

# render PAGE WHAT: man -l's text on stdout; any warning fails.
render() {
	MANWIDTH=80 man --warnings -l "$1" 2>"$WORK/warn" | col -bx
	[ -s "$WORK/warn" ] && fail "$2 renders with warnings: $(head -3 "$WORK/warn")"
}

commands=$("$DMO" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { exit }')
[ -n "$commands" ] || fail "dmo --help lists no command"
for cmd in $commands; do
	page="$MAN/dmo-$cmd.1"
	[ -f "$page" ] || { fail "no page for dmo $cmd"; continue; }
	render "$page" "dmo-$cmd.1" >"$WORK/page"
	grep -q "^ *dmo-$cmd  *-  *[a-z]" "$WORK/page" || fail "dmo-$cmd.1: no NAME line"
	grep -q "^ *dmo $cmd " "$WORK/page" || fail "dmo-$cmd.1: no synopsis"
	# Every option of the help is in the page's OPTIONS.
	for opt in $("$DMO" "$cmd" --help | sed -n 's/^ *\(-[A-Za-z], \)\{0,1\}\(--[a-z][a-z-]*\).*/\2/p'); do
		grep -q -e "$opt" "$WORK/page" || fail "dmo-$cmd.1 lacks $opt"
	done
	grep -q "^EXAMPLES" "$WORK/page" || fail "dmo-$cmd.1 has no EXAMPLES (docs/man/examples/$cmd.h2m)"
	echo "ok: dmo-$cmd.1 renders, names every option of dmo $cmd --help, has EXAMPLES"
done

render "$MAN/dmo.1" "dmo.1" >"$WORK/dmo"
for cmd in $commands; do
	grep -q "^ *$cmd\( \|$\)" "$WORK/dmo" || fail "dmo.1 does not list $cmd"
done
grep -q "Exit  *status" "$WORK/dmo" || fail "dmo.1 has no exit status"
grep -q "^EXAMPLES" "$WORK/dmo" || fail "dmo.1 has no EXAMPLES"
# The C API's page, written by hand, and its two other names.
render "$top_srcdir/docs/man/dmo_layer_begin.3" "dmo_layer_begin.3" >"$WORK/api"
for want in "dmo_layer_begin, dmo_layer_end, dmo_layer_error" "#include <dmo/harness.h>" \
	"DMO_ESPECSIZE" "EXAMPLES"; do
	grep -q "$want" "$WORK/api" && echo "ok: dmo_layer_begin.3 has $want" ||
		fail "dmo_layer_begin.3 lacks $want"
done
# Every error code the header defines is on the page.
for code in $(sed -n 's/^\t\(DMO_E[A-Z]*\) = .*/\1/p' "$top_srcdir/target-harness/include/dmo/harness.h"); do
	grep -q -- "-$code" "$WORK/api" || fail "dmo_layer_begin.3 lacks $code"
done
# The tool's options as the tool prints them (docs/man.mk copies them).
VALGRIND_LIB="$top_builddir/dmo-tool" valgrind --tool=dmo --help 2>&1 |
	sed -n 's/^    \(--dmo-[a-z-]*\)=.*/\1/p' >"$WORK/tool-options"
expect_eq "the tool prints its options" 9 "$(wc -l <"$WORK/tool-options")"
while read -r opt; do
	grep -q -e "^ *$opt=" "$WORK/dmo" && echo "ok: dmo.1 documents $opt" ||
		fail "dmo.1 lacks the tool's $opt"
done <"$WORK/tool-options"

STAGE="$WORK/stage"
make -C "$top_builddir" install-man DESTDIR="$STAGE" >"$WORK/install.log" 2>&1
expect_eq "make install-man" 0 $?
P="$STAGE$(sed -n 's/^prefix = //p' "$top_builddir/Makefile")"
expect_eq "pages installed in share/man/man1" "$(echo $commands | wc -w | awk '{ print $1 + 1 }')" \
	"$(ls "$P/share/man/man1" 2>/dev/null | grep -c '^dmo.*\.1$')"
finish
