# run_golden.sh - `dmo run` end to end: the golden layer of docs/definitions.md (MobileNet
# v2's second depthwise convolution) profiled under the real tool gives the
# paper's exact O_s, also when the kernel runs on two threads.
. "$top_srcdir/tests/lib.sh"

GOLDEN=dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same

"$DMO" run --out "$WORK/g" "$GOLDEN" >"$WORK/g.out" 2>"$WORK/g.err"
expect_eq "dmo run exit status" 0 $?
expect_eq "golden layer status" ok "$(field "$WORK/g" op1_dwconv2d status)"
expect_eq "golden layer OB" 1204224 "$(field "$WORK/g" op1_dwconv2d out_bytes)"
expect_eq "golden layer O_s" 1204224 "$(field "$WORK/g" op1_dwconv2d os_bytes)"
# 56*56*96 outputs, each written once after its taps.
expect_eq "golden layer out_writes" 301056 "$(field "$WORK/g" op1_dwconv2d out_writes)"

# Two threads: the layer completes and its events come from two threads.
# (Its O_s depends on how valgrind happened to interleave the threads, so
# it is not checked.)
"$DMO" run --out "$WORK/t" --trace=full --threads 2 "$GOLDEN" >"$WORK/t.out" 2>"$WORK/t.err"
expect_eq "--threads 2 exit status" 0 $?
expect_eq "--threads 2 status" ok:threads=2 "$(field "$WORK/t" op1_dwconv2d status)"
"$DMO" export --csv "$WORK/t" >/dev/null 2>&1
tids=$(csv_rows "$WORK/t/layer-0001.csv" | by_name '{ print v("tid") }' | sort -u | wc -l)
if [ "$tids" -ge 2 ]; then echo "ok: $tids thread ids"; else fail "expected 2+ thread ids, got $tids"; fi

# Bad input fails fast with a clear message and status 2.
"$DMO" run --out "$WORK/bad" dwconv2d:in=4x4x1,k=9 >/dev/null 2>"$WORK/bad.err"
expect_eq "bad spec exit status" 2 $?
grep -q "'k'" "$WORK/bad.err" || fail "bad spec message does not name 'k': $(cat "$WORK/bad.err")"
"$DMO" run --model no_such_model >/dev/null 2>"$WORK/nomodel.err"
expect_eq "unknown model exit status" 2 $?
grep -q mobilenet_v2_1.0_224 "$WORK/nomodel.err" || fail "unknown model message lists no tables"

finish
