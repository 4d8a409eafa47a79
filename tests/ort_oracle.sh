#!/bin/sh
# ort_oracle.sh - tests/ort/run.js, the ONNX Runtime oracle: on ONNX's own
# test cases (libonnx-testdata) of the ops dmo runs in NCHW it reproduces
# the expected outputs ONNX ships (within f32_close's tolerance), and it
# rejects bad usage, input files of the wrong size and models that are not
# ONNX with its documented exit statuses.  Skipped (77) without node, onnxruntime-node or the data.
. "$top_srcdir/tests/lib.sh"
need_ort
data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
[ -d "$data/node" ] || { echo "SKIP: $data/node not found (apt-get install libonnx-testdata)"; exit 77; }

# f32 cases: ONNX Runtime's output against the expected output_0.pb, within
# f32_close's tolerance (the expected values were computed by numpy).
for case in test_conv_with_strides_padding test_maxpool_2d_pads test_averagepool_2d_pads \
	    test_gemm_default_no_bias test_relu test_add; do
	d="$data/node/$case"
	ins=$(ls "$d"/test_data_set_0/input_*.pb | sort)
	# shellcheck disable=SC2086
	$TENSOR_BYTES $ins >"$WORK/$case.in" && $TENSOR_BYTES "$d/test_data_set_0/output_0.pb" >"$WORK/$case.want" ||
		{ fail "$case: reading its .pb files"; continue; }
	$ORT "$d/model.onnx" "$WORK/$case.in" "$WORK/$case.out" 2>"$WORK/$case.log"
	expect_eq "$case: exit status" 0 $?
	f32_close "$case: ONNX Runtime against the expected output" "$WORK/$case.want" "$WORK/$case.out"
done

# The summary names each tensor with its shape and byte count.
grep -q "^output y \[1x1x4x3\] float32 48 bytes$" "$WORK/test_conv_with_strides_padding.log" &&
	echo "ok: the summary names the output" || fail "summary: $(cat "$WORK/test_conv_with_strides_padding.log")"

conv="$data/node/test_conv_with_strides_padding/model.onnx"
$ORT "$conv" >/dev/null 2>&1
expect_eq "usage error: exit status" 2 $?
$ORT --opt=fast "$conv" "$WORK/x" "$WORK/y" >/dev/null 2>&1
expect_eq "unknown --opt: exit status" 2 $?
head -c 160 "$WORK/test_conv_with_strides_padding.in" >"$WORK/short.in"
$ORT "$conv" "$WORK/short.in" "$WORK/s.out" 2>"$WORK/s.log"
expect_eq "short input: exit status" 1 $?
grep -q "too short for input W \[1x1x3x3\]" "$WORK/s.log" && echo "ok: the short input is named" ||
	fail "short input message: $(cat "$WORK/s.log")"
cat "$WORK/test_conv_with_strides_padding.in" "$WORK/short.in" >"$WORK/long.in"
$ORT "$conv" "$WORK/long.in" "$WORK/l.out" 2>/dev/null
expect_eq "long input: exit status" 1 $?
echo "not a model" >"$WORK/bad.onnx"
$ORT "$WORK/bad.onnx" "$WORK/short.in" "$WORK/b.out" 2>/dev/null
expect_eq "not ONNX: exit status" 3 $?
finish
