/* infer_model.c - a model read from a .tflite or .onnx file as a dmo_net
 * (infer_model.h): one step per operator, one tensor per tensor.  An ONNX
 * model's Conv and pools run in NCHW (layout=nchw, the NCHW kernels), its
 * Gemm as fc on weights rewritten into fc's layout, its QLinearConv and
 * QLinearMatMul as conv and fc requantised as ONNX Runtime does. */
#include "infer_model.h"

#include "dmokernels.h" /* dk_reduce */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct op_of_name {
	const char *name;
	enum dmo_net_op op;
};

static const struct op_of_name tflite_ops[] = {
	{ "CONV_2D", DMO_NET_CONV2D },         { "DEPTHWISE_CONV_2D", DMO_NET_DWCONV2D },
	{ "FULLY_CONNECTED", DMO_NET_FC },     { "MAX_POOL_2D", DMO_NET_MAXPOOL },
	{ "AVERAGE_POOL_2D", DMO_NET_AVGPOOL }, { "ADD", DMO_NET_ADD },
	{ "MUL", DMO_NET_MUL },                { "RELU", DMO_NET_RELU },
	{ "RELU6", DMO_NET_RELU6 },            { "SOFTMAX", DMO_NET_SOFTMAX },
	{ "LOGISTIC", DMO_NET_LOGISTIC },      { "MEAN", DMO_NET_MEAN },
	{ "RESHAPE", DMO_NET_RESHAPE },        { "SQUEEZE", DMO_NET_RESHAPE },
	{ "PAD", DMO_NET_PAD },                { "TRANSPOSE", DMO_NET_TRANSPOSE },
	{ "CONCATENATION", DMO_NET_CONCAT },   { "QUANTIZE", DMO_NET_QUANTIZE },
	{ "DEQUANTIZE", DMO_NET_DEQUANTIZE },
	{ NULL, DMO_NET_OP_COUNT },
};

/* The ONNX operators dmo infer runs, when the reader gave them an op spec
 * (a Conv of group C is the depthwise one, a Clip to [0, 6] relu6: the spec
 * says which; a MatMul by a constant is fc, as Gemm). */
static const struct op_of_name onnx_ops[] = {
	{ "Conv", DMO_NET_CONV2D },         { "Gemm", DMO_NET_FC },
	{ "MaxPool", DMO_NET_MAXPOOL },     { "AveragePool", DMO_NET_AVGPOOL },
	{ "Add", DMO_NET_ADD },             { "Mul", DMO_NET_MUL },
	{ "Relu", DMO_NET_RELU },           { "Sigmoid", DMO_NET_LOGISTIC },
	{ "Softmax", DMO_NET_SOFTMAX },     { "Reshape", DMO_NET_RESHAPE },
	{ "Flatten", DMO_NET_RESHAPE },     { "Squeeze", DMO_NET_RESHAPE },
	{ "Unsqueeze", DMO_NET_RESHAPE },   { "Tanh", DMO_NET_TANH },
	{ "Clip", DMO_NET_RELU },           { "MatMul", DMO_NET_FC },
	{ "Pad", DMO_NET_PAD },             { "Concat", DMO_NET_CONCAT },
	{ "ReduceMean", DMO_NET_MEAN },     { "GlobalAveragePool", DMO_NET_MEAN },
	{ "QuantizeLinear", DMO_NET_QUANTIZE }, { "DequantizeLinear", DMO_NET_DEQUANTIZE },
	{ "QLinearConv", DMO_NET_CONV2D },  { "QLinearMatMul", DMO_NET_FC },
	{ "Sub", DMO_NET_SUB },             { "Div", DMO_NET_DIV },
	{ "HardSigmoid", DMO_NET_HARDSIGMOID }, { "HardSwish", DMO_NET_HARDSWISH },
	{ "BatchNormalization", DMO_NET_BATCHNORM },
	{ "Resize", DMO_NET_RESIZE },       { "Upsample", DMO_NET_RESIZE },
	{ "ConvTranspose", DMO_NET_CONVT },
	{ "LeakyRelu", DMO_NET_UNARY },     { "Elu", DMO_NET_UNARY },
	{ "Selu", DMO_NET_UNARY },          { "Exp", DMO_NET_UNARY },
	{ "Log", DMO_NET_UNARY },           { "Sqrt", DMO_NET_UNARY },
	{ "Neg", DMO_NET_UNARY },           { "Abs", DMO_NET_UNARY },
	{ "Reciprocal", DMO_NET_UNARY },    { "Softplus", DMO_NET_UNARY },
	{ "Erf", DMO_NET_UNARY },           { "Floor", DMO_NET_UNARY },
	{ "Ceil", DMO_NET_UNARY },          { "Pow", DMO_NET_UNARY },
	{ "PRelu", DMO_NET_PRELU },         { "LogSoftmax", DMO_NET_SOFTMAX },
	{ "Identity", DMO_NET_RESHAPE },    { "Dropout", DMO_NET_RESHAPE },
	{ "ReduceMax", DMO_NET_MEAN },      { "ReduceMin", DMO_NET_MEAN },
	{ "ReduceSum", DMO_NET_MEAN },      { "GlobalMaxPool", DMO_NET_MEAN },
	{ "Sum", DMO_NET_ADD },             { "Max", DMO_NET_MAX },
	{ "Min", DMO_NET_MIN },
	{ "Slice", DMO_NET_SLICE },         { "Gather", DMO_NET_SLICE },
	{ "Split", DMO_NET_SLICE }, /* a layer per output (model_onnx.c) */
	{ "Mean", DMO_NET_ADD }, /* a layer per pass, the last a scale */
	{ "Transpose", DMO_NET_TRANSPOSE },
	{ "com.microsoft:QLinearAdd", DMO_NET_QLINEARADD },
	{ "com.microsoft:QLinearMul", DMO_NET_QLINEARMUL },
	{ "com.microsoft:QLinearGlobalAveragePool", DMO_NET_QLINEARMEAN },
	{ "com.microsoft:QLinearAveragePool", DMO_NET_QLINEARAVGPOOL }, /* or the global one */
	{ "com.microsoft:QGemm", DMO_NET_FC }, /* as QLinearMatMul */
	{ "com.microsoft:QLinearConcat", DMO_NET_QLINEARCONCAT },
	{ NULL, DMO_NET_OP_COUNT },
};

