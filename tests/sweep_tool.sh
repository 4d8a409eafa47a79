# sweep_tool.sh - a sample of the randomized sweep of tests/test_methods.c,
# run for real under the tool: for every configuration the bottom-up exact
# O_s must equal the algorithmic one, and the analytic bound must not exceed
# it (`dmo analyze` checks both and exits 1 on any failure).  The specs are
# drawn from a fixed seed over every op, dtype, stride 1-3, dilation 1-2,
# kernel 1-7, SAME/VALID/explicit padding, multiplier 1-4 and batch 1-2.
. "$top_srcdir/tests/lib.sh"
COUNT=${SWEEP_COUNT:-60}

awk -v count="$COUNT" 'BEGIN {
	srand(20261129)
	split("relu relu6 add mul conv2d dwconv2d maxpool avgpool fc", ops, " ")
	split("f32 i8 i16", dtypes, " ")
	made = 0
	while (made < count) {
		op = ops[1 + int(rand() * 9)]
		dtype = dtypes[1 + int(rand() * 3)]
		batch = 1 + int(rand() * 2)
		h = 3 + int(rand() * 10); w = 3 + int(rand() * 10); c = 1 + int(rand() * 6)
		shape = batch "x" h "x" w "x" c
		if (op == "fc") {
			spec = "fc:in=" batch "x" (1 + int(rand() * 64)) ",units=" (1 + int(rand() * 16))
		} else if (op ~ /relu|add|mul/) {
			spec = op ":in=" shape
		} else {
			kh = 1 + int(rand() * 7); kw = 1 + int(rand() * 7)
			sh = 1 + int(rand() * 3); sw = 1 + int(rand() * 3)
			r = rand()
			pad = r < 0.4 ? "same" : r < 0.7 ? "valid" : int(rand() * kh) "x" int(rand() * kw)
			spec = op ":in=" shape ",k=" kh "x" kw ",stride=" sh "x" sw ",pad=" pad
			if (op == "conv2d" || op == "dwconv2d")
				spec = spec ",dil=" (1 + int(rand() * 2)) "x" (1 + int(rand() * 2))
			if (op == "conv2d")
				spec = spec ",out_c=" (1 + int(rand() * 6))
			if (op == "dwconv2d")
				spec = spec ",mult=" (1 + int(rand() * 4))
		}
		spec = spec ",dtype=" dtype
		# Keep only specs the parser accepts (output dims > 0 etc.).
		if (system("\"'"$DMO"'\" formula \"" spec "\" >/dev/null 2>&1") == 0) {
			print spec
			made++
		}
	}
}' >"$WORK/specs"
expect_eq "sweep sample size" "$COUNT" "$(wc -l <"$WORK/specs")"

"$DMO" run --out "$WORK/sweep" $(cat "$WORK/specs") >"$WORK/run.out" 2>&1
expect_eq "dmo run of the sample" 0 $?
"$DMO" analyze "$WORK/sweep" >"$WORK/analyze.out" 2>&1
expect_eq "dmo analyze: exact = algorithmic and analytic <= exact on every layer" 0 $?
ok_rows=$(grep -c " ok$" "$WORK/analyze.out")
expect_eq "layers with verdict ok" "$COUNT" "$ok_rows"
grep -v " ok$" "$WORK/analyze.out" | grep -E "MISMATCH|UNSAFE" | head -5
finish
