# onnx_real_models.sh - two real ONNX CNNs (tests/models/NOTICE: PaddleOCR's
# MobileNetV3 text-direction classifier and its PP-OCRv4 text detector,
# exported by Paddle2ONNX without value_info, weights as Constant nodes):
# dmo reads them through its own shape inference, plans them with the NCHW
# loop order's O_s, and `plan --verify` runs the overlapped arena bit for
# bit (the classifier with its real weights).  ONNX Runtime, when
# installed (tests/ort), runs the same files with their input fixed
# (onnx_strip --input) and its output shapes are those
# dmo inferred; `dmo infer` runs the classifier (BatchNormalization,
# HardSigmoid, broadcasting Add/Mul/Div, its Shape/Cast/Slice/Concat shape
# arithmetic) and the detector (its nearest Resize and ConvTranspose too)
# on the same input bytes as ONNX Runtime, within f32_close's tolerance.
. "$top_srcdir/tests/lib.sh"

# MODEL INPUT=DIMS LAYERS: the file, its input fixed, and its layer count
# (its nodes less its Constant nodes, counted in the file by onnx_strip's
# reader: dmo's layers are the others).
for case in paddleocr_cls_mobile_v2.0:x=1x3x48x192:221 paddleocr_det_v4:x=1x3x64x64:330; do
	name=${case%%:*} rest=${case#*:}
	shape=${rest%:*} layers=${rest#*:}
	file="$top_srcdir/tests/models/$name.onnx"
	"$DMO" plan --verify --shape "$shape" "$file" >"$WORK/$name.plan" 2>&1
	expect_eq "$name: plan --verify exit status" 0 $?
	grep -q "^verify: outputs of the .* overlapped arena equal the .* bit for bit" \
		"$WORK/$name.plan" && echo "ok: $name runs bit for bit in its overlapped arena" ||
		fail "$name: $(grep -E '^(verify|dmo)' "$WORK/$name.plan")"
	grep -q "^layout: *NCHW: O_s of [0-9]* conv/pool layers in the NCHW loop order" "$WORK/$name.plan" &&
		echo "ok: $name's conv/pool O_s are the NCHW loop order's" ||
		fail "$name: $(grep layout "$WORK/$name.plan")"
	expect_eq "$name: layers" "$layers" "$(sed -n 's/^model .*: \([0-9]*\) layers,.*/\1/p' "$WORK/$name.plan")"
	# The saving is real: some bytes overlap and the plan is below the
	# one without overlaps.
	grep -q "^saving: .* + overlap [1-9]" "$WORK/$name.plan" && echo "ok: $name plans overlaps" ||
		fail "$name: $(grep saving "$WORK/$name.plan")"
	"$top_builddir/tests/onnx_strip" --input "$shape" "$file" "$WORK/$name.onnx"
	expect_eq "$name: fixing its input" 0 $?
	"$DMO" model "$WORK/$name.onnx" >"$WORK/$name.model" 2>&1
	expect_eq "$name: dmo model of the fixed file" 0 $?
done
# plan --verify runs both with their real weights (dmo infer runs them:
# the net of every layer).
for name in paddleocr_cls_mobile_v2.0 paddleocr_det_v4; do
	grep -q "^verify: .* with the model's real weights (input --random 1) bit for bit" \
		"$WORK/$name.plan" && echo "ok: $name is verified with its real weights" ||
		fail "$name: $(grep -E '^(verify|dmo plan)' "$WORK/$name.plan")"
done
# The layer count by hand: the classifier's file has 471 nodes of which
# 250 are Constant; the detector's 672 of which 342 are.
expect_eq "constants read from the classifier's Constant nodes" 250 \
	"$(sed -n 's/.* \([0-9]*\) constants of .*/\1/p' "$WORK/paddleocr_cls_mobile_v2.0.model")"

if command -v node >/dev/null 2>&1 && [ -d "$top_srcdir/tests/ort/node_modules/onnxruntime-node" ]; then
	ORT="node $top_srcdir/tests/ort/run.js"
	for case in paddleocr_cls_mobile_v2.0:110592 paddleocr_det_v4:49152; do
		name=${case%%:*}
		head -c "${case#*:}" /dev/zero >"$WORK/$name.in"
		$ORT "$WORK/$name.onnx" "$WORK/$name.in" "$WORK/$name.ort" \
			2>"$WORK/$name.ort.err"
		expect_eq "$name: ONNX Runtime runs it" 0 $?
		# ONNX Runtime's output shape, e.g. "output softmax_0.tmp_0 [1x2] float32", is
		# the shape dmo inferred for the model's output.
		sed -n 's/^output \([^ ]*\) \[\([0-9x]*\)\].*/\1 \2/p' "$WORK/$name.ort.err" >"$WORK/ort.shape"
		awk '$6 == "output" || $7 == "output" { print $2, $4 }' "$WORK/$name.model" >"$WORK/dmo.shape"
		expect_eq "$name: output shape, ONNX Runtime = dmo's inference" "$(cat "$WORK/ort.shape")" \
			"$(cat "$WORK/dmo.shape")"
	done
	# The same input bytes to both: float32 values in [-1, 1) from awk's
	# fixed-seed generator, packed little-endian by perl (perl-base).  dmo
	# infer's arena is the overlap plan (BatchNormalization, broadcasting
	# Mul/Add/Div, HardSigmoid, Resize and ConvTranspose layers overlapped
	# by their O_s); without overlaps the output bytes are the same.
	for case in paddleocr_cls_mobile_v2.0:27648 paddleocr_det_v4:12288; do
		name=${case%%:*}
		awk -v n="${case#*:}" 'BEGIN { srand(7); for (i = 0; i < n; i++) printf "%.6f\n", 2 * rand() - 1 }' |
			perl -ne 'print pack("f<", $_)' >"$WORK/$name.rnd.in"
		ort_and_dmo "$name.rnd" "$WORK/$name.onnx"
		f32_close "$name: dmo infer = ONNX Runtime" "$WORK/$name.rnd.ort" "$WORK/$name.rnd.dmo"
		plain_arena_same "$name" "$WORK/$name.onnx" "$WORK/$name.rnd.in" "$WORK/$name.rnd.dmo"
	done
else
	echo "ok: ONNX Runtime not installed (tests/ort): its part skipped"
fi
finish
