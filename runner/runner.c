/* runner.c - op spec -> dk_* kernel call, with deterministic weights and
 * quantisation parameters and a pthread split of the output (runner.h). */
#include "runner.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmokernels.h"

struct dmo_op_run {
	struct dmo_opspec spec;
	struct dk_params params;
	void *filter; /* conv2d, dwconv2d, fc */
	void *bias;   /* same ops: float, int32 (i8) or int64 (i16) */
	void *in2;    /* add, mul: the prepared second operand; concat: the
		       * inputs after the profiled one; matmul: B */
	void *in_before; /* concat: the inputs before the profiled one */
	int64_t pad_value; /* pad: the border element (i8: the zero point) */
};

/* splitmix64: tiny, and the same sequence on every platform. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform integer in [lo, hi]. */
static int64_t random_in(uint64_t *state, int64_t lo, int64_t hi)
{
	return lo + (int64_t)(next_random(state) % (uint64_t)(hi - lo + 1));
}

/* Uniform in [-1, 1) with 24 random bits, so every value is exact in f32. */
static float random_unit(uint64_t *state)
{
	return (float)(next_random(state) >> 40) / (float)(1 << 23) - 1.0f;
}

/* The data of an op depends on its canonical text only (FNV-1a), so the
 * same layer gets the same weights in every run and every program. */
static uint64_t spec_seed(const struct dmo_opspec *spec)
{
	char text[512];
	uint64_t h = 0xcbf29ce484222325ull;

	dmo_opspec_format(spec, text, sizeof text);
	for (const char *c = text; *c; c++)
		h = (h ^ (unsigned char)*c) * 0x100000001b3ull;
	return h;
}

/* Fill N values whose size is ELEM_SIZE bytes: floats for 4-byte f32,
 * otherwise full-range signed integers of that width. */
static void fill_values(void *buf, uint64_t n, size_t elem_size, int is_float,
			uint64_t *state)
{
	for (uint64_t i = 0; i < n; i++) {
		switch (elem_size) {
		case 1:
			((int8_t *)buf)[i] = (int8_t)random_in(state, INT8_MIN, INT8_MAX);
			break;
		case 2:
			((int16_t *)buf)[i] = (int16_t)random_in(state, INT16_MIN, INT16_MAX);
			break;
		default:
			if (is_float)
				((float *)buf)[i] = random_unit(state);
			else
				((int32_t *)buf)[i] = (int32_t)next_random(state);
		}
	}
}

void dmo_op_fill_input(const struct dmo_opspec *spec, void *in, uint64_t seed)
{
	uint64_t state = seed;

	fill_values(in, dmo_opspec_in_elems(spec), dmo_dtype_size(spec->dtype),
		    spec->dtype == DMO_F32, &state);
}

/* Quantisation in the style of TFLite's reference tests: random zero points
 * for i8 (i16 is symmetric), and requantisation factors that keep typical
 * results inside the output range, so outputs are not all clamped. */
