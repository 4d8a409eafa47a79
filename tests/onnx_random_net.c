/* onnx_random_net.c SEED MODEL.onnx INPUT.bin - writes a random, valid small
 * NCHW CNN as an ONNX file, and one input for it, for
 * tests/onnx_random_models.sh: dmo meets models nobody on dmo wrote by hand.
 * The same SEED writes the same bytes.
 *
 * A model is a chain over one 4-D float tensor (batch 1, 1 to 4 channels,
 * odd and non-square planes) of a few of: Conv (group 1, grouped or depthwise,
 * strides, dilations, explicit symmetric or asymmetric pads, auto_pad
 * SAME_UPPER, SAME_LOWER or VALID, with and without bias), MaxPool and
 * AveragePool (ceil_mode, count_include_pad, MaxPool's dilations), Relu,
 * Clip, Sigmoid, Tanh, Add, Mul, Sum, Max and Min (of the tensor and a
 * branch of it, or of a constant), Concat
 * of the tensor and a branch along any axis, Pad, a QuantizeLinear /
 * DequantizeLinear pair (int8 or uint8), Conv weights and biases as ONNX
 * Runtime's QDQ form writes them (int8 and int32 initializers through a
 * DequantizeLinear, one scale or one per output channel), ReduceMean with
 * keepdims, GlobalAveragePool,
 * Softmax on an axis; LeakyRelu, Elu, Selu, Exp, Log, Sqrt, Neg, Abs,
 * Reciprocal, Softplus, Erf, Floor, Ceil, Pow by a constant, PRelu with
 * a slope per channel, Identity, Dropout, LogSoftmax on an axis,
 * ReduceMax, ReduceMin, ReduceSum (axes an input from opset 13),
 * GlobalMaxPool, ConvTranspose (pads, auto_pad, output_shape,
 * output_padding, dilations, groups), Slice (steps 1), Gather of a
 * constant scalar index or consecutive indices, Split into two parts
 * (then Concat of them swapped), MatMul by a constant or of two
 * activations (X times X reshaped), Sum, Max, Min and Mean of 1 to 4
 * operands (broadcast ones among them from opset 8), Pow by an exponent
 * tensor, ONNX Runtime's QOperator ops of the
 * com.microsoft domain (QLinearAdd or QLinearMul of two quantisations of
 * the tensor, QLinearMul by its QLinearGlobalAveragePool, the pool
 * alone, or a QLinearAveragePool, between a QuantizeLinear and a
 * DequantizeLinear, uint8 or int8);
 * then Flatten or Reshape
 * into Gemm (transA, transB,
 * alpha, beta, C of one value, N or M x N) or MatMul by a constant, maybe Softmax, maybe a final
 * QuantizeLinear (an int8 or uint8 output, compared byte for byte).  The opset is
 * 7, 9, 10, 11, 12, 13 or 17, and each node is written as that opset
 * states it (Clip's
 * bounds, Pad's pads as attributes before 11, Softmax's axis rule).
 * Constants are initializers or Constant nodes (and at opset 7, half the
 * time, the initializers are graph inputs too); each intermediate has its
 * value_info or not; a quarter of the time an intermediate is a second
 * graph output, listed before or after the last node's.
 *
 * After any step, from a stream of its own (the seeds without one draw as
 * before), one of the forms of docs/formulas.md 3.11 and 4.14: a 1-D
 * Conv, MaxPool, AveragePool (count_include_pad) or ConvTranspose over
 * N x (C H) x W between two Reshapes, a Pad reflecting, repeating its edge
 * or by a constant other than 0, a Gather of 1 to 6 indices in any order
 * (repeats, negative ones), or (opset 10 on) a Slice with steps other
 * than 1, negative ones too.
 *
 * Printed on stdout, one line: the opset and the nodes, each op with its
 * chosen attributes, and "exotic" when the model holds a variant dmo may
 * refuse (count_include_pad with a ceil_mode window past the padding): the test then accepts a refusal
 * naming a node, never a wrong answer.  Grouped convs, SAME_LOWER with an
 * odd total, asymmetric pads, ceil_mode that adds a window, dilated
 * MaxPools, Gemm's transA (tests/onnx_ort_conv_forms.sh) and Softmax over
 * any axis (tests/onnx_ort_unary.sh) are mapped, so not exotic. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "onnx.pb-c.h"

#define MAX_NODES 64
#define MAX_ATTRS 8

static uint64_t state;

/* A pseudo-random integer in [0, N) (64-bit LCG, the high bits). */
static int pick(int n)
{
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return (int)((state >> 33) % (uint64_t)n);
}

/* A second stream for the QDQ variants (uint8 Q/DQ, int8 weights read
 * through a DequantizeLinear): the seeds whose models have none draw from
 * the first stream as they always did. */
static uint64_t qdq_state;

static int qdq_pick(int n)
{
	qdq_state = qdq_state * 6364136223846793005ull + 1442695040888963407ull;
	return (int)((qdq_state >> 33) % (uint64_t)n);
}

static float uniform(void)
{
	return (float)pick(1 << 20) / (float)(1 << 19) - 1.0f;
}

static void *must(void *p)
{
	if (p == NULL) {
		fprintf(stderr, "onnx_random_net: out of memory\n");
		exit(2);
	}
	return p;
}

/* A fresh tensor name. */
static char *fresh(const char *what)
{
	static int serial;
	char *s = must(malloc(32));

	snprintf(s, 32, "%s%d", what, ++serial);
	return s;
}

/* A tensor while the chain is built: its name and NCHW dims. */
struct value {
	char *name;
	int rank;
	int64_t d[4];
};

static int64_t elems(const struct value *v)
{
	int64_t n = 1;

	for (int i = 0; i < v->rank; i++)
		n *= v->d[i];
	return n;
}

static Onnx__GraphProto graph;
static Onnx__NodeProto *nodes[MAX_NODES];
static Onnx__TensorProto *inits[MAX_NODES];
static Onnx__ValueInfoProto *infos[MAX_NODES];
static int opset, with_infos, exotic;
static char summary[4096];

static void say(const char *fmt, ...)
{
	va_list ap;
	size_t used = strlen(summary);

	va_start(ap, fmt);
	vsnprintf(summary + used, sizeof summary - used, fmt, ap);
	va_end(ap);
}

static Onnx__ValueInfoProto *info(const struct value *v, int elem_type)
{
	Onnx__ValueInfoProto *vi = must(calloc(1, sizeof *vi));
	Onnx__TypeProto *t = must(calloc(1, sizeof *t));
	Onnx__TypeProto__Tensor *tt = must(calloc(1, sizeof *tt));
	Onnx__TensorShapeProto *s = must(calloc(1, sizeof *s));

	onnx__tensor_shape_proto__init(s);
	s->n_dim = (size_t)v->rank;
	s->dim = must(calloc(4, sizeof *s->dim));
	for (int k = 0; k < v->rank; k++) {
		s->dim[k] = must(calloc(1, sizeof *s->dim[k]));
		onnx__tensor_shape_proto__dimension__init(s->dim[k]);
		s->dim[k]->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
		s->dim[k]->dim_value = v->d[k];
	}
	onnx__type_proto__tensor__init(tt);
	tt->has_elem_type = 1;
	tt->elem_type = elem_type;
	tt->shape = s;
	onnx__type_proto__init(t);
	t->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	t->tensor_type = tt;
	onnx__value_info_proto__init(vi);
	vi->name = v->name;
	vi->type = t;
	return vi;
}

/* Every intermediate and its element type, for a second graph output. */
static struct value made[MAX_NODES];
static int made_types[MAX_NODES], n_made;

/* An intermediate's value_info, written or not. */
static void maybe_info(const struct value *v, int elem_type)
{
	made[n_made] = *v;
	made_types[n_made++] = elem_type;
	if (with_infos && pick(5) != 0)
		infos[graph.n_value_info++] = info(v, elem_type);
}

static Onnx__AttributeProto *attr(const char *name, Onnx__AttributeProto__AttributeType type)
{
	Onnx__AttributeProto *a = must(calloc(1, sizeof *a));

	onnx__attribute_proto__init(a);
	a->name = (char *)name;
	a->has_type = 1;
	a->type = type;
	return a;
}

static Onnx__AttributeProto *attr_int(const char *name, int64_t i)
{
	Onnx__AttributeProto *a = attr(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT);

	a->has_i = 1;
	a->i = i;
	return a;
}

static Onnx__AttributeProto *attr_float(const char *name, float f)
{
	Onnx__AttributeProto *a = attr(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT);

	a->has_f = 1;
	a->f = f;
	return a;
}

