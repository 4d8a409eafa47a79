# backend_check.sh - one backend end to end, sourced by backend_NAME.sh
# with BACKEND set: for small specs of every op, dmo compare profiles the
# backend's kernel under the tool and runs it natively with its buffers
# really overlapped at the measured O_s.  The independent oracle is the
# separate-buffer run of the same kernel: the overlapped output must equal
# it bit for bit.  The backend's output must match the ref backend's within
# DMO_COMPARE_F32_TOLERANCE (the same op), the ISA seen under the tool must
# be the one chosen natively (the cap works), and dmo analyze of the run
# directory exits 0.  Skipped (77) when the backend was not built.
. "$top_srcdir/tests/lib.sh"

if ! "$DMO" verify --backend "$BACKEND" --scan-limit 0 --overlap 0 fc:in=4,units=4 >/dev/null 2>"$WORK/load.err"; then
	if grep -q "is not available" "$WORK/load.err"; then
		echo "skip: $(cat "$WORK/load.err")"
		exit 77
	fi
	fail "backend $BACKEND does not run fc: $(cat "$WORK/load.err")"
fi

# Stride 2, SAME padding, multiplier 2, a batch of 2 (fc), every op.
SPECS="dwconv2d:in=12x12x8,k=3x3,mult=2,stride=2,pad=same
conv2d:in=10x10x8,k=3x3,out_c=8,pad=same
maxpool:in=12x12x8,k=3x3,stride=2,pad=same
avgpool:in=12x12x8,k=2x2,stride=2
fc:in=2x128,units=16
relu:in=6x6x8
relu6:in=6x6x8
add:in=6x6x8
mul:in=6x6x8"

# The table on stdout (a line per spec), the same rows in compare.csv.
# shellcheck disable=SC2086 # one argument per spec
"$DMO" compare --backends "$BACKEND" -o "$WORK/cmp" $SPECS >"$WORK/cmp.txt" 2>"$WORK/cmp.err"
expect_eq "dmo compare exit status" 0 $?
cat "$WORK/cmp.err" "$WORK/cmp.txt"
expect_eq "the table: a line per spec" "$(echo "$SPECS" | wc -l)" "$(grep -c "^  $BACKEND " "$WORK/cmp.txt")"
# Columns: csv_columns in cmd_compare.c; fields (specs) hold commas.
csv_rows "$WORK/cmp/compare.csv" >"$WORK/cmp.tsv" || fail "compare.csv is malformed"
rows() { by_name "$1" <"$WORK/cmp.tsv"; }
expect_eq "one row per spec" "$(echo "$SPECS" | wc -l)" "$(rows '{ n++ } END { print n + 0 }')"
ok=$(rows 'v("status") == "ok"' | wc -l)
[ "$ok" -ge 1 ] && echo "ok: $ok of the specs run on $BACKEND" || fail "no spec runs on $BACKEND"
rows 'v("status") != "ok" && v("status") != "unsupported" { print "status " v("status") }' >"$WORK/bad"
rows 'v("status") == "ok" && v("safe") != 1 { print "UNSAFE at O_s " v("os_bytes") }' >>"$WORK/bad"
rows 'v("status") == "ok" && (v("diff_vs_ref") == "" || v("diff_vs_ref") + 0 > 1e-4) {
	print "output differs from ref by " v("diff_vs_ref") }' >>"$WORK/bad"
rows 'v("status") == "ok" && v("isa_tool") != v("isa_native") {
	print "ISA " v("isa_tool") " under the tool, " v("isa_native") " natively" }' >>"$WORK/bad"
if [ "$BACKEND" = ref ]; then # the reference kernel is the algorithmic replica's
	rows 'v("status") == "ok" && v("os_bytes") != v("algorithmic_os") {
		print "O_s " v("os_bytes") " != algorithmic " v("algorithmic_os") }' >>"$WORK/bad"