static int shape_only(const struct dmo_model *model, size_t i);

/* SHAPE_VALUE: MT is written by a layer that only computes a shape
 * (shape_only), so no kernel reads its elements. */
static int tensor_of(const struct dmo_model_tensor *mt, int shape_value, struct dmo_net_tensor *t,
		     char *err, size_t err_len)
{
	static const enum dmo_net_dtype types[DMO_DTYPE_COUNT] = {
		[DMO_F32] = DMO_NET_F32, [DMO_I8] = DMO_NET_I8, [DMO_I16] = DMO_NET_I16,
		[DMO_I32] = DMO_NET_I32, [DMO_U8] = DMO_NET_U8,
	};

	*t = (struct dmo_net_tensor){ .name = mt->name, .rank = mt->rank, .data = mt->data,
				      .n_quant = mt->quant.count, .scale = mt->quant.scale,
				      .zero_point = mt->quant.zero_point, .quant_axis = mt->quant.axis,
				      .graph_input = mt->graph_input && !mt->data,
				      .graph_output = mt->graph_output };
	if ((!mt->known_dtype && (mt->data || shape_value)) ||
	    (mt->bytes == 0 && mt->producer == DMO_MODEL_CONSTANT)) {
		/* A constant or a layer's result of a type no kernel takes (an
		 * ONNX Reshape's int64 shape, which no step reads), or an empty
		 * constant (Resize's unused roi): its bytes, as a byte vector. */
		t->dtype = DMO_NET_U8;
		t->rank = 1;
		t->dims[0] = (int)(mt->data ? (mt->data_len < INT32_MAX ? mt->data_len : INT32_MAX)
					    : (mt->bytes < INT32_MAX ? mt->bytes : INT32_MAX));
		return 0;
	}
	if (!mt->known_dtype) {
		snprintf(err, err_len, "tensor '%s': element type %s is not supported", mt->name,
			 mt->type_name ? mt->type_name : "?");
		return -1;
	}
	t->dtype = types[mt->dtype];
	if (mt->rank > DMO_NET_MAX_RANK) {
		snprintf(err, err_len, "tensor '%s': rank %d (at most %d)", mt->name, mt->rank,
			 DMO_NET_MAX_RANK);
		return -1;
	}
	for (int i = 0; i < mt->rank; i++) {
		if (mt->shape[i] < 1 || mt->shape[i] > INT32_MAX) {
			snprintf(err, err_len, "tensor '%s': dimension %d is %lld", mt->name, i,
				 (long long)mt->shape[i]);
			return -1;
		}
		t->dims[i] = (int)mt->shape[i];
	}
	if (mt->data && mt->data_len < mt->bytes) {
		snprintf(err, err_len, "tensor '%s': constant holds %zu of its %llu bytes", mt->name,
			 mt->data_len, (unsigned long long)mt->bytes);
		return -1;
	}
	return 0;
}

/* Keep P alive as long as NET; returns P, or NULL (P freed) when memory
 * runs out. */
static void *owned_by(struct dmo_net *net, void *p)
{
	void **grown = p ? realloc(net->owned, (net->n_owned + 1) * sizeof *grown) : NULL;

	if (!grown) {
		free(p);
		return NULL;
	}
	net->owned = grown;
	net->owned[net->n_owned++] = p;
	return p;
}

static uint64_t net_elems(const struct dmo_net_tensor *t)
{
	uint64_t n = 1;

	for (int d = 0; d < t->rank; d++)
		n *= (uint64_t)t->dims[d];
	return n;
}

/* An ONNX Gemm, Y = alpha A B' + beta C (B' = B, or its transpose with
 * transB), as fc: fc's filter is [units][K] and its bias one value a unit
 * or one an output element, so B (transposed unless transB) times alpha,
 * and C (one value, one a unit, or broadcast to M x N: the step's
 * bias_per_output) times beta, become copies the net owns.  Returns 0, -1 with ERR,
 * -2 when out of memory. */