static void make_quant(struct dmo_op_run *r, uint64_t *state)
{
	const struct dmo_opspec *s = &r->spec;
	struct dk_quant *q = &r->params.q;
	/* uint8 (ONNX's QLinear ops) is int8's arithmetic 128 higher. */
	int i8 = s->dtype == DMO_I8 || s->dtype == DMO_U8;
	int32_t offset = s->dtype == DMO_U8 ? 128 : 0;
	double taps = 1, factor;

	if (s->op == DMO_OP_QUANTIZE || s->op == DMO_OP_DEQUANTIZE) {
		/* Scales that map typical inputs inside the output range. */
		q->scale = s->op == DMO_OP_QUANTIZE ? 1.0f / 100 : 1.0f / 20;
		q->in_zero = s->dtype == DMO_I8 || s->dtype == DMO_U8
				     ? (s->dtype == DMO_U8 ? 128 : 0) + (int32_t)random_in(state, -8, 7)
				     : 0;
		q->out_zero = s->out_dtype == DMO_I8 || s->out_dtype == DMO_U8
				      ? (s->out_dtype == DMO_U8 ? 128 : 0) + (int32_t)random_in(state, -8, 7)
				      : 0;
		dk_quantize_multiplier(0.7, &q->out_mult, &q->out_shift);
		return;
	}
	if (s->dtype == DMO_F32)
		return;
	if (s->op >= DMO_OP_QLINEARADD && s->op <= DMO_OP_QLINEARAVGPOOL) {
		/* ONNX Runtime's float scales: an output scale that keeps a
		 * sum, product or mean of typical inputs inside the range. */
		q->qlinear_scales[0] = 1.0f / 64;
		q->qlinear_scales[1] = 1.0f / 48;
		q->qlinear_scales[2] = s->op == DMO_OP_QLINEARMUL ? 1.0f / 8 : 1.0f / 32;
	}
	if (i8) {
		q->in_zero = offset + (int32_t)random_in(state, -8, 7);
		q->in2_zero = offset + (int32_t)random_in(state, -8, 7);
		q->out_zero = offset + (int32_t)random_in(state, -8, 7);
		q->filter_zero = offset;
	}
	q->act_min = i8 ? offset + INT8_MIN : INT16_MIN;
	q->act_max = i8 ? offset + INT8_MAX : INT16_MAX;
	switch (s->op) {
	case DMO_OP_CONV2D:
		taps = (double)s->k_h * s->k_w * s->in_c;
		break;
	case DMO_OP_DWCONV2D:
		taps = (double)s->k_h * s->k_w;
		break;
	case DMO_OP_FC:
		taps = (double)s->in_h * s->in_w * s->in_c;
		break;
	default:
		break;
	}
	switch (s->op) {
	case DMO_OP_RELU6:
		/* The quantised 6.0 of an output scale of 6/100 (i8), 6/24000. */
		q->act_max = i8 ? q->out_zero + 100 : 24000;
		/* fall through */
	case DMO_OP_RELU:
		factor = 0.9;
		break;
	case DMO_OP_MUL:
		factor = i8 ? 1.0 / 90 : 1.0 / 20000;
		break;
	case DMO_OP_SOFTMAX:
		dk_softmax_quant(1.0f, 1.0f / 16, q);
		return;
	case DMO_OP_LOGISTIC:
		dk_logistic_quant(1.0f / 16, q);
		return;
	case DMO_OP_MEAN:
		factor = 0.9;
		break;
	case DMO_OP_ADD:
		q->left_shift = i8 ? 20 : 15;
		dk_quantize_multiplier(0.5, &q->in_mult, &q->in_shift);
		dk_quantize_multiplier(0.5, &q->in2_mult, &q->in2_shift);
		factor = 1.0 / (1 << q->left_shift);
		break;
	default: /* accumulators grow like sqrt(taps) */
		factor = 1.0 / ((i8 ? 400.0 : 200.0) * sqrt(taps));
	}
	dk_quantize_multiplier(factor, &q->out_mult, &q->out_shift);
}

/* Allocate N elements of SIZE bytes, or fail without overflow. */
static void *alloc_elems(uint64_t n, size_t size)
{
	uint64_t bytes;

	if (__builtin_mul_overflow(n, (uint64_t)size, &bytes) || bytes > SIZE_MAX)
		return NULL;
	return malloc(bytes ? bytes : 1);
}

/* Concat's other inputs: AT channels before the profiled input's, the rest
 * after, each per pixel (docs/kernels.md); either may be empty. */
static int make_concat_inputs(struct dmo_op_run *r, uint64_t *state)
{
	const struct dmo_opspec *s = &r->spec;
	uint64_t pixels = (uint64_t)s->batch * s->in_h * s->in_w;
	size_t es = dmo_dtype_size(s->dtype);

	r->in_before = alloc_elems(pixels * (uint64_t)s->before[3], es);
	r->in2 = alloc_elems(pixels * (uint64_t)s->after[3], es);
	if (r->in_before == NULL || r->in2 == NULL)
		return -1;
	fill_values(r->in_before, pixels * (uint64_t)s->before[3], es, s->dtype == DMO_F32, state);
	fill_values(r->in2, pixels * (uint64_t)s->after[3], es, s->dtype == DMO_F32, state);
	return 0;
}

