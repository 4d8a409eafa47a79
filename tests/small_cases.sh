# small_cases.sh - issue 28's smaller cases, each checked against what a
# user would see: plots of layers whose names gnuplot's quoting broke, a
# two-configuration sweep's figure, a formula's extreme value in the
# sweep's penalties.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99

"$DMO" run --out rd --trace=full relu:in=4x4x1 >rd.out 2>&1 || { echo "FAIL: dmo run: $(cat rd.out)"; exit 1; }

# A layer named "" or "it's" (names are the program's; layers.csv keeps
# them): every kind of figure is drawn.  gnuplot stopped on the title's
# quotes and dmo said "gnuplot failed on ...: " with no reason.
for name in '' "it's" 'say "hi" \o/'; do
	rm -rf r && cp -a rd r
	awk -F, -v n="$name" 'BEGIN { OFS = ","; gsub(/"/, "\"\"", n) }
		NR == 2 { $2 = "\"" n "\"" } { print }' rd/layers.csv >r/layers.csv
	for kind in pattern bounds threads; do
		if "$DMO" plot --kind "$kind" r >out 2>err && is_png "r/layer-0001-$kind.png"; then
			echo "ok: plot --kind $kind of a layer named '$name'"
		else
			fail "plot --kind $kind of a layer named '$name': $(cat err)"
		fi
	done
done

# Two configurations: gnuplot's fit warns (as many points as parameters),
# which is no failure: the figure is drawn and named.
"$DMO" sweep 'relu:in={4,8}x4x1' --formula OB -o two >out 2>&1
grep -q "no figure" out && fail "a 2-configuration sweep says 'no figure': $(cat out)"
is_png two/sweep-*/sweep.png && grep -q "sweep.png" out &&
	echo "ok: a 2-configuration sweep draws sweep.png and says so" || fail "no sweep.png: $(cat out)"

# A formula of INT64_MIN: every configuration safe, the penalty exact -
# formula is +9.2e18 bytes; the 64-bit difference overflowed to a negative
# mean of -1.08e19 %.  Expected (by hand): OB = 64 and 128 bytes, exact =
# OB, so the penalties are (OB + 2^63) / OB * 100: mean of the two =
# 100 + 2^63 * 100 * (1/64 + 1/128) / 2 = 1.0808639105689190e19 %.
"$DMO" sweep 'relu:in={4,8}x4x1' --formula '0 - 9223372036854775807 - 1' -o minf >out 2>&1
mean=$(csv_rows minf/sweep-*/summary.csv | by_name 'v("metric") == "penalty_mean_pct" { print v("value") }')
awk -v m="$mean" 'BEGIN { want = 100 + 2^63 * 100 * (1/64 + 1/128) / 2; exit !(m > 0 && (m - want) / want < 1e-12 && (want - m) / want < 1e-12) }' &&
	echo "ok: INT64_MIN formula: penalty_mean_pct $mean" || fail "INT64_MIN formula: penalty_mean_pct '$mean'"

# A child linked with the harness, started by system(), inherits $DMO_FIFO
# and numbers its layers 1, 2, 3 as well: its records carry its pid and
# are set aside (named), and the program's own layers stay whole (they
# were error:duplicate-seq).
"$DMO" profile --out sys -- "$TARGETS/misuse" system >sys.out 2>sys.err
expect_eq "system(): status" 0 $?
expect_eq "system(): the program's layers" "1 before ok
2 after ok" "$(layer_rows sys | by_name '{ print v("layer"), v("name"), v("status") }')"
grep -q "dmo: process [0-9]* (a child of the profiled program) describes layers, but is not traced" sys.err &&
	echo "ok: system(): the child is named" || fail "system(): no message: $(cat sys.err)"

# A program that is not there or cannot run: dmo's message and 2, as
# docs/cli.md promises (Valgrind said "command not found", 127 or 126,
# which read as the program's status), and no run folder made.
: >not-executable
expect_refusal "profile of a missing program" 2 "dmo profile: cannot run ./no-such-program: No such file or directory" \
	"$DMO" profile --out missing -- ./no-such-program
expect_refusal "profile of a program not on PATH" 2 "dmo profile: cannot run no-such-program-x: no such program in \$PATH" \
	"$DMO" profile --out missing -- no-such-program-x