static int gemm_as_fc(const struct dmo_model *model, size_t i, struct dmo_net *net,
		      struct dmo_net_step *s, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	double alpha = dmo_model_onnx_float(model, i, "alpha", 1.0);
	double beta = dmo_model_onnx_float(model, i, "beta", 1.0);
	int trans_b = dmo_model_onnx_int(model, i, "transB", 0) != 0;
	struct dmo_net_tensor *b = s->n_inputs > 1 && s->inputs[1] >= 0 ? &net->tensors[s->inputs[1]] : NULL;
	struct dmo_net_tensor *c = s->n_inputs > 2 && s->inputs[2] >= 0 ? &net->tensors[s->inputs[2]] : NULL;

	if (!b || b->rank != 2 || b->dtype != DMO_NET_F32 || (!b->data && b->graph_input) ||
	    (c && (c->dtype != DMO_NET_F32 || (!c->data && c->graph_input)))) {
		snprintf(err, err_len, "layer %zu '%s': %s needs float32 constants B (2-D) and C (or "
			 "layers' results, as DequantizeLinear's of constants)", i + 1, l->name,
			 l->op_name);
		return -1;
	}
	int units = b->dims[trans_b ? 0 : 1], k = b->dims[trans_b ? 1 : 0];
	/* C broadcasts to M x N (right-aligned): its rows CM 1 or M, its
	 * columns CN 1 or N.  A C of M rows (M > 1) is fc's bias per output
	 * element. */
	const uint64_t m = net_elems(&net->tensors[s->inputs[0]]) / (uint64_t)(k > 0 ? k : 1);
	const uint64_t cn = c && c->rank >= 1 ? (uint64_t)c->dims[c->rank - 1] : 1;
	const uint64_t cm = c && c->rank >= 2 ? (uint64_t)c->dims[c->rank - 2] : 1;
	uint64_t n_c = 1;
	for (int d = 0; c && d < c->rank; d++)
		n_c *= (uint64_t)c->dims[d];
	if (c && (n_c != cm * cn || (cn != 1 && cn != (uint64_t)units) || (cm != 1 && cm != m))) {
		snprintf(err, err_len, "layer %zu '%s': Gemm's C (%llu values) does not broadcast to "
			 "%llu x %d", i + 1, l->name, (unsigned long long)n_c, (unsigned long long)m, units);
		return -1;
	}
	s->bias_per_output = cm > 1;
	int new_b = !trans_b || alpha != 1.0;
	int new_c = c && (beta != 1.0 || s->bias_per_output || cn != (uint64_t)units);
	/* B or C computed by a layer (a DequantizeLinear of ONNX's QDQ form)
	 * is read in place: only as fc takes it, B [units][K], C a unit's. */
	if ((!b->data && (!trans_b || alpha != 1.0)) || (c && !c->data && new_c)) {
		snprintf(err, err_len, "layer %zu '%s': %s computes B or C, which only constants may "
			 "be with transB 0, alpha or beta not 1, or a C of other than one value a unit",
			 i + 1, l->name, l->op_name);
		return -1;
	}
	int shared_b = new_b && model->tensors[s->inputs[1]].n_consumers != 1;
	if (shared_b || (new_c && model->tensors[s->inputs[2]].n_consumers != 1)) {
		snprintf(err, err_len, "layer %zu '%s': Gemm's %s, read by other layers too, would need "
			 "other values", i + 1, l->name, shared_b ? "B" : "C");
		return -1;
	}
	if (new_b) {
		const float *from = b->data;
		float *w = owned_by(net, malloc(sizeof *w * (size_t)units * (size_t)k + 1));
		if (!w)
			return -2;
		for (int u = 0; u < units; u++)
			for (int d = 0; d < k; d++)
				w[(size_t)u * k + d] = (float)(alpha * (trans_b ? from[(size_t)u * k + d]
									: from[(size_t)d * units + u]));
		b->data = w;
		b->dims[0] = units;
		b->dims[1] = k;
	}
	if (new_c) {
		const float *from = c->data;
		const uint64_t rows = s->bias_per_output ? m : 1;
		float *bias = owned_by(net, malloc(sizeof *bias * (size_t)(rows * (uint64_t)units)));
		if (!bias)
			return -2;
		for (uint64_t r = 0; r < rows; r++)
			for (int u = 0; u < units; u++)
				bias[r * (uint64_t)units + (uint64_t)u] =
					(float)(beta * from[(cm == 1 ? 0 : r) * cn + (cn == 1 ? 0 : (uint64_t)u)]);
		c->data = bias;
		c->rank = 1;
		c->dims[0] = (int)(rows * (uint64_t)units);
	}
	return 0;
}

/* Tensor QT quantised by the constants SCALE and ZERO (ZERO may be NULL:
 * 0; one zero point may serve every scale), COUNT pairs along axis AXIS,
 * each zero point plus SHIFT (128 when the reader moves int8 weights to
 * uint8).  A tensor quantised before
 * (a QuantizeLinear and the QLinear op that reads its output) must get the
 * same.  Returns 0, -1 with ERR naming WHAT, -2 when out of memory. */
static int set_quantisation(struct dmo_net *net, struct dmo_net_tensor *qt,
			    const struct dmo_net_tensor *scale, const struct dmo_net_tensor *zero,
			    uint64_t count, int axis, int shift, const char *what, char *err,
			    size_t err_len)
{
	if (!scale || !scale->data || scale->dtype != DMO_NET_F32 || net_elems(scale) != count ||
	    (zero && (!zero->data || zero->dtype != qt->dtype ||
		      (net_elems(zero) != count && net_elems(zero) != 1))) ||
	    (qt->dtype != DMO_NET_I8 && qt->dtype != DMO_NET_U8 && qt->dtype != DMO_NET_I32)) {
		snprintf(err, err_len, "%s needs a constant scale and zero point of the int8, uint8 "
			 "or int32 tensor's type, %s", what,
			 count == 1 ? "one for the tensor" : "one a channel");
		return -1;
	}
	int64_t *zps = owned_by(net, malloc(sizeof *zps * (size_t)count));
	if (!zps)
		return -2;
	for (uint64_t k = 0; k < count; k++) {
		uint64_t at = zero && net_elems(zero) == count ? k : 0; /* one for all */
		zps[k] = shift + (!zero			   ? 0
				  : zero->dtype == DMO_NET_I8  ? ((const int8_t *)zero->data)[at]
				  : zero->dtype == DMO_NET_I32 ? ((const int32_t *)zero->data)[at]
							       : ((const uint8_t *)zero->data)[at]);
	}
	if (qt->n_quant && (qt->n_quant != count || qt->quant_axis != axis ||
			    memcmp(qt->scale, scale->data, sizeof(float) * count) ||
			    memcmp(qt->zero_point, zps, sizeof *zps * count))) {
		snprintf(err, err_len, "%s: tensor '%s' is quantised two ways", what,
			 qt->name ? qt->name : "");
		return -1;
	}
	qt->n_quant = (size_t)count;
	qt->scale = scale->data;
	qt->zero_point = zps;
	qt->quant_axis = axis;
	return 0;
}

/* An ONNX QuantizeLinear or DequantizeLinear: its scale and zero point
 * (constants: one each, or one per index of the node's `axis`, 1 by
 * default, as ONNX Runtime's quantiser writes per-channel weights and
 * biases) become the quantised tensor's quantisation, which
 * the kernels read (a tensor between a QuantizeLinear and a
 * DequantizeLinear must get the same from both).  ONNX rounds x / scale
 * half to even.  Returns 0, -1 with ERR, -2 when out of memory. */
