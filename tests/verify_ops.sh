# verify_ops.sh - `dmo verify` end to end: every reference op and dtype, with
# its buffers really overlapped at the exact O_s, computes the same output
# bit for bit; overlaps above O_s visibly change conv/pool outputs; bad
# input exits 2.
. "$top_srcdir/tests/lib.sh"

# exact_os SPEC: the algorithmic O_s column of `dmo formula --csv`.
exact_os() {
	"$DMO" formula --csv "$1" | csv_rows /dev/stdin | by_name '{ print v("algorithmic_os") }'
}

# verify NAME EXPECTED_STATUS ARGS...: run dmo verify, keep its output.
verify() {
	name=$1 want=$2; shift 2
	"$DMO" verify "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
	got=$?
	expect_eq "$name exit status" "$want" "$got"
	[ "$got" = "$want" ] || cat "$WORK/$name.out" "$WORK/$name.err"
}

# Small shapes that cover stride 2, SAME and VALID padding, multiplier 2,
# dilation 2 and a batch; each runs in every dtype with a reference kernel.
SHAPES="relu:in=5x7x3
relu6:in=2x5x7x3
add:in=4x4x3
mul:in=4x4x3
conv2d:in=9x9x3,k=3x3,out_c=5,stride=2,pad=same
conv2d:in=9x9x3,k=3x3,out_c=4,dil=2,pad=valid
conv2d:in=2x6x6x4,k=1x1,out_c=8
dwconv2d:in=9x9x3,k=3x3,mult=2,stride=2,pad=same
dwconv2d:in=9x9x3,k=3,dil=2,pad=same
dwconv2d:in=8x8x4,k=3x3,stride=1,pad=same
maxpool:in=9x9x3,k=3x3,stride=2,pad=same
maxpool:in=8x8x4,k=3x3,stride=1,pad=same
avgpool:in=8x8x3,k=2x2,stride=2
avgpool:in=7x7x2,k=3x3,stride=1,pad=same
fc:in=2x20,units=7
fc:in=20,units=30"

n=0
for shape in $SHAPES; do
	for dtype in f32 i8 i16; do
		n=$((n + 1))
		verify "os-$n" 0 "$shape,dtype=$dtype"
		grep -q "(= O_s)" "$WORK/os-$n.out" || fail "os-$n: default overlap is not O_s"
	done
done

# Overlaps above O_s that clobber inputs before they are read.
for spec in dwconv2d:in=8x8x4,k=3x3,stride=1,pad=same \
	conv2d:in=9x9x3,k=3x3,out_c=5,stride=2,pad=same \
	avgpool:in=7x7x2,k=3x3,stride=1,pad=same \
	dwconv2d:in=9x9x3,k=3x3,mult=2,stride=2,pad=same,dtype=i8; do
	os=$(exact_os "$spec")
	esize=4
	case $spec in *dtype=i8*) esize=1 ;; esac
	n=$((n + 1))
	verify "unsafe-$n" 1 --overlap $((os + 4 * esize)) "$spec"
	grep -q "UNSAFE" "$WORK/unsafe-$n.out" || fail "unsafe-$n: no UNSAFE line"
done

# The scan at O_s: for this dwconv the very next element already changes the
# output (O_s is tight), reported with its first differing element.
verify scan 0 dwconv2d:in=8x8x4,k=3x3,stride=1,pad=same
grep -q "smallest changing: *884 bytes" "$WORK/scan.out" ||
	fail "scan: expected 884 bytes, got: $(grep smallest "$WORK/scan.out")"
# In-order ReLU is in place: the scan from 0 reaches min(IB, OB) unchanged...
verify relu-scan 0 --overlap 0 relu:in=4x4x2
grep -q "no larger overlap changes the output" "$WORK/relu-scan.out" ||
	fail "relu-scan: $(grep smallest "$WORK/relu-scan.out")"
# ...or stops honestly at the scan limit.
verify relu-limit 0 --overlap 0 --scan-limit 3 relu:in=4x4x2
grep -q "no change found up to X'=12 (scan limit" "$WORK/relu-limit.out" ||
	fail "relu-limit: $(grep smallest "$WORK/relu-limit.out")"
# An overlap that is not a multiple of the element size is tested, and said.
verify misaligned 0 --overlap 6 relu:in=4x4x2
grep -q "not a multiple of the 4-byte element" "$WORK/misaligned.out" ||
	fail "misaligned: no note"
# Threads split the output: the run completes (its verdict may vary).
"$DMO" verify --threads 3 --interleave --scan-limit 0 relu:in=8x8x4 >/dev/null 2>&1
expect_eq "--threads 3 --interleave on in-place relu" 0 $?

# Bad input: exit 2 with a message.
verify bad-spec 2 dwconv2d:in=4x4x1,k=9
grep -q "'k'" "$WORK/bad-spec.err" || fail "bad-spec message does not name 'k'"
verify too-large 2 --overlap 257 relu:in=8x8x4,dtype=i8
grep -q "min(IB, OB) = 256" "$WORK/too-large.err" || fail "too-large: $(cat "$WORK/too-large.err")"
verify bad-overlap 2 --overlap 12x relu:in=8x8x4
verify negative-overlap 2 --overlap -4 relu:in=8x8x4
verify bad-threads 2 --threads 0 relu:in=8x8x4
verify bad-limit 2 --scan-limit many relu:in=8x8x4
verify i32 2 relu:in=8x8x4,dtype=i32
verify no-spec 2
verify two-specs 2 relu:in=8x8x4 relu:in=8x8x4
verify help 0 --help
grep -q "no proof" "$WORK/help.out" || fail "--help does not warn about value-based checks"

finish