fi
if [ -s "$WORK/bad" ]; then
	fail "rows of $BACKEND: $(cat "$WORK/bad")"
	cat "$WORK/cmp/compare.csv"
else
	echo "ok: every measured O_s is safe natively, output = ref, same ISA under the tool"
fi
# What one element more does (reported, not asserted: a value-based check
# cannot prove a larger overlap unsafe).
rows '{ print v("spec"), v("status"), "O_s=" v("os_bytes"), "tested=" v("tested_bytes"),
	"next=" v("next_bytes"), "changed=" v("next_changed") }'

# A small residual model on the backend, then planned from its run
# directory (dmo plan --os measured:DIR reads any backend's).  A backend
# that lacks one of its ops is refused before valgrind starts (exit 2).
cat >"$WORK/tiny.csv" <<'TABLE'
layer,name,spec,inputs
0,conv1,"conv2d:in=12x12x3,k=3x3,stride=2,pad=same,out_c=8",
1,dw1,"dwconv2d:in=6x6x8,k=3x3,pad=same",conv1
2,pw1,"conv2d:in=6x6x8,k=1x1,out_c=8",dw1
3,add1,"add:in=6x6x8",conv1;pw1
4,pool,"avgpool:in=6x6x8,k=6x6",add1
TABLE
"$DMO" run -o "$WORK/model" --backend "$BACKEND" --model "$WORK/tiny.csv" >"$WORK/model.out" 2>&1
status=$?
if [ "$status" = 2 ] && grep -q "layer conv1: .*no conv2d" "$WORK/model.out"; then
	echo "ok: $BACKEND has no conv2d, the model is refused up front"
else
	expect_eq "dmo run --backend $BACKEND --model" 0 "$status"
	expect_eq "every layer profiled" 5 "$(grep -c " ok$" "$WORK/model.out")"
	"$DMO" plan --os "measured:$WORK/model" "$WORK/tiny.csv" >"$WORK/plan.out" 2>&1
	expect_eq "dmo plan from the $BACKEND run directory" 0 $?
	"$DMO" analyze "$WORK/model" >"$WORK/model.analyze" 2>&1
	expect_eq "dmo analyze of the $BACKEND model run exits 0" 0 $?
fi

"$DMO" analyze "$WORK/cmp/$BACKEND" >"$WORK/analyze.out" 2>&1
expect_eq "dmo analyze of the $BACKEND run exits 0" 0 $?
grep -E "MISMATCH|UNSAFE" "$WORK/analyze.out" && fail "a failed verdict"
# The avx cap, natively, on a CPU with AVX2 (so that the cap lowers what
# the backend would pick), when backend_NAME.sh names the ISA the backend
# then reports (AVX_ISA): the isa column of dmo-harness --info.
if [ -n "${AVX_ISA:-}" ] && grep -qw avx2 /proc/cpuinfo; then
	"$top_builddir/target-harness/harness/dmo-harness" --backend "$BACKEND" --isa avx \
		--info "$WORK/avx.csv" fc:in=4,units=4 >/dev/null 2>&1
	expect_eq "$BACKEND under --isa avx: exit status" 0 $?
	expect_eq "$BACKEND under --isa avx: the ISA it reports" "avx $AVX_ISA" \
		"$(csv_rows "$WORK/avx.csv" | by_name '{ print v("isa_cap"), v("isa") }')"
fi
# A spec the backend declines, when backend_NAME.sh names one
# (DECLINED_SPEC, and DECLINED_TEXT from the backend's reason): natively,
# dmo-harness names the layer and the reason, and exits 1.
if [ -n "${DECLINED_SPEC:-}" ]; then
	expect_refusal "$BACKEND declines $DECLINED_SPEC" 1 "op1_${DECLINED_SPEC%%:*}: $DECLINED_TEXT" \
		"$top_builddir/target-harness/harness/dmo-harness" --backend "$BACKEND" "$DECLINED_SPEC"
fi
[ "$failures" -eq 0 ]