static int qdq_quantisation(const struct dmo_model *model, size_t i, struct dmo_net *net,
			    struct dmo_net_step *s, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	struct dmo_net_tensor *qt = &net->tensors[s->op == DMO_NET_QUANTIZE ? s->output : s->inputs[0]];
	const struct dmo_net_tensor *scale = s->n_inputs > 1 && s->inputs[1] >= 0 ? &net->tensors[s->inputs[1]] : NULL;
	const struct dmo_net_tensor *zero = s->n_inputs > 2 && s->inputs[2] >= 0 ? &net->tensors[s->inputs[2]] : NULL;

	char what[160];

	snprintf(what, sizeof what, "layer %zu '%s': %s", i + 1, l->name, l->op_name);
	uint64_t count = scale ? net_elems(scale) : 1;
	int axis = (int)dmo_model_onnx_int(model, i, "axis", 1);
	axis += axis < 0 ? qt->rank : 0;
	if (count != 1 && (axis < 0 || axis >= qt->rank || count != (uint64_t)qt->dims[axis])) {
		snprintf(err, err_len, "%s: %llu scales for axis %d of a %d-D tensor", what,
			 (unsigned long long)count, axis, qt->rank);
		return -1;
	}
	int rc = set_quantisation(net, qt, scale, zero, count, count != 1 ? axis : 0, 0, what, err,
				  err_len);
	if (rc)
		return rc;
	s->n_inputs = 1;
	s->round_half_even = 1;
	return 0;
}

/* ONNX's QLinearConv (X, X scale, X zero point, W, W scale, W zero point,
 * Y scale, Y zero point[, bias]) and QLinearMatMul (the same without the
 * bias, W being B [K, N]), and com.microsoft's QGemm (A, its scale and zero
 * point, B [K, N] or with transB [N, K], its scale and zero point, C the
 * bias, Y scale, Y zero point; alpha 1, read as QLinearConv's order) as
 * the conv, dwconv or fc of X, W and the bias:
 * the scales and zero points become the tensors' quantisation and the
 * step's float factors X scale * W scale[c] / Y scale, computed in float
 * as ONNX Runtime does.  W is copied where the kernels take it otherwise:
 * B transposed into fc's [N][K]; the int8 weights of uint8 activations
 * moved to uint8 (w + 128 and zero point + 128: the same differences
 * w - zero point, which is all the kernels use).  Returns 0, -1 with ERR,
 * -2 when out of memory. */
static int qlinear_operands(const struct dmo_model *model, size_t i, struct dmo_net *net,
			    struct dmo_net_step *s, char *err, size_t err_len)
{
	enum { X, X_SCALE, X_ZERO, W, W_SCALE, W_ZERO, Y_SCALE, Y_ZERO, BIAS };
	const struct dmo_model_layer *l = &model->layers[i];
	const int matmul = s->op == DMO_NET_FC, gemm = !strcmp(l->op_name, "com.microsoft:QGemm");
	/* B stored [K][N] (QLinearMatMul, QGemm without transB): fc's
	 * [N][K] is its transpose. */
	const int transpose = matmul && !(gemm && dmo_model_onnx_int(model, i, "transB", 0));
	const struct dmo_net_tensor *in[DMO_NET_MAX_INPUTS] = { 0 };
	char what[160];
	int rc;

	snprintf(what, sizeof what, "layer %zu '%s': %s", i + 1, l->name, l->op_name);
	if (gemm && s->n_inputs == BIAS + 1) { /* QGemm's C, Y scale, Y zero point: C last */
		const int c = s->inputs[BIAS - 2];

		s->inputs[BIAS - 2] = s->inputs[BIAS - 1];
		s->inputs[BIAS - 1] = s->inputs[BIAS];
		s->inputs[BIAS] = c;
	}
	if (s->n_inputs < BIAS || s->n_inputs > (matmul && !gemm ? BIAS : BIAS + 1)) {
		snprintf(err, err_len, "%s: %d operands", what, s->n_inputs);
		return -1;
	}
	for (int k = 0; k < s->n_inputs; k++)
		in[k] = s->inputs[k] >= 0 ? &net->tensors[s->inputs[k]] : NULL;
	struct dmo_net_tensor *x = in[X] ? &net->tensors[s->inputs[X]] : NULL, *y = &net->tensors[s->output];
	struct dmo_net_tensor *w = in[W] ? &net->tensors[s->inputs[W]] : NULL;
	if (!x || !w || !w->data || w->rank != (matmul ? 2 : 4) ||
	    (w->dtype != DMO_NET_I8 && w->dtype != DMO_NET_U8) ||
	    (x->dtype == DMO_NET_I8 && w->dtype != DMO_NET_I8)) {
		snprintf(err, err_len, "%s: W must be a constant %d-D int8 or uint8 tensor (int8 with int8 "
			 "activations)", what, matmul ? 2 : 4);
		return -1;
	}
	const int channels = w->dims[transpose ? 1 : 0];
	const uint64_t w_count = in[W_SCALE] ? net_elems(in[W_SCALE]) : 0;
	const int shift = x->dtype == DMO_NET_U8 && w->dtype == DMO_NET_I8 ? 128 : 0;
	if (w_count != 1 && w_count != (uint64_t)channels) {
		snprintf(err, err_len, "%s: W's scale has %llu values for %d output channels", what,
			 (unsigned long long)w_count, channels);
		return -1;
	}
	if ((transpose || shift) && model->tensors[s->inputs[W]].n_consumers != 1) {
		snprintf(err, err_len, "%s: W, read by other layers too, would need other values", what);
		return -1;
	}
	if ((rc = set_quantisation(net, x, in[X_SCALE], in[X_ZERO], 1, 0, 0, what, err, err_len)) ||
	    (rc = set_quantisation(net, w, in[W_SCALE], in[W_ZERO], w_count, 0, shift, what, err,
				   err_len)) ||
	    (rc = set_quantisation(net, y, in[Y_SCALE], in[Y_ZERO], 1, 0, 0, what, err, err_len)))
		return rc;
	if (transpose || shift) {
		const uint64_t n = net_elems(w), k = (uint64_t)w->dims[0];
		const unsigned char *from = w->data;
		unsigned char *copy = owned_by(net, malloc(n));
		if (!copy)
			return -2;
		/* Byte e of fc's [N][K] is B's [e % K][e / K]. */
		for (uint64_t e = 0; e < n; e++)
			copy[e] = (unsigned char)(from[transpose ? e % k * (uint64_t)channels + e / k : e] + shift);
		w->data = copy;
		if (transpose) {
			w->dims[0] = channels;
			w->dims[1] = (int)k;
		}
		if (shift)
			w->dtype = DMO_NET_U8;
	}
	float *factors = owned_by(net, malloc(sizeof *factors * (size_t)w_count));
	if (!factors)
		return -2;
	const float x_scale = *(const float *)in[X_SCALE]->data, y_scale = *(const float *)in[Y_SCALE]->data;
	for (uint64_t c = 0; c < w_count; c++)
		factors[c] = x_scale * ((const float *)in[W_SCALE]->data)[c] / y_scale;
	s->real_scales = factors;
	s->n_real_scales = (int)w_count;
	s->inputs[1] = s->inputs[W];
	s->inputs[2] = s->n_inputs > BIAS ? s->inputs[BIAS] : DMO_NET_ABSENT;
	s->n_inputs = 3;
	return 0;
}