static int make_weights(struct dmo_op_run *r, uint64_t *state)
{
	const struct dmo_opspec *s = &r->spec;
	int is_float = s->dtype == DMO_F32;
	/* Integer kernels take int8 filters and int32 (i8) or int64 (i16) bias. */
	size_t filter_size = is_float ? sizeof(float) : 1;
	size_t bias_size = is_float ? sizeof(float) : s->dtype == DMO_I16 ? 8 : 4;
	uint64_t n_filter = (uint64_t)s->k_h * s->k_w;

	if (s->op == DMO_OP_CONV2D || s->op == DMO_OP_CONVT)
		n_filter *= (uint64_t)s->out_c * (s->in_c / s->group);
	else if (s->op == DMO_OP_DWCONV2D)
		n_filter *= (uint64_t)s->out_c;
	else
		n_filter = (uint64_t)s->out_c * s->in_h * s->in_w * s->in_c;
	r->filter = alloc_elems(n_filter, filter_size);
	r->bias = alloc_elems((uint64_t)s->out_c, bias_size);
	if (r->filter == NULL || r->bias == NULL)
		return -1;
	fill_values(r->filter, n_filter, filter_size, is_float, state);
	if (filter_size == 1) /* symmetric int8 filters never use -128 */
		for (uint64_t i = 0; i < n_filter; i++)
			if (((int8_t *)r->filter)[i] == INT8_MIN)
				((int8_t *)r->filter)[i] = INT8_MIN + 1;
	for (int c = 0; c < s->out_c; c++) {
		if (is_float)
			((float *)r->bias)[c] = random_unit(state);
		else if (bias_size == 4)
			((int32_t *)r->bias)[c] = (int32_t)random_in(state, -4096, 4095);
		else
			((int64_t *)r->bias)[c] = random_in(state, -65536, 65535);
	}
	return 0;
}

