/* onnx_net.c [--ops|--qdq|--qlinear|--qlinear-i8|--ew|--resize|--convt|--unary|--conv-forms|
 * --qlinear-grouped|--qdq-u8|--qdq-perchannel|--qdq-i8|--split|--matmul|--matmul-bcast|
 * --variadic|--qoperator|--qoperator-i8|--qoperator-bcast-a|--qoperator-pairs|
 * --qoperator-pairs-i8|--qoperator-pool|--qoperator-concat|--audio] MODEL.onnx INPUT.bin - writes a small NCHW float CNN as an
 * ONNX file (opset 13, every weight an initializer, every intermediate
 * shape in value_info) and one input for it, for the ONNX end-to-end tests:
 * dmo infer against ONNX Runtime, plan --verify with its real weights, run
 * --model under the tool.  Weights and input are fixed pseudo-random values
 * in [-1, 1) (a 64-bit LCG), so every run writes the same bytes.
 *
 *   x 1x3x12x12 -> Conv 3x3 pad 1 (8 filters, bias) -> Relu
 *   -> depthwise Conv 3x3 pad 1 stride 2 (group 8, bias) -> Relu = a
 *   -> pointwise Conv 1x1 (no bias) = b -> Add(a, b)
 *   -> MaxPool 2x2 stride 2 -> AveragePool 3x3 pad 1 -> Flatten
 *   -> Gemm (B 72x10, alpha 0.5, C 10) -> Softmax = y 1x10
 *
 * --ops writes the ops the reader maps onto layout-free op specs instead,
 * each with its operands as initializers, as exporters write them:
 *
 *   x 1x4x5x5 -> Pad (pads 0,0,1,2, 0,0,2,1) 1x4x8x8 -> Clip [0, 6] (relu6)
 *   -> QuantizeLinear (scale 1/16, zero point -3, int8) = q
 *   -> DequantizeLinear -> GlobalAveragePool 1x4x1x1 -> Flatten 1x4
 *   -> MatMul (B 4x3) = y 1x3
 *
 * and --qdq the same up to q, then Pad (the same pads) of int8 q = qp 1x4x11x11,
 * its output (int8, for an exact comparison).
 * Their input is x scaled by 8 and cut to a multiple of 1/32: some values pass 6,
 * and about half of them fall halfway between two steps of 1/16, where
 * QuantizeLinear's rounding (half to even) matters.
 *
 * --qlinear writes the QOperator form of a quantised CNN, as ONNX Runtime's
 * quantiser emits it (uint8 activations, int8 weights), every scale and
 * zero point an initializer, and a uint8 input:
 *
 *   x 2x3x10x10 (two images) -> QLinearConv 3x3 dilation 2 pad 2 (6 filters,
 *   per-channel scales, bias) -> QLinearConv depthwise 3x3 pad 1 stride 2
 *   (group 6, one scale, weight zero point 3) 2x6x5x5 -> Flatten 2x150
 *   -> QLinearMatMul (B 150x24, one scale) = y 2x24
 *
 * with the depthwise output (c2) a graph output too, before y.
 *
 * --qlinear-i8 the same with int8 activations (zero points 128 lower).
 *
 * --ew writes ONNX's float element-wise ops (kernels_onnx_ew.c), every
 * constant an initializer:
 *
 *   x 1x4x6x6 -> BatchNormalization (epsilon 1e-3) -> HardSwish
 *   -> Mul by a constant 1x4x1x1 = m -> Sub(a constant row of 6, m)
 *   -> Div by a constant scalar -> Clip [-0.5, 0.75] = c
 *   -> HardSigmoid (alpha 0.3, beta 0.4) = h, in [0.25, 0.625]
 *   -> GlobalAveragePool = g -> Div(g, h) = q -> Mul(g, q)
 *   -> Add(constant 1x4x1x1, that) = y 1x4x6x6
 *
 * where the reader puts the operand of the output's shape first: the
 * constant-first Sub and Add, and Div(g, h) and Mul(g, q), whose first
 * operand broadcasts.
 *
 * Its input is x scaled by 3, so that HardSwish and Clip meet their bends.
 *
 * --resize writes ONNX's nearest Resize in the two forms dmo maps (an
 * FPN's upsampling, as PaddleOCR's detector and PyTorch export it):
 *
 *   x 1x4x6x6 -> Conv 3x3 (pads 1) = c -> Resize (asymmetric, floor;
 *   scales 1,1,2,2) = u 1x4x12x12 -> Relu = r -> Resize (ONNX's default
 *   half_pixel, round_prefer_floor; sizes 1x4x24x36) = y
 *
 * --convt writes ONNX's ConvTranspose (kernels_convt.c) four times,
 * weights initializers, windows apart as in PaddleOCR's detector and
 * overlapping, then PyTorch's two decoder forms (the second grouped); u and
 * v have no value_info (shape inference gives them):
 *
 *   x 2x4x5x6 -> ConvTranspose (W 4x3x2x2, bias 3, strides 2) = t 2x3x10x12
 *   -> Relu = r -> ConvTranspose (W 3x2x3x3, strides 2, no bias) = y 2x2x21x25
 *   -> ConvTranspose (W 2x2x4x4, bias 2, strides 2, pads 1) = u 2x2x42x50
 *      ((21 - 1) 2 + 4 - 2 = 42, (25 - 1) 2 + 4 - 2 = 50)
 *   -> ConvTranspose (W 2x2x3x3, strides 2, pads 1, output_padding 1,
 *      group 2, no bias) = v 2x4x84x100 ((42 - 1) 2 + 3 + 1 - 2 = 84)
 *
 * --unary writes ONNX's unary ops, PRelu, GELU as PyTorch exports it,
 * Softmax and LogSoftmax over middle axes and ReduceSum (opset 13):
 *
 *   x 1x4x5x6 -> PRelu (slope 4x1x1) = p -> Div by sqrt(2) -> Erf
 *   -> Add 1 -> Mul(p, that) -> Mul by 0.5 = gelu -> Softmax (axis 1)
 *   -> Log -> Elu (alpha 0.5) -> Identity -> LogSoftmax (axis 2)
 *   -> Neg -> Sqrt -> ReduceSum (axes [3], an initializer) = y 1x4x5x1
 *
 * --conv-forms writes the Conv and pooling forms of docs/formulas.md 3.9
 * and 3.10, two images:
 *
 *   x 2x4x13x14 -> Conv group 2 (W 6x2x3x3, bias 6, dilations 2, pads
 *   top 1, left 0, bottom 2, right 1) = a 2x6x12x11 -> Relu = r
 *   -> Conv group 3 (W 6x2x3x3, strides 2, auto_pad SAME_LOWER: an odd
 *   total of rows, 1 above, 0 below) = c 2x6x6x6
 *   -> MaxPool 3x3 strides 2 ceil_mode (a third window over one more
 *   row/column of padding) = m 2x6x3x3
 *   -> AveragePool 2x2 (pads top 0, left 1, bottom 1, right 0) = y 2x6x3x3
 *
 * --audio writes the 1-D window ops of PyTorch's audio models, Pad's
 * modes and AveragePool's forms (opset 19, no value_info: shape inference
 * gives every intermediate):
 *
 *   x 1x4x40 -> Pad reflect 3, 3 = p 1x4x46 -> Conv 1-D (W 8x4x7, bias)
 *   = c 1x8x40 -> Relu -> MaxPool 1-D 3 strides 2 pads 1 = m 1x8x20
 *   -> AveragePool 1-D 3 pads 1 count_include_pad = a 1x8x20
 *   -> ConvTranspose 1-D (W 8x4x4, bias, strides 2, pads 1) = t 1x4x40
 *   -> Pad edge 2, 2 = e 1x4x44 -> Reshape 1x4x4x11
 *   -> Pad constant 0.5 (pads top 1, left 2, bottom 2, right 1) = v 1x4x7x14
 *   -> AveragePool 3x3 dilations 2 pads 1 = y 1x4x5x12
 *
 * --qlinear-grouped writes a grouped QLinearConv as --qlinear's (uint8
 * activations, int8 weights with per-channel scales, bias):
 *
 *   x 2x4x6x6 -> QLinearConv group 2 (W 6x2x3x3, pads 1,0,0,1) = y 2x6x5x5
 *
 * --qdq-u8 writes a CNN in ONNX Runtime's QDQ form, as
 * onnxruntime.quantization.quantize_static (QuantFormat.QDQ) writes it with
 * QUInt8 activations and QInt8 weights: every float activation quantised
 * and dequantised (QuantizeLinear then DequantizeLinear, its own scale and
 * zero point), the weights int8 initializers and the biases int32 ones
 * (scale x scale times the weights', zero point 0), each read through a
 * DequantizeLinear:
 *
 *   x 1x3x8x8 -> QDQ -> Conv 3x3 pad 1 (6 filters, bias) = c1 -> QDQ
 *   -> Relu = r -> QDQ = rd -> Conv 1x1 (no bias) -> QDQ = c2d
 *   -> Add(rd, c2d) -> QDQ -> MaxPool 2x2 stride 2 -> Q = mq 1x6x4x4 -> DQ
 *   -> Flatten -> QDQ -> Gemm (transB, B 10x96, bias) -> Q = y 1x10
 *
 * with mq and y (uint8) the outputs.  --qdq-perchannel the same with
 * per_channel=True: the weights' and biases' scales one per output channel
 * (DequantizeLinear axis 0).  --qdq-i8 the per-channel one with QInt8
 * activations (zero points 128 lower).
 *
 * --split writes ShuffleNet v2's channel split, unevenly, with no
 * value_info (shape inference gives every intermediate shape):
 *
 *   x 1x3x6x6 -> Conv 3x3 pad 1 (8 filters, bias) = c 1x8x6x6
 *   -> Split (axis -3, split [3, 5] a constant input, opset 13) = s0, s1
 *   -> Relu(s1) = r -> Concat(s0, r; axis 1) = cat 1x8x6x6
 *   -> Split (axis 1, num_outputs 3, opset 18: 3, 3 and the last 2) = u0,
 *   u1, u2 -> Concat(u2, u0, u1; axis 1) = y 1x8x6x6
 *
 * --matmul writes ONNX's MatMul of two activations (kernels_matmul.c):
 * x 1x3x6x6 -> Conv 3x3 pads 1 -> Relu -> Reshape a 4x6x6, and x -> Conv
 * 1x1 -> Reshape kk 4x6x6; s = MatMul(a, kk) (batched, 4 matrices) ->
 * Reshape f 24x6; a -> Reshape e 6x24; y = MatMul(f, e) 24x24 (2-D, K < N).
 * --matmul-bcast the same but y = MatMul(s, e) 4x6x24: e's batch dims
 * broadcast, which dmo refuses naming the node.
 *
 * --variadic writes ONNX's variadic ops with broadcasting, no value_info:
 * x 1x4x6x6 -> Conv 3x3 pads 1 = c -> Relu = r, GlobalAveragePool(r) = g
 * 1x4x1x1; s = Sum(c, r, b) (b a constant 1x4x1x1); m = Max(r, s, c, g);
 * e = Mean(g, s, m) (the first operand broadcast); a = Abs(e), q =
 * Sigmoid(g); p = Pow(a, q) (an exponent activation that broadcasts); n =
 * Min(p, e, r); t = Pow(q, n) (the base broadcast: the exponent is read
 * first); y = Sum(t) (one operand).
 *
 * --qoperator writes a small CNN as ONNX Runtime's quantize_static writes
 * it with QuantFormat.QOperator (uint8 activations, int8 weights): ONNX's
 * QuantizeLinear and QLinearConv beside the com.microsoft domain's
 * QLinearAdd, QLinearMul, QLinearGlobalAveragePool and QGemm (opset
 * imports "" 13 and com.microsoft 1), each activation its own scale and
 * zero point, every shape in value_info:
 *
 *   x 2x4x6x6 (float) -> QuantizeLinear = xq -> QLinearConv 3x3 pad 1
 *   (4 filters, bias) = c -> QLinearAdd(c, xq) = r (the residual)
 *   -> QLinearGlobalAveragePool = g 2x4x1x1 -> QLinearMul(r, g) = s
 *   2x4x6x6 (g broadcasting per channel, as a squeeze-excitation)
 *   -> QLinearGlobalAveragePool = p -> Flatten 2x4 -> QGemm (transB,
 *   B 5x4, an int32 bias C, as the quantiser writes a Linear layer) = yq
 *   -> DequantizeLinear = y 2x5 (float)
 *
 * with s (uint8) a graph output before y.  --qoperator-i8 the same with
 * int8 activations (zero points 128 lower); --qoperator-bcast-a the same
 * with QLinearMul(g, r): A broadcasting to B, which dmo refuses naming the
 * node.
 *
 * --qoperator-pairs writes the com.microsoft ops over every pair of uint8
 * values, at scales and zero points no calibration would round (the
 * arithmetic's corners): the input x 1x65792 holds e mod 256 at element e;
 *
 *   x -> Slice of its first 65536 -> Reshape = a 256x256 (a[i][j] = j);
 *   x -> Slice of its last 256 -> Reshape = b 256x1 (b[i] = i)
 *   -> QLinearAdd(a, b) = sum, QLinearMul(a, b) = product (b broadcasting)
 *   -> Reshape(product) 1x256x16x16 -> QLinearGlobalAveragePool = mean
 *
 * with sum, product and mean (uint8) the outputs.  --qoperator-pairs-i8
 * the same over int8 (the bytes read as int8, zero points 128 lower).
 *
 * --qoperator-pool writes the com.microsoft QLinearAveragePool three ways
 * over one uint8 input x 2x3x7x9: a 3x3 window, strides 2, pads 1 (the
 * taps inside the image counted) = p1 2x3x4x5; a 7x9 window without
 * padding (ONNX Runtime computes it as its global pool) = p2 2x3x1x1; a
 * 2x3 window, strides 1x2, auto_pad SAME_UPPER = p3 2x3x7x5.
 *
 * --qoperator-concat writes the com.microsoft QLinearConcat of three
 * inputs along the channels (axis 1), each its own scale and zero point:
 * x 2x3x4x5 (uint8, requantised to the output's), p (a 1x1
 * QLinearAveragePool of x at another scale: requantised) and q (one at the
 * output's scale and zero point: copied) = y 2x9x4x5. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

#define MAX_ITEMS 64

static uint64_t lcg = 20261201;

static float next_value(void)
{
	lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
	return (float)((double)(lcg >> 11) / (double)(1ull << 53) * 2.0 - 1.0);
}

/* Everything the model points to lives in these arrays until it is packed. */
static Onnx__NodeProto nodes[MAX_ITEMS], *node_list[MAX_ITEMS];
static Onnx__AttributeProto attrs[MAX_ITEMS], *attr_lists[MAX_ITEMS][4];
static Onnx__TensorProto inits[MAX_ITEMS], *init_list[MAX_ITEMS];
static Onnx__ValueInfoProto infos[MAX_ITEMS], *input_list[1], *output_list[3], *info_list[MAX_ITEMS];
static Onnx__TypeProto types[MAX_ITEMS];
static Onnx__TypeProto__Tensor tensor_types[MAX_ITEMS];
static Onnx__TensorShapeProto shapes[MAX_ITEMS];
static Onnx__TensorShapeProto__Dimension dims[MAX_ITEMS][4], *dim_lists[MAX_ITEMS][4];
static int64_t ints[MAX_ITEMS][4];
static size_t n_nodes, n_attrs, n_inits, n_infos, n_ints, n_outputs = 1;