/* ONNX Runtime's QOperator ops of the com.microsoft domain: QLinearAdd and
 * QLinearMul (A, A scale, A zero point, B, B scale, B zero point, C scale,
 * C zero point), QLinearGlobalAveragePool and QLinearAveragePool (X, X
 * scale, X zero point, Y scale, Y zero point), QLinearConcat (Y scale, Y
 * zero point, then X, X scale, X zero point an input).  Each scale and zero point (constants, one each;
 * a zero point may be absent: 0) becomes its tensor's quantisation; the
 * step keeps A and B, or X.  Returns 0, -1 with ERR, -2 when out of
 * memory. */
static int qoperator_operands(const struct dmo_model *model, size_t i, struct dmo_net *net,
			      struct dmo_net_step *s, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	const int pool = s->op == DMO_NET_QLINEARMEAN || s->op == DMO_NET_QLINEARAVGPOOL;
	const struct dmo_net_tensor *in[DMO_NET_MAX_INPUTS] = { 0 };
	char what[160];
	int rc;

	snprintf(what, sizeof what, "layer %zu '%s': %s", i + 1, l->name, l->op_name);
	if (s->op == DMO_NET_QLINEARCONCAT) {
		/* Y scale, Y zero point, then (X, X scale, X zero point) an
		 * input: Y's quantisation, each X's, and the step keeps the
		 * Xs, along the node's axis. */
		if (s->n_inputs < 5 || (s->n_inputs - 2) % 3) {
			snprintf(err, err_len, "%s: %d operands, not Y's scale and zero point and a "
				 "triple an input", what, s->n_inputs);
			return -1;
		}
		for (int k = 0; k < s->n_inputs; k++)
			in[k] = s->inputs[k] >= 0 ? &net->tensors[s->inputs[k]] : NULL;
		if ((rc = set_quantisation(net, &net->tensors[s->output], in[0], in[1], 1, 0, 0, what,
					   err, err_len)))
			return rc;
		int n = 0;
		for (int k = 2; k < s->n_inputs; k += 3) {
			if (!in[k]) {
				snprintf(err, err_len, "%s: input %d absent", what, k + 1);
				return -1;
			}
			if ((rc = set_quantisation(net, &net->tensors[s->inputs[k]], in[k + 1], in[k + 2], 1,
						   0, 0, what, err, err_len)))
				return rc;
			s->inputs[n++] = s->inputs[k];
		}
		s->n_inputs = n;
		s->axis = (int)dmo_model_onnx_int(model, i, "axis", 0);
		return 0;
	}
	if (s->n_inputs != (pool ? 5 : 8)) {
		snprintf(err, err_len, "%s: %d operands", what, s->n_inputs);
		return -1;
	}
	for (int k = 0; k < s->n_inputs; k++)
		in[k] = s->inputs[k] >= 0 ? &net->tensors[s->inputs[k]] : NULL;
	struct dmo_net_tensor *x = &net->tensors[s->inputs[0]], *y = &net->tensors[s->output];
	if ((rc = set_quantisation(net, x, in[1], in[2], 1, 0, 0, what, err, err_len)))
		return rc;
	if (pool) {
		s->n_inputs = 1;
		return set_quantisation(net, y, in[3], in[4], 1, 0, 0, what, err, err_len);
	}
	if (!in[3]) {
		snprintf(err, err_len, "%s: no B", what);
		return -1;
	}
	if ((rc = set_quantisation(net, &net->tensors[s->inputs[3]], in[4], in[5], 1, 0, 0, what, err,
				   err_len)) ||
	    (rc = set_quantisation(net, y, in[6], in[7], 1, 0, 0, what, err, err_len)))
		return rc;
	s->inputs[1] = s->inputs[3];
	s->n_inputs = 2;
	return 0;
}

/* Float32 constant operand K of step S: its value, or DEF when absent. */
static float scalar_operand(const struct dmo_net *net, const struct dmo_net_step *s, int k,
			    float def)
{
	const struct dmo_net_tensor *t = k < s->n_inputs && s->inputs[k] >= 0 ? &net->tensors[s->inputs[k]] : NULL;

	return t && t->data && t->dtype == DMO_NET_F32 ? *(const float *)t->data : def;
}

/* An ONNX BatchNormalization (inference form) as batchnorm: X scale' + B'
 * per channel, scale' = scale / sqrt(var + epsilon) and B' = B - mean
 * scale', computed in float as ONNX Runtime does, in copies the net owns
 * in place of scale and B.  Returns as qdq_quantisation. */