struct dmo_op_run *dmo_op_prepare(const struct dmo_opspec *spec, char *err,
				  size_t err_len)
{
	struct dmo_op_run *r;
	uint64_t state = spec_seed(spec);
	const char *have = dmo_opspec_kernel_gap(spec);
	int ok = 1;

	if (have != NULL) {
		if (spec->dtype == spec->out_dtype)
			snprintf(err, err_len, "%s of dtype %s has no reference kernel (there are %s)",
				 dmo_op_name(spec->op), dmo_dtype_name(spec->dtype), have);
		else
			snprintf(err, err_len, "%s from %s to %s has no reference kernel (there are %s)",
				 dmo_op_name(spec->op), dmo_dtype_name(spec->dtype),
				 dmo_dtype_name(spec->out_dtype), have);
		return NULL;
	}
	r = calloc(1, sizeof *r);
	if (r == NULL) {
		snprintf(err, err_len, "out of memory");
		return NULL;
	}
	r->spec = *spec;
	r->params = (struct dk_params){
		.batch = spec->batch, .in_h = spec->in_h, .in_w = spec->in_w, .in_c = spec->in_c,
		.out_h = spec->out_h, .out_w = spec->out_w, .out_c = spec->out_c,
		.k_h = spec->k_h, .k_w = spec->k_w,
		.stride_h = spec->stride_h, .stride_w = spec->stride_w,
		.dil_h = spec->dil_h, .dil_w = spec->dil_w,
		.pad_top = spec->pad_top, .pad_left = spec->pad_left, .mult = spec->mult,
		.beta = 1.0f, .groups = spec->group, .trans_a = spec->trans_a,
		.count_pad = spec->count_pad,
	};
	make_quant(r, &state);
	switch (spec->op) {
	case DMO_OP_CONV2D:
	case DMO_OP_DWCONV2D:
	case DMO_OP_FC:
	case DMO_OP_CONVT:
		ok = make_weights(r, &state) == 0;
		break;
	case DMO_OP_HARDSIGMOID: /* ONNX's defaults */
		r->params.alpha = 0.2f;
		r->params.beta = 0.5f;
		break;
	case DMO_OP_CLIP: /* bounds inside the inputs' [-1, 1) */
		r->params.lo = -0.5f;
		r->params.hi = 0.5f;
		break;
	case DMO_OP_BATCHNORM: /* a scale and a shift per channel */
		r->filter = alloc_elems((uint64_t)spec->in_h, sizeof(float));
		r->bias = alloc_elems((uint64_t)spec->in_h, sizeof(float));
		ok = r->filter != NULL && r->bias != NULL;
		if (ok) {
			fill_values(r->filter, (uint64_t)spec->in_h, sizeof(float), 1, &state);
			fill_values(r->bias, (uint64_t)spec->in_h, sizeof(float), 1, &state);
		}
		break;
	case DMO_OP_LEAKYRELU: /* ONNX's default attributes */
	case DMO_OP_ELU:
	case DMO_OP_SELU:
	case DMO_OP_POW: /* a square, as ONNX Runtime computes it */
		r->params.alpha = spec->op == DMO_OP_LEAKYRELU ? 0.01f
				  : spec->op == DMO_OP_SELU ? 1.67326319217681884765625f : 1.0f;
		r->params.gamma = 1.05070102214813232421875f;
		r->params.exponent = 2;
		break;
	case DMO_OP_SCALE: /* ONNX's Mean of two */
		r->params.alpha = 0.5f;
		break;
	case DMO_OP_CONCAT:
		ok = make_concat_inputs(r, &state) == 0;
		break;
	case DMO_OP_MATMUL: { /* B: a K x units matrix per N x H */
		uint64_t n = (uint64_t)spec->batch * spec->in_h * spec->in_c * spec->out_c;

		r->in2 = alloc_elems(n, sizeof(float));
		if (r->in2 != NULL)
			fill_values(r->in2, n, sizeof(float), 1, &state);
		ok = r->in2 != NULL;
		break;
	}
	case DMO_OP_PAD:
		/* A value the spec gives; else the i8 zero point. */
		r->pad_value = spec->pad_value != 0 ? (int64_t)spec->pad_value
			       : spec->dtype == DMO_I8 ? r->params.q.out_zero : 0;
		break;
	default:
		/* A second operand of the input's shape (dmo_op_binary). */
		if (dmo_op_binary(spec->op)) {
			r->in2 = alloc_elems(dmo_opspec_in_elems(spec), dmo_dtype_size(spec->dtype));
			if (r->in2 != NULL)
				dmo_op_fill_input(spec, r->in2, next_random(&state));
			ok = r->in2 != NULL;
		}
		break;
	}
	if (!ok) {
		snprintf(err, err_len, "out of memory for the weights of %s", dmo_op_name(spec->op));
		dmo_op_free(r);
		return NULL;
	}
	return r;
}

void dmo_op_free(struct dmo_op_run *run)
{
	if (run == NULL)
		return;
	free(run->filter);
	free(run->bias);
	free(run->in2);
	free(run->in_before);
	free(run);
}

void dmo_op_weights(const struct dmo_op_run *run, struct dmo_op_weights *weights)
{
	*weights = (struct dmo_op_weights){ run->filter, run->bias, run->in2 };
}

const struct dk_params *dmo_op_params(const struct dmo_op_run *run)
{
	return &run->params;
}

