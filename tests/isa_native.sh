# isa_native.sh - the ISA that runs natively, beside the one measured.
# Needs a host with AVX-512 (the kernel's own /proc/cpuinfo says, not
# dmo's CPUID) and the xnnpack backend, else skipped (77).  Valgrind's CPU
# has no AVX-512, so under the tool XNNPACK picks AVX2 kernels, natively
# AVX-512 ones: run directories record both, dmo run and dmo profile say so
# in one line, a cap of avx2 silences it, and dmo verify uncapped names
# the native ISA.  On this kind of host the measured O_s of
# conv2d:in=28x28x32,k=3x3,out_c=32,pad=same (96064) changed the output
# natively; docs/threads.md has the figures, not asserted here.
. "$top_srcdir/tests/lib.sh"

grep -qw avx512f /proc/cpuinfo || { echo "skip: this CPU has no AVX-512"; exit 77; }
"$DMO" verify --backend xnnpack --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>&1 ||
	{ echo "skip: xnnpack not available"; exit 77; }

SPEC=relu:in=4x4x8
"$DMO" run --out "$WORK/u" --backend xnnpack "$SPEC" >"$WORK/u.out" 2>"$WORK/u.err"
expect_eq "uncapped run exit status" 0 $?
expect_eq "one note" 1 "$(grep -c "note: xnnpack ran avx2+fma3 kernels under the tool but picks avx512f natively" "$WORK/u.err")"
info() { csv_rows "$1/backend.csv" | by_name '{ print v("isa"), v("native_isa"), v("host_isa") }'; }
expect_eq "backend.csv: isa under the tool, natively, host's widest" "avx2+fma3 avx512f avx512f" \
	"$(info "$WORK/u")"
expect_eq "host.csv" avx512f "$(csv_rows "$WORK/u/host.csv" | by_name '{ print v("host_isa") }')"

"$DMO" run --out "$WORK/c" --backend xnnpack --isa avx2 "$SPEC" >"$WORK/c.out" 2>"$WORK/c.err"
expect_eq "capped run exit status" 0 $?
expect_eq "capped: no note" 0 "$(grep -c "note:" "$WORK/c.err")"
expect_eq "capped: backend.csv" "avx2+fma3 avx2+fma3 avx512f" "$(info "$WORK/c")"

"$DMO" verify --backend xnnpack --overlap 0 "$SPEC" >"$WORK/v.out" 2>&1
expect_eq "uncapped verify exit status" 0 $?
grep -q "^native ISA: *avx512f, the host's own.*Valgrind's CPU lacks it" "$WORK/v.out" &&
	echo "ok: verify names the native ISA" || fail "verify: $(cat "$WORK/v.out")"

profile "$WORK/p" -- "$TARGETS/relu"
grep -q "note: this CPU offers avx512f natively" "$WORK/p.err" &&
	echo "ok: dmo profile says so" || fail "profile: $(cat "$WORK/p.err")"
finish