static int batchnorm_affine(const struct dmo_model *model, size_t i, struct dmo_net *net,
			    struct dmo_net_step *s, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	const float eps = (float)dmo_model_onnx_float(model, i, "epsilon", 1e-5);
	struct dmo_net_tensor *t[4];
	uint64_t channels = 0;

	for (int k = 0; k < 4; k++) {
		t[k] = k + 1 < s->n_inputs && s->inputs[k + 1] >= 0 ? &net->tensors[s->inputs[k + 1]] : NULL;
		if (k == 0 && t[k])
			channels = net_elems(t[k]);
		if (!t[k] || !t[k]->data || t[k]->dtype != DMO_NET_F32 || net_elems(t[k]) != channels ||
		    (k < 2 && model->tensors[s->inputs[k + 1]].n_consumers != 1)) {
			snprintf(err, err_len, "layer %zu '%s': %s needs float32 constants scale, B, mean "
				 "and var of one value per channel, scale and B read by it alone",
				 i + 1, l->name, l->op_name);
			return -1;
		}
	}
	float *scale = owned_by(net, malloc(sizeof *scale * channels + 1));
	float *shift = owned_by(net, malloc(sizeof *shift * channels + 1));
	if (!scale || !shift)
		return -2;
	for (uint64_t c = 0; c < channels; c++) {
		const float *g = t[0]->data, *b = t[1]->data, *mean = t[2]->data, *var = t[3]->data;

		scale[c] = g[c] * (1.0f / sqrtf(var[c] + eps));
		shift[c] = b[c] - mean[c] * scale[c];
	}
	t[0]->data = scale;
	t[1]->data = shift;
	s->n_inputs = 3;
	return 0;
}

/* The options of ONNX's element-moving ops, from the op spec the reader
 * resolved (Clip's bounds, Pad's pads, ReduceMean's axes) or an attribute
 * (Concat's axis): what TFLite gives as operands.  Returns as
 * qdq_quantisation. */
static int onnx_options(const struct dmo_model *model, size_t i, struct dmo_net *net,
			struct dmo_net_step *s, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	int rank = s->inputs[0] >= 0 ? net->tensors[s->inputs[0]].rank : 0;

	switch (s->op) {
	case DMO_NET_RELU: /* Clip to [0, inf) or [0, 6], or other bounds */
		if (l->op.op == DMO_OP_RELU6)
			s->op = DMO_NET_RELU6;
		if (l->op.op == DMO_OP_CLIP) {
			/* Bounds: inputs from opset 11, attributes before. */
			s->op = DMO_NET_CLIP;
			s->clip_lo = scalar_operand(net, s, 1, (float)dmo_model_onnx_float(model, i, "min", -INFINITY));
			s->clip_hi = scalar_operand(net, s, 2, (float)dmo_model_onnx_float(model, i, "max", INFINITY));
		}
		s->n_inputs = 1;
		return 0;
	case DMO_NET_SUB:
	case DMO_NET_DIV:
	case DMO_NET_POW:
		s->commuted = dmo_model_onnx_commuted(model, i);
		return 0;
	case DMO_NET_HARDSIGMOID:
		s->alpha = (float)dmo_model_onnx_float(model, i, "alpha", 0.2);
		s->beta = (float)dmo_model_onnx_float(model, i, "beta", 0.5);
		return 0;
	case DMO_NET_BATCHNORM:
		return batchnorm_affine(model, i, net, s, err, err_len);
	case DMO_NET_CONCAT:
		s->axis = (int)dmo_model_onnx_int(model, i, "axis", 0);
		return 0;
	case DMO_NET_PAD: /* the spec's pads are the last RANK of 4 axes */
	case DMO_NET_SLICE: /* the spec's elements removed before and after */
		if (rank > 4) {
			snprintf(err, err_len, "layer %zu '%s': %s of a %d-D tensor", i + 1, l->name,
				 l->op_name, rank);
			return -1;
		}
		s->n_inputs = 1;
		s->pads_given = s->op == DMO_NET_PAD;
		s->pad_mode = l->op.pad_mode;
		s->pad_value = l->op.pad_value;
		for (int d = 0; d < rank; d++) {
			s->pad_before[d] = l->op.before[4 - rank + d];
			s->pad_after[d] = l->op.after[4 - rank + d];
			s->slice_step[d] = l->op.step[4 - rank + d];
		}
		return 0;
	case DMO_NET_MEAN: /* the spec's mean is outer x reduced x 1 x inner */
		s->n_inputs = 1;
		s->mean_outer = l->op.batch;
		s->mean_reduced = l->op.in_h;
		s->mean_inner = l->op.in_c;
		s->reduce = l->op.op == DMO_OP_REDUCEMAX ? DK_REDUCE_MAX
			    : l->op.op == DMO_OP_REDUCEMIN ? DK_REDUCE_MIN
			    : l->op.op == DMO_OP_REDUCESUM ? DK_REDUCE_SUM : DK_REDUCE_MEAN;
		return 0;
	case DMO_NET_SOFTMAX: /* f32 in ONNX's view: the op spec's in and axis */
		s->log_softmax = l->op.op == DMO_OP_LOGSOFTMAX;
		if (l->op.dtype == DMO_F32) {
			s->softmax_axis = l->op.axis;
			s->softmax_view[0] = l->op.batch;
			s->softmax_view[1] = l->op.in_h;
			s->softmax_view[2] = l->op.in_w;
			s->softmax_view[3] = l->op.in_c;
		}
		return 0;
	case DMO_NET_UNARY: /* ONNX's attribute defaults; Pow's exponent */
		s->unary = dmo_op_onnx_unary(l->op.op);
		s->alpha = (float)dmo_model_onnx_float(model, i, "alpha",
						       l->op.op == DMO_OP_LEAKYRELU ? 0.01
						       : l->op.op == DMO_OP_SELU ? 1.67326319217681884765625 : 1.0);
		s->gamma = (float)dmo_model_onnx_float(model, i, "gamma", 1.05070102214813232421875);
		s->exponent = scalar_operand(net, s, 1, 1);
		if (l->op.op == DMO_OP_SCALE) /* as ONNX Runtime: 1 / n in float */
			s->alpha = 1.0f / (float)dmo_model_onnx_inputs(model, i);
		s->n_inputs = 1;
		return 0;
	case DMO_NET_QUANTIZE:
	case DMO_NET_DEQUANTIZE:
		return qdq_quantisation(model, i, net, s, err, err_len);
	case DMO_NET_TRANSPOSE: /* over the spec's 4-D in, its axes merged */
		s->perm_given = 1;
		memcpy(s->perm, l->op.perm, sizeof s->perm);
		s->perm_dims[0] = l->op.batch;
		s->perm_dims[1] = l->op.in_h;
		s->perm_dims[2] = l->op.in_w;
		s->perm_dims[3] = l->op.in_c;
		return 0;
	default:
		return 0;
	}
}