/* The layout kernels (any element size) over the NHWC input. */
static int call_layout(const struct dmo_op_run *r, const void *in, const void *in2,
		       void *out, const struct dk_thread *t)
{
	const struct dmo_opspec *s = &r->spec;
	const struct dk_shape shape = { 4, { s->batch, s->in_h, s->in_w, s->in_c } };
	size_t es = dmo_dtype_size(s->dtype);

	switch (s->op) {
	case DMO_OP_RESHAPE:
		return dk_reshape(in, out, dmo_opspec_in_bytes(s), t);
	case DMO_OP_PAD: {
		unsigned char value[8];
		int32_t v32 = (int32_t)r->pad_value;
		int8_t v8 = (int8_t)r->pad_value;

		int16_t v16 = (int16_t)r->pad_value;
		float f = (float)s->pad_value;

		memset(value, 0, sizeof value);
		if (es == 1)
			memcpy(value, &v8, 1);
		else if (es == 2)
			memcpy(value, &v16, 2);
		else if (es == 4)
			memcpy(value, s->dtype == DMO_F32 ? (const void *)&f : (const void *)&v32, 4);
		if (s->pad_mode != DMO_PAD_CONSTANT) /* ONNX Runtime's order */
			return dk_pad_onnx(&shape, s->before, s->after, (enum dk_pad_mode)s->pad_mode, es,
					   value, in, out, t);
		return dk_pad(&shape, s->before, s->after, es, value, in, out, t);
	}
	case DMO_OP_TRANSPOSE:
		return dk_transpose(&shape, s->perm, es, in, out, t);
	case DMO_OP_SLICE: {
		int start[4], size[4];

		for (int i = 0; i < 4; i++)
			dk_slice_box(shape.dims[i], s->before[i], s->after[i], s->step[i], &start[i], &size[i]);
		return dk_slice(&shape, start, s->step, size, es, in, out, t);
	}
	case DMO_OP_GATHER: /* along W */
		return dk_gather(&shape, 2, s->indices, s->n_indices, es, in, out, t);
	case DMO_OP_RESIZE: {
		/* NCHW buffers: rows and columns are the last two axes. */
		const struct dk_shape nchw = { 4, { s->batch, s->in_c, s->in_h, s->in_w } };
		const int scale[4] = { 1, 1, s->scale_h, s->scale_w };

		return dk_resize_nearest(&nchw, scale, es, in, out, t);
	}
	default: { /* concat: [before,] in [, after] along the channels */
		struct dk_shape shapes[3];
		const void *ins[3];
		int n = 0;
		int widths[3] = { s->before[3], s->in_c, s->after[3] };
		const void *bufs[3] = { r->in_before, in, in2 };

		for (int k = 0; k < 3; k++) {
			if (widths[k] == 0)
				continue;
			shapes[n] = shape;
			shapes[n].dims[3] = widths[k];
			ins[n++] = bufs[k];
		}
		return dk_concat(n, shapes, 3, es, ins, out, t);
	}
	}
}

/* One call of the dk_* function of the op and dtype; void pointers convert
 * to each kernel's element types. */
