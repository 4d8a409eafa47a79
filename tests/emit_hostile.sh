# emit_hostile.sh - issue 28, emitted commands: `dmo sweep --emit-commands`
# writes one shell command a line for `parallel < commands`.  Quoting keeps
# every printable byte literal; a newline (or any control character) in a
# path, the formula library's name or $DMO_COMMAND would split a command, so
# it is refused.  Then the emitted file, with hostile but printable paths,
# runs through GNU parallel and nothing but the sweep runs.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99
PLUGIN=$top_builddir/tests/sweep/.libs/paper_dwconv.so
GRID='dwconv2d:in={4,7}x5x1,k=3x3'
nl='
'

# refused_emit WHAT PATTERN SWEEP-ARGS...: status 2, no command written, the
# message, and the injected `touch` never ran.
refused_emit() {
	what=$1 pattern=$2; shift 2
	"$DMO" sweep "$GRID" --batch 1 --emit-commands "$@" >commands 2>err
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s commands ] && grep -q -e "$pattern" err; then
		echo "ok: $what: $(head -1 err)"
	else
		fail "$what: status $rc, $(wc -l <commands) commands, message '$(head -2 err)'"
	fi
	[ -n "$(command -v parallel)" ] && parallel <commands >/dev/null 2>&1
	[ -e pwned ] && fail "$what: the injected command ran"
	rm -f pwned
}

refused_emit "a newline in --out" "^dmo sweep: --out holds a control character (byte 0x0a" \
	--formula OB --out "o${nl}touch pwned${nl}"
cp "$PLUGIN" "lib${nl}touch pwned${nl}.so"
refused_emit "a newline in --formula-lib" "^dmo sweep: --formula-lib holds a control character" \
	--formula-lib "$WORK/lib${nl}touch pwned${nl}.so" --out o2
DMO_COMMAND="$DMO${nl}touch pwned" refused_emit "a newline in DMO_COMMAND" \
	"^dmo sweep: the dmo program (DMO_COMMAND) holds a control character" --formula OB --out o3
tab=$(printf '\t')
refused_emit "a tab in --out" "byte 0x09" --formula OB --out "o${tab}x"
# The real path counts: a link whose target has a newline.
mkdir "t${nl}touch pwned${nl}" && ln -s "t${nl}touch pwned${nl}" plain-link
refused_emit "--out's real path with a newline" "^dmo sweep: --out's real path holds" \
	--formula OB --out plain-link

# Printable but hostile: quotes, $(...), backquotes, ;, *, spaces, in the
# output folder and the formula library's name.  parallel runs the sweep
# and nothing else; the results are the serial run's.
if ! command -v parallel >/dev/null; then
	fail "GNU parallel is not installed (Debian package parallel)"
	finish
fi
evil="o 'q' \"d\" \$(touch pwned) \`touch pwned\`; touch pwned * #"
lib="p \$(touch pwned) 'x'; \`touch pwned\`.so"
cp "$PLUGIN" "$lib"
DMO_COMMAND=$DMO "$DMO" sweep "$GRID" --batch 1 --emit-commands --formula-lib "$WORK/$lib" \
	--out "$evil" >commands 2>err || fail "emit with hostile printable names: $(cat err)"
expect_eq "one command a configuration" 2 "$(wc -l <commands)"
: >parallel.out
before=$(ls -A | sort)
parallel -j 2 <commands >parallel.out 2>&1
expect_eq "parallel: exit status" 0 $?
[ -e pwned ] && fail "an injected command ran through parallel" ||
	echo "ok: nothing injected ran through parallel"
expect_eq "parallel created nothing beside the --out folder" "$before" "$(ls -A | sort)"
"$DMO" sweep --collect "$evil"/part-* --out "$evil" >collect.out 2>&1 ||
	[ $? -eq 1 ] || fail "collect: $(cat collect.out)"
"$DMO" sweep "$GRID" --formula-lib "$WORK/$lib" --out serial >serial.out 2>&1
cmp -s serial/sweep-*/results.csv "$evil"/sweep-*/results.csv &&
	echo "ok: parallel's results = the serial run's" ||
	fail "results differ: $(cat collect.out)"

finish