/* Whether ONNX layer I, which has no op spec, only computes a shape: it
 * writes int32 or int64 tensors, none a model output, that no kernel reads
 * as data (a Reshape's shape operand, or another such layer's input). */
static int shape_only(const struct dmo_model *model, size_t i)
{
	const struct dmo_model_layer *l = &model->layers[i];

	if (l->supported)
		return 0;
	for (size_t r = 0; r < l->n_results; r++) {
		const struct dmo_model_tensor *t = &model->tensors[l->results[r]];

		if (t->graph_output || !t->type_name ||
		    (strcmp(t->type_name, "int64") && strcmp(t->type_name, "int32")))
			return 0;
		for (size_t k = i + 1; k < model->n_layers; k++) {
			const struct dmo_model_layer *reader = &model->layers[k];

			if (reader->n_operands && reader->operands[0] == l->results[r] &&
			    !shape_only(model, k))
				return 0;
		}
	}
	return 1;
}

static int step_of(const struct dmo_model *model, size_t i, struct dmo_net *net, char *err,
		   size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	const struct op_of_name *ops = model->format == DMO_FORMAT_ONNX ? onnx_ops : tflite_ops;
	struct dmo_net_step *s = &net->steps[i];
	size_t k;

	if (model->format == DMO_FORMAT_ONNX && shape_only(model, i)) {
		*s = (struct dmo_net_step){ .name = l->name, .op = DMO_NET_SHAPE_ONLY, .n_inputs = 1,
					    .inputs = { DMO_NET_ABSENT }, .output = l->results[0] };
		return 0;
	}
	for (k = 0; ops[k].name; k++)
		if (l->op_name && !strcmp(l->op_name, ops[k].name))
			break;
	if (!ops[k].name) {
		snprintf(err, err_len, "layer %zu '%s': operator %s has no dmo kernel", i + 1, l->name,
			 l->op_name ? l->op_name : "?");
		return -1;
	}
	if (l->n_operands > DMO_NET_MAX_INPUTS || l->n_results != 1) {
		snprintf(err, err_len, "layer %zu '%s': %zu operands and %zu results", i + 1, l->name,
			 l->n_operands, l->n_results);
		return -1;
	}
	if (l->act != DMO_ACT_NONE && l->act != DMO_ACT_RELU && l->act != DMO_ACT_RELU6 &&
	    l->act != DMO_ACT_RELU_N1_TO_1) {
		snprintf(err, err_len, "layer %zu '%s': fused activation %s is not supported", i + 1,
			 l->name, dmo_act_name(l->act));
		return -1;
	}
	*s = (struct dmo_net_step){ .name = l->name, .op = ops[k].op,
				    .n_inputs = (int)l->n_operands, .output = l->results[0],
				    .act = (enum dmo_net_act)l->act, .beta = 1.0f, .axis = -1 };
	for (size_t j = 0; j < l->n_operands; j++)
		s->inputs[j] = l->operands[j];
	if (model->format == DMO_FORMAT_ONNX) {
		/* The reader's op spec holds every option it checked
		 * (unmapped() refused a layer without one). */
		if (l->op.op == DMO_OP_DWCONV2D)
			s->op = DMO_NET_DWCONV2D;
		if (l->op.op == DMO_OP_MATMUL)
			s->op = DMO_NET_MATMUL;
		/* ONNX's variadic ops: one operand's copy, Mean's last pass;
		 * Pow by a tensor. */
		if (l->op.op == DMO_OP_RESHAPE || l->op.op == DMO_OP_SCALE || l->op.op == DMO_OP_POWT)
			s->op = l->op.op == DMO_OP_RESHAPE ? DMO_NET_RESHAPE
				: l->op.op == DMO_OP_SCALE ? DMO_NET_UNARY : DMO_NET_POW;
		if (l->op.op == DMO_OP_GATHER) { /* outer x axis x inner */
			s->op = DMO_NET_GATHER;
			s->n_inputs = 1;
			s->gather_view[0] = l->op.batch * l->op.in_h;
			s->gather_view[1] = l->op.in_w;
			s->gather_view[2] = l->op.in_c;
			s->gather_indices = l->op.indices;
			s->n_gather_indices = l->op.n_indices;
		}
		/* Reshape's shape operand is the output's shape, known. */
		if (s->op == DMO_NET_RESHAPE)
			s->n_inputs = 1;
		/* A softmax's rows are its op spec's channels (the reader's
		 * flattening by the opset's rule). */
		if (s->op == DMO_NET_SOFTMAX)
			s->softmax_row = l->op.in_c;
		s->nchw = l->op.layout == DMO_LAYOUT_NCHW;
		int rc = onnx_options(model, i, net, s, err, err_len);
		if (rc)
			return rc;
	}
	/* The options the reader resolved into the op spec. */
	if (l->supported) {
		s->padding_same = l->op.pad == DMO_PAD_SAME;
		s->stride_h = l->op.stride_h;
		s->stride_w = l->op.stride_w;
		s->dil_h = l->op.dil_h;
		s->dil_w = l->op.dil_w;
		s->filter_h = l->op.k_h;
		s->filter_w = l->op.k_w;
		s->mult = l->op.mult;
		s->groups = l->op.group;
		s->trans_a = l->op.trans_a;
		s->count_pad = l->op.count_pad;
		if (l->op.pad == DMO_PAD_EXPLICIT && model->format != DMO_FORMAT_ONNX) {
			/* TFLite has SAME and VALID only: a file that says
			 * otherwise is not what its reader resolved. */
			snprintf(err, err_len, "layer %zu '%s': explicit padding", i + 1, l->name);
			return -1;
		}
		s->pad_explicit = l->op.pad == DMO_PAD_EXPLICIT;
		s->pad_top = l->op.pad_top;
		s->pad_left = l->op.pad_left;
		s->pad_bottom = l->op.pad_bottom;
		s->pad_right = l->op.pad_right;
	} else if (s->op <= DMO_NET_RELU6) {
		snprintf(err, err_len, "layer %zu '%s': %s without its options (%s)", i + 1, l->name,
			 l->op_name, l->why ? l->why : "no op spec");
		return -1;
	}
	if (s->op == DMO_NET_QLINEARAVGPOOL && l->op.op == DMO_OP_QLINEARMEAN)
		s->op = DMO_NET_QLINEARMEAN; /* a window of the whole plane: the global pool */
	if (s->op >= DMO_NET_QLINEARADD && s->op <= DMO_NET_QLINEARCONCAT)
		return qoperator_operands(model, i, net, s, err, err_len);
	if (model->format == DMO_FORMAT_ONNX &&
	    (!strncmp(l->op_name, "QLinear", 7) || !strcmp(l->op_name, "com.microsoft:QGemm")))
		return qlinear_operands(model, i, net, s, err, err_len);
	return s->op == DMO_NET_FC && model->format == DMO_FORMAT_ONNX
		       ? gemm_as_fc(model, i, net, s, err, err_len)
		       : 0;
}

