# onnx_shapes.sh - ONNX shape inference (opspec/onnx_shapes.c): ONNX models
# stripped of every value_info and of their outputs' shapes (onnx_strip)
# read into the same tensors and layers, and plan the same, as the
# originals, whose shapes ONNX's own shape inference wrote.  A shape that
# cannot be known is refused naming the node and why.  Skipped without
# libonnx-testdata.
. "$top_srcdir/tests/lib.sh"

data=${ONNX_TESTDATA:-/usr/share/libonnx-testdata/data}
if [ ! -d "$data/node" ]; then
	echo "SKIP: $data/node not found (apt-get install libonnx-testdata)"
	exit 77
fi
strip="$top_builddir/tests/onnx_strip"

# count WORD: lines of $WORK/cmp starting WORD.
count() { grep -c "^$1 " "$WORK/cmp"; }

# Every PyTorch export dmo reads, which leave intermediate shapes out
# (Tanh and Neg of test_operator_basic), reads the same stripped.
"$strip" --compare "$data"/pytorch-operator/*/model.onnx "$data"/pytorch-converted/*/model.onnx \
	"$top_srcdir"/tests/models/*.onnx >"$WORK/cmp"
cp "$WORK/cmp" "$WORK/pytorch"
expect_eq "onnx_strip --compare exit status (PyTorch exports)" 0 $?
grep -v "^same \|^unread " "$WORK/cmp" | while read -r line; do fail "$line"; done
grep -q "^same .*/test_operator_basic/" "$WORK/cmp" && echo "ok: test_operator_basic reads stripped" ||
	fail "test_operator_basic: $(grep basic "$WORK/cmp")"
same=$(count same)
[ "$same" -ge 100 ] && echo "ok: $same PyTorch exports read the same stripped" ||
	fail "only $same PyTorch exports read the same stripped"

# ONNX's node cases: the same, or refused naming the node (an operator
# without a rule, an input that is not a constant such as a Reshape's
# shape given as a graph input); none reads differently.
"$strip" --compare "$data"/node/*/model.onnx >"$WORK/cmp"
expect_eq "onnx_strip --compare exit status (node cases)" 0 $?
grep "^differs " "$WORK/cmp" | while read -r line; do fail "$line"; done
grep "^refused " "$WORK/cmp" | grep -v "node [0-9]* (.*): output '.*' has no static shape: .* (no value_info; run ONNX shape inference first, or give --shape '.*=D1x...')$" |
	while read -r line; do fail "refusal without the node and why: $line"; done
echo "ok: node cases: $(count same) the same stripped, $(count refused) refused naming the node"
# Each operator family has a case that reads stripped (Pad, Squeeze and
# Slice of the node cases take their lists as graph inputs: PyTorch's
# exports have them as attributes or constants).
for op in conv maxpool averagepool globalaveragepool gemm matmul qlinearconv qlinearmatmul concat \
	  operator_pad reduce_mean operator_view flatten unsqueeze transpose softmax add \
	  sub mul div clip tanh relu batchnorm_example quantizelinear dequantizelinear \
	  operator_chunk split; do
	grep -q "^same .*/test_${op}[^/]*/model.onnx" "$WORK/cmp" "$WORK/pytorch" &&
		echo "ok: a $op case reads stripped" || fail "no $op case reads the same stripped"
done
grep -q "^refused .*/test_reshape_extended_dims/model.onnx: node 1 (Reshape): output 'reshaped' has no static shape: its shape (input 2) is not a constant dmo can read" \
	"$WORK/cmp" && echo "ok: a Reshape to a non-constant shape is named with why" ||
	fail "reshape_extended_dims: $(grep reshape_extended_dims "$WORK/cmp")"
grep -q "^refused .*/test_cumsum_1d/model.onnx: node 1 (CumSum): output 'y' has no static shape: dmo has no shape rule for CumSum" \
	"$WORK/cmp" && echo "ok: an operator without a rule is named" ||
	fail "cumsum: $(grep test_cumsum_1d/ "$WORK/cmp")"

# The plans themselves, through dmo plan, of files written stripped.
for file in "$data/pytorch-operator/test_operator_basic/model.onnx" \
	    "$data/pytorch-operator/test_operator_view/model.onnx" \
	    "$data/pytorch-converted/test_Conv2d_depthwise_padded/model.onnx" \
	    "$data/node/test_maxpool_2d_ceil/model.onnx" "$top_srcdir"/tests/models/onnx_*.onnx; do
	"$strip" "$file" "$WORK/stripped.onnx"
	"$DMO" plan "$file" 2>&1 | grep -v '^planning:' | sed "s|$file|MODEL|" >"$WORK/orig"
	"$DMO" plan "$WORK/stripped.onnx" 2>&1 | grep -v '^planning:' | sed "s|$WORK/stripped.onnx|MODEL|" >"$WORK/new"
	cmp -s "$WORK/orig" "$WORK/new" && echo "ok: ${file#"$data"/} plans the same stripped" ||
		fail "${file#"$data"/}: $(diff "$WORK/orig" "$WORK/new" | head -5)"
done
finish