static Onnx__AttributeProto *attr_ints(const char *name, const int64_t *v, size_t n)
{
	Onnx__AttributeProto *a = attr(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS);

	a->n_ints = n;
	a->ints = must(malloc(sizeof *v * n));
	memcpy(a->ints, v, sizeof *v * n);
	return a;
}

static Onnx__AttributeProto *attr_string(const char *name, const char *s)
{
	Onnx__AttributeProto *a = attr(name, ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING);

	a->has_s = 1;
	a->s.data = (uint8_t *)s;
	a->s.len = strlen(s);
	return a;
}

/* A node OP of inputs IN (NULL-terminated) into OUT; attributes follow,
 * NULL-terminated. */
static void node(const char *op, const char *const *in, const char *out, ...)
{
	Onnx__NodeProto *n = must(calloc(1, sizeof *n));
	Onnx__AttributeProto *a;
	va_list ap;

	if (graph.n_node == MAX_NODES) {
		fprintf(stderr, "onnx_random_net: more than %d nodes\n", MAX_NODES);
		exit(2);
	}
	onnx__node_proto__init(n);
	n->op_type = (char *)op;
	n->name = fresh("node");
	while (in[n->n_input])
		n->n_input++;
	n->input = must(calloc(n->n_input + 1, sizeof *n->input));
	memcpy(n->input, in, n->n_input * sizeof *in);
	n->output = must(calloc(1, sizeof *n->output));
	n->output[0] = (char *)out;
	n->n_output = 1;
	n->attribute = must(calloc(MAX_ATTRS, sizeof *n->attribute));
	va_start(ap, out);
	while ((a = va_arg(ap, Onnx__AttributeProto *)) != NULL && n->n_attribute < MAX_ATTRS)
		n->attribute[n->n_attribute++] = a;
	va_end(ap);
	nodes[graph.n_node++] = n;
}

/* A constant NAME of RANK dims D and TYPE holding BYTES of VALUES: an
 * initializer, or (half the time) a Constant node. */
static char *constant(int rank, const int64_t *d, int type, const void *values, size_t bytes)
{
	Onnx__TensorProto *t = must(calloc(1, sizeof *t));
	char *name = fresh("c");

	onnx__tensor_proto__init(t);
	t->n_dims = (size_t)rank;
	t->dims = must(calloc(4, sizeof *t->dims));
	memcpy(t->dims, d, sizeof *d * (size_t)rank);
	t->has_data_type = 1;
	t->data_type = type;
	t->has_raw_data = 1;
	t->raw_data.len = bytes;
	t->raw_data.data = must(malloc(bytes + 1));
	memcpy(t->raw_data.data, values, bytes);
	if (pick(2)) {
		Onnx__AttributeProto *a = attr("value", ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR);
		static const char *const none[] = { NULL };

		a->t = t;
		node("Constant", none, name, a, NULL);
	} else {
		t->name = name;
		inits[graph.n_initializer++] = t;
	}
	return name;
}

/* A float constant of pseudo-random values in [-1, 1). */
static char *weights(int rank, const int64_t *d)
{
	size_t n = 1;
	float *v;
	char *name;

	for (int k = 0; k < rank; k++)
		n *= (size_t)d[k];
	v = must(malloc(sizeof *v * n + 1));
	for (size_t k = 0; k < n; k++)
		v[k] = uniform();
	name = constant(rank, d, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, v, sizeof *v * n);
	free(v);
	return name;
}

static char *float_scalar(float f)
{
	return constant(0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, &f, sizeof f);
}

static char *int64s(const int64_t *v, int64_t n)
{
	return constant(1, &n, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, v, sizeof *v * (size_t)n);
}

/* Conv weights of dims D (output channels first) as ONNX Runtime's QDQ
 * form writes them: int8 values through a DequantizeLinear, one scale or
 * (PER_CHANNEL) one per output channel (axis 0, opset 13 on), zero points
 * 0 or small; with BIAS (not NULL) an int32 bias through its own
 * DequantizeLinear too.  Returns the weights' float name. */