/* Whether ONNX layer I is a DequantizeLinear of a constant (ONNX Runtime's
 * QDQ weights and biases): it has no op spec, as its input is in no
 * arena, and runs as a step, as ONNX Runtime runs it (its constant
 * folding leaves DequantizeLinear to the QDQ fusions; docs/models.md). */
static int dequantized_constant(const struct dmo_model *model, size_t i)
{
	const struct dmo_model_layer *l = &model->layers[i];

	return l->op_name && !strcmp(l->op_name, "DequantizeLinear") && l->n_operands > 0 &&
	       l->operands[0] >= 0 && model->tensors[l->operands[0]].producer == DMO_MODEL_CONSTANT;
}

/* Whether ONNX layer I has no op spec and no kernel: then ERR names its
 * layer, node and operator, and why the reader left it without one. */
static int unmapped(const struct dmo_model *model, size_t i, char *err, size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	size_t k;

	for (k = 0; onnx_ops[k].name; k++)
		if (l->op_name && !strcmp(l->op_name, onnx_ops[k].name))
			break;
	if ((l->supported && onnx_ops[k].name) || shape_only(model, i) || dequantized_constant(model, i))
		return 0;
	snprintf(err, err_len, "layer %zu '%s': operator %s has no dmo kernel (node %d: %s)", i + 1,
		 l->name, l->op_name ? l->op_name : "?", l->row + 1,
		 l->why ? l->why : !onnx_ops[k].name ? "not an ONNX operator dmo runs" : "no op spec");
	return 1;
}

int dmo_net_from_model(const struct dmo_model *model, struct dmo_net *net, char *err,
		       size_t err_len)
{
	*net = (struct dmo_net){ 0 };
	/* First the operators dmo cannot run, named, before any tensor's
	 * type or shape: what a user must know about a model first. */
	for (size_t i = 0; model->format == DMO_FORMAT_ONNX && i < model->n_layers; i++)
		if (unmapped(model, i, err, err_len))
			return -1;
	if (model->format == DMO_FORMAT_TABLE) {
		snprintf(err, err_len, "dmo infer runs .tflite and .onnx models (a layer table has no weights)");
		return -1;
	}
	net->tensors = calloc(model->n_tensors ? model->n_tensors : 1, sizeof *net->tensors);
	net->steps = calloc(model->n_layers ? model->n_layers : 1, sizeof *net->steps);
	if (!net->tensors || !net->steps) {
		dmo_net_free(net);
		snprintf(err, err_len, "out of memory");
		return -2;
	}
	net->n_tensors = model->n_tensors;
	net->n_steps = model->n_layers;
	for (size_t t = 0; t < model->n_tensors; t++)
		if (tensor_of(&model->tensors[t],
			      model->format == DMO_FORMAT_ONNX && model->tensors[t].producer >= 0 &&
				      shape_only(model, (size_t)model->tensors[t].producer),
			      &net->tensors[t], err, err_len))
			goto fail;
	for (size_t i = 0; i < model->n_layers; i++) {
		int rc = step_of(model, i, net, err, err_len);
		if (rc == -2) {
			dmo_net_free(net);
			snprintf(err, err_len, "out of memory");
			return -2;
		}
		if (rc)
			goto fail;
	}
	return 0;
fail:
	dmo_net_free(net);
	return -1;
}

int dmo_net_runs(const struct dmo_model *model, struct dmo_net *net, char *why, size_t why_len)
{
	int rc = dmo_net_from_model(model, net, why, why_len);

	if (rc != 0)
		return rc == -2 ? -1 : 0;
	if (dmo_net_check(net, why, why_len) != 0) {
		dmo_net_free(net);
		return 0;
	}
	return 1;
}

void dmo_net_free(struct dmo_net *net)
{
	for (size_t i = 0; i < net->n_owned; i++)
		free(net->owned[i]);
	free(net->owned);
	free(net->tensors);
	free(net->steps);
	*net = (struct dmo_net){ 0 };
}