static int call_kernel(const struct dmo_op_run *r, const void *in, const void *in2,
		       void *out, const struct dk_thread *t)
{
	const struct dk_params *p = &r->params;
	const void *f = r->filter, *b = r->bias;
	enum dmo_dtype dt = r->spec.dtype;

#define BY_DTYPE(name, ...)                                                  \
	(dt == DMO_F32 ? dk_##name##_f32(p, __VA_ARGS__)                     \
	 : dt == DMO_I8 ? dk_##name##_i8(p, __VA_ARGS__)                     \
	 : dt == DMO_U8 ? dk_##name##_u8(p, __VA_ARGS__)                     \
			: dk_##name##_i16(p, __VA_ARGS__))
	/* resize is NCHW and copies elements of any type. */
	if (r->spec.op == DMO_OP_RESIZE)
		return call_layout(r, in, in2, out, t);
	/* NCHW: the float kernels of kernels_nchw.c (dmo_opspec_kernel_gap
	 * refuses other types before a run). */
	if (r->spec.layout == DMO_LAYOUT_NCHW && dt == DMO_F32)
		switch (r->spec.op) {
		case DMO_OP_CONV2D:   return dk_conv2d_nchw_f32(p, in, f, b, out, t);
		case DMO_OP_DWCONV2D: return dk_dwconv2d_nchw_f32(p, in, f, b, out, t);
		case DMO_OP_MAXPOOL:  return dk_maxpool_nchw_f32(p, in, out, t);
		case DMO_OP_AVGPOOL:  return dk_avgpool_nchw_f32(p, in, out, t);
		case DMO_OP_CONVT:    return dk_convt_nchw_f32(p, in, f, b, out, t);
		default:              return -1;
		}
	/* NCHW int8 and uint8: the image-at-a-time convolutions of
	 * kernels_nchw_quant.c, ONNX Runtime's QLinearAveragePool. */
	if (r->spec.layout == DMO_LAYOUT_NCHW)
		switch (r->spec.op) {
		case DMO_OP_CONV2D:
			return dt == DMO_U8 ? dk_conv2d_nchw_u8(p, in, f, b, out, t)
					    : dk_conv2d_nchw_i8(p, in, f, b, out, t);
		case DMO_OP_DWCONV2D:
			return dt == DMO_U8 ? dk_dwconv2d_nchw_u8(p, in, f, b, out, t)
					    : dk_dwconv2d_nchw_i8(p, in, f, b, out, t);
		case DMO_OP_QLINEARAVGPOOL: /* always NCHW */
			return dt == DMO_U8 ? dk_qlinear_avgpool_u8(p, in, out, t)
					    : dk_qlinear_avgpool_i8(p, in, out, t);
		default:
			return -1;
		}
	switch (r->spec.op) {
	case DMO_OP_RELU:     return BY_DTYPE(relu, in, out, t);
	case DMO_OP_RELU6:    return BY_DTYPE(relu6, in, out, t);
	case DMO_OP_ADD:      return BY_DTYPE(add, in, in2, out, t);
	case DMO_OP_MUL:      return BY_DTYPE(mul, in, in2, out, t);
	case DMO_OP_CONV2D:   return BY_DTYPE(conv2d, in, f, b, out, t);
	case DMO_OP_DWCONV2D: return BY_DTYPE(dwconv2d, in, f, b, out, t);
	case DMO_OP_MAXPOOL:  return BY_DTYPE(maxpool, in, out, t);
	case DMO_OP_AVGPOOL:  return BY_DTYPE(avgpool, in, out, t);
	case DMO_OP_FC:       return BY_DTYPE(fc, in, f, b, out, t);
	case DMO_OP_SOFTMAX:
		if (r->spec.axis != 3)
			return dt == DMO_F32 ? dk_softmax_axis_f32(p, r->spec.axis, 0, in, out, t) : -1;
		return dt == DMO_F32 ? dk_softmax_f32(p, in, out, t) : dk_softmax_i8(p, in, out, t);
	case DMO_OP_LOGSOFTMAX:
		return dt == DMO_F32 ? dk_softmax_axis_f32(p, r->spec.axis, 1, in, out, t) : -1;
	case DMO_OP_LOGISTIC:
		return dt == DMO_F32 ? dk_logistic_f32(p, in, out, t) : dk_logistic_i8(p, in, out, t);
	case DMO_OP_TANH:
		return dt == DMO_F32 ? dk_tanh_f32(p, in, out, t) : -1;
	case DMO_OP_SUB:
	case DMO_OP_DIV:
	case DMO_OP_PRELU:
	case DMO_OP_MAX:
	case DMO_OP_MIN:
	case DMO_OP_POWT: {
		/* ONNX's broadcasting kernel, both operands of in's shape. */
		const struct dk_shape shape = { 4, { p->batch, p->in_h, p->in_w, p->in_c } };
		const enum dk_binary op = r->spec.op == DMO_OP_SUB ? DK_SUB
					  : r->spec.op == DMO_OP_DIV ? DK_DIV
					  : r->spec.op == DMO_OP_PRELU ? DK_PRELU
					  : r->spec.op == DMO_OP_MAX ? DK_MAX
					  : r->spec.op == DMO_OP_MIN ? DK_MIN : DK_POWT;

		return dt == DMO_F32 ? dk_binary_bcast_f32(op, &shape, &shape, in, &shape, in2, out, t)
				     : -1;
	}
	case DMO_OP_MATMUL:
		return dt == DMO_F32 ? dk_matmul_f32(p, in, in2, out, t) : -1;
	case DMO_OP_QLINEARADD:
	case DMO_OP_QLINEARMUL: { /* both operands of in's shape */
		const struct dk_shape shape = { 4, { p->batch, p->in_h, p->in_w, p->in_c } };
		const int mul = r->spec.op == DMO_OP_QLINEARMUL;

		return dt == DMO_U8 ? dk_qlinear_binary_u8(mul, p, &shape, &shape, in, in2, out, t)
				    : dk_qlinear_binary_i8(mul, p, &shape, &shape, in, in2, out, t);
	}
	case DMO_OP_QLINEARMEAN:
		return dt == DMO_U8 ? dk_qlinear_mean_u8(p, in, out, t) : dk_qlinear_mean_i8(p, in, out, t);
	case DMO_OP_HARDSIGMOID:
		return dt == DMO_F32 ? dk_hardsigmoid_f32(p, in, out, t) : -1;
	case DMO_OP_HARDSWISH:
		return dt == DMO_F32 ? dk_hardswish_f32(p, in, out, t) : -1;
	case DMO_OP_CLIP:
		return dt == DMO_F32 ? dk_clip_f32(p, in, out, t) : -1;
	case DMO_OP_BATCHNORM:
		return dt == DMO_F32 ? dk_batchnorm_f32(p, f, b, in, out, t) : -1;
	case DMO_OP_MEAN:
		return dt == DMO_F32 ? dk_mean_f32(p, in, out, t) : dk_mean_i8(p, in, out, t);
	case DMO_OP_REDUCEMAX:
	case DMO_OP_REDUCEMIN:
	case DMO_OP_REDUCESUM:
		return dt == DMO_F32 ? dk_reduce_f32(r->spec.op == DMO_OP_REDUCEMAX ? DK_REDUCE_MAX
						     : r->spec.op == DMO_OP_REDUCEMIN ? DK_REDUCE_MIN
										      : DK_REDUCE_SUM,
						     p, in, out, t)
				     : -1;
	case DMO_OP_QUANTIZE:
		return dt != DMO_F32 ? dk_quantize_i8_i8(p, in, out, t)
		       : r->spec.out_dtype == DMO_U8 ? dk_quantize_f32_u8(p, in, out, t)
						      : dk_quantize_f32_i8(p, in, out, t);
	case DMO_OP_DEQUANTIZE:
		return dt == DMO_U8 ? dk_dequantize_u8_f32(p, in, out, t)
		       : dt == DMO_I32 ? dk_dequantize_i32_f32(p, in, out, t)
				       : dk_dequantize_i8_f32(p, in, out, t);
	case DMO_OP_RESHAPE:
	case DMO_OP_PAD:
	case DMO_OP_CONCAT:
	case DMO_OP_TRANSPOSE:
	case DMO_OP_SLICE:
	case DMO_OP_GATHER:
		return call_layout(r, in, in2, out, t);
	default:
		/* ONNX's unary ops, one table in the op enum's order. */
		return dt == DMO_F32 && dmo_op_onnx_unary(r->spec.op) >= 0
			       ? dk_onnx_unary_f32((enum dk_onnx_unary)dmo_op_onnx_unary(r->spec.op), p, in,
						   out, t)
			       : -1;
	}
#undef BY_DTYPE
}

/* The work of one thread. */
struct share {
	const struct dmo_op_run *run;
	const void *in, *in2;
	void *out;
	struct dk_thread thread;
	int rc;
};

static void *run_share(void *arg)
{
	struct share *s = arg;

	s->rc = call_kernel(s->run, s->in, s->in2, s->out, &s->thread);
	return NULL;
}

int dmo_op_execute2(struct dmo_op_run *run, const void *in, const void *in2,
		    void *out, int threads, int interleave)
{
	struct share shares[DMO_OP_MAX_THREADS];
	pthread_t ids[DMO_OP_MAX_THREADS];
	int started, rc = 0;

	if (run == NULL || threads < 1 || threads > DMO_OP_MAX_THREADS)
		return -1;
	if (in2 == NULL)
		in2 = run->in2;
	for (int i = 0; i < threads; i++)
		shares[i] = (struct share){ run, in, in2, out, { i, threads, interleave != 0 }, 0 };
	for (started = 1; started < threads; started++)
		if (pthread_create(&ids[started], NULL, run_share, &shares[started]) != 0) {
			rc = -1;
			break;
		}
	run_share(&shares[0]);
	for (int i = 1; i < started; i++)
		pthread_join(ids[i], NULL);
	for (int i = 0; i < started; i++)
		rc |= shares[i].rc;
	return rc ? -1 : 0;
}

int dmo_op_execute(struct dmo_op_run *run, const void *in, void *out, int threads,
		   int interleave)
{
	return dmo_op_execute2(run, in, NULL, out, threads, interleave);
}

int dmo_op_parse_threads(const char *text, int *threads)
{
	char *end;
	long n;

	errno = 0;
	n = strtol(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0' || n < 1 || n > DMO_OP_MAX_THREADS)
		return -1;
	*threads = (int)n;
	return 0;
}
