# rundir_integrity.sh - issue 14, group 3: a run directory is written by one
# run at a time, keeps every completed layer whatever ends the run (a
# signal to dmo, a signal forwarded to the program), holds only this run's
# files of dmo's, and dmo leaves nothing behind (FIFO directory, Valgrind).
. "$top_srcdir/tests/lib.sh"

# start DIR CASE [PREFIX...]: dmo profile of the misuse target in the
# background (run through PREFIX, e.g. setsid); its pid in $pid, once the
# program is inside its layer ("waiting" printed).  A background job starts
# with SIGINT ignored, which dmo and the program would rightly keep; perl,
# in every Debian, puts the default back.
start() {
	dir=$1 what=$2
	shift 2
	"$@" perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
		"$DMO" profile --out "$dir" -- "$TARGETS/misuse" "$what" >"$dir.out" 2>"$dir.err" &
	pid=$!
	i=0
	while ! grep -q waiting "$dir.out" 2>/dev/null && [ $i -lt 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
	grep -q waiting "$dir.out" || fail "$what: the program never reached its layer: $(cat "$dir.err")"
}

# expect_kept WHAT DIR: the layer before the sleeping one is ok, the
# sleeping one, cut short, incomplete.
expect_kept() {
	expect_eq "$1: layer before kept" ok "$(field "$2" before status)"
	expect_eq "$1: open layer kept, incomplete" incomplete "$(field "$2" sleeping status)"
}

# dmo's private FIFO directories go to $TMPDIR: none may be left behind.
TMPDIR="$WORK/tmp"
export TMPDIR
mkdir "$TMPDIR"

# SIGTERM to dmo alone: passed to the program, which dies of it; the layer
# before it is ok, the open one incomplete, dmo dies of SIGTERM too (143).
start "$WORK/term" sleep-in-layer
kill -TERM "$pid"
wait "$pid"
expect_eq "SIGTERM: dmo's status is 128+SIGTERM" 143 $?
expect_kept SIGTERM "$WORK/term"
grep -q "killed by signal 15" "$WORK/term.err" && echo "ok: SIGTERM: the signal is named" \
	|| fail "SIGTERM: no message: $(cat "$WORK/term.err")"
pgrep -f "$TARGETS/misuse sleep-in-layer" >/dev/null && fail "SIGTERM: the program still runs" \
	|| echo "ok: SIGTERM: no orphan"

# SIGHUP likewise.
start "$WORK/hup" sleep-in-layer
kill -HUP "$pid"
wait "$pid"
expect_eq "SIGHUP: dmo's status is 128+SIGHUP" 129 $?
expect_kept SIGHUP "$WORK/hup"

# Ctrl-C: SIGINT to the whole process group (dmo in a session of its own
# here, as a terminal's foreground job would be).  The program, which does
# not handle it, dies of it; dmo writes layers.csv, then dies of SIGINT too.
start "$WORK/ctrlc" sleep-in-layer setsid
kill -INT -- "-$pid"
wait "$pid"
expect_eq "Ctrl-C: dmo's status is 128+SIGINT" 130 $?
expect_kept Ctrl-C "$WORK/ctrlc"

# SIGINT to dmo, a program that handles it and finishes its layer: the
# layer is recorded ok and the program's status (0) is dmo's.
start "$WORK/int" sigint-then-finish
kill -INT "$pid"
wait "$pid"
expect_eq "SIGINT handled by the program: dmo's status is the program's" 0 $?
expect_eq "SIGINT handled: the layer finished ok" ok "$(field "$WORK/int" interrupted status)"
expect_eq "SIGINT handled: the layer after" ok "$(field "$WORK/int" after status)"

expect_eq "no private FIFO directory left behind" "" "$(ls "$TMPDIR")"

# SIGKILL to dmo: it cannot forward, but Valgrind gets SIGTERM (parent
# death), the tool still writes its rows, and nothing keeps running.  (Its
# FIFO directory stays: nothing runs after a SIGKILL.)
TMPDIR="$WORK/tmp-kill"
mkdir "$TMPDIR"
start "$WORK/kill" sleep-in-layer
kill -KILL "$pid"
wait "$pid" 2>/dev/null
i=0
while pgrep -f "$TARGETS/misuse sleep-in-layer" >/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
pgrep -f "$TARGETS/misuse sleep-in-layer" >/dev/null && fail "SIGKILL: the program outlived dmo" \
	|| echo "ok: SIGKILL: the program did not outlive dmo"
# No layers.csv (dmo died first); the next reader rebuilds it from the
# tool's whole records, and says so.
"$DMO" analyze "$WORK/kill" >/dev/null 2>"$WORK/kill-analyze.err"
grep -q "layers.csv was missing (a run killed or out of disk); rebuilt from tool-layers.bin: 2 layers" \
	"$WORK/kill-analyze.err" && echo "ok: SIGKILL: layers.csv rebuilt" \
	|| fail "SIGKILL: not rebuilt: $(cat "$WORK/kill-analyze.err")"
expect_kept SIGKILL "$WORK/kill"
TMPDIR="$WORK/tmp"

# Two runs into one directory: the second fails at once, naming the first.
start "$WORK/busy" sleep-in-layer
"$DMO" profile --out "$WORK/busy" -- "$TARGETS/relu" >"$WORK/second.out" 2>"$WORK/second.err"
expect_eq "second run into a busy directory: status" 2 $?
grep -q "is in use by another dmo run (pid $pid)" "$WORK/second.err" \
	&& echo "ok: second run: clear message" || fail "second run: $(cat "$WORK/second.err")"
kill -TERM "$pid"
wait "$pid"
expect_eq "the first run's layers are its own" "before sleeping" \
	"$(layer_rows "$WORK/busy" | by_name '{ print v("name") }' | tr '\n' ' ' | sed 's/ $//')"

# Re-running into a directory replaces dmo's files only: derived files of
# the old run go, the user's files stay, whatever their names.
run="$WORK/again"
profile "$run" --trace=full -- "$TARGETS/relu" || fail "relu: $(cat "$run.err")"
"$DMO" analyze "$run" >/dev/null 2>&1
: >"$run/layer-0009-pattern.png"
echo mine >"$run/notes.txt"
echo mine >"$run/layer-0001-notes.txt"
echo mine >"$run/layers.csv.bak"
ls "$run/analysis.csv" "$run/layer-0001-curves.csv" >/dev/null || fail "analyze wrote no files"
profile "$run" -- "$TARGETS/relu" || fail "relu again: $(cat "$run.err")"
for f in analysis.csv layer-0001-curves.csv layer-0009-pattern.png layer-0001.events; do
	[ -e "$run/$f" ] && fail "stale $f left" || echo "ok: stale $f removed"
done
for f in notes.txt layer-0001-notes.txt layers.csv.bak; do
	expect_eq "user's $f kept" mine "$(cat "$run/$f")"
done
finish