expect_refusal "profile of a file that is not executable" 2 "dmo profile: cannot run ./not-executable: Permission denied" \
	"$DMO" profile --out missing -- ./not-executable
[ -e missing ] && fail "a run folder was made for a program that cannot run"

# stderr closed (`2>&-`; stdin and stdout too): dmo's next file took
# descriptor 2, Valgrind found no stderr and exited 127, and the program
# never ran.  Now the run is whole: relu.c records 3 layers.
"$DMO" profile --out closed -- "$TARGETS/relu" >closed.out 2>&- <&-
expect_eq "stderr closed: status" 0 $?
expect_eq "stderr closed: the program's layers" 3 "$(layer_rows closed | by_name '$0 = v("name")' | wc -l)"
"$DMO" profile --out closed -- "$TARGETS/relu" >&- 2>&-
expect_eq "stdout and stderr closed: status" 0 $?

# SIGQUIT (Ctrl-\) to dmo: handled as SIGTERM is (rundir.md): passed to
# the program, layers.csv written with the open layer incomplete, the
# FIFO folder removed, and dmo dies of SIGQUIT too (131).  A background
# job starts with SIGQUIT ignored, which dmo rightly keeps: perl puts the
# default back.
TMPDIR="$WORK/tmp"
export TMPDIR
mkdir "$TMPDIR"
perl -e '$SIG{QUIT} = "DEFAULT"; exec @ARGV or die' \
	"$DMO" profile --out quit -- "$TARGETS/misuse" sleep-in-layer >quit.out 2>quit.err &
pid=$!
i=0
while ! grep -q waiting quit.out 2>/dev/null && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -QUIT "$pid"
wait "$pid"
expect_eq "SIGQUIT: dmo's status" 131 $?
expect_eq "SIGQUIT: the open layer kept, incomplete" incomplete "$(field quit sleeping status)"
expect_eq "SIGQUIT: nothing left in TMPDIR" "" "$(ls -A "$TMPDIR")"

# SIGTERM to `dmo sweep --jobs 2` while its batches profile: the sweep
# passes it on, waits for its batches (each writes what it ran and removes
# its FIFO folder; Valgrind its vgdb pipes), then dies of it (143).  It
# died at once, and its batches of SIGKILL, leaving their FIFO folders.
rm -rf "$TMPDIR" && mkdir "$TMPDIR"
"$DMO" sweep 'relu:in={4,8,12,16,20,24,28,32}x4x1' --formula OB --batch 1 --jobs 2 -o sig \
	>sig.out 2>&1 &
pid=$!
i=0
while [ -z "$(ls "$TMPDIR")" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -TERM "$pid"
wait "$pid"
expect_eq "sweep --jobs 2, SIGTERM: status" 143 $?
# (Valgrind may leave its own valgrind_proc_*_cmdline file when a signal
# ends it; that one is not dmo's.)
expect_eq "sweep --jobs 2, SIGTERM: no FIFO folder or vgdb pipe left in TMPDIR" "" \
	"$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"
pgrep -f "valgrind.*sweep.*sig/sweep-" >/dev/null && fail "a batch's Valgrind still runs"

# Ctrl-C at a terminal: SIGINT to the whole process group, dmo, its
# batches and their Valgrinds at once.  Each batch writes what it ran and
# removes its FIFO folder; dmo dies of SIGINT (130).  (perl puts SIGINT's
# default back: a background job starts with it ignored.)
rm -rf "$TMPDIR" && mkdir "$TMPDIR"
setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV or die' \
	"$DMO" sweep 'relu:in={4,8,12,16,20,24,28,32}x4x1' --formula OB --batch 1 --jobs 2 -o int \
	>int.out 2>&1 &
pid=$!
i=0
while [ -z "$(ls "$TMPDIR")" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT -- "-$pid"
wait "$pid"
expect_eq "sweep --jobs 2, Ctrl-C: status" 130 $?
expect_eq "sweep --jobs 2, Ctrl-C: no FIFO folder or vgdb pipe left in TMPDIR" "" \
	"$(ls -A "$TMPDIR" | grep -v '^valgrind_proc_.*_cmdline')"

finish