static const char *dequantized_weights(const int64_t *d, int per_channel, const char **bias)
{
	const int64_t channels = d[0], n = channels * d[1] * d[2] * d[3];
	int8_t *w = must(malloc((size_t)n)), zeros[8];
	int32_t b[8], b_zeros[8] = { 0 };
	float scales[8], b_scales[8];
	const int64_t count = per_channel ? channels : 1;
	const int rank = per_channel ? 1 : 0;
	const int symmetric = qdq_pick(2);

	for (int64_t k = 0; k < n; k++)
		w[k] = (int8_t)(qdq_pick(255) - 127);
	for (int64_t c = 0; c < count; c++) {
		scales[c] = (float)(1 + qdq_pick(4)) / 256;
		zeros[c] = (int8_t)(symmetric ? 0 : qdq_pick(9) - 4);
		b_scales[c] = scales[c] / 8;
	}
	const char *in[] = { constant(4, d, ONNX__TENSOR_PROTO__DATA_TYPE__INT8, w, (size_t)n),
			     constant(rank, &channels, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT, scales,
				      sizeof *scales * (size_t)count),
			     constant(rank, &channels, ONNX__TENSOR_PROTO__DATA_TYPE__INT8, zeros,
				      (size_t)count),
			     NULL };
	struct value wv = { fresh("w"), 4, { d[0], d[1], d[2], d[3] } };

	free(w);
	node("DequantizeLinear", in, wv.name, per_channel ? attr_int("axis", 0) : NULL, NULL);
	maybe_info(&wv, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	say(" DequantizeLinear(int8 weights, %s%s)", per_channel ? "per channel" : "one scale",
	    symmetric ? "" : ", zero points");
	if (bias) {
		for (int64_t c = 0; c < channels; c++)
			b[c] = qdq_pick(4001) - 2000;
		const char *bin[] = { constant(1, &channels, ONNX__TENSOR_PROTO__DATA_TYPE__INT32, b,
					       sizeof *b * (size_t)channels),
				      constant(rank, &channels, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT,
					       b_scales, sizeof *b_scales * (size_t)count),
				      constant(rank, &channels, ONNX__TENSOR_PROTO__DATA_TYPE__INT32,
					       b_zeros, sizeof *b_zeros * (size_t)count),
				      NULL };
		struct value bv = { fresh("b"), 1, { channels } };

		node("DequantizeLinear", bin, bv.name, per_channel ? attr_int("axis", 0) : NULL, NULL);
		maybe_info(&bv, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		*bias = bv.name;
	}
	return wv.name;
}

/* Output size of a window along one axis (ONNX's rule; with CEIL, the last
 * window must start inside the input or its leading padding). */
static int64_t window_out(int64_t in, int64_t k, int64_t s, int64_t d, int64_t pb, int64_t pe,
			  int ceil)
{
	int64_t span = in + pb + pe - ((k - 1) * d + 1), out = span / s + 1;

	if (ceil && span % s) {
		out++;
		if ((out - 1) * s >= in + pb)
			out--;
	}
	return out;
}

/* Conv, MaxPool or AveragePool over X; returns the output. */
static struct value window(const struct value *x, const char *op)
{
	struct value y = { fresh("t"), 4, { x->d[0], x->d[1], 0, 0 } };
	int conv = op[0] == 'C', avg = op[0] == 'A';
	int64_t k[2], s[2], dl[2] = { 1, 1 }, pads[4] = { 0 };
	int64_t c = x->d[1], group = 1, ceil = 0, include = 0;
	int ceil_dropped = 0, refusable = 0;
	/* 0-3 pads, 4 SAME_UPPER, 5 SAME_LOWER (rarer), 6 VALID */
	static const int modes[] = { 0, 1, 2, 3, 4, 6 };
	int mode = pick(12) == 0 ? 5 : modes[pick(6)];
	const char *auto_pad = mode == 4 ? "SAME_UPPER" : mode == 5 ? "SAME_LOWER" : "VALID";
	const char *w = NULL, *b = NULL;

	for (int a = 0; a < 2; a++) {
		k[a] = 1 + pick(3);
		if (k[a] > x->d[2 + a])
			k[a] = x->d[2 + a];
		s[a] = 1 + (pick(3) == 0) + (pick(8) == 0);
		if ((mode == 4 || mode == 5) && s[a] > k[a]) /* ONNX Runtime: negative pads */
			s[a] = k[a];
		/* ONNX Runtime takes no dilation with auto_pad SAME_*; MaxPool
		 * has dilations from opset 10. */
		if ((conv || (!avg && opset >= 10)) && mode != 4 && mode != 5 && pick(4) == 0 &&
		    (2 * k[a] - 1) <= x->d[2 + a])
			dl[a] = 2;
	}
	if (mode < 4) {
		for (int a = 0; a < 2; a++) {
			/* ONNX Runtime: a pool's pads below its undilated kernel */
			int64_t span = conv ? (k[a] - 1) * dl[a] + 1 : k[a];

			pads[a] = pick((int)span); /* a pad below the window */
			pads[a + 2] = pick(6) == 0 ? pick((int)span) : pads[a];
		}
	}
	if (!conv && mode < 4 && opset >= 10 && pick(6) == 0) /* ceil_mode: opset 10 */
		ceil = 1;
	if (avg && pick(6) == 0)
		include = 1;
	for (int a = 0; a < 2; a++) {
		int64_t in = x->d[2 + a];

		if (mode == 4 || mode == 5) {
			y.d[2 + a] = (in + s[a] - 1) / s[a];
		} else {
			y.d[2 + a] = window_out(in, k[a], s[a], dl[a], pads[a], pads[a + 2], (int)ceil);
			if (ceil && y.d[2 + a] != (in + pads[a] + pads[a + 2] - (k[a] - 1) * dl[a] - 1 + s[a] - 1) / s[a] + 1)
				ceil_dropped = 1;
		}
		/* count_include_pad with a ceil_mode window past the padding
		 * (its divisor is not the window's) */
		if (include && mode < 4 && ceil &&
		    y.d[2 + a] != window_out(in, k[a], s[a], dl[a], pads[a], pads[a + 2], 0))
			refusable = 1;
	}
	if (ceil_dropped) /* ONNX's shape inference in ONNX Runtime 1.30 keeps the window
			     that starts past the input, its kernel drops it: neither */
		return window(x, op);
	exotic |= refusable;
	if (conv) {
		int kind = pick(4);

		y.d[1] = 1 + pick(5);
		if (kind == 0) { /* depthwise, multiplier 1 or 2 */
			group = c;
			y.d[1] = c * (1 + pick(2));
		} else if (kind == 1 && c % 2 == 0 && c > 2) { /* grouped: 2 groups */
			group = 2;
			y.d[1] = 2 * (1 + pick(3));
		}
		int64_t wd[4] = { y.d[1], c / group, k[0], k[1] };
		if (opset >= 10 && y.d[1] <= 8 && qdq_pick(3) == 0) { /* ONNX Runtime's QDQ weights */
			w = dequantized_weights(wd, opset >= 13 && qdq_pick(2), qdq_pick(2) ? &b : NULL);
		} else {
			w = weights(4, wd);
			if (pick(2))
				b = weights(1, wd);
		}
	}
	const char *in[] = { x->name, w, b, NULL };
	Onnx__AttributeProto *attrs[8] = { NULL };
	int n = 0;

	if (!conv || pick(2))
		attrs[n++] = attr_ints("kernel_shape", k, 2);
	if (s[0] != 1 || s[1] != 1 || pick(2))
		attrs[n++] = attr_ints("strides", s, 2);
	if (dl[0] != 1 || dl[1] != 1)
		attrs[n++] = attr_ints("dilations", dl, 2);
	if (mode < 4 && (pads[0] || pads[1] || pads[2] || pads[3] || pick(2)))
		attrs[n++] = attr_ints("pads", pads, 4);
	if (mode >= 4)
		attrs[n++] = attr_string("auto_pad", auto_pad);
	if (conv && group != 1)
		attrs[n++] = attr_int("group", group);
	if (ceil)
		attrs[n++] = attr_int("ceil_mode", 1);
	if (include)
		attrs[n++] = attr_int("count_include_pad", 1);
	node(op, in, y.name, attrs[0], attrs[1], attrs[2], attrs[3], attrs[4], attrs[5], attrs[6],
	     NULL);
	say(" %s(k%lldx%lld s%lldx%lld d%lldx%lld %s%s%s g%lld %lldx%lldx%lldx%lld)", op,
	    (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1], (long long)dl[0],
	    (long long)dl[1],
	    mode < 4 ? "pads" : auto_pad, ceil ? " ceil" : "", include ? " incl" : "",
	    (long long)group, (long long)y.d[0], (long long)y.d[1], (long long)y.d[2],
	    (long long)y.d[3]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* An element-wise op of X: same shape. */
static struct value unary(const struct value *x)
{
	static const char *const ops[] = { "Relu", "Sigmoid", "Tanh", "Clip" };
	struct value y = *x;
	const char *op = ops[pick(4)], *in[] = { x->name, NULL, NULL, NULL };
	float hi = pick(2) ? 6 : INFINITY;

	y.name = fresh("t");
	if (strcmp(op, "Clip"))
		node(op, in, y.name, NULL);
	else if (opset < 11)
		node(op, in, y.name, attr_float("min", 0),
		     isinf(hi) ? NULL : attr_float("max", hi), NULL);
	else {
		in[1] = float_scalar(0);
		in[2] = isinf(hi) ? NULL : float_scalar(hi);
		node(op, in, y.name, NULL);
	}
	say(" %s%s", op, strcmp(op, "Clip") ? "" : isinf(hi) ? "[0,inf)" : "[0,6]");
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* A branch of X that keeps its shape but for CHANNELS (a 1x1 conv), or
 * its shape (an element-wise op, or a conv padded to keep it). */
static struct value branch(const struct value *x, int64_t channels)
{
	if (channels != x->d[1] || pick(2)) {
		int64_t wd[4] = { channels, x->d[1], 1, 1 };
		struct value y = { fresh("t"), 4, { x->d[0], channels, x->d[2], x->d[3] } };
		const char *in[] = { x->name, weights(4, wd), NULL };

		node("Conv", in, y.name, NULL);
		say(" branch:Conv1x1(%lld)", (long long)channels);
		maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		return y;
	}
	say(" branch:");
	return unary(x);
}

/* Add, Mul, or Sum, Max or Min of two, of X and a branch of it, or a
 * constant of its shape. */
static struct value binary(const struct value *x)
{
	static const char *const ops[] = { "Add", "Mul", "Sum", "Max", "Min" };
	const char *op = ops[pick(5)];
	struct value y = *x, other;
	const char *in[] = { x->name, NULL, NULL, NULL };

	if (pick(3) == 0) {
		const char *c = weights(4, x->d);
		int first = pick(2);

		in[!first] = c;
		in[first] = x->name;
		say(" %s(const%s)", op, first ? ", first" : "");
	} else {
		other = branch(x, x->d[1]);
		in[1] = other.name;
		if (pick(2))
			in[0] = other.name, in[1] = x->name;
		say(" %s", op);
	}
	y.name = fresh("t");
	node(op, in, y.name, NULL);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

static struct value concat(const struct value *x)
{
	int axis = pick(4);
	struct value other = branch(x, axis == 1 ? 1 + pick(3) : x->d[1]), y = *x;
	const char *in[] = { x->name, other.name, NULL };
	int64_t written = pick(2) ? axis - 4 : axis;

	if (pick(2))
		in[0] = other.name, in[1] = x->name;
	y.name = fresh("t");
	y.d[axis] = x->d[axis] + other.d[axis];
	node("Concat", in, y.name, attr_int("axis", opset < 11 ? axis : written), NULL);
	say(" Concat(axis %lld)", (long long)(opset < 11 ? axis : written));
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

static struct value pad(const struct value *x)
{
	int64_t pads[8] = { 0 };
	struct value y = *x;
	const char *in[] = { x->name, NULL, NULL, NULL };

	for (int a = 1; a < 4; a++) {
		pads[a] = pick(3);
		pads[4 + a] = pick(3);
		y.d[a] += pads[a] + pads[4 + a];
	}
	y.name = fresh("t");
	if (opset < 11)
		node("Pad", in, y.name, attr_ints("pads", pads, 8), NULL);
	else {
		in[1] = int64s(pads, 8);
		if (pick(2))
			in[2] = float_scalar(0);
		node("Pad", in, y.name, NULL);
	}
	say(" Pad(%lld,%lld,%lld/%lld,%lld,%lld)", (long long)pads[1], (long long)pads[2],
	    (long long)pads[3], (long long)pads[5], (long long)pads[6], (long long)pads[7]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* The type of the last QuantizeLinear's output (int8 or uint8). */
static int quantized_type;

/* QuantizeLinear of X to int8 or (as ONNX Runtime's QUInt8 activations)
 * uint8: a scale of 2^-k, a zero point near 0 (int8) or 128 (uint8). */
static struct value quantize(const struct value *x, int as_output)
{
	int zero = pick(21) - 10, u8 = qdq_pick(2);
	unsigned char stored = (unsigned char)(u8 ? zero + 128 : zero);
	struct value q = *x;

	quantized_type = u8 ? ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 : ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
	const char *in[] = { x->name, float_scalar(1.0f / (float)(1 << (3 + pick(4)))),
			     constant(0, NULL, quantized_type, &stored, 1), NULL };

	q.name = fresh("q");
	node("QuantizeLinear", in, q.name, NULL);
	say(" QuantizeLinear(%s zero %d)", u8 ? "uint8" : "int8", u8 ? zero + 128 : zero);
	if (!as_output) {
		struct value y = *x;
		const char *dq[] = { q.name, in[1], in[2], NULL };

		maybe_info(&q, quantized_type);
		y.name = fresh("t");
		node("DequantizeLinear", dq, y.name, NULL);
		say(" DequantizeLinear");
		maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		return y;
	}
	return q;
}

/* A third stream for the QOperator block, drawn instead of a Q/DQ pair
 * when this stream says so: seeds without it write the models they did. */
static uint64_t qop_state;
static int uses_ms_domain; /* a com.microsoft node: its opset import */

static int qop_pick(int n)
{
	qop_state = qop_state * 6364136223846793005ull + 1442695040888963407ull;
	return (int)((qop_state >> 33) % (uint64_t)n);
}

/* A com.microsoft node OP of IN into OUT. */
static void ms_node(const char *op, const char *const *in, const char *out)
{
	node(op, in, out, NULL);
	nodes[graph.n_node - 1]->domain = "com.microsoft";
	uses_ms_domain = 1;
}

/* QuantizeLinear of X to TYPE (its scale 2^-k and zero point near the
 * middle into SCALE and ZERO, named); the quantised value. */
static struct value qop_quantize(const struct value *x, int type, const char **scale,
				 const char **zero)
{
	struct value q = *x;
	const int u8 = type == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8, z = qop_pick(21) - 10;
	const unsigned char stored = (unsigned char)(u8 ? z + 128 : z);

	*scale = float_scalar(1.0f / (float)(1 << (2 + qop_pick(5))));
	*zero = constant(0, NULL, type, &stored, 1);
	const char *in[] = { x->name, *scale, *zero, NULL };
	q.name = fresh("q");
	node("QuantizeLinear", in, q.name, NULL);
	maybe_info(&q, type);
	return q;
}

/* ONNX Runtime's QOperator form of a block, as quantize_static writes it
 * (uint8 or int8): X quantised, then QLinearAdd or QLinearMul of it and a
 * second quantisation of X, QLinearMul of it by its
 * QLinearGlobalAveragePool (B broadcasting per channel), the pool alone
 * (N x C x 1 x 1), or (4-D X) a QLinearAveragePool, each output its own
 * scale and zero point; then DequantizeLinear back to float. */
static struct value qoperator_block(const struct value *x)
{
	const int u8 = qop_pick(2), form = qop_pick(x->rank == 4 ? 4 : x->rank >= 3 ? 3 : 1);
	const int type = u8 ? ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 : ONNX__TENSOR_PROTO__DATA_TYPE__INT8;
	const char *a_scale, *a_zero, *b_scale, *b_zero, *g_scale, *g_zero, *y_scale, *y_zero;
	struct value a = qop_quantize(x, type, &a_scale, &a_zero), b = a, r = a, y = *x;
	const int mul = form == 1 || qop_pick(2);
	const unsigned char g_stored = (unsigned char)(u8 ? 128 : 0), y_stored = g_stored + 3;

	say(" QOperator(%s", u8 ? "uint8" : "int8");
	if (form == 3) { /* QLinearAveragePool: a window of 1 to 3, strides 1 or 2, pads 0 or 1 */
		int64_t k[2], st[2], pads[4];
		for (int i = 0; i < 2; i++) {
			k[i] = 1 + qop_pick(x->d[2 + i] < 3 ? (int)x->d[2 + i] : 3);
			st[i] = 1 + qop_pick(2);
			pads[i] = pads[i + 2] = k[i] > 1 ? qop_pick(2) : 0;
			b.d[2 + i] = window_out(x->d[2 + i], k[i], st[i], 1, pads[i], pads[i + 2], 0);
		}
		g_scale = float_scalar(1.0f / (float)(1 << (2 + qop_pick(4))));
		g_zero = constant(0, NULL, type, &g_stored, 1);
		const char *in[] = { a.name, a_scale, a_zero, g_scale, g_zero, NULL };
		b.name = fresh("ap");
		node("QLinearAveragePool", in, b.name, attr_ints("kernel_shape", k, 2),
		     attr_ints("strides", st, 2), attr_ints("pads", pads, 4), NULL);
		nodes[graph.n_node - 1]->domain = "com.microsoft";
		uses_ms_domain = 1;
		maybe_info(&b, type);
		say(" QLinearAveragePool(k%lldx%lld s%lldx%lld p%lld,%lld)", (long long)k[0],
		    (long long)k[1], (long long)st[0], (long long)st[1], (long long)pads[0],
		    (long long)pads[1]);
		r = b;
	} else if (form != 0) { /* the pool: planes of N x C */
		g_scale = float_scalar(1.0f / (float)(1 << (3 + qop_pick(4))));
		g_zero = constant(0, NULL, type, &g_stored, 1);
		const char *in[] = { a.name, a_scale, a_zero, g_scale, g_zero, NULL };
		b.name = fresh("g");
		for (int i = 2; i < b.rank; i++)
			b.d[i] = 1;
		ms_node("QLinearGlobalAveragePool", in, b.name);
		maybe_info(&b, type);
		say(" QLinearGlobalAveragePool");
		b_scale = g_scale;
		b_zero = g_zero;
		r = b;
	} else {
		b = qop_quantize(x, type, &b_scale, &b_zero);
	}
	if (form < 2) {
		y_scale = float_scalar(1.0f / (float)(1 << (1 + qop_pick(5))));
		y_zero = constant(0, NULL, type, &y_stored, 1);
		const char *in[] = { a.name, a_scale, a_zero, b.name, b_scale, b_zero, y_scale, y_zero, NULL };
		r = a;
		r.name = fresh("ql");
		ms_node(mul ? "QLinearMul" : "QLinearAdd", in, r.name);
		maybe_info(&r, type);
		say(" %s", mul ? "QLinearMul" : "QLinearAdd");
	} else {
		y_scale = g_scale;
		y_zero = g_zero;
	}
	const char *dq[] = { r.name, y_scale, y_zero, NULL };
	y = r;
	y.name = fresh("t");
	node("DequantizeLinear", dq, y.name, NULL);
	say(" DequantizeLinear)");
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* REDUCE (ReduceMean, ReduceMax, ReduceMin, ReduceSum) over adjacent
 * axes, kept, or GLOBAL (GlobalAveragePool, GlobalMaxPool). */
static struct value reduce(const struct value *x, const char *reduce, const char *global)
{
	struct value y = *x;
	const char *in[] = { x->name, NULL, NULL };

	y.name = fresh("t");
	if (pick(2)) {
		int first = 1 + pick(3), last = first + pick(4 - first);
		int64_t axes[3];

		for (int a = first; a <= last; a++) {
			axes[a - first] = pick(2) ? a - 4 : a;
			y.d[a] = 1;
		}
		if (opset < 11)
			for (int a = first; a <= last; a++)
				axes[a - first] = a;
		if (!strcmp(reduce, "ReduceSum") && opset >= 13) { /* axes an input */
			in[1] = int64s(axes, last - first + 1);
			node(reduce, in, y.name, attr_int("keepdims", 1), NULL);
		} else {
			node(reduce, in, y.name, attr_ints("axes", axes, (size_t)(last - first + 1)),
			     attr_int("keepdims", 1), NULL);
		}
		say(" %s(axes %d-%d)", reduce, first, last);
	} else {
		y.d[2] = y.d[3] = 1;
		node(global, in, y.name, NULL);
		say(" %s", global);
	}
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* OP (Softmax or LogSoftmax) on an axis, by its opset's rule. */
static struct value softmax(const struct value *x, const char *op)
{
	struct value y = *x;
	const char *in[] = { x->name, NULL };
	int axis = x->rank - 1;

	if (pick(3) == 0)
		axis = pick(x->rank);
	y.name = fresh("t");
	if (opset < 13 && axis == 1 && pick(2))
		node(op, in, y.name, NULL); /* axis 1 by default */
	else
		node(op, in, y.name,
		     attr_int("axis", opset >= 11 && pick(2) ? axis - x->rank : axis), NULL);
	say(" %s(axis %d of %d)", op, axis, x->rank);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* One of ONNX's unary ops, PRelu, Identity, Dropout, LogSoftmax or the
 * reductions other than the mean on X; Log, Sqrt, Reciprocal and Pow by
 * 0.5 read Exp(X), which is positive. */
static struct value more_ops(const struct value *x)
{
	static const char *const ops[] = {
		"LeakyRelu", "Elu", "Selu", "Exp", "Log", "Sqrt", "Neg", "Abs", "Reciprocal",
		"Softplus", "Erf", "Floor", "Ceil", "Pow", "PRelu", "Identity", "Dropout",
		"LogSoftmax", "ReduceMax", "ReduceMin", "ReduceSum"
	};
	static const float exponents[] = { 2, 3, 0.5f };
	const char *op = ops[pick((int)(sizeof ops / sizeof ops[0]))];
	struct value y = *x;
	const char *in[] = { x->name, NULL, NULL };
	float exponent = exponents[pick(3)];

	if (!strcmp(op, "LogSoftmax"))
		return softmax(x, op);
	if (!strncmp(op, "Reduce", 6))
		return reduce(x, op, !strcmp(op, "ReduceMax") ? "GlobalMaxPool" : "GlobalAveragePool");
	if (!strcmp(op, "Log") || !strcmp(op, "Sqrt") || !strcmp(op, "Reciprocal") ||
	    (!strcmp(op, "Pow") && exponent == 0.5f)) {
		struct value positive = *x;

		positive.name = fresh("t");
		node("Exp", in, positive.name, NULL);
		maybe_info(&positive, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		in[0] = positive.name;
		say(" Exp");
	}
	y.name = fresh("t");
	if (!strcmp(op, "Pow")) {
		in[1] = float_scalar(exponent);
		say(" Pow(%g)", exponent);
	} else if (!strcmp(op, "PRelu")) {
		int64_t sd[3] = { x->d[1], 1, 1 };

		in[1] = weights(3, sd);
		say(" PRelu");
	} else {
		say(" %s", op);
	}
	if (!strcmp(op, "LeakyRelu") || !strcmp(op, "Elu"))
		node(op, in, y.name, pick(2) ? attr_float("alpha", 0.1f + uniform()) : NULL, NULL);
	else
		node(op, in, y.name, NULL);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* MatMul of two activations: the 4-D X [1, C, H, W] times X reshaped to
 * [1, C, W, H] (the same batch dims, transpose-free), into [1, C, H, H]. */
static struct value matmul_activations(const struct value *x)
{
	int64_t shape[4] = { x->d[0], x->d[1], x->d[3], x->d[2] };
	struct value b = { fresh("t"), 4, { shape[0], shape[1], shape[2], shape[3] } }, y = *x;
	const char *in_b[] = { x->name, int64s(shape, 4), NULL }, *in[] = { x->name, b.name, NULL };

	node("Reshape", in_b, b.name, NULL);
	maybe_info(&b, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	y.name = fresh("t");
	y.d[3] = x->d[2];
	node("MatMul", in, y.name, NULL);
	say(" MatMul(x, x as %lldx%lld)", (long long)shape[2], (long long)shape[3]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* MatMul of the 4-D X by a constant [W, N]: rows of its last axis; a
 * third of the time by an activation instead (matmul_activations). */
static struct value matmul(const struct value *x)
{
	if (pick(3) == 0)
		return matmul_activations(x);

	int64_t wd[2] = { x->d[3], 1 + pick(6) };
	struct value y = *x;
	const char *in[] = { x->name, weights(2, wd), NULL };

	y.name = fresh("t");
	y.d[3] = wd[1];
	node("MatMul", in, y.name, NULL);
	say(" MatMul(%lldx%lld)", (long long)wd[0], (long long)wd[1]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* ConvTranspose over X as PyTorch and ONNX's tests write it: kernel 1-4,
 * stride 1-2, dilation 1-2, group 1 or 2, with or without bias, and pads
 * (maybe asymmetric), auto_pad SAME_UPPER, SAME_LOWER or VALID, or
 * output_shape, output_padding below the stride; the output size is ONNX's
 * (in - 1) stride + (k - 1) dil + 1 + output_padding - pads, computed here
 * from the attributes chosen, or the output_shape or in x stride given. */
static struct value transposed(const struct value *x)
{
	struct value y = { fresh("t"), 4, { x->d[0], 0, 0, 0 } };
	int64_t k[2], s[2], dl[2] = { 1, 1 }, adj[2] = { 0, 0 }, pads[4] = { 0 }, shape[2];
	int64_t c = x->d[1], group = c % 2 == 0 && pick(3) == 0 ? 2 : 1;
	/* 0-2 pads, 3 SAME_UPPER, 4 SAME_LOWER, 5 VALID, 6 output_shape */
	int mode = pick(7);

	for (int a = 0; a < 2; a++) {
		int64_t full;

		k[a] = 1 + pick(4);
		s[a] = 1 + pick(2);
		if (pick(4) == 0)
			dl[a] = 2;
		if (mode != 6 && pick(3) == 0)
			adj[a] = pick((int)s[a]);
		full = (x->d[2 + a] - 1) * s[a] + (k[a] - 1) * dl[a] + 1 + adj[a];
		if (mode < 3) {
			pads[a] = pick((int)((k[a] - 1) * dl[a] / 2 + 1));
			pads[a + 2] = pick(4) == 0 ? pick((int)((k[a] - 1) * dl[a] / 2 + 1)) : pads[a];
		}
		/* SAME: in x stride, when the taps reach that far. */
		if ((mode == 3 || mode == 4) && full < x->d[2 + a] * s[a])
			mode = 5;
		shape[a] = full - pick(2) * pick((int)((k[a] - 1) * dl[a] + 1));
	}
	/* After the loop: a SAME that does not reach is VALID on both axes. */
	const char *auto_pad = mode == 3 ? "SAME_UPPER" : mode == 4 ? "SAME_LOWER" : "VALID";
	for (int a = 0; a < 2; a++)
		y.d[2 + a] = mode < 3 ? (x->d[2 + a] - 1) * s[a] + (k[a] - 1) * dl[a] + 1 + adj[a] -
						pads[a] - pads[a + 2]
			     : mode < 5 ? x->d[2 + a] * s[a]
			     : mode == 5 ? (x->d[2 + a] - 1) * s[a] + (k[a] - 1) * dl[a] + 1 + adj[a]
					 : shape[a];
	y.d[1] = group * (1 + pick(3));
	int64_t wd[4] = { c, y.d[1] / group, k[0], k[1] };
	const char *in[] = { x->name, weights(4, wd), NULL, NULL };
	if (pick(2))
		in[2] = weights(1, &y.d[1]);
	Onnx__AttributeProto *attrs[8] = { NULL };
	int n = 0;

	if (pick(2))
		attrs[n++] = attr_ints("kernel_shape", k, 2);
	if (s[0] != 1 || s[1] != 1 || pick(2))
		attrs[n++] = attr_ints("strides", s, 2);
	if (dl[0] != 1 || dl[1] != 1)
		attrs[n++] = attr_ints("dilations", dl, 2);
	if (mode < 3 && (pads[0] || pads[1] || pads[2] || pads[3] || pick(2)))
		attrs[n++] = attr_ints("pads", pads, 4);
	if (mode >= 3 && mode <= 5)
		attrs[n++] = attr_string("auto_pad", auto_pad);
	if (mode == 6)
		attrs[n++] = attr_ints("output_shape", shape, 2);
	if (adj[0] || adj[1])
		attrs[n++] = attr_ints("output_padding", adj, 2);
	if (group != 1)
		attrs[n++] = attr_int("group", group);
	node("ConvTranspose", in, y.name, attrs[0], attrs[1], attrs[2], attrs[3], attrs[4], attrs[5],
	     attrs[6], NULL);
	say(" ConvTranspose(k%lldx%lld s%lldx%lld d%lldx%lld %s op%lldx%lld g%lld %lldx%lldx%lldx%lld)",
	    (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1], (long long)dl[0],
	    (long long)dl[1], mode < 3 ? "pads" : mode == 6 ? "output_shape" : auto_pad,
	    (long long)adj[0], (long long)adj[1], (long long)group, (long long)y.d[0],
	    (long long)y.d[1], (long long)y.d[2], (long long)y.d[3]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Slice of X with steps 1 as exporters write it (PyTorch's x[:, a:b],
 * narrow, chunk): a random box of at least one element along each axis
 * it names, starts and ends maybe negative or past the end (ONNX clamps
 * them), axes maybe negative or left out, steps 1 or left out; constant
 * inputs from opset 10, attributes before. */
static struct value sliced(const struct value *x)
{
	struct value y = *x;
	int64_t starts[4], ends[4], axes[4], steps[4], n = 0;
	int all = pick(4) == 0;

	y.name = fresh("t");
	for (int a = 0; a < 4; a++) {
		int64_t len = x->d[a], from, to;

		if (!all && (len == 1 || pick(2)))
			continue;
		from = pick((int)len);
		to = from + 1 + pick((int)(len - from));
		y.d[a] = to - from;
		starts[n] = pick(3) == 0 ? from - len : from;         /* from the end */
		ends[n] = to == len && pick(2) ? INT64_MAX : to < len && pick(3) == 0 ? to - len : to;
		axes[n] = pick(3) == 0 ? a - 4 : a;
		steps[n++] = 1;
	}
	if (n == 0) { /* one axis at least: the last */
		y.d[3] = x->d[3];
		starts[n] = 0, ends[n] = x->d[3], axes[n] = 3, steps[n++] = 1;
	}
	const char *in[] = { x->name, NULL, NULL, NULL, NULL, NULL };
	int named = !all || pick(2); /* all four axes in order: axes may be left out */
	if (opset < 10) {
		node("Slice", in, y.name, attr_ints("starts", starts, (size_t)n),
		     attr_ints("ends", ends, (size_t)n), named ? attr_ints("axes", axes, (size_t)n) : NULL,
		     NULL);
	} else {
		int with_steps = named && pick(2);

		in[1] = int64s(starts, n);
		in[2] = int64s(ends, n);
		in[3] = named ? int64s(axes, n) : NULL;
		in[4] = with_steps ? int64s(steps, n) : NULL;
		node("Slice", in, y.name, NULL);
	}
	say(" Slice(%lld axes -> %lldx%lldx%lldx%lld)", (long long)n, (long long)y.d[0],
	    (long long)y.d[1], (long long)y.d[2], (long long)y.d[3]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Gather of X along one axis by a constant scalar index (the axis goes:
 * PyTorch's x[:, 2]) or 1-D consecutive ascending indices, maybe negative
 * (the axis keeps their count); then an Unsqueeze back to 4-D for the
 * ops after, when the axis went. */
static struct value gathered(const struct value *x)
{
	struct value y = *x, g;
	int axis = pick(4), scalar = pick(2);
	int64_t len = x->d[axis], from = pick((int)len), count = scalar ? 1 : 1 + pick((int)(len - from));
	int64_t idx[4], one = 1;
	const char *in[] = { x->name, NULL, NULL };

	for (int64_t k = 0; k < count; k++)
		idx[k] = pick(3) == 0 ? from + k - len : from + k;
	in[1] = scalar ? constant(0, NULL, ONNX__TENSOR_PROTO__DATA_TYPE__INT64, idx, sizeof *idx)
		       : int64s(idx, count);
	y.d[axis] = count;
	g = y;
	g.name = fresh("t");
	node("Gather", in, g.name, attr_int("axis", pick(2) ? axis : axis - 4), NULL);
	say(" Gather(axis %d, %s %lld of %lld)", axis, scalar ? "index" : "indices", (long long)count,
	    (long long)len);
	if (!scalar) {
		maybe_info(&g, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
		return g;
	}
	/* The axis dropped: Unsqueeze (axes an attribute before opset 13). */
	struct value dropped = { g.name, 3, { 0 } };
	for (int a = 0, k = 0; a < 4; a++)
		if (a != axis)
			dropped.d[k++] = x->d[a];
	maybe_info(&dropped, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	y.name = fresh("t");
	int64_t ax = axis;
	const char *uin[] = { g.name, opset >= 13 ? int64s(&ax, one) : NULL, NULL };
	node("Unsqueeze", uin, y.name, opset < 13 ? attr_ints("axes", &ax, 1) : NULL, NULL);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Split of X into two parts along an axis of at least 2 elements
 * (ShuffleNet v2's channel split, a detection head's), `split` an attribute
 * before opset 13, a constant input from 13, or left out for equal parts;
 * then Concat of the parts in the other order, X's shape again.  X as it
 * is when no axis has 2 elements. */
static struct value split_swapped(const struct value *x)
{
	int axis = 1 + pick(3), equal;
	struct value parts[2] = { *x, *x }, y = *x;
	int64_t sizes[2];
	Onnx__NodeProto *n;

	for (int tries = 0; tries < 3 && x->d[axis] < 2; tries++)
		axis = axis % 3 + 1;
	if (x->d[axis] < 2)
		return *x;
	equal = x->d[axis] % 2 == 0 && pick(2);
	sizes[0] = equal ? x->d[axis] / 2 : 1 + pick((int)x->d[axis] - 1);
	sizes[1] = x->d[axis] - sizes[0];
	const char *in[] = { x->name, opset >= 13 && !equal ? int64s(sizes, 2) : NULL, NULL };
	for (int k = 0; k < 2; k++) {
		parts[k].name = fresh("t");
		parts[k].d[axis] = sizes[k];
	}
	node("Split", in, parts[0].name, attr_int("axis", pick(2) ? axis : axis - 4),
	     opset < 13 && !equal ? attr_ints("split", sizes, 2) : NULL, NULL);
	n = nodes[graph.n_node - 1];
	n->output = must(calloc(2, sizeof *n->output)); /* node() writes one */
	n->output[0] = parts[0].name;
	n->output[1] = parts[1].name;
	n->n_output = 2;
	maybe_info(&parts[0], ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	maybe_info(&parts[1], ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	const char *swapped[] = { parts[1].name, parts[0].name, NULL };
	y.name = fresh("t");
	node("Concat", swapped, y.name, attr_int("axis", axis), NULL);
	say(" Split(axis %d, %lld+%lld%s) Concat(swapped)", axis, (long long)sizes[0],
	    (long long)sizes[1], equal ? " equal" : "");
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Sum, Max, Min or Mean of 1 to 4 operands: X (first or second, so that
 * the first pass has an operand of the output's shape), and drawn from a
 * branch of X, a constant of X's shape and, from opset 8 (NumPy
 * broadcasting), a constant or a GlobalAveragePool of X of 1 x C x 1 x 1;
 * or Pow of Sigmoid(X) (positive, so every exponent is defined) by a
 * branch of X or, from opset 8, a GlobalAveragePool of X broadcast. */
static struct value variadic(const struct value *x)
{
	static const char *const ops[] = { "Sum", "Max", "Min", "Mean", "Pow" };
	const char *op = ops[pick(5)], *in[5] = { NULL };
	const int64_t per_channel[4] = { 1, x->d[1], 1, 1 };
	const int n = !strcmp(op, "Pow") ? 2 : 1 + pick(4), broadcast = opset >= 8;
	const int at = n > 1 ? pick(2) : 0;
	struct value y = *x, other;

	say(" %s(", op);
	for (int k = 0; k < n; k++) {
		int kind = k == at ? 0 : 1 + pick(broadcast ? 4 : 2);

		if (!strcmp(op, "Pow") && k == 0) {
			const char *s_in[] = { x->name, NULL };

			in[0] = fresh("t");
			node("Sigmoid", s_in, in[0], NULL);
			say("Sigmoid");
			continue;
		}
		if (!strcmp(op, "Pow") && kind > 1)
			kind = 4; /* an exponent activation, broadcast */
		if (kind == 0) {
			in[k] = x->name;
			say(" x");
		} else if (kind == 1) {
			other = branch(x, x->d[1]);
			in[k] = other.name;
		} else if (kind == 2) {
			in[k] = weights(4, x->d);
			say(" const");
		} else if (kind == 3) {
			in[k] = weights(4, per_channel);
			say(" const(1xC)");
		} else {
			const char *g_in[] = { x->name, NULL };

			in[k] = fresh("t");
			node("GlobalAveragePool", g_in, in[k], NULL);
			say(" GlobalAveragePool");
		}
	}
	say(" )");
	y.name = fresh("t");
	node(op, in, y.name, NULL);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Transpose as CNNs write it: ShuffleNet's channel shuffle (X reshaped to
 * 1 x g x C/g x H x W, Transpose perm 0 2 1 3 4, reshaped back to X's
 * shape: a 5-D transpose, which dmo reads as one of 3 axes, its
 * intermediates without value_info), or a Transpose of C, H and W by a
 * random perm (given, or left out for the reversal, batch moved too). */
static struct value shuffled(const struct value *x)
{
	static const int64_t swap[5] = { 0, 2, 1, 3, 4 };
	const int64_t g = x->d[1] % 2 == 0 ? 2 : x->d[1] % 3 == 0 ? 3 : 0;
	struct value y = { fresh("t"), 4, { 0 } };
	const char *in[] = { x->name, NULL, NULL };
	int64_t perm[4] = { 0, 1, 2, 3 };

	if (g && pick(2)) {
		int64_t five[5] = { x->d[0], g, x->d[1] / g, x->d[2], x->d[3] };
		char *r = fresh("t"), *t = fresh("t");

		in[1] = int64s(five, 5);
		node("Reshape", in, r, NULL);
		const char *t_in[] = { r, NULL };
		node("Transpose", t_in, t, attr_ints("perm", swap, 5), NULL);
		const char *back[] = { t, int64s(x->d, 4), NULL };
		memcpy(y.d, x->d, sizeof y.d);
		node("Reshape", back, y.name, NULL);
		say(" ChannelShuffle(g %lld)", (long long)g);
	} else {
		const int given = pick(2);

		for (int i = 3; i > 1; i--) {
			int j = 1 + pick(i), t = (int)perm[i];

			perm[i] = perm[j];
			perm[j] = t;
		}
		for (int i = 0; i < 4; i++) {
			perm[i] = given ? perm[i] : 3 - i;
			y.d[i] = x->d[perm[i]];
		}
		node("Transpose", in, y.name, given ? attr_ints("perm", perm, 4) : NULL, NULL);
		say(" Transpose(%lld%lld%lld%lld%s)", (long long)perm[0], (long long)perm[1],
		    (long long)perm[2], (long long)perm[3], given ? "" : " default");
	}
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* A third stream for the forms of formulas.md 3.11 and 4.14 (forms()):
 * the seeds whose models have none draw as they did before it. */
static uint64_t forms_state;

static int forms_pick(int n)
{
	forms_state = forms_state * 6364136223846793005ull + 1442695040888963407ull;
	return (int)((forms_state >> 33) % (uint64_t)n);
}

/* X reshaped to DIMS (RANK of them). */
static struct value reshaped(const struct value *x, int rank, const int64_t *dims)
{
	struct value y = { fresh("t"), rank, { 0 } };
	const char *in[] = { x->name, int64s(dims, rank), NULL };

	memcpy(y.d, dims, sizeof *dims * (size_t)rank);
	node("Reshape", in, y.name, NULL);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* A 1-D window over X as N x (C H) x W: Conv (dilations, pads, group 1),
 * MaxPool, AveragePool (count_include_pad) or ConvTranspose (strides,
 * pads), then reshaped back to 4-D, N x C' x 1 x L'. */
static struct value window_1d(const struct value *x)
{
	const int64_t rows[3] = { x->d[0], x->d[1] * x->d[2], x->d[3] };
	struct value r = reshaped(x, 3, rows), y = { fresh("t"), 3, { rows[0], rows[1], 0 } };
	static const char *const ops[] = { "Conv", "MaxPool", "AveragePool", "ConvTranspose" };
	const char *op = ops[forms_pick(4)], *in[] = { r.name, NULL, NULL, NULL };
	int64_t len = rows[2], k = 1 + forms_pick(len < 3 ? (int)len : 3), s = 1 + forms_pick(2);
	int64_t d = op[0] == 'C' && op[4] != 'T' && 2 * k - 1 <= len && forms_pick(3) == 0 ? 2 : 1;
	int64_t pads[2] = { forms_pick((int)k), forms_pick((int)k) };
	int include = op[0] == 'A' && forms_pick(2);

	if (!strcmp(op, "Conv") || !strcmp(op, "ConvTranspose")) {
		int64_t m = 1 + forms_pick(4);
		int64_t wd[3] = { op[4] == 'T' ? rows[1] : m, op[4] == 'T' ? m : rows[1], k };

		y.d[1] = m;
		in[1] = weights(3, wd);
		in[2] = forms_pick(2) ? weights(1, &m) : NULL;
	}
	if (!strcmp(op, "ConvTranspose"))
		y.d[2] = (len - 1) * s + k - pads[0] - pads[1];
	else
		y.d[2] = (len + pads[0] + pads[1] - ((k - 1) * d + 1)) / s + 1;
	node(op, in, y.name, attr_ints("kernel_shape", &k, 1), attr_ints("strides", &s, 1),
	     attr_ints("pads", pads, 2), d != 1 ? attr_ints("dilations", &d, 1) : NULL,
	     include ? attr_int("count_include_pad", 1) : NULL, NULL);
	say(" %s1d(k%lld s%lld d%lld pads %lld,%lld%s -> %lldx%lldx%lld)", op, (long long)k,
	    (long long)s, (long long)d, (long long)pads[0], (long long)pads[1], include ? " incl" : "",
	    (long long)y.d[0], (long long)y.d[1], (long long)y.d[2]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	const int64_t back[4] = { y.d[0], y.d[1], 1, y.d[2] };
	return reshaped(&y, 4, back);
}

/* Pad of X reflecting (pads below each axis's size), repeating its edge
 * or by a constant other than 0: a mode attribute, pads an attribute
 * before opset 11, inputs from 11 on. */
static struct value padded(const struct value *x)
{
	static const char *const modes[] = { "reflect", "edge", "constant" };
	const char *mode = modes[forms_pick(3)], *in[] = { x->name, NULL, NULL, NULL };
	float value = (float)(forms_pick(9) - 4) / 4;
	int64_t pads[8] = { 0 };
	struct value y = *x;

	for (int a = 1; a < 4; a++) {
		int most = strcmp(mode, "reflect") ? 3 : x->d[a] < 3 ? (int)x->d[a] : 3;

		pads[a] = forms_pick(most);
		pads[4 + a] = forms_pick(most);
		y.d[a] += pads[a] + pads[4 + a];
	}
	y.name = fresh("t");
	if (opset < 11) {
		node("Pad", in, y.name, attr_string("mode", mode), attr_ints("pads", pads, 8),
		     mode[0] == 'c' ? attr_float("value", value) : NULL, NULL);
	} else {
		in[1] = int64s(pads, 8);
		in[2] = mode[0] == 'c' ? float_scalar(value) : NULL;
		node("Pad", in, y.name, attr_string("mode", mode), NULL);
	}
	if (mode[0] == 'c')
		say(" Pad(constant %g", (double)value);
	else
		say(" Pad(%s", mode);
	say(" %lld,%lld,%lld/%lld,%lld,%lld)", (long long)pads[1], (long long)pads[2],
	    (long long)pads[3], (long long)pads[5], (long long)pads[6], (long long)pads[7]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Slice of X with steps other than 1 (negative too) on the axes it
 * names (opset 10 on: steps an input), the whole axis walked. */
static struct value stepped(const struct value *x)
{
	static const int64_t choices[] = { -3, -2, -1, 2, 3 };
	int64_t starts[4], ends[4], axes[4], steps[4];
	struct value y = *x;
	int n = 0;

	for (int a = 1; a < 4; a++) {
		int64_t by = choices[forms_pick(5)];

		if (forms_pick(3) == 0 && a < 3)
			continue;
		starts[n] = by > 0 ? 0 : -1;
		ends[n] = by > 0 ? INT64_MAX : INT64_MIN;
		axes[n] = a;
		steps[n++] = by;
		y.d[a] = (x->d[a] + (by > 0 ? by : -by) - 1) / (by > 0 ? by : -by);
	}
	y.name = fresh("t");
	const char *in[] = { x->name, int64s(starts, n), int64s(ends, n), int64s(axes, n),
			     int64s(steps, n), NULL };
	node("Slice", in, y.name, NULL);
	say(" Slice(steps %d axes -> %lldx%lldx%lldx%lld)", n, (long long)y.d[0], (long long)y.d[1],
	    (long long)y.d[2], (long long)y.d[3]);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* Gather of X along an axis by 1 to 6 constant indices in any order,
 * repeats and negative ones among them (gather). */
static struct value picked(const struct value *x)
{
	int axis = forms_pick(4), n = 1 + forms_pick(6);
	int64_t idx[6], len = x->d[axis];
	struct value y = *x;

	for (int k = 0; k < n; k++) {
		idx[k] = forms_pick((int)len);
		idx[k] -= forms_pick(3) == 0 ? len : 0; /* from the end */
	}
	const char *in[] = { x->name, int64s(idx, n), NULL };
	y.name = fresh("t");
	y.d[axis] = n;
	node("Gather", in, y.name, attr_int("axis", axis), NULL);
	say(" Gather(%d picks along axis %d of %lld)", n, axis, (long long)len);
	maybe_info(&y, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	return y;
}

/* One of the forms of formulas.md 3.11 and 4.14: a 1-D window, a Pad by
 * mode or value, a Gather of any indices, a stepped Slice (from opset 10). */
static struct value forms(const struct value *x)
{
	int kind = forms_pick(opset >= 10 ? 4 : 3);

	return kind == 0 ? window_1d(x) : kind == 1 ? padded(x) : kind == 2 ? picked(x) : stepped(x);
}

/* Flatten or Reshape to 2-D, then Gemm or MatMul by a constant. */
static struct value dense(const struct value *x)
{
	int axis = pick(3) ? 1 : pick(4); /* Flatten's: the dims before it are rows */
	struct value f = { fresh("t"), 2, { 1, 1 } }, y;
	const char *in[] = { x->name, NULL, NULL, NULL };
	int64_t units = 1 + pick(9);

	for (int a = 0; a < 4; a++)
		f.d[a >= axis] *= x->d[a];
	if (pick(2)) {
		node("Flatten", in, f.name,
		     axis != 1 ? attr_int("axis", opset >= 11 && pick(2) ? axis - 4 : axis) : NULL, NULL);
		say(" Flatten(axis %d)", axis);
	} else {
		int64_t shape[2] = { pick(2) ? 0 : x->d[0], -1 }; /* 0: x's dim */

		f.d[0] = x->d[0];
		f.d[1] = elems(x) / x->d[0];
		in[1] = int64s(shape, 2);
		node("Reshape", in, f.name, NULL);
		say(" Reshape");
	}
	maybe_info(&f, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT);
	y = (struct value){ fresh("t"), 2, { f.d[0], units } };
	in[0] = f.name;
	in[2] = NULL;
	if (pick(3) == 0) {
		int64_t wd[2] = { f.d[1], units };

		in[1] = weights(2, wd);
		node("MatMul", in, y.name, NULL);
		say(" MatMul(%lld)", (long long)units);
	} else {
		int trans_b = pick(2), trans_a = pick(12) == 0, c_kind = pick(4);
		int64_t wd[2] = { trans_b ? units : f.d[1], trans_b ? f.d[1] : units };
		int64_t cd[2] = { c_kind == 3 ? f.d[0] : 1, units }; /* C: scalar, N, or M x N */
		float alpha = pick(2) ? 1.0f : 0.5f + (float)pick(4) / 4, beta = pick(2) ? 1.0f : 0.25f;

		in[1] = weights(2, wd);
		if (c_kind == 0 && opset >= 11)
			in[2] = NULL;
		else if (c_kind == 1)
			in[2] = weights(0, cd);
		else
			in[2] = weights(c_kind == 2 ? 1 : 2, c_kind == 2 ? cd + 1 : cd);
		if (trans_a) {
			int64_t shape[2] = { f.d[1], f.d[0] };
			const char *rin[] = { f.name, int64s(shape, 2), NULL };
			char *t = fresh("t");

			node("Reshape", rin, t, NULL);
			in[0] = t;
		}
		Onnx__AttributeProto *scales[2] = { NULL, NULL };
		int n_scales = 0;

		if (alpha != 1)
			scales[n_scales++] = attr_float("alpha", alpha);
		if (beta != 1)
			scales[n_scales++] = attr_float("beta", beta);
		node("Gemm", in, y.name, attr_int("transA", trans_a), attr_int("transB", trans_b),
		     scales[0], scales[1], NULL);
		say(" Gemm(%lld%s%s alpha %g beta %g C%s)", (long long)units, trans_a ? " transA" : "",
		    trans_b ? " transB" : "", alpha, beta, in[2] ? "" : " none");
	}
	return y;
}

int main(int argc, char **argv)
{
	static const int opsets[] = { 7, 9, 10, 11, 12, 13, 17 };
	struct value x = { "x", 4, { 1, 0, 0, 0 } }, cur;
	unsigned long seed;
	char *end;

	if (argc != 4 || (seed = strtoul(argv[1], &end, 10), *end) || !argv[1][0]) {
		fprintf(stderr, "usage: onnx_random_net SEED MODEL.onnx INPUT.bin\n");
		return 2;
	}
	state = seed * 2654435761u + 12345;
	qdq_state = seed * 40503u + 7;
	qop_state = seed * 69069u + 3;
	forms_state = seed * 2246822519u + 5;
	pick(2);
	onnx__graph_proto__init(&graph);
	graph.name = "dmo_random_net";
	graph.node = nodes;
	graph.initializer = inits;
	graph.value_info = infos;
	opset = opsets[pick(7)];
	with_infos = pick(4) != 0;
	x.d[1] = 1 + pick(4);
	x.d[2] = 5 + pick(12);
	x.d[3] = 5 + pick(12);
	say("opset %d, %s, x 1x%lldx%lldx%lld:", opset, with_infos ? "value_info" : "no value_info",
	    (long long)x.d[1], (long long)x.d[2], (long long)x.d[3]);
	cur = x;
	for (int steps = 2 + pick(5); steps > 0; steps--) {
		int kind = pick(18);

		if (kind < 4)
			cur = window(&cur, "Conv");
		else if (kind == 4)
			cur = window(&cur, pick(2) ? "MaxPool" : "AveragePool");
		else if (kind < 7)
			cur = unary(&cur);
		else if (kind == 7)
			cur = binary(&cur);
		else if (kind == 8)
			cur = concat(&cur);
		else if (kind == 9)
			cur = pad(&cur);
		else if (kind == 10 && opset >= 10)
			cur = qop_pick(3) ? quantize(&cur, 0) : qoperator_block(&cur);
		else if (kind == 11)
			cur = reduce(&cur, "ReduceMean", "GlobalAveragePool");
		else if (kind == 12)
			cur = softmax(&cur, "Softmax");
		else if (kind == 13)
			cur = matmul(&cur);
		else if (kind == 14)
			cur = more_ops(&cur);
		else if (kind == 15)
			cur = pick(2)   ? transposed(&cur)
			      : pick(3) ? sliced(&cur)
			      : pick(2) ? gathered(&cur)
					: split_swapped(&cur);
		else if (kind == 16)
			cur = variadic(&cur);
		else
			cur = pick(4) ? window(&cur, "Conv") : shuffled(&cur);
		if (forms_pick(6) == 0)
			cur = forms(&cur);
	}
	int out_type = ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT;
	if (pick(2)) {
		cur = dense(&cur);
		if (pick(3) == 0) {
			maybe_info(&cur, out_type);
			cur = softmax(&cur, "Softmax");
		}
	}
	if (opset >= 10 && pick(4) == 0) {
		maybe_info(&cur, out_type);
		cur = quantize(&cur, 1);
		out_type = quantized_type;
	}
	/* The last node writes the graph output, not an intermediate. */
	if (graph.n_value_info && infos[graph.n_value_info - 1]->name == cur.name)
		graph.n_value_info--;
	Onnx__ValueInfoProto *inputs[MAX_NODES + 1] = { info(&x, ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) },
			     *outputs[2] = { info(&cur, out_type) };
	graph.n_input = 1;
	graph.input = inputs;
	graph.n_output = 1;
	graph.output = outputs;
	/* A quarter of the time an intermediate is a graph output too, kept
	 * to the end, before or after the last one. */
	if (n_made > 1 && pick(4) == 0) {
		int k = pick(n_made - 1), first = pick(2);

		if (made[k].name != cur.name && made_types[k] == out_type) {
			outputs[graph.n_output++] = info(&made[k], made_types[k]);
			if (first) {
				Onnx__ValueInfoProto *t = outputs[0];
				outputs[0] = outputs[1];
				outputs[1] = t;
			}
			say(", %s also an output%s", made[k].name, first ? " (first)" : "");
		}
	}
	/* Before opset 9 exporters also listed the initializers as graph
	 * inputs (PyTorch's keep_initializers_as_inputs): half the time. */
	if (opset < 9 && pick(2) && graph.n_initializer) {
		say(", initializers as inputs");
		for (size_t i = 0; i < graph.n_initializer; i++) {
			struct value v = { inits[i]->name, (int)inits[i]->n_dims, { 0 } };

			memcpy(v.d, inits[i]->dims, sizeof *v.d * inits[i]->n_dims);
			inputs[graph.n_input++] = info(&v, inits[i]->data_type);
		}
	}
	Onnx__OperatorSetIdProto set, ms_set, *sets[2] = { &set, &ms_set };
	onnx__operator_set_id_proto__init(&set);
	onnx__operator_set_id_proto__init(&ms_set);
	ms_set.domain = "com.microsoft";
	ms_set.has_version = 1;
	ms_set.version = 1;
	set.domain = "";
	set.has_version = 1;
	set.version = opset;
	Onnx__ModelProto model;
	onnx__model_proto__init(&model);
	model.has_ir_version = 1;
	model.ir_version = opset < 10 ? 4 : opset < 13 ? 6 : 7;
	model.producer_name = "dmo tests/onnx_random_net";
	model.n_opset_import = uses_ms_domain ? 2 : 1;
	model.opset_import = sets;
	model.graph = &graph;
	printf("%s -> %s%s\n", summary,
	       out_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT8	  ? "int8"
	       : out_type == ONNX__TENSOR_PROTO__DATA_TYPE__UINT8 ? "uint8"
								  : "f32",
	       exotic ? " exotic" : "");

	size_t len = onnx__model_proto__get_packed_size(&model);
	unsigned char *buf = must(malloc(len + 1));
	FILE *f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, onnx__model_proto__pack(&model, buf), f) != len || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	free(buf);
	f = fopen(argv[3], "wb");
	for (int64_t k = 0; f && k < elems(&x); k++) {
		float v = uniform();
		fwrite(&v, sizeof v, 1, f);
	}
	if (!f || fclose(f)) {
		perror(argv[3]);
		return 1;
	}
	return 0; /* the model's allocations end with the process */
}
