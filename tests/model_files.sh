# model_files.sh - every real model file dmo ships as test data
# (tests/models/, and ../shared/models when that folder is there) is read,
# its derived model agrees with facts taken independently (tflite_facts.py,
# a separate FlatBuffers walk: tensor and operator counts, input and output
# shapes, the no-overlap live peak; for the ONNX files, hand derivations
# below), and `dmo plan --verify` passes on it.
. "$top_srcdir/tests/lib.sh"

PYTHON=${PYTHON:-python3}
models="$top_srcdir"/tests/models/*.tflite
for dir in "$top_srcdir/../shared/models" "$top_srcdir/../../shared/models"; do
	[ -d "$dir" ] && models="$models $dir/*.tflite" && break
done

# dmo_facts FILE: the same line as tflite_facts.py, from dmo's model.
dmo_facts() {
	"$DMO" model --csv --tensors "$1" >"$WORK/tensors.csv" &&
	"$DMO" model --csv "$1" >"$WORK/layers.csv" &&
	"$DMO" plan --csv "$1" >"$WORK/plan.csv" 2>/dev/null || return 1
	csv_rows "$WORK/tensors.csv" | by_name '
		{ n++; kind = v("kind"); shape = v("shape") }
		kind == "input" { ins = ins (ins == "" ? "" : ";") shape }
		kind == "output" { outs = outs (outs == "" ? "" : ";") shape }
		END { printf "tensors=%d ops=%d inputs=%s outputs=%s peak=%d\n", n, layers, ins, outs, peak }
	' -v layers="$(($(wc -l <"$WORK/layers.csv") - 1))" \
		-v peak="$(csv_rows "$WORK/plan.csv" | by_name 'v("live_bytes") + 0 > m { m = v("live_bytes") + 0 } END { print m + 0 }')"
}

for model in $models; do
	[ -f "$model" ] || continue
	name=$(basename "$model")
	case $model in "$top_srcdir"/tests/models/*) ;;
	*) [ -f "$top_srcdir/tests/models/$name" ] && continue ;; esac
	expected=$("$PYTHON" "$top_srcdir/tests/tflite_facts.py" "$model") ||
		{ fail "$name: tflite_facts.py failed"; continue; }
	expect_eq "$name facts" "$expected" "$(dmo_facts "$model")"
	"$DMO" plan --verify "$model" >"$WORK/verify.out" 2>&1
	expect_eq "$name plan --verify exit status" 0 $?
done

# Published no-overlap peaks (../shared/models/README.md, computed there by
# another short script), which the person_detect anchor also confirms: its
# greedy plan without overlaps is TFLite Micro's measured 55296 bytes.
for pair in tflm_person_detect:55296 tiny_kws_ref_model:16000 tflm_micro_speech_quantized:5960; do
	file="$top_srcdir/tests/models/${pair%%:*}.tflite"
	expect_eq "${pair%%:*} no-overlap live peak" "${pair#*:}" \
		"$(dmo_facts "$file" | sed 's/.*peak=//')"
done
"$DMO" plan "$top_srcdir/tests/models/tflm_person_detect.tflite" >"$WORK/pd.out"
with=$(awk '/^peak with overlaps:/ { print $4 }' "$WORK/pd.out")
if [ -n "$with" ] && [ "$with" -lt 55296 ]; then
	echo "ok: person_detect with overlaps $with < 55296 (TFLite Micro's measured arena)"
else
	fail "person_detect with overlaps: '$with', not below 55296"
fi
# Its RESHAPE and SOFTMAX have op specs now: no layer is left without one.
expect_eq "person_detect layers without an op spec" 0 "$(grep -c "^no overlap" "$WORK/pd.out")"
# keyword_scrambled's SVDF has no dmo model, and its int16 QUANTIZE no
# reference kernel: both named, planned without overlap.
"$DMO" plan "$top_srcdir/tests/models/tflm_keyword_scrambled_8bit.tflite" >"$WORK/ks.out"
grep -q "^no overlap: op SVDF has no dmo model (layer 2_svdf)$" "$WORK/ks.out" &&
	echo "ok: keyword_scrambled names its SVDF as planned without overlap" ||
	fail "keyword_scrambled: no 'no overlap' line for SVDF"
grep -q "^no overlap: op QUANTIZE, int16 to int8: dmo's reference kernels have f32 to i8, i8 to i8 and f32 to u8 (layer 1_quantize)$" \
	"$WORK/ks.out" && echo "ok: keyword_scrambled's int16 QUANTIZE is named with the kernels dmo has" ||
	fail "keyword_scrambled: no 'no overlap' line for QUANTIZE"

# ONNX, by hand from the ONNX operator docs:
# conv_with_strides_padding: X 1x1x7x5, W 1x1x3x3 (a graph input), pads 1,
# stride 2: Y 1x1x4x3; all float32, all live at the one node:
# (35 + 9 + 12) * 4 = 224 bytes.
# maxpool_2d_pads: X 1x3x28x28, k 3, pads 2: Y 1x3x30x30: (2352 + 2700) * 4.
# gemm_default_vector_bias: A 2x7, B 7x4, C 4: Y 2x4: (14 + 28 + 4 + 8) * 4.
# Conv2d_depthwise_with_multiplier (PyTorch): X 2x4x6x6, W 8x1x3x3 and bias
# 8 as initializers (constants, not in the arena), group 4: Y 2x8x4x4:
# (288 + 256) * 4.
for pair in onnx_conv_with_strides_padding:224 onnx_maxpool_2d_pads:20208 \
	    onnx_gemm_default_vector_bias:216 onnx_conv2d_depthwise_with_multiplier:2176; do
	file="$top_srcdir/tests/models/${pair%%:*}.onnx"
	expect_eq "${pair%%:*} no-overlap live peak" "${pair#*:}" \
		"$(dmo_facts "$file" | sed 's/.*peak=//')"
	"$DMO" plan --verify "$file" >"$WORK/verify.out" 2>&1
	expect_eq "${pair%%:*} plan --verify exit status" 0 $?
done
"$DMO" model "$top_srcdir/tests/models/onnx_add_bcast.onnx" >"$WORK/bcast.out"
# x [3x4x5] + y [5]: y broadcasts; O_s is x's, whose shape is the output's.
grep -q "^    1  1_add .* add:in=1x3x4x5,dtype=f32$" "$WORK/bcast.out" &&
	echo "ok: a broadcasting Add reads as add over the output's shape" ||
	fail "add_bcast: $(head -3 "$WORK/bcast.out")"

# --table: kws_ref's 13 operators, RESHAPE and SOFTMAX included, make a
# 13-layer table that plans and verifies; a model with state (SVDF) is
# refused by name.
"$DMO" model --table "$top_srcdir/tests/models/tiny_kws_ref_model.tflite" >"$WORK/kws.csv" 2>"$WORK/kws.err"
expect_eq "kws_ref --table rows" 14 "$(wc -l <"$WORK/kws.csv")"
expect_eq "kws_ref --table notes" 0 "$(grep -c "^dmo model: left out layer" "$WORK/kws.err")"
"$DMO" plan --verify "$WORK/kws.csv" >"$WORK/kws.plan" 2>&1
expect_eq "kws_ref table plan --verify exit status" 0 $?
"$DMO" model --table "$top_srcdir/tests/models/tflm_keyword_scrambled_8bit.tflite" >/dev/null 2>"$WORK/svdf.err"
expect_eq "keyword_scrambled --table exit status" 2 $?
grep -q "state tensor .* has no place in a layer table" "$WORK/svdf.err" &&
	echo "ok: state refused by --table" || fail "svdf --table: $(cat "$WORK/svdf.err")"

# dmo run --model on a .tflite file: every layer is profiled under the tool
# (with the model's real weights, tests/run_model.sh), and on the layers with
# an op spec, all four (RESHAPE, DEPTHWISE_CONV_2D, FULLY_CONNECTED, SOFTMAX),
# the measured O_s equals the algorithmic (dmo formula --model).
speech="$top_srcdir/tests/models/tflm_micro_speech_quantized.tflite"
(cd "$WORK" && "$DMO" run --model "$speech" >run.out 2>&1)
expect_eq "run --model micro_speech exit status" 0 $?
"$DMO" formula --csv --model "$speech" 2>/dev/null | csv_rows /dev/stdin |
	by_name '{ print v("algorithmic_os") }' >"$WORK/algo"
"$DMO" model --csv "$speech" | csv_rows /dev/stdin | by_name 'v("supported") == 1 { print v("name") }' \
	>"$WORK/spec_layers"
layer_rows "$WORK/dmo-run" | by_name '{ print v("name") "\t" v("os_bytes") }' >"$WORK/rows"
awk -F'\t' 'NR == FNR { want[$1]; next } $1 in want { print $2 }' "$WORK/spec_layers" "$WORK/rows" \
	>"$WORK/measured"
expect_eq "micro_speech measured O_s = algorithmic" "$(cat "$WORK/algo")" "$(cat "$WORK/measured")"
expect_eq "micro_speech profiled layers" 4 "$(wc -l <"$WORK/rows")"
expect_eq "micro_speech layers with an op spec" 4 "$(wc -l <"$WORK/measured")"

# --shape names a tensor the model has.
"$DMO" plan --shape nosuch=1x2 "$speech" >/dev/null 2>"$WORK/shape.err"
expect_eq "--shape of no tensor exit status" 2 $?
grep -q "nosuch=1x2: the model has no tensor of that name" "$WORK/shape.err" &&
	echo "ok: --shape of no tensor is refused by name" || fail "--shape: $(cat "$WORK/shape.err")"

# The format is told by content, not by the name.
cp "$top_srcdir/tests/models/tflm_hello_world_float.tflite" "$WORK/model.onnx"
"$DMO" model "$WORK/model.onnx" | grep -q "(tflite)" &&
	echo "ok: a .tflite named .onnx is read as TFLite" || fail "content detection"
printf 'neither\n' >"$WORK/junk.tflite"
"$DMO" model "$WORK/junk.tflite" >/dev/null 2>"$WORK/junk.err"
expect_eq "junk exit status" 2 $?
grep -q "junk.tflite: not a model dmo reads" "$WORK/junk.err" &&
	echo "ok: junk is refused by name" || fail "junk message: $(cat "$WORK/junk.err")"

# Columns fit real names: person_detect's tensor 1 is named
# "MobilenetV1/Conv2d_10_depthwise/depthwise_weights/read" (54 characters),
# past the 48-character cap: cut with an ellipsis, and every row's type
# column starts where the header's does.
"$DMO" model "$top_srcdir/tests/models/tflm_person_detect.tflite" >"$WORK/pd.txt"
expect_eq "dmo model person_detect: status" 0 $?
grep -q "^     1  MobilenetV1/Conv2d_10_depthwise/depthwise_weigh… int8 " "$WORK/pd.txt" &&
	echo "ok: a long tensor name is cut with an ellipsis" || fail "tensor 1: $(grep '^     1 ' "$WORK/pd.txt")"
# The column where "type" starts, in characters (the ellipsis is one).
expect_eq "every tensor row's type column in line with its header" "" \
	"$(awk '/^tensor/ { on = 1; at = index($0, " type ") + 1; next }
		on && NF { s = $0; gsub(/\xe2\x80\xa6/, ".", s); if (substr(s, at - 1, 1) != " " || substr(s, at, 1) == " ") print NR }' \
		"$WORK/pd.txt" | head -3)"

finish