static Onnx__ValueInfoProto *value_info_of(char *name, int rank, const int64_t *d, int elem_type)
{
	size_t i = n_infos++;

	onnx__tensor_shape_proto__init(&shapes[i]);
	for (int k = 0; k < rank; k++) {
		onnx__tensor_shape_proto__dimension__init(&dims[i][k]);
		dims[i][k].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		dims[i][k].dim_value = d[k];
		dim_lists[i][k] = &dims[i][k];
	}
	shapes[i].n_dim = (size_t)rank;
	shapes[i].dim = dim_lists[i];
	onnx__type_proto__tensor__init(&tensor_types[i]);
	tensor_types[i].has_elem_type = 1;
	tensor_types[i].elem_type = elem_type;
	tensor_types[i].shape = &shapes[i];
	onnx__type_proto__init(&types[i]);
	types[i].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	types[i].tensor_type = &tensor_types[i];
	onnx__value_info_proto__init(&infos[i]);
	infos[i].name = name;
	infos[i].type = &types[i];
	return &infos[i];
}

static Onnx__ValueInfoProto *value_info(char *name, int rank, const int64_t *d)
{
	return value_info_of(name, rank, d, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
}

/* An initializer of given values: SIZE bytes of TYPE, little-endian, as
 * raw_data. */
static void constant(char *name, int rank, const int64_t *d, int type, const void *values,
		     size_t size)
{
	Onnx__TensorProto *t = &inits[n_inits];

	onnx__tensor_proto__init(t);
	t->name = name;
	t->n_dims = (size_t)rank;
	t->dims = (int64_t *)d;
	t->has_data_type = 1;
	t->data_type = type;
	t->has_raw_data = 1;
	t->raw_data.len = size;
	t->raw_data.data = (uint8_t *)values;
	init_list[n_inits++] = t;
}

/* An initializer of COUNT pseudo-random floats. */
static void weights(char *name, int rank, const int64_t *d)
{
	Onnx__TensorProto *t = &inits[n_inits];
	size_t count = 1;

	onnx__tensor_proto__init(t);
	for (int k = 0; k < rank; k++)
		count *= (size_t)d[k];
	t->name = name;
	t->n_dims = (size_t)rank;
	t->dims = (int64_t *)d;
	t->has_data_type = 1;
	t->data_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	t->n_float_data = count;
	t->float_data = malloc(sizeof(float) * count);
	if (!t->float_data)
		exit(2);
	for (size_t k = 0; k < count; k++)
		t->float_data[k] = next_value();
	init_list[n_inits++] = t;
}

static Onnx__AttributeProto *attr_ints(char *name, int64_t a, int64_t b, int n)
{
	Onnx__AttributeProto *at = &attrs[n_attrs++];
	int64_t *v = ints[n_ints++];

	onnx__attribute_proto__init(at);
	v[0] = v[2] = a;
	v[1] = v[3] = b;
	at->name = name;
	at->has_type = 1;
	at->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
	at->n_ints = (size_t)n;
	at->ints = v;
	return at;
}

static Onnx__AttributeProto *attr_scalar(char *name, int64_t i, float f, int is_float)
{
	Onnx__AttributeProto *at = &attrs[n_attrs++];

	onnx__attribute_proto__init(at);
	at->name = name;
	at->has_type = 1;
	at->type = is_float ? ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT
			    : ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
	at->has_f = is_float;
	at->f = f;
	at->has_i = !is_float;
	at->i = i;
	return at;
}

/* A node OP reading IN (NULL-terminated) into OUT, with up to 3
 * attributes (the first NULL ends them). */
static void node(char *op, char **in, char *out, Onnx__AttributeProto *a0,
		 Onnx__AttributeProto *a1, Onnx__AttributeProto *a2)
{
	Onnx__NodeProto *n = &nodes[n_nodes];
	Onnx__AttributeProto *given[3] = { a0, a1, a2 };
	static char *outputs[MAX_ITEMS][1];

	onnx__node_proto__init(n);
	n->op_type = op;
	n->input = in;
	while (in[n->n_input])
		n->n_input++;
	outputs[n_nodes][0] = out;
	n->output = outputs[n_nodes];
	n->n_output = 1;
	for (int k = 0; k < 3 && given[k]; k++)
		attr_lists[n_nodes][n->n_attribute++] = given[k];
	n->attribute = attr_lists[n_nodes];
	node_list[n_nodes++] = n;
}

/* The CNN; returns its input's element count. */
static size_t cnn(void)
{
	static const int64_t d_x[] = { 1, 3, 12, 12 }, d_w1[] = { 8, 3, 3, 3 }, d_b[] = { 8 },
			     d_c1[] = { 1, 8, 12, 12 }, d_w2[] = { 8, 1, 3, 3 },
			     d_c2[] = { 1, 8, 6, 6 }, d_w3[] = { 8, 8, 1, 1 },
			     d_p[] = { 1, 8, 3, 3 }, d_f[] = { 1, 72 }, d_wg[] = { 72, 10 },
			     d_bg[] = { 10 }, d_y[] = { 1, 10 };
	static char *in_c1[] = { "x", "w1", "b1", NULL }, *in_r1[] = { "c1", NULL },
		    *in_c2[] = { "r1", "w2", "b2", NULL }, *in_r2[] = { "c2", NULL },
		    *in_c3[] = { "a", "w3", NULL }, *in_add[] = { "a", "b", NULL },
		    *in_mp[] = { "s", NULL }, *in_ap[] = { "m", NULL }, *in_fl[] = { "p", NULL },
		    *in_g[] = { "f", "wg", "bg", NULL }, *in_sm[] = { "g", NULL };

	weights("w1", 4, d_w1);
	weights("b1", 1, d_b);
	weights("w2", 4, d_w2);
	weights("b2", 1, d_b);
	weights("w3", 4, d_w3);
	weights("wg", 2, d_wg);
	weights("bg", 1, d_bg);
	node("Conv", in_c1, "c1", attr_ints("pads", 1, 1, 4), attr_ints("kernel_shape", 3, 3, 2), NULL);
	node("Relu", in_r1, "r1", NULL, NULL, NULL);
	node("Conv", in_c2, "c2", attr_ints("pads", 1, 1, 4), attr_ints("strides", 2, 2, 2),
	     attr_scalar("group", 8, 0, 0));
	node("Relu", in_r2, "a", NULL, NULL, NULL);
	node("Conv", in_c3, "b", NULL, NULL, NULL);
	node("Add", in_add, "s", NULL, NULL, NULL);
	node("MaxPool", in_mp, "m", attr_ints("kernel_shape", 2, 2, 2), attr_ints("strides", 2, 2, 2), NULL);
	node("AveragePool", in_ap, "p", attr_ints("kernel_shape", 3, 3, 2), attr_ints("pads", 1, 1, 4), NULL);
	node("Flatten", in_fl, "f", NULL, NULL, NULL);
	node("Gemm", in_g, "g", attr_scalar("alpha", 0, 0.5f, 1), NULL, NULL);
	node("Softmax", in_sm, "y", attr_scalar("axis", -1, 0, 0), NULL, NULL);

	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 2, d_y);
	const struct {
		char *name;
		int rank;
		const int64_t *d;
	} mids[] = { { "c1", 4, d_c1 }, { "r1", 4, d_c1 }, { "c2", 4, d_c2 }, { "a", 4, d_c2 },
		     { "b", 4, d_c2 },	{ "s", 4, d_c2 },  { "m", 4, d_p },   { "p", 4, d_p },
		     { "f", 2, d_f },	{ "g", 2, d_y } };
	for (size_t k = 0; k < sizeof mids / sizeof mids[0]; k++)
		info_list[k] = value_info(mids[k].name, mids[k].rank, mids[k].d);
	return 3 * 12 * 12;
}

