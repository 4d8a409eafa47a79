# children.sh - a profiled program's children (issue 28): each process
# that records layers keeps its own, and the table says whose they are.
#
# misuse.c's "system" case is the program: it records "before", system()s
# a copy of itself ("child-layers", which records "before", "child",
# "after" - misuse.c's main wraps every case in before/after), then
# records "after".  So the parent's layers are 1 before, 2 after, and the
# child's 1 before, 2 child, 3 after: the expected tables below are read
# off that code, not off a run.
. "$top_srcdir/tests/lib.sh"
cd "$WORK" || exit 99

# Traced with --trace-children=yes the child's tool instance wrote the
# parent's tool-layers.bin over and took records from its FIFO.  Now it
# records into a run folder of its own, proc-PID.
"$DMO" profile --out rd --trace=full --vg-opt=--trace-children=yes -- \
	"$TARGETS/misuse" system >out 2>err
expect_eq "traced children: status" 0 $?
root=$(layer_rows rd | by_name '{ print v("pid") }' | sort -u)
expect_eq "traced children: the program's layers, whole" "1 before ok $root
2 after ok $root" "$(layer_rows rd | by_name '{ print v("layer"), v("name"), v("status"), v("pid") }')"
kids=$(ls -d rd/proc-* 2>/dev/null)
expect_eq "traced children: one child folder (the shell between recorded nothing)" 1 \
	"$(printf '%s\n' "$kids" | grep -c proc-)"
kid=${kids##*/proc-}
[ "$kid" != "$root" ] || fail "the child's pid is the program's"
expect_eq "traced children: the child's layers, in its own folder" "1 before ok $kid
2 child ok $kid
3 after ok $kid" "$(layer_rows "$kids" | by_name '{ print v("layer"), v("name"), v("status"), v("pid") }')"
# Each folder's event files are its own layers': 2 and 3.
expect_eq "traced children: event files" "rd/layer-0001.events rd/layer-0002.events" \
	"$(echo rd/layer-*.events)"
expect_eq "traced children: the child's event files" 3 "$(ls "$kids"/layer-*.events | wc -l)"
[ -e "$kids/dmo.fifo" ] && fail "the child's FIFO is left"
# The printed table: a pid column, every process's rows, and where the
# child's run folder is.
expect_eq "traced children: printed rows by pid" "$root 1 before
$root 2 after
$kid 1 before
$kid 2 child
$kid 3 after" "$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ { print $1, $2, $3 }' err)"
grep -q "^    pid  layer " err && echo "ok: the printed table has a pid column" ||
	fail "no pid column: $(cat err)"
grep -q "process $kid (a traced child): run directory rd/proc-$kid" err &&
	echo "ok: the child's run folder is named" || fail "child folder not named: $(cat err)"
"$DMO" analyze "$kids" >an.out 2>&1 && echo "ok: the child's folder is a run directory" ||
	fail "dmo analyze of the child's folder: $(cat an.out)"

# A run of one process has no pid column, and a re-profile takes the
# earlier run's child folder away with its other files.
"$DMO" profile --out rd -- "$TARGETS/relu" >out 2>err
expect_eq "one process: status" 0 $?
head -1 rd/layers.csv | grep -q ',pid' && fail "a pid column in a run of one process"
[ -e "$kids" ] && fail "the earlier run's child folder is left: $(ls "$kids")"
grep -q "^layer " err && echo "ok: one process, no pid column" || fail "printed table: $(cat err)"

# sh -c 'exec PROG': a shell's work is the programs it runs, so dmo traces
# them; the exec keeps the process, so the layers are the program's own
# (relu.c records relu_forward, relu_backward, relu_again).
"$DMO" profile --out sh -- sh -c "exec '$TARGETS/relu'" >out 2>err
expect_eq "sh -c 'exec PROG': status" 0 $?
expect_eq "sh -c 'exec PROG': the program's layers" "1 relu_forward
2 relu_backward
3 relu_again" "$(layer_rows sh | by_name '{ print v("layer"), v("name") }')"
# And not through exec: sh runs the program as a child, which records in
# its own folder; the shell itself recorded nothing.
"$DMO" profile --out sh2 -- sh -c "'$TARGETS/relu'; true" >out 2>err
expect_eq "sh -c 'PROG; true': status" 0 $?
expect_eq "sh -c 'PROG; true': the child's layers" "1 relu_forward
2 relu_backward
3 relu_again" "$(layer_rows sh2/proc-* | by_name '{ print v("layer"), v("name") }')"
# --trace-children=no is still the user's to give: then nothing is
# recorded, said, and no success.
"$DMO" profile --out sh3 --vg-opt=--trace-children=no -- sh -c "exec '$TARGETS/relu'" >out 2>err
expect_eq "--trace-children=no: status" 2 $?
grep -q "no layer was recorded" err && echo "ok: --trace-children=no: said" || fail "not said: $(cat err)"

finish
