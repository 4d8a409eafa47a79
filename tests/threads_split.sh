# threads_split.sh - threads alive and any split of the work.  A layer run
# by one thread while another sleeps is never plain ok, and its safe value
# is the any-split O_s.  tests/targets/steal_pool's own work-stealing pool,
# profiled with thread 0 doing all the work (seed 0): the any-split value
# (hand derivation in steal_pool.c: 32) holds natively for every split the
# seeds give, the observed-split value for some of them does not.
. "$top_srcdir/tests/lib.sh"

POOL="$TARGETS/steal_pool"
SEEDS="0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"

profile "$WORK/s" -- "$POOL" sleeper
expect_eq "sleeper: dmo profile exit status" 0 $?
expect_eq "sleeper: status" ok:alive=2 "$(field "$WORK/s" steal status)"
expect_eq "sleeper: threads that touched I/O" 1 "$(field "$WORK/s" steal threads)"
expect_eq "sleeper: threads alive" 2 "$(field "$WORK/s" steal alive_threads)"
expect_eq "sleeper: os_bytes (one thread's order, hand derivation)" 1024 \
	"$(field "$WORK/s" steal os_bytes)"
expect_eq "sleeper: os_split_bytes (hand derivation)" 32 "$(field "$WORK/s" steal os_split_bytes)"
expect_eq "sleeper: safe_os_rule" any-split "$(field "$WORK/s" steal safe_os_rule)"
expect_eq "sleeper: safe_os_bytes" 32 "$(field "$WORK/s" steal safe_os_bytes)"
grep -q "1 thread touched I/O, 2 alive.*safe: 32 (any-split)" "$WORK/s.err" &&
	echo "ok: the table says why" || fail "table: $(cat "$WORK/s.err")"
grep -q "warning: 1 layer ran while several threads were alive" "$WORK/s.err" &&
	echo "ok: dmo profile warns" || fail "no warning: $(cat "$WORK/s.err")"

# Declared static, the observed split's value is taken, and recorded.
profile "$WORK/st" --static-split -- "$POOL" sleeper
expect_eq "--static-split: safe_os_rule" static-split "$(field "$WORK/st" steal safe_os_rule)"
expect_eq "--static-split: safe_os_bytes = os_any_bytes" \
	"$(field "$WORK/st" steal os_any_bytes)" "$(field "$WORK/st" steal safe_os_bytes)"

# The pool, seed 0: thread 0 does everything, the thief sleeps.
profile "$WORK/p" --trace=full -- "$POOL" steal 0
expect_eq "pool: status" ok:alive=2 "$(field "$WORK/p" steal status)"
split=$(field "$WORK/p" steal os_split_bytes)
observed=$(field "$WORK/p" steal os_any_bytes)
expect_eq "pool: os_split_bytes (hand derivation)" 32 "$split"
expect_eq "pool: os_any_bytes (hand derivation, one thread's order)" 1024 "$observed"
"$DMO" analyze "$WORK/p" >"$WORK/p.an" 2>&1
expect_eq "analyze: trace agrees with the tool" 0 $?
grep -q "any-split (os_split_bytes) 1" "$WORK/p.an" && echo "ok: analyze names the rule" ||
	fail "analyze: $(cat "$WORK/p.an")"

# A seed where the thief works: both threads touch the buffers.
profile "$WORK/q" -- "$POOL" steal 3
expect_eq "pool seed 3: status" ok:threads=2 "$(field "$WORK/q" steal status)"
expect_eq "pool seed 3: os_split_bytes" 32 "$(field "$WORK/q" steal os_split_bytes)"
# The thief started before the layer opened: its checks read the ranges
# copied to it when it last started to run (dmo_layers.h, dmo_watch), so it
# loses no access, and both threads' counts add up to thread 0's alone
# (seed 0, the same chunks by the same code).
for c in in_reads out_writes; do
	expect_eq "pool seed 3: $c as with seed 0 (one thread)" "$(field "$WORK/p" steal $c)" \
		"$(field "$WORK/q" steal $c)"
done

# Natively, every split the seeds give.
"$POOL" native "$split" $SEEDS >"$WORK/n_split"
expect_eq "native at os_split_bytes $split: runs that differed" 0 \
	"$(grep -c differs "$WORK/n_split")"
expect_eq "native at os_split_bytes: runs" 16 "$(wc -l <"$WORK/n_split")"
"$POOL" native "$observed" $SEEDS >"$WORK/n_obs"
differed=$(grep -c differs "$WORK/n_obs")
[ "$differed" -ge 1 ] && echo "ok: at os_any_bytes $observed, $differed of 16 splits differed" ||
	fail "at os_any_bytes $observed no split differed"
grep -q "^0 same$" "$WORK/n_obs" && echo "ok: the observed split (seed 0) holds at its own value" ||
	fail "seed 0 at $observed: $(cat "$WORK/n_obs")"
finish
