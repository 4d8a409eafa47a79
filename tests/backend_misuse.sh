# backend_misuse.sh - --backend, --isa, dmo compare and backend.csv misuse
# all exit 2 with a clear message, before valgrind starts; and dmo
# analyze's verdicts on hand-made run directories: the reference formulas
# fail a layer only when backend.csv says the reference kernel ran.
. "$top_srcdir/tests/lib.sh"

cd "$WORK" || exit 1
refuse "unknown backend" "unknown backend 'nosuch'" "$DMO" run --backend nosuch relu:in=4
refuse "unknown ISA" "--isa 'avx9'" "$DMO" run --isa avx9 relu:in=4
refuse "threads with a backend" "one thread" "$DMO" run --backend ref --threads 2 relu:in=4
refuse "verify: unknown backend" "unknown backend" "$DMO" verify --backend nosuch relu:in=4
refuse "compare: bad spec" "relu:in=0" "$DMO" compare --backends ref relu:in=0
refuse "compare: bad ISA" "--isa 'sse9'" "$DMO" compare --isa sse9 relu:in=4
refuse "compare: no spec" "no op spec given" "$DMO" compare
refuse "compare: unknown backend" "unknown backend 'cudnn'" "$DMO" compare --backends ref,cudnn relu:in=4
# An op the backend cannot run is refused before valgrind starts: no run
# directory appears.
if "$DMO" verify --backend openblas --overlap 0 fc:in=4,units=4 >/dev/null 2>&1; then
	refuse "openblas relu" "OpenBLAS has no relu" "$DMO" run -o "$WORK/blas" --backend openblas relu:in=4x4x4
	[ -e "$WORK/blas" ] && fail "a run directory was made for a refused op"
fi
if "$DMO" verify --backend armnn --overlap 0 fc:in=4,units=4 >/dev/null 2>&1; then
	refuse "armnn misaligned overlap" "16-byte aligned" "$DMO" verify --backend armnn --overlap 4 relu:in=4x4x4
fi

# Plugins: a folder without one, and a plugin of a future ABI version.
DMO_BACKEND_DIR="$WORK" refuse "no plugin" "is not available" \
	"$DMO" verify --backend onednn relu:in=4
DMO_BACKEND_DIR="$top_builddir/tests/targets/badbackend/.libs" refuse "ABI version 99" \
	"descriptor says ABI version 99, which its entry point does not take" \
	"$DMO" verify --backend xnnpack relu:in=4

# A plugin that copies its buffers is verified but never profiled.  It is a
# version 1 plugin: it loads, and is given no integer op (version 1 carries
# no quantisation).
copying="$top_builddir/tests/targets/copybackend/.libs"
DMO_BACKEND_DIR="$copying" refuse "profiling a copying backend" "copies its input or output" \
	"$DMO" run -o "$WORK/copying" --backend onednn relu:in=4x4x4
DMO_BACKEND_DIR="$copying" "$DMO" verify --backend onednn --overlap 0 relu:in=4x4x4 >"$WORK/out" 2>&1
expect_eq "verifying a copying backend" 0 $?
DMO_BACKEND_DIR="$copying" refuse "an integer op on a version 1 plugin" \
	"written for version 1 of the backend ABI" "$DMO" verify --backend onednn --overlap 0 relu:in=4x4x4,dtype=i8

# Hand-made run directories: relu:in=4x4x4 has IB = OB = 256 and, in the
# reference order (flat, each element read then written), O_s = 256; a
# kernel measured at 128 is not in that order, and the reference formula
# would be unsafe for it by 256 - 128 = 128 bytes.
make_run() { # DIR OS_BYTES BACKEND (empty: no backend.csv)
	mkdir -p "$1"
	printf '%s\n%s\n' \
		"layer,name,op,in_bytes,out_bytes,in_reads,in_writes,out_reads,out_writes,steps,instructions,os_bytes,status" \
		"1,op1_relu,relu:in=4x4x4,256,256,64,0,0,64,64,1000,$2,ok" >"$1/layers.csv"
	[ -n "$3" ] && printf 'name,backend,version,isa_cap,isa,implementation,cpu\nop1_relu,%s,v,,x,y,z\n' "$3" >"$1/backend.csv"
	return 0
}
analyze() { # NAME STATUS VERDICT DIR
	"$DMO" analyze "$4" >"$WORK/analyze.out" 2>&1
	expect_eq "$1: exit status" "$2" $?
	grep -q "  $3" "$WORK/analyze.out" || fail "$1: no verdict $3 in: $(cat "$WORK/analyze.out")"
}
make_run "$WORK/third" 128 xnnpack
analyze "third-party kernel out of the reference order" 0 "ref-formula-unsafe" "$WORK/third"
grep -q "unsafe by 128 bytes" "$WORK/analyze.out" || fail "the note does not give 128 bytes"
make_run "$WORK/unknown" 128 ""
analyze "unknown kernel (dmo profile)" 0 "ref-formula-unsafe" "$WORK/unknown"
make_run "$WORK/reference" 128 ref
analyze "reference kernel out of its own order" 1 "UNSAFE" "$WORK/reference"
make_run "$WORK/range" 300 xnnpack
"$DMO" analyze "$WORK/range" >"$WORK/analyze.out" 2>&1
expect_eq "O_s above min(IB, OB): exit status" 1 $?
grep -q "column 12 (os_bytes): os_bytes is larger than min(in_bytes, out_bytes); 1 bad row skipped" \
	"$WORK/analyze.out" || fail "O_s above min(IB, OB): not refused by the reader: $(cat "$WORK/analyze.out")"
make_run "$WORK/badinfo" 256 xnnpack
printf 'name,backend\nop1_relu,ref\n' >"$WORK/badinfo/backend.csv"
refuse "backend.csv without its columns" "lacks a column" "$DMO" analyze "$WORK/badinfo"
printf 'name,backend,version,isa_cap,isa,implementation,cpu\n"op1_relu,ref\n' >"$WORK/badinfo/backend.csv"
refuse "backend.csv malformed" "backend.csv" "$DMO" analyze "$WORK/badinfo"
[ "$failures" -eq 0 ]
