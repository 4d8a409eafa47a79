# layout_ops_tool.sh - the ops that move or rescale elements (reshape,
# softmax, logistic, tanh, mean, quantize (to i8 and u8), dequantize (from
# i8, u8 and i32), pad, concat, transpose)
# join the three-way cross-check: over a fixed-seed sample of small
# configurations of every op and every dtype combination libdmokernels has,
# run under the real tool with a full trace,
#  - the tool's exact O_s equals tests/bruteforce_os on the recorded events
#    (a simulated overlapped arena, independent of the reducer and of the
#    algorithmic and analytic code);
#  - `dmo analyze` finds exact = algorithmic and analytic <= exact on every
#    layer (its verdict is "ok", it exits 0);
#  - `dmo verify` runs each natively with its input really placed at that
#    O_s inside the output and gets the separate-buffer output bit for bit.
. "$top_srcdir/tests/lib.sh"
COUNT=${LAYOUT_COUNT:-45}

awk -v count="$COUNT" 'BEGIN {
	srand(20261130)
	split("reshape softmax logistic mean quantize dequantize pad concat transpose tanh", ops, " ")
	made = 0
	while (made < count) {
		op = ops[1 + made % 10]
		n = 1 + int(rand() * 2); h = 1 + int(rand() * 5); w = 1 + int(rand() * 5)
		c = 1 + int(rand() * 6)
		shape = n "x" h "x" w "x" c
		r = rand()
		if (op == "reshape" || op == "pad" || op == "concat" || op == "transpose")
			dtype = r < 0.3 ? "f32" : r < 0.6 ? "i8" : r < 0.8 ? "i16" : "i32"
		else if (op == "tanh")
			dtype = "f32"
		else
			dtype = r < 0.5 ? "f32" : "i8"
		spec = op ":in=" shape ",dtype=" dtype
		# f32 -> u8 and u8/i32 -> f32: ONNX Runtime QDQ form
		if (op == "quantize")
			spec = op ":in=" shape (r < 0.35 ? ",dtype=f32,out_dtype=i8" : \
				r < 0.7 ? ",dtype=f32,out_dtype=u8" : ",dtype=i8,out_dtype=i8")
		if (op == "dequantize") {
			r = rand()
			spec = op ":in=" shape ",dtype=" (r < 0.4 ? "i8" : r < 0.8 ? "u8" : "i32") ",out_dtype=f32"
		}
		if (op == "pad")
			spec = spec ",before=" int(rand() * 2) "x" int(rand() * 3) "x" int(rand() * 3) "x" int(rand() * 3) \
				",after=" int(rand() * 2) "x" int(rand() * 3) "x" int(rand() * 3) "x" int(rand() * 3)
		if (op == "concat") {
			at = int(rand() * 5)
			spec = spec ",at=" at ",out_c=" (c + at + int(rand() * 5))
		}
		if (op == "transpose") {
			p[0] = 0; p[1] = 1; p[2] = 2; p[3] = 3
			for (i = 3; i > 0; i--) { j = int(rand() * (i + 1)); t = p[i]; p[i] = p[j]; p[j] = t }
			spec = spec ",perm=" p[0] "x" p[1] "x" p[2] "x" p[3]
		}
		print spec
		made++
	}
}' >"$WORK/specs"
expect_eq "sample size" "$COUNT" "$(wc -l <"$WORK/specs")"

three_ways "$WORK/specs" "$COUNT"
# Every op shares memory: O_s > 0 on every layer of the sample (the hand
# derivations of docs/formulas.md section 4 give min(IB, OB) for all but
# transpose, whose sample here keeps O_s > 0 as well).
echo "layers with O_s > 0: $saved of $COUNT"

# Hand derivations (docs/formulas.md section 4).  Pad: the input fits
# entirely at the end of the output, O_s = IB = 2*3*4*4 = 96.  Transpose
# NCHW -> NHWC of 1x3x224x224 int8: OB + es * (223 * (224 - 672) +
# 223 * (1 - 3)) = 150528 - 99904 - 446 = 50178.  Dequantize i8 -> f32 of 64
# elements: min(IB, OB) = 64.
expect_eq "pad O_s (algorithmic,analytic)" "96,96" "$(formula_os pad:in=2x3x4,before=1x1,after=0x1x2)"
expect_eq "transpose NCHW->NHWC O_s" "50178,50178" \
	"$(formula_os transpose:in=1x3x224x224,perm=0x2x3x1,dtype=i8)"
expect_eq "dequantize O_s" "64,64" "$(formula_os dequantize:in=4x4x4)"
# ONNX's uint8 forms have int8's element size: quantize f32 -> u8 of 64
# elements min(256, 64) = 64, dequantize u8 -> f32 min(64, 256) = 64; an
# int32 bias to f32 keeps its 4 bytes: min(256, 256) = 256 (in place).
expect_eq "quantize f32->u8 O_s" "64,64" "$(formula_os quantize:in=4x4x4,out_dtype=u8)"
expect_eq "dequantize u8->f32 O_s" "64,64" "$(formula_os dequantize:in=4x4x4,dtype=u8)"
expect_eq "dequantize i32->f32 O_s" "256,256" "$(formula_os dequantize:in=4x4x4,dtype=i32)"
# Above O_s the transpose's output changes: its bound is tight.
"$DMO" verify --overlap 50179 transpose:in=1x3x224x224,perm=0x2x3x1,dtype=i8 >"$WORK/tight.out" 2>&1
expect_eq "transpose one byte above O_s: verify exit status" 1 $?
grep -q UNSAFE "$WORK/tight.out" || fail "transpose above O_s: $(cat "$WORK/tight.out")"
# A dtype combination without a kernel is refused clearly.
"$DMO" verify softmax:in=2x2x4,dtype=i16 >/dev/null 2>"$WORK/nok.err"
expect_eq "softmax i16: verify exit status" 2 $?
grep -q "no reference kernel" "$WORK/nok.err" || fail "softmax i16: $(cat "$WORK/nok.err")"
finish