/* The --ops model, or with QDQ_ONLY the --qdq one; returns as cnn(). */
static size_t ops(int qdq_only)
{
	static const int64_t d_x[] = { 1, 4, 5, 5 }, d_pads[] = { 8 }, d_pad[] = { 1, 4, 8, 8 },
			     d_g[] = { 1, 4, 1, 1 }, d_f[] = { 1, 4 }, d_b[] = { 4, 3 },
			     d_y[] = { 1, 3 };
	static const int64_t pads[] = { 0, 0, 1, 2, 0, 0, 2, 1 };
	static const float lo = 0, hi = 6, scale = 1.0f / 16;
	static const int8_t zero = -3;
	static float b[4 * 3];
	static char *in_pad[] = { "x", "pads", NULL }, *in_clip[] = { "p", "lo", "hi", NULL },
		    *in_q[] = { "r", "scale", "zero", NULL }, *in_dq[] = { "q", "scale", "zero", NULL },
		    *in_gap[] = { "d", NULL }, *in_fl[] = { "g", NULL }, *in_mm[] = { "f", "b", NULL };

	constant("pads", 1, d_pads, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, pads, sizeof pads);
	constant("lo", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &lo, sizeof lo);
	constant("hi", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &hi, sizeof hi);
	constant("scale", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &scale, sizeof scale);
	constant("zero", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__INT8, &zero, sizeof zero);
	node("Pad", in_pad, "p", NULL, NULL, NULL);
	node("Clip", in_clip, "r", NULL, NULL, NULL);
	node("QuantizeLinear", in_q, "q", NULL, NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	info_list[0] = value_info("p", 4, d_pad);
	info_list[1] = value_info("r", 4, d_pad);
	if (qdq_only) {
		static const int64_t d_qp[] = { 1, 4, 11, 11 };
		static char *in_qp[] = { "q", "pads", NULL };

		node("Pad", in_qp, "qp", NULL, NULL, NULL);
		info_list[2] = value_info_of("q", 4, d_pad, ONNX__TENSOR_PROTO__DATA_TYPE__INT8);
		output_list[0] = value_info_of("qp", 4, d_qp, ONNX__TENSOR_PROTO__DATA_TYPE__INT8);
		return 4 * 5 * 5;
	}
	for (size_t k = 0; k < sizeof b / sizeof b[0]; k++)
		b[k] = next_value();
	constant("b", 2, d_b, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, b, sizeof b);
	node("DequantizeLinear", in_dq, "d", NULL, NULL, NULL);
	node("GlobalAveragePool", in_gap, "g", NULL, NULL, NULL);
	node("Flatten", in_fl, "f", NULL, NULL, NULL);
	node("MatMul", in_mm, "y", NULL, NULL, NULL);
	info_list[2] = value_info_of("q", 4, d_pad, ONNX__TENSOR_PROTO__DATA_TYPE__INT8);
	info_list[3] = value_info("d", 4, d_pad);
	info_list[4] = value_info("g", 4, d_g);
	info_list[5] = value_info("f", 2, d_f);
	output_list[0] = value_info("y", 2, d_y);
	return 4 * 5 * 5;
}

/* A pseudo-random int8 in [-127, 127]. */
static int8_t next_int8(void)
{
	return (int8_t)(next_value() * 127.0f);
}

/* The --qlinear model with activations of TYPE (uint8, or int8 when
 * INT8): returns its input's element count. */
static size_t qlinear(int int8)
{
	static const int64_t d_x[] = { 2, 3, 10, 10 }, d_w1[] = { 6, 3, 3, 3 }, d_six[] = { 6 },
			     d_c1[] = { 2, 6, 10, 10 }, d_w2[] = { 6, 1, 3, 3 },
			     d_c2[] = { 2, 6, 5, 5 }, d_f[] = { 2, 150 }, d_b[] = { 150, 24 },
			     d_y[] = { 2, 24 };
	/* Scales that keep most values inside the 8-bit range: real inputs
	 * within about +-2, weights within +-0.5 (conv), +-0.6 (depthwise)
	 * and +-0.13 (B). */
	static const float x_scale = 1.0f / 64, c_scale = 1.0f / 32, w2_scale = 1.0f / 200,
			   b_scale = 1.0f / 1000, y_scale = 1.0f / 64;
	static float w1_scales[6];
	static int8_t w1[6 * 3 * 3 * 3], w2[6 * 3 * 3], b[150 * 24];
	static const int8_t zero_w = 0, zero_w2 = 3;
	static int32_t bias[6];
	static uint8_t zero_act;
	static char *in_c1[] = { "x", "x_scale", "act_zero", "w1", "w1_scale", "w1_zero", "c_scale",
				 "act_zero", "bias", NULL },
		    *in_c2[] = { "c1", "c_scale", "act_zero", "w2", "w2_scale", "w2_zero", "c_scale",
				 "act_zero", NULL },
		    *in_fl[] = { "c2", NULL },
		    *in_mm[] = { "f", "c_scale", "act_zero", "b", "b_scale", "w1_zero", "y_scale",
				 "act_zero", NULL };
	const int act = int8 ? ONNX__TENSOR_PROTO__DATA_TYPE__INT8 : ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
	const int i8 = ONNX__TENSOR_PROTO__DATA_TYPE__INT8, f32 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;

	/* One zero point for every activation: 128 (uint8) or 0 (int8). */
	zero_act = int8 ? 0 : 128;
	for (size_t k = 0; k < sizeof w1; k++)
		w1[k] = next_int8();
	for (size_t k = 0; k < sizeof w2; k++)
		w2[k] = next_int8();
	for (size_t k = 0; k < sizeof b; k++)
		b[k] = next_int8();
	for (int m = 0; m < 6; m++) {
		w1_scales[m] = (0.25f + 0.05f * (float)m) / 127;
		bias[m] = (int32_t)(next_value() * 500);
	}
	constant("x_scale", 0, NULL, f32, &x_scale, sizeof x_scale);
	constant("act_zero", 0, NULL, act, &zero_act, 1);
	constant("w1", 4, d_w1, i8, w1, sizeof w1);
	constant("w1_scale", 1, d_six, f32, w1_scales, sizeof w1_scales);
	constant("w1_zero", 0, NULL, i8, &zero_w, 1);
	constant("bias", 1, d_six, ONNX__TENSOR_PROTO__DATA_TYPE__INT32, bias, sizeof bias);
	constant("c_scale", 0, NULL, f32, &c_scale, sizeof c_scale);
	constant("w2", 4, d_w2, i8, w2, sizeof w2);
	constant("w2_scale", 0, NULL, f32, &w2_scale, sizeof w2_scale);
	constant("w2_zero", 0, NULL, i8, &zero_w2, 1);
	constant("b", 2, d_b, i8, b, sizeof b);
	constant("b_scale", 0, NULL, f32, &b_scale, sizeof b_scale);
	constant("y_scale", 0, NULL, f32, &y_scale, sizeof y_scale);
	node("QLinearConv", in_c1, "c1", attr_ints("pads", 2, 2, 4), attr_ints("kernel_shape", 3, 3, 2),
	     attr_ints("dilations", 2, 2, 2));
	node("QLinearConv", in_c2, "c2", attr_ints("pads", 1, 1, 4), attr_ints("strides", 2, 2, 2),
	     attr_scalar("group", 6, 0, 0));
	node("Flatten", in_fl, "f", NULL, NULL, NULL);
	node("QLinearMatMul", in_mm, "y", NULL, NULL, NULL);
	input_list[0] = value_info_of("x", 4, d_x, act);
	output_list[0] = value_info_of("c2", 4, d_c2, act);
	output_list[1] = value_info_of("y", 2, d_y, act);
	n_outputs = 2;
	info_list[0] = value_info_of("c1", 4, d_c1, act);
	info_list[1] = value_info_of("f", 2, d_f, act);
	return 2 * 3 * 10 * 10;
}

/* A string attribute NAME = VALUE. */
static Onnx__AttributeProto *attr_string(char *name, char *value)
{
	Onnx__AttributeProto *at = &attrs[n_attrs++];

	onnx__attribute_proto__init(at);
	at->name = name;
	at->has_type = 1;
	at->type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
	at->has_s = 1;
	at->s.data = (uint8_t *)value;
	at->s.len = strlen(value);
	return at;
}

/* The --resize model; returns as cnn(). */
static size_t resize(void)
{
	static const int64_t d_x[] = { 1, 4, 6, 6 }, d_w[] = { 4, 4, 3, 3 }, d_b[] = { 4 },
			     d_u[] = { 1, 4, 12, 12 }, d_y[] = { 1, 4, 24, 36 }, d_four[] = { 4 };
	static const float scales[] = { 1, 1, 2, 2 };
	static const int64_t sizes[] = { 1, 4, 24, 36 };
	static char *in_c[] = { "x", "w", "b", NULL }, *in_u[] = { "c", "", "scales", NULL },
		    *in_r[] = { "u", NULL }, *in_y[] = { "r", "", "", "sizes", NULL };

	weights("w", 4, d_w);
	weights("b", 1, d_b);
	constant("scales", 1, d_four, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, scales, sizeof scales);
	constant("sizes", 1, d_four, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, sizes, sizeof sizes);
	node("Conv", in_c, "c", attr_ints("pads", 1, 1, 4), attr_ints("kernel_shape", 3, 3, 2), NULL);
	node("Resize", in_u, "u", attr_string("mode", "nearest"),
	     attr_string("coordinate_transformation_mode", "asymmetric"),
	     attr_string("nearest_mode", "floor"));
	node("Relu", in_r, "r", NULL, NULL, NULL);
	node("Resize", in_y, "y", attr_string("mode", "nearest"), NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_y);
	info_list[0] = value_info("c", 4, d_x);
	info_list[1] = value_info("u", 4, d_u);
	info_list[2] = value_info("r", 4, d_u);
	return 4 * 6 * 6;
}

/* ---- --ew: ONNX's element-wise ops ---- */

/* The --ew model; returns as cnn(). */
static size_t elementwise(void)
{
	static const int64_t d_x[] = { 1, 4, 6, 6 }, d_c[] = { 4 }, d_cc[] = { 1, 4, 1, 1 },
			     d_row[] = { 6 }, d_g[] = { 1, 4, 1, 1 };
	static const float divisor = 1.5f, lo = -0.5f, hi = 0.75f;
	static float var[4];
	static char *in_bn[] = { "x", "gamma", "beta", "mean", "var", NULL }, *in_hs[] = { "bn", NULL },
		    *in_m[] = { "hs", "chan", NULL }, *in_s[] = { "row", "m", NULL },
		    *in_d[] = { "s", "divisor", NULL }, *in_c[] = { "d", "lo", "hi", NULL },
		    *in_h[] = { "c", NULL }, *in_g[] = { "h", NULL }, *in_q[] = { "g", "h", NULL },
		    *in_gq[] = { "g", "q", NULL }, *in_y[] = { "bias", "gh", NULL };

	weights("gamma", 1, d_c);
	weights("beta", 1, d_c);
	weights("mean", 1, d_c);
	for (size_t k = 0; k < 4; k++) /* variances are positive */
		var[k] = 0.25f + next_value() * next_value();
	constant("var", 1, d_c, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, var, sizeof var);
	weights("chan", 4, d_cc);
	weights("row", 1, d_row);
	constant("divisor", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &divisor, sizeof divisor);
	constant("lo", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &lo, sizeof lo);
	constant("hi", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &hi, sizeof hi);
	weights("bias", 4, d_cc);
	node("BatchNormalization", in_bn, "bn", attr_scalar("epsilon", 0, 1e-3f, 1), NULL, NULL);
	node("HardSwish", in_hs, "hs", NULL, NULL, NULL);
	node("Mul", in_m, "m", NULL, NULL, NULL);
	node("Sub", in_s, "s", NULL, NULL, NULL);
	node("Div", in_d, "d", NULL, NULL, NULL);
	node("Clip", in_c, "c", NULL, NULL, NULL);
	node("HardSigmoid", in_h, "h", attr_scalar("alpha", 0, 0.3f, 1), attr_scalar("beta", 0, 0.4f, 1),
	     NULL);
	node("GlobalAveragePool", in_g, "g", NULL, NULL, NULL);
	node("Div", in_q, "q", NULL, NULL, NULL);
	node("Mul", in_gq, "gh", NULL, NULL, NULL);
	node("Add", in_y, "y", NULL, NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_x);
	const char *mids[] = { "bn", "hs", "m", "s", "d", "c", "h", "q", "gh" };
	size_t k;
	for (k = 0; k < sizeof mids / sizeof mids[0]; k++)
		info_list[k] = value_info((char *)mids[k], 4, d_x);
	info_list[k] = value_info("g", 4, d_g);
	return 4 * 6 * 6;
}

/* ---- --qdq-u8, --qdq-perchannel, --qdq-i8: ONNX Runtime's QDQ form ---- */

/* A NULL-terminated operand list of up to three names that outlives the
 * call (node() keeps the pointer). */
static char **operands(char *a, char *b, char *c)
{
	static char *lists[MAX_ITEMS][4];
	static size_t n_lists;
	char **l = lists[n_lists++];

	l[0] = a;
	l[1] = b;
	l[2] = c;
	l[3] = NULL;
	return l;
}

/* The next of the QDQ models' value_info entries: NAME of TYPE. */
static void mid(char *name, int rank, const int64_t *d, int type)
{
	static size_t n_mids;

	info_list[n_mids++] = value_info_of(name, rank, d, type);
}

/* Tensor FROM (float, shape RANK x D) quantised by its own scale SCALE and
 * zero point ZERO (of type ACT) into Q_NAME, and dequantised into DQ_NAME
 * (unless NULL), as the quantiser writes an activation, with their
 * value_info. */
static void q_dq(char *from, char *q_name, char *dq_name, float scale, int zero, int act, int rank,
		 const int64_t *d)
{
	static float scales[MAX_ITEMS];
	static int8_t zeros[MAX_ITEMS]; /* the zero point's byte, of either type */
	static char names[MAX_ITEMS][2][32];
	static size_t n;
	size_t k = n++;

	scales[k] = scale;
	zeros[k] = (int8_t)zero;
	snprintf(names[k][0], sizeof names[k][0], "%s_scale", from);
	snprintf(names[k][1], sizeof names[k][1], "%s_zero", from);
	constant(names[k][0], 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &scales[k], sizeof scales[k]);
	constant(names[k][1], 0, NULL, act, &zeros[k], 1);
	node("QuantizeLinear", operands(from, names[k][0], names[k][1]), q_name, NULL, NULL, NULL);
	mid(q_name, rank, d, act);
	if (!dq_name)
		return;
	node("DequantizeLinear", operands(q_name, names[k][0], names[k][1]), dq_name, NULL, NULL, NULL);
	mid(dq_name, rank, d, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
}

/* A float node OP of IN into OUT (shape RANK x D, with value_info) with up
 * to two attributes, its output quantised and dequantised by q_dq. */
static void qdq_op(char *op, char **in, char *out, Onnx__AttributeProto *a0,
		   Onnx__AttributeProto *a1, int rank, const int64_t *d, float scale, int zero,
		   int act, char *q_name, char *dq_name)
{
	node(op, in, out, a0, a1, NULL);
	mid(out, rank, d, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	q_dq(out, q_name, dq_name, scale, zero, act, rank, d);
}

/* Weights NAME of COUNT pseudo-random int8 values in OUT dims D_W, their
 * CHANNELS scales (PER_CHANNEL, along axis 0; else one) of about
 * SCALE, zero points 0, and the int32 bias BIAS_NAME (when not NULL) of
 * CHANNELS values quantised by in_scale x the weight scales, as the
 * quantiser writes them; each dequantised by a DequantizeLinear into
 * NAME_d and BIAS_NAME_d. */
static void qdq_weights(char *name, int rank, const int64_t *d_w, int8_t *w, size_t count,
			int channels, float scale, int per_channel, float in_scale, char *bias_name,
			int32_t *bias, float *w_scales, float *b_scales, int8_t *w_zeros,
			int32_t *b_zeros)
{
	static int64_t d_channels[MAX_ITEMS][1];
	static char names[MAX_ITEMS][6][32];
	static size_t n;
	size_t k = n++;
	int n_scales = per_channel ? channels : 1;
	const int rank_s = per_channel ? 1 : 0;

	d_channels[k][0] = channels;
	for (size_t i = 0; i < count; i++)
		w[i] = next_int8();
	for (int c = 0; c < n_scales; c++) {
		w_scales[c] = scale * (0.6f + 0.8f * (float)c / (float)n_scales);
		w_zeros[c] = 0;
		b_scales[c] = in_scale * w_scales[c];
		b_zeros[c] = 0;
	}
	snprintf(names[k][0], 32, "%s_scale", name);
	snprintf(names[k][1], 32, "%s_zero", name);
	snprintf(names[k][2], 32, "%s_d", name);
	constant(name, rank, d_w, ONNX__TENSOR_PROTO__DATA_TYPE__INT8, w, count);
	constant(names[k][0], rank_s, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, w_scales,
		 sizeof(float) * (size_t)n_scales);
	constant(names[k][1], rank_s, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__INT8, w_zeros,
		 (size_t)n_scales);
	node("DequantizeLinear", operands(name, names[k][0], names[k][1]), names[k][2],
	     per_channel ? attr_scalar("axis", 0, 0, 0) : NULL, NULL, NULL);
	mid(names[k][2], rank, d_w, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	if (!bias_name)
		return;
	for (int c = 0; c < channels; c++)
		bias[c] = (int32_t)(next_value() * 2000);
	snprintf(names[k][3], 32, "%s_scale", bias_name);
	snprintf(names[k][4], 32, "%s_zero", bias_name);
	snprintf(names[k][5], 32, "%s_d", bias_name);
	constant(bias_name, 1, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__INT32, bias,
		 sizeof(int32_t) * (size_t)channels);
	constant(names[k][3], rank_s, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, b_scales,
		 sizeof(float) * (size_t)n_scales);
	constant(names[k][4], rank_s, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__INT32, b_zeros,
		 sizeof(int32_t) * (size_t)n_scales);
	node("DequantizeLinear", operands(bias_name, names[k][3], names[k][4]), names[k][5],
	     per_channel ? attr_scalar("axis", 0, 0, 0) : NULL, NULL, NULL);
	mid(names[k][5], 1, d_channels[k], ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
}

/* The --qdq-u8 (FORM 0), --qdq-perchannel (1) and --qdq-i8 (2) models:
 * int8 activations in form 2, per-channel weights in 1 and 2; returns as
 * cnn(). */
static size_t qdq_net(int form)
{
	const int int8 = form == 2, per_channel = form > 0;

	static const int64_t d_x[] = { 1, 3, 8, 8 }, d_w1[] = { 6, 3, 3, 3 }, d_c[] = { 1, 6, 8, 8 },
			     d_w2[] = { 6, 6, 1, 1 }, d_m[] = { 1, 6, 4, 4 }, d_f[] = { 1, 96 },
			     d_wg[] = { 10, 96 }, d_y[] = { 1, 10 };
	static int8_t w1[6 * 3 * 3 * 3], w2[6 * 6], wg[10 * 96], w_zeros[3][10];
	static int32_t b1[6], bg[10], b_zeros[3][10];
	static float w_scales[3][10], b_scales[3][10];
	const int act = int8 ? ONNX__TENSOR_PROTO__DATA_TYPE__INT8 : ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
	/* uint8 zero points; int8's are 128 lower (QInt8 activations). */
	const int z128 = int8 ? 0 : 128, z0 = int8 ? -128 : 0;
	const float x_scale = 2.0f / 255, c1_scale = 1.0f / 40, r_scale = 1.0f / 80,
		    c2_scale = 1.0f / 40, s_scale = 1.0f / 32, g_scale = 1.0f / 32;
	input_list[0] = value_info("x", 4, d_x);
	q_dq("x", "xq", "xd", x_scale, z128, act, 4, d_x);
	qdq_weights("w1", 4, d_w1, w1, sizeof w1, 6, 1.0f / 400, per_channel, x_scale, "b1", b1,
		    w_scales[0], b_scales[0], w_zeros[0], b_zeros[0]);
	qdq_op("Conv", operands("xd", "w1_d", "b1_d"), "c1", attr_ints("pads", 1, 1, 4),
	       attr_ints("kernel_shape", 3, 3, 2), 4, d_c, c1_scale, z128, act, "c1q", "c1d");
	qdq_op("Relu", operands("c1d", NULL, NULL), "r", NULL, NULL, 4, d_c, r_scale, z0, act, "rq",
	       "rd");
	qdq_weights("w2", 4, d_w2, w2, sizeof w2, 6, 1.0f / 200, per_channel, r_scale, NULL, NULL,
		    w_scales[1], b_scales[1], w_zeros[1], b_zeros[1]);
	qdq_op("Conv", operands("rd", "w2_d", NULL), "c2", NULL, NULL, 4, d_c, c2_scale, z128, act,
	       "c2q", "c2d");
	qdq_op("Add", operands("rd", "c2d", NULL), "s", NULL, NULL, 4, d_c, s_scale, z128, act, "sq",
	       "sd");
	/* MaxPool's output keeps its input's quantisation, as the quantiser
	 * writes it. */
	qdq_op("MaxPool", operands("sd", NULL, NULL), "m", attr_ints("kernel_shape", 2, 2, 2),
	       attr_ints("strides", 2, 2, 2), 4, d_m, s_scale, z128, act, "mq", "md");
	qdq_op("Flatten", operands("md", NULL, NULL), "f", NULL, NULL, 2, d_f, s_scale, z128, act,
	       "fq", "fd");
	qdq_weights("wg", 2, d_wg, wg, sizeof wg, 10, 1.0f / 800, per_channel, s_scale, "bg", bg,
		    w_scales[2], b_scales[2], w_zeros[2], b_zeros[2]);
	qdq_op("Gemm", operands("fd", "wg_d", "bg_d"), "g", attr_scalar("transB", 1, 0, 0), NULL, 2,
	       d_y, g_scale, z128, act, "y", NULL);
	/* The outputs, MaxPool's and Gemm's quantised bytes, move from the
	 * value_info to the graph's outputs. */
	size_t kept = 0;
	n_outputs = 2;
	for (size_t i = 0; i + 1 < n_infos; i++) {
		int out = !strcmp(info_list[i]->name, "mq") ? 0 : !strcmp(info_list[i]->name, "y") ? 1 : -1;
		if (out >= 0)
			output_list[out] = info_list[i];
		else
			info_list[kept++] = info_list[i];
	}
	return 3 * 8 * 8;
}

/* ---- --convt: ONNX's ConvTranspose ---- */

/* The --convt model; returns as cnn(). */
static size_t transposed(void)
{
	static const int64_t d_x[] = { 2, 4, 5, 6 }, d_w1[] = { 4, 3, 2, 2 }, d_b1[] = { 3 },
			     d_t[] = { 2, 3, 10, 12 }, d_w2[] = { 3, 2, 3, 3 }, d_w3[] = { 2, 2, 4, 4 },
			     d_b3[] = { 2 }, d_w4[] = { 2, 2, 3, 3 }, d_v[] = { 2, 4, 84, 100 };
	static char *in_t[] = { "x", "w1", "b1", NULL }, *in_r[] = { "t", NULL },
		    *in_y[] = { "r", "w2", NULL }, *in_u[] = { "y", "w3", "b3", NULL },
		    *in_v[] = { "u", "w4", NULL };

	weights("w1", 4, d_w1);
	weights("b1", 1, d_b1);
	weights("w2", 4, d_w2);
	weights("w3", 4, d_w3);
	weights("b3", 1, d_b3);
	weights("w4", 4, d_w4);
	node("ConvTranspose", in_t, "t", attr_ints("strides", 2, 2, 2), attr_ints("kernel_shape", 2, 2, 2),
	     NULL);
	node("Relu", in_r, "r", NULL, NULL, NULL);
	node("ConvTranspose", in_y, "y", attr_ints("strides", 2, 2, 2), NULL, NULL);
	node("ConvTranspose", in_u, "u", attr_ints("strides", 2, 2, 2), attr_ints("pads", 1, 1, 4), NULL);
	node("ConvTranspose", in_v, "v", attr_ints("strides", 2, 2, 2), attr_ints("pads", 1, 1, 4),
	     attr_ints("output_padding", 1, 1, 2));
	/* node() takes three attributes: the group is the fourth. */
	attr_lists[n_nodes - 1][nodes[n_nodes - 1].n_attribute++] = attr_scalar("group", 2, 0, 0);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("v", 4, d_v);
	info_list[0] = value_info("t", 4, d_t);
	info_list[1] = value_info("r", 4, d_t);
	return 2 * 4 * 5 * 6;
}

/* ---- --unary: the unary table, PRelu, GELU, softmax axes, ReduceSum ---- */

/* The --unary model; returns as cnn(). */
static size_t unary(void)
{
	static const int64_t d_x[] = { 1, 4, 5, 6 }, d_slope[] = { 4, 1, 1 }, d_axes[] = { 1 },
			     d_y[] = { 1, 4, 5, 1 }, axes[] = { 3 };
	static const float root2 = 1.41421356f, one = 1, half = 0.5f;
	static char *in_p[] = { "x", "slope", NULL }, *in_pd[] = { "p", "root2", NULL },
		    *in_e[] = { "pd", NULL }, *in_e1[] = { "e", "one", NULL },
		    *in_pm[] = { "p", "e1", NULL }, *in_g[] = { "pm", "half", NULL },
		    *in_sm[] = { "gelu", NULL }, *in_l[] = { "sm", NULL }, *in_el[] = { "l", NULL },
		    *in_id[] = { "el", NULL }, *in_ls[] = { "id", NULL }, *in_n[] = { "ls", NULL },
		    *in_sq[] = { "n", NULL }, *in_y[] = { "sq", "axes", NULL };
	static const char *mids[] = { "p", "pd", "e", "e1", "pm", "gelu", "sm", "l", "el", "id",
				      "ls", "n", "sq" };
	size_t k;

	weights("slope", 3, d_slope);
	constant("root2", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &root2, sizeof root2);
	constant("one", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &one, sizeof one);
	constant("half", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &half, sizeof half);
	constant("axes", 1, d_axes, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, axes, sizeof axes);
	node("PRelu", in_p, "p", NULL, NULL, NULL);
	node("Div", in_pd, "pd", NULL, NULL, NULL);
	node("Erf", in_e, "e", NULL, NULL, NULL);
	node("Add", in_e1, "e1", NULL, NULL, NULL);
	node("Mul", in_pm, "pm", NULL, NULL, NULL);
	node("Mul", in_g, "gelu", NULL, NULL, NULL);
	node("Softmax", in_sm, "sm", attr_scalar("axis", 1, 0, 0), NULL, NULL);
	node("Log", in_l, "l", NULL, NULL, NULL);
	node("Elu", in_el, "el", attr_scalar("alpha", 0, 0.5f, 1), NULL, NULL);
	node("Identity", in_id, "id", NULL, NULL, NULL);
	node("LogSoftmax", in_ls, "ls", attr_scalar("axis", 2, 0, 0), NULL, NULL);
	node("Neg", in_n, "n", NULL, NULL, NULL);
	node("Sqrt", in_sq, "sq", NULL, NULL, NULL);
	node("ReduceSum", in_y, "y", attr_scalar("keepdims", 1, 0, 0), NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_y);
	for (k = 0; k < sizeof mids / sizeof mids[0]; k++)
		info_list[k] = value_info((char *)mids[k], 4, d_x);
	return 4 * 5 * 6;
}

/* ---- --conv-forms: grouped Conv, asymmetric padding, ceil_mode ---- */

/* ONNX's pads attribute: TOP, LEFT (begins), BOTTOM, RIGHT (ends). */
static Onnx__AttributeProto *attr_pads(int64_t top, int64_t left, int64_t bottom, int64_t right)
{
	Onnx__AttributeProto *at = attr_ints("pads", top, left, 4);

	at->ints[2] = bottom;
	at->ints[3] = right;
	return at;
}

/* The --conv-forms model; returns as cnn(). */
static size_t conv_forms(void)
{
	static const int64_t d_x[] = { 2, 4, 13, 14 }, d_w[] = { 6, 2, 3, 3 }, d_b[] = { 6 },
			     d_a[] = { 2, 6, 12, 11 }, d_c[] = { 2, 6, 6, 6 }, d_y[] = { 2, 6, 3, 3 };
	static char *in_a[] = { "x", "w1", "b1", NULL }, *in_r[] = { "a", NULL },
		    *in_c[] = { "r", "w2", NULL }, *in_m[] = { "c", NULL }, *in_y[] = { "m", NULL };

	weights("w1", 4, d_w);
	weights("b1", 1, d_b);
	weights("w2", 4, d_w);
	node("Conv", in_a, "a", attr_scalar("group", 2, 0, 0), attr_ints("dilations", 2, 2, 2),
	     attr_pads(1, 0, 2, 1));
	node("Relu", in_r, "r", NULL, NULL, NULL);
	node("Conv", in_c, "c", attr_scalar("group", 3, 0, 0), attr_ints("strides", 2, 2, 2),
	     attr_string("auto_pad", "SAME_LOWER"));
	node("MaxPool", in_m, "m", attr_ints("kernel_shape", 3, 3, 2), attr_ints("strides", 2, 2, 2),
	     attr_scalar("ceil_mode", 1, 0, 0));
	node("AveragePool", in_y, "y", attr_ints("kernel_shape", 2, 2, 2), attr_pads(0, 1, 1, 0), NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_y);
	info_list[0] = value_info("a", 4, d_a);
	info_list[1] = value_info("r", 4, d_a);
	info_list[2] = value_info("c", 4, d_c);
	info_list[3] = value_info("m", 4, d_y);
	return 2 * 4 * 13 * 14;
}

/* The --qlinear-grouped model (uint8 activations, int8 weights, as
 * --qlinear); returns as cnn(). */
static size_t qlinear_grouped(void)
{
	static const int64_t d_x[] = { 2, 4, 6, 6 }, d_w[] = { 6, 2, 3, 3 }, d_six[] = { 6 },
			     d_y[] = { 2, 6, 5, 5 };
	static const float x_scale = 1.0f / 64, y_scale = 1.0f / 32;
	static const uint8_t zero_act = 128;
	static const int8_t zero_w = 0;
	static float w_scales[6];
	static int8_t w[6 * 2 * 3 * 3];
	static int32_t bias[6];
	static char *in_y[] = { "x", "x_scale", "act_zero", "w", "w_scale", "w_zero", "y_scale",
				"act_zero", "bias", NULL };
	const int i8 = ONNX__TENSOR_PROTO__DATA_TYPE__INT8, f32 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;

	for (size_t k = 0; k < sizeof w; k++)
		w[k] = next_int8();
	for (int m = 0; m < 6; m++) {
		w_scales[m] = (0.3f + 0.05f * (float)m) / 127;
		bias[m] = (int32_t)(next_value() * 500);
	}
	constant("x_scale", 0, NULL, f32, &x_scale, sizeof x_scale);
	constant("act_zero", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__UINT8, &zero_act, 1);
	constant("w", 4, d_w, i8, w, sizeof w);
	constant("w_scale", 1, d_six, f32, w_scales, sizeof w_scales);
	constant("w_zero", 0, NULL, i8, &zero_w, 1);
	constant("y_scale", 0, NULL, f32, &y_scale, sizeof y_scale);
	constant("bias", 1, d_six, ONNX__TENSOR_PROTO__DATA_TYPE__INT32, bias, sizeof bias);
	node("QLinearConv", in_y, "y", attr_scalar("group", 2, 0, 0), attr_pads(1, 0, 0, 1), NULL);
	input_list[0] = value_info_of("x", 4, d_x, ONNX__TENSOR_PROTO__DATA_TYPE__UINT8);
	output_list[0] = value_info_of("y", 4, d_y, ONNX__TENSOR_PROTO__DATA_TYPE__UINT8);
	return 2 * 4 * 6 * 6;
}

/* ---- --split: ShuffleNet v2's channel split, uneven, without value_info ---- */

/* The --split model (see the top); returns as cnn(). */
static size_t split(void)
{
	static const int64_t d_x[] = { 1, 3, 6, 6 }, d_w[] = { 8, 3, 3, 3 }, d_b[] = { 8 },
			     d_parts[] = { 2 }, parts[] = { 3, 5 }, d_y[] = { 1, 8, 6, 6 };
	static char *in_c[] = { "x", "w", "b", NULL }, *in_s[] = { "c", "parts", NULL },
		    *in_r[] = { "s1", NULL }, *in_cat[] = { "s0", "r", NULL }, *outs[] = { "s0", "s1" },
		    *in_u[] = { "cat", NULL }, *outs_u[] = { "u0", "u1", "u2" },
		    *in_y[] = { "u2", "u0", "u1", NULL };

	weights("w", 4, d_w);
	weights("b", 1, d_b);
	constant("parts", 1, d_parts, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, parts, sizeof parts);
	node("Conv", in_c, "c", attr_ints("pads", 1, 1, 4), attr_ints("kernel_shape", 3, 3, 2), NULL);
	node("Split", in_s, "s0", attr_scalar("axis", -3, 0, 0), NULL, NULL);
	nodes[n_nodes - 1].output = outs; /* node() writes one output */
	nodes[n_nodes - 1].n_output = 2;
	node("Relu", in_r, "r", NULL, NULL, NULL);
	node("Concat", in_cat, "cat", attr_scalar("axis", 1, 0, 0), NULL, NULL);
	node("Split", in_u, "u0", attr_scalar("axis", 1, 0, 0), attr_scalar("num_outputs", 3, 0, 0), NULL);
	nodes[n_nodes - 1].output = outs_u;
	nodes[n_nodes - 1].n_output = 3;
	node("Concat", in_y, "y", attr_scalar("axis", 1, 0, 0), NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_y);
	return 3 * 6 * 6;
}

/* ---- --audio: 1-D windows, Pad's modes, AveragePool's forms ---- */

/* The --audio model (see the top); returns as cnn(). */
static size_t audio(void)
{
	static const int64_t d_x[] = { 1, 4, 40 }, d_w1[] = { 8, 4, 7 }, d_b1[] = { 8 },
			     d_wt[] = { 8, 4, 4 }, d_bt[] = { 4 }, d_six[] = { 6 }, d_eight[] = { 8 },
			     d_four[] = { 4 }, d_y[] = { 1, 4, 5, 12 };
	static const int64_t reflect[] = { 0, 0, 3, 0, 0, 3 }, edge[] = { 0, 0, 2, 0, 0, 2 },
			     to_2d[] = { 1, 4, 4, 11 }, around[] = { 0, 0, 1, 2, 0, 0, 2, 1 };
	static const float half = 0.5f;
	static char *in_p[] = { "x", "reflect", NULL }, *in_c[] = { "p", "w1", "b1", NULL },
		    *in_r[] = { "c", NULL }, *in_m[] = { "r", NULL }, *in_a[] = { "m", NULL },
		    *in_t[] = { "a", "wt", "bt", NULL }, *in_e[] = { "t", "edge", NULL },
		    *in_s[] = { "e", "to_2d", NULL }, *in_v[] = { "s", "around", "half", NULL },
		    *in_y[] = { "v", NULL };
	const int i64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;

	weights("w1", 3, d_w1);
	weights("b1", 1, d_b1);
	weights("wt", 3, d_wt);
	weights("bt", 1, d_bt);
	constant("reflect", 1, d_six, i64, reflect, sizeof reflect);
	constant("edge", 1, d_six, i64, edge, sizeof edge);
	constant("to_2d", 1, d_four, i64, to_2d, sizeof to_2d);
	constant("around", 1, d_eight, i64, around, sizeof around);
	constant("half", 0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &half, sizeof half);
	node("Pad", in_p, "p", attr_string("mode", "reflect"), NULL, NULL);
	node("Conv", in_c, "c", attr_ints("kernel_shape", 7, 7, 1), NULL, NULL);
	node("Relu", in_r, "r", NULL, NULL, NULL);
	node("MaxPool", in_m, "m", attr_ints("kernel_shape", 3, 3, 1), attr_ints("strides", 2, 2, 1),
	     attr_ints("pads", 1, 1, 2));
	node("AveragePool", in_a, "a", attr_ints("kernel_shape", 3, 3, 1), attr_ints("pads", 1, 1, 2),
	     attr_scalar("count_include_pad", 1, 0, 0));
	node("ConvTranspose", in_t, "t", attr_ints("strides", 2, 2, 1), attr_ints("pads", 1, 1, 2), NULL);
	node("Pad", in_e, "e", attr_string("mode", "edge"), NULL, NULL);
	node("Reshape", in_s, "s", NULL, NULL, NULL);
	node("Pad", in_v, "v", NULL, NULL, NULL);
	node("AveragePool", in_y, "y", attr_ints("kernel_shape", 3, 3, 2), attr_ints("dilations", 2, 2, 2),
	     attr_ints("pads", 1, 1, 4));
	input_list[0] = value_info("x", 3, d_x);
	output_list[0] = value_info("y", 4, d_y);
	return 4 * 40;
}

/* ---- --matmul: MatMul of two activations ---- */

/* The --matmul model, or with BROADCAST the --matmul-bcast one, whose
 * last MatMul reads s 4x6x6 times e 6x24 (a batch dim broadcast, into y
 * 4x6x24); returns as cnn(). */
static size_t matmul(int broadcast)
{
	static const int64_t d_x[] = { 1, 3, 6, 6 }, d_w1[] = { 4, 3, 3, 3 }, d_w2[] = { 4, 3, 1, 1 },
			     d_c[] = { 1, 4, 6, 6 }, d_3[] = { 4, 6, 6 }, d_f[] = { 24, 6 },
			     d_e[] = { 6, 24 }, d_y[] = { 24, 24 }, d_yb[] = { 4, 6, 24 };
	static char *in_c[] = { "x", "w1", NULL }, *in_k[] = { "x", "w2", NULL },
		    *in_r[] = { "c", NULL }, *in_a[] = { "r", "to_3", NULL },
		    *in_kk[] = { "k", "to_3", NULL }, *in_s[] = { "a", "kk", NULL },
		    *in_f[] = { "s", "to_f", NULL }, *in_e[] = { "a", "to_e", NULL },
		    *in_y[] = { "f", "e", NULL }, *in_yb[] = { "s", "e", NULL };
	/* Reshape's shapes (int64 constants) and the intermediates' value_info. */
	static const struct {
		char *name;
		int rank;
		const int64_t *d;
	} shapes[] = { { "to_3", 3, d_3 }, { "to_f", 2, d_f }, { "to_e", 2, d_e } },
	  mids[] = { { "c", 4, d_c }, { "k", 4, d_c }, { "r", 4, d_c }, { "a", 3, d_3 },
		     { "kk", 3, d_3 }, { "s", 3, d_3 }, { "f", 2, d_f }, { "e", 2, d_e } };
	static int64_t shape_dims[3];
	size_t k;

	weights("w1", 4, d_w1);
	weights("w2", 4, d_w2);
	for (k = 0; k < sizeof shapes / sizeof shapes[0]; k++) {
		shape_dims[k] = shapes[k].rank;
		constant(shapes[k].name, 1, &shape_dims[k], ONNX__TENSOR_PROTO__DATA_TYPE__INT64,
			 shapes[k].d, (size_t)shapes[k].rank * sizeof shapes[k].d[0]);
	}
	/* s: batched, 4 matrices 6 x 6 times 4 matrices 6 x 6; y: 2-D, K <
	 * N, 24 x 6 times 6 x 24 (or the broadcast one). */
	const struct {
		char *op, **in, *out;
	} steps[] = { { "Conv", in_k, "k" },	  { "Relu", in_r, "r" },
		      { "Reshape", in_a, "a" },	  { "Reshape", in_kk, "kk" },
		      { "MatMul", in_s, "s" },	  { "Reshape", in_f, "f" },
		      { "Reshape", in_e, "e" },	  { "MatMul", broadcast ? in_yb : in_y, "y" } };

	node("Conv", in_c, "c", attr_ints("pads", 1, 1, 4), NULL, NULL);
	for (k = 0; k < sizeof steps / sizeof steps[0]; k++)
		node(steps[k].op, steps[k].in, steps[k].out, NULL, NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = broadcast ? value_info("y", 3, d_yb) : value_info("y", 2, d_y);
	for (k = 0; k < sizeof mids / sizeof mids[0]; k++)
		info_list[k] = value_info(mids[k].name, mids[k].rank, mids[k].d);
	return 3 * 6 * 6;
}

/* ---- --variadic: Sum, Max, Min and Mean of n operands, Pow by a tensor ---- */

/* The --variadic model (see the top); returns as cnn(). */
static size_t variadic(void)
{
	static const int64_t d_x[] = { 1, 4, 6, 6 }, d_w[] = { 4, 4, 3, 3 }, d_b[] = { 1, 4, 1, 1 };
	static char *in_c[] = { "x", "w", NULL }, *in_r[] = { "c", NULL }, *in_s[] = { "c", "r", "b", NULL },
		    *in_m[] = { "r", "s", "c", "g", NULL }, *in_e[] = { "g", "s", "m", NULL },
		    *in_a[] = { "e", NULL }, *in_q[] = { "g", NULL }, *in_p[] = { "a", "q", NULL },
		    *in_n[] = { "p", "e", "r", NULL }, *in_t[] = { "q", "n", NULL }, *in_y[] = { "t", NULL };
	const struct {
		char *op, **in, *out;
	} steps[] = { { "Relu", in_r, "r" },	{ "GlobalAveragePool", in_r, "g" },
		      { "Sum", in_s, "s" },	{ "Max", in_m, "m" },
		      { "Mean", in_e, "e" },	{ "Abs", in_a, "a" },
		      { "Sigmoid", in_q, "q" }, { "Pow", in_p, "p" },
		      { "Min", in_n, "n" },	{ "Pow", in_t, "t" },
		      { "Sum", in_y, "y" } };

	weights("w", 4, d_w);
	weights("b", 4, d_b);
	node("Conv", in_c, "c", attr_ints("pads", 1, 1, 4), NULL, NULL);
	for (size_t k = 0; k < sizeof steps / sizeof steps[0]; k++)
		node(steps[k].op, steps[k].in, steps[k].out, NULL, NULL, NULL);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info("y", 4, d_x);
	return 4 * 6 * 6;
}

/* Node OP of IN into OUT, without attributes, and OUT's value_info (RANK
 * x D of TYPE) among the intermediates. */
static void typed_node(char *op, char **in, char *out, int rank, const int64_t *d, int type)
{
	node(op, in, out, NULL, NULL, NULL);
	mid(out, rank, d, type);
}

/* The next of the --qoperator model's constants: a float32 scale or an
 * 8-bit zero point of TYPE, named NAME. */
static void q_param(char *name, int type, float scale, int zero)
{
	static float scales[MAX_ITEMS];
	static int8_t zeros[MAX_ITEMS]; /* the zero point's byte, of either type */
	static size_t n;
	size_t k = n++;

	scales[k] = scale;
	zeros[k] = (int8_t)zero;
	if (type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT)
		constant(name, 0, NULL, type, &scales[k], sizeof scales[k]);
	else
		constant(name, 0, NULL, type, &zeros[k], 1);
}

/* A node of the com.microsoft domain, as node() writes one. */
static void ms_node(char *op, char **in, char *out)
{
	node(op, in, out, NULL, NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
}

/* The --qoperator model (FORM 1: int8 activations; 2: QLinearMul's
 * operands swapped); returns its input's element count. */
static size_t qoperator(int form)
{
	const int int8 = form == 1, bcast_a = form == 2;
	static const int64_t d_x[] = { 2, 4, 6, 6 }, d_w[] = { 4, 4, 3, 3 }, d_four[] = { 4 },
			     d_g[] = { 2, 4, 1, 1 }, d_f[] = { 2, 4 }, d_b[] = { 5, 4 }, d_y[] = { 2, 5 },
			     d_five[] = { 5 };
	static int8_t w[4 * 4 * 3 * 3], b[5 * 4];
	static int32_t bias[4], gemm_bias[5];
	static char *in_q[] = { "x", "x_scale", "x_zero", NULL },
		    *in_c[] = { "xq", "x_scale", "x_zero", "w", "w_scale", "w_zero", "c_scale", "c_zero",
				"bias", NULL },
		    *in_add[] = { "c", "c_scale", "c_zero", "xq", "x_scale", "x_zero", "r_scale", "r_zero",
				  NULL },
		    *in_g[] = { "r", "r_scale", "r_zero", "g_scale", "g_zero", NULL },
		    *in_mul[] = { "r", "r_scale", "r_zero", "g", "g_scale", "g_zero", "s_scale", "s_zero",
				  NULL },
		    *in_mul_a[] = { "g", "g_scale", "g_zero", "r", "r_scale", "r_zero", "s_scale",
				    "s_zero", NULL },
		    *in_p[] = { "s", "s_scale", "s_zero", "p_scale", "p_zero", NULL }, *in_fl[] = { "p", NULL },
		    *in_mm[] = { "f", "p_scale", "p_zero", "b", "b_scale", "w_zero", "gemm_bias", "y_scale",
				 "y_zero", NULL },
		    *in_dq[] = { "yq", "y_scale", "y_zero", NULL };
	const int act = int8 ? ONNX__TENSOR_PROTO__DATA_TYPE__INT8 : ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
	const int f32 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, i8 = ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
	const int shift = int8 ? -128 : 0;
	/* Scales and zero points of each activation, as a calibration would
	 * give them (x in [-1, 1), the sums and products a few times that). */
	static const struct {
		char *scale, *zero;
		float value;
		int at;
	} params[] = {
		{ "x_scale", "x_zero", 1.0f / 100, 128 }, { "c_scale", "c_zero", 1.0f / 40, 120 },
		{ "r_scale", "r_zero", 1.0f / 36, 125 },  { "g_scale", "g_zero", 1.0f / 90, 131 },
		{ "s_scale", "s_zero", 1.0f / 160, 118 }, { "p_scale", "p_zero", 1.0f / 400, 127 },
		{ "y_scale", "y_zero", 1.0f / 300, 129 },
	};
	static const float w_scale = 1.0f / 300, b_scale = 1.0f / 250;
	static const int8_t w_zero = 0;

	for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
		q_param(params[k].scale, f32, params[k].value, 0);
		q_param(params[k].zero, act, 0, params[k].at + shift);
	}
	for (size_t k = 0; k < sizeof w; k++)
		w[k] = next_int8();
	for (size_t k = 0; k < sizeof b; k++)
		b[k] = next_int8();
	for (int m = 0; m < 4; m++)
		bias[m] = (int32_t)(next_value() * 300);
	for (int m = 0; m < 5; m++)
		gemm_bias[m] = (int32_t)(next_value() * 2000);
	constant("w", 4, d_w, i8, w, sizeof w);
	constant("w_scale", 0, NULL, f32, &w_scale, sizeof w_scale);
	constant("w_zero", 0, NULL, i8, &w_zero, 1);
	constant("bias", 1, d_four, ONNX__TENSOR_PROTO__DATA_TYPE__INT32, bias, sizeof bias);
	constant("b", 2, d_b, i8, b, sizeof b);
	constant("gemm_bias", 1, d_five, ONNX__TENSOR_PROTO__DATA_TYPE__INT32, gemm_bias, sizeof gemm_bias);
	constant("b_scale", 0, NULL, f32, &b_scale, sizeof b_scale);
	input_list[0] = value_info("x", 4, d_x);
	output_list[0] = value_info_of("s", 4, d_x, act);
	output_list[1] = value_info("y", 2, d_y);
	n_outputs = 2;
	typed_node("QuantizeLinear", in_q, "xq", 4, d_x, act);
	node("QLinearConv", in_c, "c", attr_ints("pads", 1, 1, 4), NULL, NULL);
	mid("c", 4, d_x, act);
	ms_node("QLinearAdd", in_add, "r");
	mid("r", 4, d_x, act);
	ms_node("QLinearGlobalAveragePool", in_g, "g");
	mid("g", 4, d_g, act);
	ms_node("QLinearMul", bcast_a ? in_mul_a : in_mul, "s");
	ms_node("QLinearGlobalAveragePool", in_p, "p");
	mid("p", 4, d_g, act);
	typed_node("Flatten", in_fl, "f", 2, d_f, act);
	node("QGemm", in_mm, "yq", attr_scalar("transB", 1, 0, 0), NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
	mid("yq", 2, d_y, act);
	node("DequantizeLinear", in_dq, "y", NULL, NULL, NULL);
	return 2 * 4 * 6 * 6;
}

/* The --qoperator-pairs model (INT8: int8); returns its input's element
 * count. */
static size_t qoperator_pairs(int int8)
{
	static const int64_t d_x[] = { 1, 65792 }, d_ab[] = { 256, 256 }, d_b[] = { 256, 1 },
			     d_planes[] = { 1, 256, 16, 16 }, d_mean[] = { 1, 256, 1, 1 }, d_one[] = { 1 },
			     d_two[] = { 2 }, d_four[] = { 4 }, d_flat[] = { 1, 65536 }, d_col[] = { 1, 256 };
	static const int64_t to_ab[] = { 256, 256 }, to_b[] = { 256, 1 },
			     to_planes[] = { 1, 256, 16, 16 }, from_a[] = { 0 }, to_a[] = { 65536 },
			     from_b[] = { 65536 }, to_end[] = { 65792 }, along[] = { 1 };
	static char *in_sa[] = { "x", "from_a", "to_a", "along", NULL },
		    *in_sb[] = { "x", "from_b", "to_end", "along", NULL },
		    *in_a[] = { "xa", "to_ab", NULL }, *in_b[] = { "xb", "to_b", NULL },
		    *in_sum[] = { "a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "sum_scale",
				  "sum_zero", NULL },
		    *in_prod[] = { "a", "a_scale", "a_zero", "b", "b_scale", "b_zero", "prod_scale",
				   "prod_zero", NULL },
		    *in_pl[] = { "product", "to_planes", NULL },
		    *in_mean[] = { "planes", "prod_scale", "prod_zero", "mean_scale", "mean_zero", NULL };
	static const struct {
		char *scale, *zero;
		float value;
		int at;
	} params[] = {
		/* Chosen among 3000 random draws for the most pairs where
		 * ONNX Runtime's fused multiply-adds and a plain float
		 * formula round differently (docs/kernels.md). */
		{ "a_scale", "a_zero", 0x1.decbb8p-6f, 137 },	  { "b_scale", "b_zero", 0x1.5e5624p-5f, 140 },
		{ "sum_scale", "sum_zero", 0x1.ea7904p-5f, 151 }, { "prod_scale", "prod_zero", 0x1.63cbd8p-4f, 146 },
		{ "mean_scale", "mean_zero", 0.0217f, 128 },
	};
	const int act = int8 ? ONNX__TENSOR_PROTO__DATA_TYPE__INT8 : ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;
	const int i64 = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;

	for (size_t k = 0; k < sizeof params / sizeof params[0]; k++) {
		q_param(params[k].scale, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, params[k].value, 0);
		q_param(params[k].zero, act, 0, params[k].at - (int8 ? 128 : 0));
	}
	constant("to_ab", 1, d_two, i64, to_ab, sizeof to_ab);
	constant("to_b", 1, d_two, i64, to_b, sizeof to_b);
	constant("to_planes", 1, d_four, i64, to_planes, sizeof to_planes);
	constant("from_a", 1, d_one, i64, from_a, sizeof from_a);
	constant("to_a", 1, d_one, i64, to_a, sizeof to_a);
	constant("from_b", 1, d_one, i64, from_b, sizeof from_b);
	constant("to_end", 1, d_one, i64, to_end, sizeof to_end);
	constant("along", 1, d_one, i64, along, sizeof along);
	input_list[0] = value_info_of("x", 2, d_x, act);
	output_list[0] = value_info_of("sum", 2, d_ab, act);
	output_list[1] = value_info_of("product", 2, d_ab, act);
	output_list[2] = value_info_of("mean", 4, d_mean, act);
	n_outputs = 3;
	typed_node("Slice", in_sa, "xa", 2, d_flat, act);
	typed_node("Slice", in_sb, "xb", 2, d_col, act);
	typed_node("Reshape", in_a, "a", 2, d_ab, act);
	typed_node("Reshape", in_b, "b", 2, d_b, act);
	ms_node("QLinearAdd", in_sum, "sum");
	ms_node("QLinearMul", in_prod, "product");
	typed_node("Reshape", in_pl, "planes", 4, d_planes, act);
	ms_node("QLinearGlobalAveragePool", in_mean, "mean");
	return 65792;
}

/* The --qoperator-pool model; returns its input's element count. */
static size_t qoperator_pool(void)
{
	static const int64_t d_x[] = { 2, 3, 7, 9 }, d_p1[] = { 2, 3, 4, 5 }, d_p2[] = { 2, 3, 1, 1 },
			     d_p3[] = { 2, 3, 7, 5 };
	static char *in_pool[] = { "x", "x_scale", "x_zero", "y_scale", "y_zero", NULL };
	const int u8 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT8;

	q_param("x_scale", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 1.0f / 50, 0);
	q_param("x_zero", u8, 0, 128);
	q_param("y_scale", ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, 1.0f / 60, 0);
	q_param("y_zero", u8, 0, 120);
	input_list[0] = value_info_of("x", 4, d_x, u8);
	output_list[0] = value_info_of("p1", 4, d_p1, u8);
	output_list[1] = value_info_of("p2", 4, d_p2, u8);
	output_list[2] = value_info_of("p3", 4, d_p3, u8);
	n_outputs = 3;
	node("QLinearAveragePool", in_pool, "p1", attr_ints("kernel_shape", 3, 3, 2),
	     attr_ints("strides", 2, 2, 2), attr_ints("pads", 1, 1, 4));
	nodes[n_nodes - 1].domain = "com.microsoft";
	node("QLinearAveragePool", in_pool, "p2", attr_ints("kernel_shape", 7, 9, 2), NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
	node("QLinearAveragePool", in_pool, "p3", attr_ints("kernel_shape", 2, 3, 2),
	     attr_ints("strides", 1, 2, 2), attr_string("auto_pad", "SAME_UPPER"));
	nodes[n_nodes - 1].domain = "com.microsoft";
	return 2 * 3 * 7 * 9;
}

/* The --qoperator-concat model; returns its input's element count. */
static size_t qoperator_concat(void)
{
	static const int64_t d_x[] = { 2, 3, 4, 5 }, d_y[] = { 2, 9, 4, 5 };
	static char *in_p[] = { "x", "x_scale", "x_zero", "p_scale", "p_zero", NULL },
		    *in_q[] = { "x", "x_scale", "x_zero", "y_scale", "y_zero", NULL },
		    *in_y[] = { "y_scale", "y_zero", "x", "x_scale", "x_zero", "p", "p_scale", "p_zero",
				"q", "y_scale", "y_zero", NULL };
	const int u8 = ONNX__TENSOR_PROTO__DATA_TYPE__UINT8, f32 = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;

	q_param("x_scale", f32, 1.0f / 50, 0);
	q_param("x_zero", u8, 0, 128);
	q_param("p_scale", f32, 1.0f / 37, 0);
	q_param("p_zero", u8, 0, 119);
	q_param("y_scale", f32, 1.0f / 45, 0);
	q_param("y_zero", u8, 0, 124);
	input_list[0] = value_info_of("x", 4, d_x, u8);
	output_list[0] = value_info_of("y", 4, d_y, u8);
	node("QLinearAveragePool", in_p, "p", attr_ints("kernel_shape", 1, 1, 2), NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
	mid("p", 4, d_x, u8);
	node("QLinearAveragePool", in_q, "q", attr_ints("kernel_shape", 1, 1, 2), NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
	mid("q", 4, d_x, u8);
	node("QLinearConcat", in_y, "y", attr_scalar("axis", 1, 0, 0), NULL, NULL);
	nodes[n_nodes - 1].domain = "com.microsoft";
	return 2 * 3 * 4 * 5;
}

/* The models by option (the first, none: the CNN), each built by BUILD
 * or by BUILD_FORM(FORM), in ONNX opset OPSET, with an input of INPUT. */
enum input_kind {
	INPUT_FLOAT,   /* values in [-1, 1) */
	INPUT_STEPS,   /* scaled by 8, cut to a multiple of 1/32 (--ops, --qdq) */
	INPUT_TRIPLED, /* scaled by 3 (--ew, --unary) */
	INPUT_BYTES,   /* uint8 or int8 bytes (the QLinear models) */
	INPUT_PAIRS,   /* byte e is e mod 256 (--qoperator-pairs) */
};
static const struct mode {
	const char *option;
	size_t (*build)(void);
	size_t (*build_form)(int form);
	int form, opset;
	enum input_kind input;
} modes[] = {
	{ "", cnn, NULL, 0, 13, INPUT_FLOAT },
	{ "--ops", NULL, ops, 0, 13, INPUT_STEPS },
	{ "--qdq", NULL, ops, 1, 13, INPUT_STEPS },
	{ "--qlinear", NULL, qlinear, 0, 13, INPUT_BYTES },
	{ "--qlinear-i8", NULL, qlinear, 1, 13, INPUT_BYTES },
	{ "--ew", elementwise, NULL, 0, 14, INPUT_TRIPLED }, /* HardSwish is from opset 14 */
	{ "--resize", resize, NULL, 0, 13, INPUT_FLOAT },
	{ "--convt", transposed, NULL, 0, 13, INPUT_FLOAT },
	{ "--unary", unary, NULL, 0, 13, INPUT_TRIPLED },
	{ "--conv-forms", conv_forms, NULL, 0, 13, INPUT_FLOAT },
	{ "--qlinear-grouped", qlinear_grouped, NULL, 0, 13, INPUT_BYTES },
	{ "--qdq-u8", NULL, qdq_net, 0, 13, INPUT_FLOAT },
	{ "--qdq-perchannel", NULL, qdq_net, 1, 13, INPUT_FLOAT },
	{ "--qdq-i8", NULL, qdq_net, 2, 13, INPUT_FLOAT },
	{ "--split", split, NULL, 0, 18, INPUT_FLOAT }, /* Split's num_outputs is from 18 */
	{ "--matmul", NULL, matmul, 0, 13, INPUT_FLOAT },
	{ "--matmul-bcast", NULL, matmul, 1, 13, INPUT_FLOAT },
	{ "--variadic", variadic, NULL, 0, 13, INPUT_FLOAT },
	/* ONNX Runtime's QOperator format: com.microsoft's ops imported too */
	{ "--qoperator", NULL, qoperator, 0, 13, INPUT_FLOAT },
	{ "--qoperator-i8", NULL, qoperator, 1, 13, INPUT_FLOAT },
	{ "--qoperator-bcast-a", NULL, qoperator, 2, 13, INPUT_FLOAT },
	{ "--qoperator-pairs", NULL, qoperator_pairs, 0, 13, INPUT_PAIRS },
	{ "--qoperator-pairs-i8", NULL, qoperator_pairs, 1, 13, INPUT_PAIRS },
	{ "--qoperator-pool", qoperator_pool, NULL, 0, 13, INPUT_BYTES },
	{ "--qoperator-concat", qoperator_concat, NULL, 0, 13, INPUT_BYTES },
	{ "--audio", audio, NULL, 0, 19, INPUT_FLOAT }, /* AveragePool's dilations are from 19 */
};

int main(int argc, char **argv)
{
	const size_t n_modes = sizeof modes / sizeof modes[0];
	const struct mode *mode = argc == 3 ? &modes[0] : NULL;

	for (size_t k = 1; argc == 4 && k < n_modes; k++)
		if (!strcmp(argv[1], modes[k].option))
			mode = &modes[k];
	if (mode == NULL) {
		fprintf(stderr, "usage: onnx_net [");
		for (size_t k = 1; k < n_modes; k++)
			fprintf(stderr, "%s%s", k > 1 ? "|" : "", modes[k].option);
		fprintf(stderr, "] MODEL.onnx INPUT.bin\n");
		return 2;
	}
	argv += argc - 3;
	size_t n_x = mode->build ? mode->build() : mode->build_form(mode->form);

	Onnx__GraphProto graph;
	onnx__graph_proto__init(&graph);
	graph.name = "dmo_nchw_net";
	graph.n_node = n_nodes;
	graph.node = node_list;
	graph.n_initializer = n_inits;
	graph.initializer = init_list;
	graph.n_input = 1;
	graph.input = input_list;
	graph.n_output = n_outputs;
	graph.output = output_list;
	graph.n_value_info = n_infos - 1 - n_outputs; /* all but the input and the outputs */
	graph.value_info = info_list;
	Onnx__OperatorSetIdProto opset, ms_opset, *opsets[2] = { &opset, &ms_opset };
	onnx__operator_set_id_proto__init(&opset);
	onnx__operator_set_id_proto__init(&ms_opset);
	ms_opset.domain = "com.microsoft"; /* the QOperator ops' */
	ms_opset.has_version = 1;
	ms_opset.version = 1;
	opset.domain = "";
	opset.has_version = 1;
	opset.version = mode->opset;
	Onnx__ModelProto model;
	onnx__model_proto__init(&model);
	model.has_ir_version = 1;
	model.ir_version = 7;
	model.producer_name = "dmo tests/onnx_net";
	model.n_opset_import = !strncmp(mode->option, "--qoperator", 11) ? 2 : 1;
	model.opset_import = opsets;
	model.graph = &graph;

	size_t len = onnx__model_proto__get_packed_size(&model);
	unsigned char *buf = malloc(len + 1);
	FILE *f = fopen(argv[1], "wb");
	if (!buf || !f || fwrite(buf, 1, onnx__model_proto__pack(&model, buf), f) != len ||
	    fclose(f) != 0) {
		perror(argv[1]);
		return 1;
	}
	if (mode->input == INPUT_PAIRS) {
		f = fopen(argv[2], "wb");
		for (size_t k = 0; f && k < n_x; k++)
			putc((int)(k & 255), f);
		if (!f || fclose(f) != 0) {
			perror(argv[2]);
			return 1;
		}
		free(buf);
		return 0;
	}
	float x[2 * 4 * 13 * 14]; /* --conv-forms' input, the largest */
	unsigned char bytes[2 * 3 * 10 * 10]; /* --qlinear's: uint8 or int8 */
	for (size_t k = 0; k < n_x; k++)
		if (mode->input == INPUT_BYTES)
			bytes[k] = (unsigned char)(next_value() * 128 + 128);
		else
			x[k] = mode->input == INPUT_STEPS     ? (float)(long)(next_value() * 8 * 32) / 32
			       : mode->input == INPUT_TRIPLED ? 3 * next_value()
							      : next_value();
	f = fopen(argv[2], "wb");
	if (!f ||
	    fwrite(mode->input == INPUT_BYTES ? (void *)bytes : (void *)x,
		   (mode->input == INPUT_BYTES ? 1 : sizeof x[0]) * n_x, 1, f) != 1 ||
	    fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	free(buf);
	for (size_t k = 0; k < n_inits; k++)
		free(inits[k].float_data); /* NULL for constant()'s */
	return 0;
}
