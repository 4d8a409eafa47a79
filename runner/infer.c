/* infer.c - a dmo_net run through libdmokernels in one arena (infer.h): each
 * step's TFLite options and tensor quantisation turned into the kernels'
 * parameters the way TensorFlow Lite Micro prepares them, then the kernel
 * called on the step's tensors at their arena offsets. */
#include "infer.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmokernels.h"
#include "opspec.h" /* DMO_MAX_WINDOW_STEPS */
#include "errbuf.h"

static const char *const op_names[DMO_NET_OP_COUNT] = {
	"conv2d", "dwconv2d", "fc", "maxpool", "avgpool", "add", "mul", "relu", "relu6",
	"softmax", "logistic", "mean", "reshape", "pad", "transpose", "concatenation",
	"quantize", "dequantize", "tanh", "sub", "div", "hardsigmoid", "hardswish", "clip",
	"batchnorm", "resize", "convt", "shape-only", "unary", "prelu", "max", "min", "slice",
	"matmul", "pow", "qlinearadd", "qlinearmul", "qlinearmean", "qlinearavgpool", "qlinearconcat",
	"gather",
};

const char *dmo_net_op_name(enum dmo_net_op op)
{
	return (unsigned)op < DMO_NET_OP_COUNT ? op_names[op] : "?";
}

size_t dmo_net_dtype_size(enum dmo_net_dtype dtype)
{
	return dtype == DMO_NET_F32 || dtype == DMO_NET_I32 ? 4 : dtype == DMO_NET_I16 ? 2 : 1;
}

static uint64_t elems(const struct dmo_net_tensor *t)
{
	uint64_t n = 1;
	for (int i = 0; i < t->rank; i++)
		n *= (uint64_t)(t->dims[i] > 0 ? t->dims[i] : 0);
	return n;
}

uint64_t dmo_net_tensor_bytes(const struct dmo_net *net, int t)
{
	return elems(&net->tensors[t]) * dmo_net_dtype_size(net->tensors[t].dtype);
}

/* One step being prepared or run. */
struct ctx {
	const struct dmo_net *net;
	const struct dmo_net_step *step;
	size_t index;
	unsigned char *arena;     /* NULL: check only */
	const uint64_t *offsets;
	char *err;
	size_t err_len;
	struct dk_params p;
	int32_t *mults;           /* per-channel requantisation, owned */
	int *shifts;
	char where[160];          /* "step N 'NAME' (OP)": what fail() names */
};

/* An error about a step, prefixed with "step N 'NAME' (OP)" (a macro: the format
 * arguments reach dmo_errf_at as written, checked against the format). */
#define fail(x, ...) dmo_errf_at((x)->err, (x)->err_len, (x)->where, __VA_ARGS__)

/* Operand I of the step: a valid tensor, or NULL when absent or bad. */
static const struct dmo_net_tensor *operand(struct ctx *c, int i)
{
	if (i >= c->step->n_inputs)
		return NULL;
	int t = c->step->inputs[i];
	return t >= 0 && (size_t)t < c->net->n_tensors ? &c->net->tensors[t] : NULL;
}

static const struct dmo_net_tensor *result(struct ctx *c)
{
	int t = c->step->output;
	return t >= 0 && (size_t)t < c->net->n_tensors ? &c->net->tensors[t] : NULL;
}

/* Where tensor T's elements are: its constant bytes, or its arena slot. */
static void *at(struct ctx *c, const struct dmo_net_tensor *t)
{
	if (t->data)
		return (void *)t->data;
	return c->arena + c->offsets[t - c->net->tensors];
}

static double scale_of(const struct dmo_net_tensor *t)
{
	return t->n_quant ? (double)t->scale[0] : 1.0;
}

static int32_t zero_of(const struct dmo_net_tensor *t)
{
	return t->n_quant ? (int32_t)t->zero_point[0] : 0;
}

static int is_quantized_type(enum dmo_net_dtype d)
{
	return d == DMO_NET_I8 || d == DMO_NET_U8;
}

static void type_range(enum dmo_net_dtype d, int32_t *lo, int32_t *hi)
{
	*lo = d == DMO_NET_U8 ? 0 : d == DMO_NET_I16 ? INT16_MIN : INT8_MIN;
	*hi = d == DMO_NET_U8 ? UINT8_MAX : d == DMO_NET_I16 ? INT16_MAX : INT8_MAX;
}

/* The fused activation of an integer output, into act_min/act_max. */
static int activation(struct ctx *c, const struct dmo_net_tensor *out, enum dmo_net_act act)
{
	int32_t lo, hi;

	type_range(out->dtype, &lo, &hi);
	if (dk_activation_range((int)act, (float)scale_of(out), zero_of(out), lo, hi, &c->p.q))
		return fail(c, "fused activation %d is not supported", (int)act);
	return 0;
}

/* Float outputs get their fused activation after the kernel. */
static void float_activation(float *out, uint64_t n, enum dmo_net_act act)
{
	float lo = act == DMO_NET_ACT_RELU_N1_TO_1 ? -1.0f : 0.0f;
	float hi = act == DMO_NET_ACT_RELU6 ? 6.0f : act == DMO_NET_ACT_RELU_N1_TO_1 ? 1.0f : INFINITY;

	if (act == DMO_NET_ACT_NONE)
		return;
	for (uint64_t i = 0; i < n; i++)
		out[i] = out[i] < lo ? lo : out[i] > hi ? hi : out[i];
}

static int need_quant(struct ctx *c, const struct dmo_net_tensor *t, const char *what)
{
	if (is_quantized_type(t->dtype) && !t->n_quant)
		return fail(c, "%s tensor '%s' is %s but has no quantisation", what,
			    t->name ? t->name : "", t->dtype == DMO_NET_U8 ? "uint8" : "int8");
	return 0;
}

/* TFLite's padding: SAME centres the window (the odd row/column goes after),
 * VALID has none; or ONNX's explicit rows/columns BEFORE and AFTER (when
 * the step says pad_explicit).  The output size they imply must be the
 * tensor's; *PAD gets the padding before the image. */
static int geometry(struct ctx *c, int in, int k, int stride, int dil, int out, int before,
		    int after, int *pad, const char *axis)
{
	/* In 64 bits: a file's k and dil (each up to 2^31) multiply. */
	int64_t extent = (int64_t)(k - 1) * dil + 1;
	int64_t padded = (int64_t)in + (c->step->pad_explicit ? (int64_t)before + after : 0);
	int64_t want = c->step->padding_same ? ((int64_t)in + stride - 1) / stride
		       : padded < extent   ? 0
					   : (padded - extent) / stride + 1;
	if (want != out)
		return fail(c, "output %s %d, but the options give %" PRId64, axis, out, want);
	int64_t total = (int64_t)(out - 1) * stride + extent - in;
	if (total > INT_MAX)
		return fail(c, "the %s window spans more than %d elements", axis, INT_MAX);
	if (c->step->pad_explicit)
		*pad = before;
	else
		*pad = c->step->padding_same && total > 0 ? (int)(total / 2) : 0;
	return 0;
}

/* dk_quantize_multiplier, refused when REAL needs a left shift past 30:
 * the kernels shift an int32 by it (wider is undefined behaviour, and no
 * sane model's scales give it). */
static int requant_factor(struct ctx *c, double real, int32_t *mult, int *shift)
{
	dk_quantize_multiplier(real, mult, shift);
	if (*shift > 30 || !isfinite(real))
		return fail(c, "requantisation factor %g (the scales' ratio) is out of range: "
			    "at most 2^30", real);
	return 0;
}

/* conv, dwconv, fc: zero points, and output channel c's factor
 * in_scale * filter_scale[c] / out_scale, computed in double from the float
 * scales as TFLite does (per channel when the filter has one scale per
 * output channel). */
static int conv_quant(struct ctx *c, const struct dmo_net_tensor *in,
		      const struct dmo_net_tensor *filter, const struct dmo_net_tensor *out,
		      int out_c)
{
	if (!is_quantized_type(in->dtype))
		return 0;
	if (need_quant(c, in, "input") || need_quant(c, filter, "filter") || need_quant(c, out, "output"))
		return -1;
	if (filter->n_quant != 1 && filter->n_quant != (size_t)out_c)
		return fail(c, "filter has %zu scales for %d output channels", filter->n_quant, out_c);
	c->p.q.in_zero = zero_of(in);
	c->p.q.out_zero = zero_of(out);
	c->p.q.filter_zero = zero_of(filter);
	for (size_t i = 1; i < filter->n_quant; i++)
		if (filter->zero_point[i] != filter->zero_point[0])
			return fail(c, "per-channel filter zero points differ");
	if (c->step->n_real_scales) {
		/* ONNX's QLinear forms: the model reader's float factors. */
		if (c->step->n_real_scales != 1 && c->step->n_real_scales != out_c)
			return fail(c, "%d requantisation factors for %d output channels",
				    c->step->n_real_scales, out_c);
		c->p.q.real_scales = c->step->real_scales;
		c->p.q.real_per_channel = c->step->n_real_scales > 1;
		return activation(c, out, c->step->act);
	}
	double in_s = scale_of(in), out_s = scale_of(out);
	if (requant_factor(c, in_s * (double)filter->scale[0] / out_s,
			   &c->p.q.out_mult, &c->p.q.out_shift))
		return -1;
	if (filter->n_quant > 1) {
		c->mults = malloc(sizeof *c->mults * (size_t)out_c);
		c->shifts = malloc(sizeof *c->shifts * (size_t)out_c);
		if (!c->mults || !c->shifts)
			return fail(c, "out of memory");
		for (int i = 0; i < out_c; i++)
			if (requant_factor(c, in_s * (double)filter->scale[i] / out_s,
					   &c->mults[i], &c->shifts[i]))
				return -1;
		c->p.q.out_mults = c->mults;
		c->p.q.out_shifts = c->shifts;
	}
	return activation(c, out, c->step->act);
}

static int same_type(struct ctx *c, const struct dmo_net_tensor *a, const struct dmo_net_tensor *b)
{
	if (a->dtype != b->dtype)
		return fail(c, "tensors '%s' and '%s' differ in type", a->name ? a->name : "",
			    b->name ? b->name : "");
	if (a->dtype != DMO_NET_F32 && !is_quantized_type(a->dtype))
		return fail(c, "element type %d is not supported", (int)a->dtype);
	return 0;
}

/* Call the kernel of PARAMS' element type: F32/I8/U8 variants of FN. */
#define BY_TYPE(dtype, fn, ...)                                                   \
	((dtype) == DMO_NET_F32 ? fn##_f32(__VA_ARGS__)                           \
	 : (dtype) == DMO_NET_I8 ? fn##_i8(__VA_ARGS__)                           \
				 : fn##_u8(__VA_ARGS__))

/* The 4-D dims of window operand T into D: as stored, or for an NCHW
 * step a 1-D window's N x C x L as N x C x 1 x L, the same bytes
 * (formulas.md 3.11).  Returns -1 for another rank. */
static int window_dims(const struct dmo_net_step *s, const struct dmo_net_tensor *t, int *d)
{
	if (t->rank == 4 || (t->rank == 3 && s->nchw)) {
		for (int i = 0, j = 0; i < 4; i++)
			d[i] = t->rank == 3 && i == 2 ? 1 : t->dims[j++];
		return 0;
	}
	return -1;
}

static int run_windowed(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	int pool = s->op == DMO_NET_MAXPOOL || s->op == DMO_NET_AVGPOOL;
	const struct dmo_net_tensor *filter = pool ? NULL : operand(c, 1);
	const struct dmo_net_tensor *bias = pool ? NULL : operand(c, 2);

	if (!in || !out || (!pool && !filter))
		return fail(c, "missing operand");
	if (same_type(c, in, out))
		return -1;
	if (s->op == DMO_NET_FC) {
		if (filter->rank != 2 || filter->dims[1] < 1 || elems(in) % (uint64_t)filter->dims[1])
			return fail(c, "filter shape does not divide the input");
		uint64_t batch = elems(in) / (uint64_t)filter->dims[1];
		if (elems(out) != batch * (uint64_t)filter->dims[0])
			return fail(c, "output has %llu elements, expected %llu",
				    (unsigned long long)elems(out),
				    (unsigned long long)(batch * (uint64_t)filter->dims[0]));
		c->p = (struct dk_params){ .batch = (int)batch, .in_h = 1, .in_w = 1,
					   .in_c = filter->dims[1], .out_h = 1, .out_w = 1,
					   .out_c = filter->dims[0], .trans_a = s->trans_a,
					   .bias_per_output = s->bias_per_output };
	} else {
		/* The axes of C, H and W in the tensors, and of the window and
		 * of the channels (conv's input, dwconv's output) in the filter:
		 * NHWC with TFLite's filters, or NCHW with ONNX's. */
		const int C = s->nchw ? 1 : 3, H = s->nchw ? 2 : 1, W = s->nchw ? 3 : 2;
		const int KH = s->nchw ? 2 : 1, KW = s->nchw ? 3 : 2;
		const int FC_ = s->nchw ? 1 : 3, DW_ONE = s->nchw ? 1 : 0, DW_OC = s->nchw ? 0 : 3;

		int id[4], od[4], fd[4];

		if (window_dims(s, in, id) || window_dims(s, out, od) || in->rank != out->rank ||
		    (filter && (window_dims(s, filter, fd) || filter->rank != in->rank)))
			return fail(c, "expects 4-D %s tensors", s->nchw ? "NCHW (or 3-D N x C x L)" : "NHWC");
		if (s->nchw && pool && in->dtype != DMO_NET_F32)
			return fail(c, "the NCHW pools are float32 (this input is not)");
		c->p = (struct dk_params){ .batch = id[0], .in_h = id[H],
					   .in_w = id[W], .in_c = id[C],
					   .out_h = od[H], .out_w = od[W],
					   .out_c = od[C],
					   .stride_h = s->stride_h, .stride_w = s->stride_w,
					   .dil_h = !s->dil_h ? 1 : s->dil_h,
					   .dil_w = !s->dil_w ? 1 : s->dil_w, .mult = 1 };
		c->p.k_h = pool ? s->filter_h : fd[KH];
		c->p.k_w = pool ? s->filter_w : fd[KW];
		if (c->p.stride_h < 1 || c->p.stride_w < 1 || c->p.k_h < 1 || c->p.k_w < 1)
			return fail(c, "stride and filter size must be positive");
		if (od[0] != id[0])
			return fail(c, "batch changes");
		c->p.groups = s->op == DMO_NET_CONV2D && s->nchw && s->groups > 1 ? s->groups : 1;
		c->p.count_pad = s->op == DMO_NET_AVGPOOL && s->nchw && s->count_pad;
		if (s->op == DMO_NET_CONV2D &&
		    (fd[0] != c->p.out_c || (int64_t)fd[FC_] * c->p.groups != c->p.in_c ||
		     c->p.out_c % c->p.groups))
			return fail(c, "filter %dx%dx%dx%d does not match %d -> %d channels in %d group(s)",
				    fd[0], fd[1], fd[2], fd[3],
				    c->p.in_c, c->p.out_c, c->p.groups);
		if (s->op == DMO_NET_DWCONV2D) {
			c->p.mult = s->mult ? s->mult : c->p.out_c / c->p.in_c;
			if (fd[DW_ONE] != 1 || fd[DW_OC] != c->p.out_c ||
			    (long long)c->p.mult * c->p.in_c != c->p.out_c)
				return fail(c, "depthwise filter/multiplier does not match %d -> %d channels",
					    c->p.in_c, c->p.out_c);
		}
		if (pool && c->p.in_c != c->p.out_c)
			return fail(c, "pooling changes the channel count");
		if (geometry(c, c->p.in_h, c->p.k_h, c->p.stride_h, c->p.dil_h, c->p.out_h, s->pad_top,
			     s->pad_bottom, &c->p.pad_top, "height") ||
		    geometry(c, c->p.in_w, c->p.k_w, c->p.stride_w, c->p.dil_w, c->p.out_w, s->pad_left,
			     s->pad_right, &c->p.pad_left, "width"))
			return -1;
		/* The op-spec language's bound (opspec.h), for a net read from
		 * a file: each output element reads k_h x k_w (x in_c) inputs. */
		uint64_t steps = elems(out), window = (uint64_t)c->p.k_h * (uint64_t)c->p.k_w;
		if (__builtin_mul_overflow(steps, window, &steps) ||
		    (s->op == DMO_NET_CONV2D &&
		     __builtin_mul_overflow(steps, (uint64_t)(c->p.in_c / c->p.groups), &steps)) ||
		    steps > DMO_MAX_WINDOW_STEPS)
			return fail(c, "the op takes more than 2^40 window steps (a %dx%d window)",
				    c->p.k_h, c->p.k_w);
	}
	if (filter && filter->dtype != in->dtype)
		return fail(c, "filter type differs from the input's (hybrid models are not run: "
			       "dequantize their weights first)");
	if (bias && bias->dtype != (in->dtype == DMO_NET_F32 ? DMO_NET_F32 : DMO_NET_I32))
		return fail(c, "bias must be %s", in->dtype == DMO_NET_F32 ? "float32" : "int32");
	if (bias && elems(bias) != (uint64_t)c->p.out_c * (c->p.bias_per_output ? c->p.batch : 1))
		return fail(c, "bias has %llu elements for %d channels%s", (unsigned long long)elems(bias),
			    c->p.out_c, c->p.bias_per_output ? " of each row" : "");
	if (pool) {
		if (is_quantized_type(in->dtype)) {
			if (need_quant(c, in, "input") || need_quant(c, out, "output"))
				return -1;
			if (scale_of(in) != scale_of(out) || zero_of(in) != zero_of(out))
				return fail(c, "input and output quantisation differ (TFLite requires equal)");
			if (activation(c, out, s->act))
				return -1;
		}
	} else if (conv_quant(c, in, filter, out, c->p.out_c)) {
		return -1;
	}
	c->p.q.single_rounding = c->net->single_rounding;
	if (!c->arena)
		return 0;
	const void *ip = at(c, in), *fp = filter ? at(c, filter) : NULL, *bp = bias ? at(c, bias) : NULL;
	void *op = at(c, out);
	int rc;
	switch (s->op) {
	case DMO_NET_CONV2D:
		rc = s->nchw ? BY_TYPE(in->dtype, dk_conv2d_nchw, &c->p, ip, fp, bp, op, NULL)
			     : BY_TYPE(in->dtype, dk_conv2d, &c->p, ip, fp, bp, op, NULL);
		break;
	case DMO_NET_DWCONV2D:
		rc = s->nchw ? BY_TYPE(in->dtype, dk_dwconv2d_nchw, &c->p, ip, fp, bp, op, NULL)
			     : BY_TYPE(in->dtype, dk_dwconv2d, &c->p, ip, fp, bp, op, NULL);
		break;
	case DMO_NET_FC:
		rc = BY_TYPE(in->dtype, dk_fc, &c->p, ip, fp, bp, op, NULL);
		break;
	case DMO_NET_MAXPOOL:
		rc = s->nchw ? dk_maxpool_nchw_f32(&c->p, ip, op, NULL)
			     : BY_TYPE(in->dtype, dk_maxpool, &c->p, ip, op, NULL);
		break;
	default:
		rc = s->nchw ? dk_avgpool_nchw_f32(&c->p, ip, op, NULL)
			     : BY_TYPE(in->dtype, dk_avgpool, &c->p, ip, op, NULL);
		break;
	}
	if (rc)
		return fail(c, "the kernel rejected its parameters");
	if (in->dtype == DMO_NET_F32)
		float_activation(op, elems(out), s->act);
	return 0;
}

/* ONNX's ConvTranspose (kernels_convt.c): NCHW float32, filter
 * [in_c][out_c / group][k_h][k_w] (the group is out_c over the filter's
 * second dim), strides, dilations and leading pads of the reader's op
 * spec; the output's size is the model's (ONNX's, pads and output_padding
 * resolved by the reader). */
static int run_convt(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	const struct dmo_net_tensor *filter = operand(c, 1), *bias = operand(c, 2);

	if (!in || !out || !filter)
		return fail(c, "needs an input and a filter");
	int id[4], od[4], fd[4];

	if (window_dims(s, in, id) || window_dims(s, out, od) || window_dims(s, filter, fd) ||
	    in->rank != out->rank || filter->rank != in->rank || in->dtype != DMO_NET_F32 ||
	    filter->dtype != DMO_NET_F32 || out->dtype != DMO_NET_F32)
		return fail(c, "expects 4-D NCHW (or 3-D N x C x L) float32 tensors");
	c->p = (struct dk_params){ .batch = id[0], .in_c = id[1], .in_h = id[2],
				   .in_w = id[3], .out_c = od[1], .out_h = od[2],
				   .out_w = od[3], .k_h = fd[2], .k_w = fd[3],
				   .stride_h = s->stride_h, .stride_w = s->stride_w,
				   .dil_h = s->dil_h ? s->dil_h : 1, .dil_w = s->dil_w ? s->dil_w : 1,
				   .pad_top = s->pad_top, .pad_left = s->pad_left, .mult = 1 };
	c->p.groups = fd[1] > 0 ? c->p.out_c / fd[1] : 0;
	if (fd[0] != c->p.in_c || c->p.groups < 1 || fd[1] * c->p.groups != c->p.out_c ||
	    c->p.in_c % c->p.groups || od[0] != id[0])
		return fail(c, "filter %dx%dx%dx%d does not match %d -> %d channels", fd[0],
			    fd[1], fd[2], fd[3], c->p.in_c, c->p.out_c);
	if (bias && (bias->dtype != DMO_NET_F32 || elems(bias) != (uint64_t)c->p.out_c))
		return fail(c, "bias must be %d float32 values", c->p.out_c);
	if (!c->arena)
		return 0;
	if (dk_convt_nchw_f32(&c->p, at(c, in), at(c, filter), bias ? at(c, bias) : NULL, at(c, out),
			      NULL))
		return fail(c, "the kernel rejected its parameters (output %dx%d)", c->p.out_h,
			    c->p.out_w);
	return 0;
}

/* Element-wise ops over flat tensors: one row of all elements. */
static void flat_params(struct ctx *c, uint64_t n, int row)
{
	c->p = (struct dk_params){ .batch = (int)(n / (uint64_t)row), .in_h = 1, .in_w = 1, .in_c = row,
				   .out_h = 1, .out_w = 1, .out_c = row, .beta = c->step->beta };
}

static int run_elementwise(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	int binary = s->op == DMO_NET_ADD || s->op == DMO_NET_MUL;
	const struct dmo_net_tensor *in2 = binary ? operand(c, 1) : NULL;

	if (!in || !out || (binary && !in2))
		return fail(c, "missing operand");
	if (same_type(c, in, out) || (in2 && same_type(c, in2, out)))
		return -1;
	if (elems(in) != elems(out) || (in2 && elems(in2) != elems(out)))
		return fail(c, "operand shapes differ (broadcasting is not supported)");
	if (elems(in) > INT32_MAX || !elems(in))
		return fail(c, "tensor size out of range");
	int row = (int)elems(in);
	if (s->op == DMO_NET_SOFTMAX)
		row = s->softmax_row ? s->softmax_row : in->rank ? in->dims[in->rank - 1] : 1;
	flat_params(c, elems(in), row);
	if (s->op == DMO_NET_SOFTMAX && s->softmax_view[0] > 0) {
		/* ONNX's, over the view's axis (its reader's op spec). */
		const int *v = s->softmax_view;

		if ((uint64_t)v[0] * v[1] * v[2] * v[3] != elems(in) || in->dtype != DMO_NET_F32 ||
		    s->softmax_axis < 0 || s->softmax_axis > 3)
			return fail(c, "not a float32 softmax over an axis of %dx%dx%dx%d", v[0], v[1],
				    v[2], v[3]);
		c->p.batch = v[0], c->p.in_h = v[1], c->p.in_w = v[2], c->p.in_c = v[3];
	}
	if (is_quantized_type(in->dtype)) {
		if (need_quant(c, in, "input") || need_quant(c, out, "output") ||
		    (in2 && need_quant(c, in2, "second input")))
			return -1;
		struct dk_quant *q = &c->p.q;
		q->in_zero = zero_of(in);
		q->out_zero = zero_of(out);
		switch (s->op) {
		case DMO_NET_ADD:
			q->in2_zero = zero_of(in2);
			dk_add_quant((float)scale_of(in), (float)scale_of(in2), (float)scale_of(out), 20, q);
			if (activation(c, out, s->act))
				return -1;
			break;
		case DMO_NET_MUL:
			q->in2_zero = zero_of(in2);
			if (requant_factor(c, scale_of(in) * scale_of(in2) / scale_of(out),
					   &q->out_mult, &q->out_shift))
				return -1;
			if (activation(c, out, s->act))
				return -1;
			break;
		case DMO_NET_RELU:
		case DMO_NET_RELU6:
			if (requant_factor(c, scale_of(in) / scale_of(out),
					   &q->out_mult, &q->out_shift))
				return -1;
			if (activation(c, out, s->op == DMO_NET_RELU ? DMO_NET_ACT_RELU : DMO_NET_ACT_RELU6))
				return -1;
			break;
		default: /* softmax, logistic: TFLite's fixed output quantisation */
			if (in->dtype != DMO_NET_I8 || s->op == DMO_NET_TANH)
				return fail(c, "only int8 and float32 are supported");
			if (zero_of(out) != -128 || fabs(scale_of(out) - 1.0 / 256) > 0.001 / 256)
				return fail(c, "int8 output must have scale 1/256 and zero point -128");
			if (s->op == DMO_NET_LOGISTIC) {
				dk_logistic_quant((float)scale_of(in), q);
				break;
			}
			dk_softmax_quant(s->beta, (float)scale_of(in), q);
			/* The fixed-point exp takes the scaled differences by a
			 * left shift only, as TFLite's softmax does. */
			if (q->in_shift < 0)
				return fail(c, "input scale %g is too small for the int8 softmax",
					    scale_of(in));
			break;
		}
	}
	c->p.q.single_rounding = c->net->single_rounding;
	if (!c->arena)
		return 0;
	const void *ip = at(c, in), *ip2 = in2 ? at(c, in2) : NULL;
	void *op = at(c, out);
	int rc, f32 = in->dtype == DMO_NET_F32, i8 = in->dtype == DMO_NET_I8;
	switch (s->op) {
	case DMO_NET_ADD:
		rc = BY_TYPE(in->dtype, dk_add, &c->p, ip, ip2, op, NULL);
		break;
	case DMO_NET_MUL:
		rc = BY_TYPE(in->dtype, dk_mul, &c->p, ip, ip2, op, NULL);
		break;
	case DMO_NET_RELU:
		rc = BY_TYPE(in->dtype, dk_relu, &c->p, ip, op, NULL);
		break;
	case DMO_NET_RELU6:
		rc = BY_TYPE(in->dtype, dk_relu6, &c->p, ip, op, NULL);
		break;
	case DMO_NET_SOFTMAX:
		rc = f32 && s->softmax_view[0] > 0
			     ? dk_softmax_axis_f32(&c->p, s->softmax_axis, s->log_softmax, ip, op, NULL)
		     : f32 ? dk_softmax_f32(&c->p, ip, op, NULL)
		     : i8  ? dk_softmax_i8(&c->p, ip, op, NULL) : -1;
		break;
	case DMO_NET_TANH:
		rc = f32 ? dk_tanh_f32(&c->p, ip, op, NULL) : -1;
		break;
	default:
		rc = f32 ? dk_logistic_f32(&c->p, ip, op, NULL) : i8 ? dk_logistic_i8(&c->p, ip, op, NULL) : -1;
		break;
	}
	if (rc)
		return fail(c, "the kernel rejected its parameters");
	if (f32 && binary)
		float_activation(op, elems(out), s->act);
	return 0;
}

/* An int32 constant operand of N values (axes, paddings, permutations). */
static const int32_t *int_constant(struct ctx *c, int i, uint64_t n, const char *what)
{
	const struct dmo_net_tensor *t = operand(c, i);
	if (!t || !t->data || t->dtype != DMO_NET_I32 || elems(t) != n) {
		fail(c, "%s must be a constant int32 tensor of %llu values", what, (unsigned long long)n);
		return NULL;
	}
	return t->data;
}

static int same_quant(const struct dmo_net_tensor *a, const struct dmo_net_tensor *b)
{
	return !is_quantized_type(a->dtype) || (scale_of(a) == scale_of(b) && zero_of(a) == zero_of(b));
}

static void to_shape(const struct dmo_net_tensor *t, struct dk_shape *s)
{
	s->rank = t->rank;
	for (int i = 0; i < t->rank; i++)
		s->dims[i] = t->dims[i];
}

/* QLinearConcat (kernels_qlinear.c): input k copied where its scale and
 * zero point are the output's, else mapped by ONNX Runtime's lookup table:
 * each of the 256 values dequantized, scale x (q - zero point) in float,
 * then quantized as its MlasQuantizeLinear does, x / out scale rounded half
 * to even, plus the zero point, saturated. */
static int run_qlinear_concat(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *out = result(c), *first = operand(c, 0);
	struct dk_shape shapes[DMO_NET_MAX_INPUTS];
	const uint8_t *ins[DMO_NET_MAX_INPUTS], *tables[DMO_NET_MAX_INPUTS];
	uint8_t table_bytes[DMO_NET_MAX_INPUTS][256];
	uint64_t total = 0;

	if (!first || !out || !is_quantized_type(out->dtype) || need_quant(c, out, "output"))
		return first && out && is_quantized_type(out->dtype) ? -1
								      : fail(c, "only uint8 and int8 are supported");
	const int axis = s->axis < 0 ? s->axis + first->rank : s->axis, i8 = out->dtype == DMO_NET_I8;
	const int32_t lo = i8 ? -128 : 0, hi = i8 ? 127 : 255, zy = zero_of(out);
	const float sy = (float)scale_of(out);
	if (axis < 0 || axis >= first->rank)
		return fail(c, "axis %d is outside rank %d", s->axis, first->rank);
	for (int k = 0; k < s->n_inputs; k++) {
		const struct dmo_net_tensor *t = operand(c, k);
		if (!t || same_type(c, t, out) || need_quant(c, t, "input"))
			return t ? -1 : fail(c, "missing input %d", k);
		if (t->n_quant != 1 || out->n_quant != 1)
			return fail(c, "one scale and zero point a tensor, not one per channel");
		to_shape(t, &shapes[k]);
		ins[k] = c->arena ? at(c, t) : NULL;
		total += elems(t);
		tables[k] = NULL;
		if (scale_of(t) == scale_of(out) && zero_of(t) == zy)
			continue;
		for (int b = 0; b < 256; b++) {
			const int32_t q = i8 ? (int8_t)b : b;
			const float v = (float)scale_of(t) * (float)(q - zero_of(t)) / sy;
			const float clamped = v < (float)(lo - zy) ? (float)(lo - zy) : v > (float)(hi - zy) ? (float)(hi - zy) : v;
			table_bytes[k][b] = (uint8_t)((int32_t)lrintf(clamped) + zy);
		}
		tables[k] = table_bytes[k];
	}
	if (total != elems(out))
		return fail(c, "the inputs hold %llu elements, the output %llu",
			    (unsigned long long)total, (unsigned long long)elems(out));
	if (!c->arena)
		return 0;
	return dk_qlinear_concat(s->n_inputs, shapes, axis, tables, ins, at(c, out), NULL)
		       ? fail(c, "the inputs do not agree beside axis %d", s->axis)
		       : 0;
}

/* ONNX Runtime's QOperator ops (kernels_qlinear.c): QLinearAdd and
 * QLinearMul of A (the output's shape) and B broadcasting to it, and
 * QLinearGlobalAveragePool of N x C planes, each operand uint8 or int8 of
 * one type with one scale and zero point (infer_model.c's
 * qoperator_operands). */
static int run_qlinear(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	const int binary = s->op == DMO_NET_QLINEARADD || s->op == DMO_NET_QLINEARMUL;
	const struct dmo_net_tensor *in2 = binary ? operand(c, 1) : NULL;
	struct dk_shape out_shape, in2_shape;

	if (!in || !out || (binary && !in2))
		return fail(c, "missing operand");
	if (!is_quantized_type(in->dtype))
		return fail(c, "only uint8 and int8 are supported");
	if (same_type(c, in, out) || (in2 && same_type(c, in2, out)) ||
	    need_quant(c, in, "input") || need_quant(c, out, "output") ||
	    (in2 && need_quant(c, in2, "second input")))
		return -1;
	if (in->n_quant != 1 || out->n_quant != 1 || (in2 && in2->n_quant != 1))
		return fail(c, "one scale and zero point a tensor, not one per channel");
	if (!elems(out) || elems(out) > INT32_MAX || elems(in) > INT32_MAX)
		return fail(c, "tensor size out of range");
	struct dk_quant *q = &c->p.q;
	c->p = (struct dk_params){ .batch = (int)elems(out), .in_w = 1, .in_c = 1 };
	q->in_zero = zero_of(in);
	q->out_zero = zero_of(out);
	q->qlinear_scales[0] = (float)scale_of(in);
	q->qlinear_scales[2] = (float)scale_of(out);
	const int u8 = in->dtype == DMO_NET_U8;
	int rc;
	if (binary) {
		if (elems(in) != elems(out))
			return fail(c, "A does not have the output's shape");
		q->in2_zero = zero_of(in2);
		q->qlinear_scales[1] = (float)scale_of(in2);
		to_shape(out, &out_shape);
		to_shape(in2, &in2_shape);
		if (!c->arena)
			return 0;
		const int mul = s->op == DMO_NET_QLINEARMUL;
		rc = u8 ? dk_qlinear_binary_u8(mul, &c->p, &out_shape, &in2_shape, at(c, in), at(c, in2),
					       at(c, out), NULL)
			: dk_qlinear_binary_i8(mul, &c->p, &out_shape, &in2_shape, at(c, in), at(c, in2),
					       at(c, out), NULL);
		return rc ? fail(c, "B does not broadcast to A") : 0;
	}
	if (s->op == DMO_NET_QLINEARAVGPOOL) {
		/* N x C x H x W into N x C x OH x OW by the step's window. */
		if (in->rank != 4 || out->rank != 4 || in->dims[0] != out->dims[0] ||
		    in->dims[1] != out->dims[1])
			return fail(c, "not N x C x H x W into N x C x OH x OW");
		c->p.batch = in->dims[0], c->p.in_c = c->p.out_c = in->dims[1];
		c->p.in_h = in->dims[2], c->p.in_w = in->dims[3];
		c->p.out_h = out->dims[2], c->p.out_w = out->dims[3];
		c->p.k_h = s->filter_h, c->p.k_w = s->filter_w;
		c->p.stride_h = s->stride_h, c->p.stride_w = s->stride_w;
		c->p.pad_top = s->pad_top, c->p.pad_left = s->pad_left;
		if (!c->arena)
			return 0;
		rc = u8 ? dk_qlinear_avgpool_u8(&c->p, at(c, in), at(c, out), NULL)
			: dk_qlinear_avgpool_i8(&c->p, at(c, in), at(c, out), NULL);
		return rc ? fail(c, "the kernel rejected its window or memory ran out") : 0;
	}
	if (elems(in) % elems(out))
		return fail(c, "input and output shapes differ from a mean's");
	/* The mean of each plane; ONNX Runtime refuses a plane of 2^24
	 * values or more and a factor in / (out x plane) outside [2^-32,
	 * 256) (MLAS's CheckQLinearGlobalAveragePoolScaleAndSize). */
	const uint64_t plane = elems(in) / elems(out);
	const float factor = q->qlinear_scales[0] / (q->qlinear_scales[2] * (float)(int32_t)plane);
	if (plane >= 0x1000000 || !(factor >= 0x1.0p-32f && factor < 256.0f))
		return fail(c, "a plane of %llu values and scales %g, %g: outside ONNX Runtime's range",
			    (unsigned long long)plane, scale_of(in), scale_of(out));
	c->p.in_h = (int)plane;
	if (!c->arena)
		return 0;
	rc = u8 ? dk_qlinear_mean_u8(&c->p, at(c, in), at(c, out), NULL)
		: dk_qlinear_mean_i8(&c->p, at(c, in), at(c, out), NULL);
	return rc ? fail(c, "the kernel rejected its parameters") : 0;
}

/* ONNX's float32 element-wise ops (kernels_onnx_ew.c): Add, Sub, Mul,
 * Div, PRelu, Max, Min and Pow with NumPy broadcasting, HardSigmoid, HardSwish, Clip and
 * BatchNormalization (scale and shift per channel, axis 1). */
static int run_onnx_elementwise(struct ctx *c)
{
	static const enum dk_binary binaries[DMO_NET_OP_COUNT] = {
		[DMO_NET_ADD] = DK_ADD, [DMO_NET_SUB] = DK_SUB,
		[DMO_NET_MUL] = DK_MUL, [DMO_NET_DIV] = DK_DIV, [DMO_NET_PRELU] = DK_PRELU,
		[DMO_NET_MAX] = DK_MAX, [DMO_NET_MIN] = DK_MIN, [DMO_NET_POW] = DK_POWT,
	};
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	int binary = s->op == DMO_NET_ADD || s->op == DMO_NET_SUB || s->op == DMO_NET_MUL ||
		     s->op == DMO_NET_DIV || s->op == DMO_NET_PRELU || s->op == DMO_NET_MAX ||
		     s->op == DMO_NET_MIN || s->op == DMO_NET_POW;
	const struct dmo_net_tensor *in2 = binary || s->op == DMO_NET_BATCHNORM ? operand(c, 1) : NULL;
	const struct dmo_net_tensor *shift = s->op == DMO_NET_BATCHNORM ? operand(c, 2) : NULL;
	struct dk_shape out_shape, in_shape, in2_shape;
	int rc;

	if (!in || !out || ((binary || s->op == DMO_NET_BATCHNORM) && !in2) ||
	    (s->op == DMO_NET_BATCHNORM && !shift))
		return fail(c, "missing operand");
	if (in->dtype != DMO_NET_F32 || out->dtype != DMO_NET_F32 ||
	    (in2 && in2->dtype != DMO_NET_F32) || (shift && shift->dtype != DMO_NET_F32))
		return fail(c, "only float32 is supported");
	if (!elems(out) || elems(out) > INT32_MAX)
		return fail(c, "tensor size out of range");
	if (binary) {
		to_shape(out, &out_shape);
		to_shape(in, &in_shape);
		to_shape(in2, &in2_shape);
		if (!c->arena)
			return 0;
		/* A commuted Sub, Div or Pow reads its operands as the node orders
		 * them: element e of both, then out[e], as before. */
		rc = s->commuted ? dk_binary_bcast_f32(binaries[s->op], &out_shape, &in2_shape,
						       at(c, in2), &in_shape, at(c, in), at(c, out), NULL)
				 : dk_binary_bcast_f32(binaries[s->op], &out_shape, &in_shape, at(c, in),
						       &in2_shape, at(c, in2), at(c, out), NULL);
		if (rc)
			return fail(c, "the operands do not broadcast to the output");
		float_activation(at(c, out), elems(out), s->act);
		return 0;
	}
	if (elems(in) != elems(out))
		return fail(c, "input and output shapes differ");
	flat_params(c, elems(in), (int)elems(in));
	c->p.alpha = s->alpha;
	c->p.lo = s->clip_lo;
	c->p.hi = s->clip_hi;
	c->p.gamma = s->gamma;
	c->p.exponent = s->exponent;
	if (s->op == DMO_NET_UNARY && (s->unary < 0 || s->unary >= DK_UNARY_COUNT))
		return fail(c, "no unary function %d", s->unary);
	if (s->op == DMO_NET_BATCHNORM) {
		/* N x C x the rest, as batchnorm's N x C x 1 x rest. */
		if (in->rank < 2 || elems(in2) != (uint64_t)in->dims[1] ||
		    elems(shift) != (uint64_t)in->dims[1] || !in2->data || !shift->data)
			return fail(c, "scale and shift must be constants of one value per channel");
		c->p = (struct dk_params){ .batch = in->dims[0], .in_h = in->dims[1], .in_w = 1,
					   .in_c = (int)(elems(in) / ((uint64_t)in->dims[0] * in->dims[1])) };
	}
	if (!c->arena)
		return 0;
	switch (s->op) {
	case DMO_NET_HARDSIGMOID:
		rc = dk_hardsigmoid_f32(&c->p, at(c, in), at(c, out), NULL);
		break;
	case DMO_NET_HARDSWISH:
		rc = dk_hardswish_f32(&c->p, at(c, in), at(c, out), NULL);
		break;
	case DMO_NET_CLIP:
		rc = dk_clip_f32(&c->p, at(c, in), at(c, out), NULL);
		break;
	case DMO_NET_UNARY:
		rc = dk_onnx_unary_f32((enum dk_onnx_unary)s->unary, &c->p, at(c, in), at(c, out), NULL);
		break;
	default:
		rc = dk_batchnorm_f32(&c->p, at(c, in2), at(c, shift), at(c, in), at(c, out), NULL);
		break;
	}
	return rc ? fail(c, "the kernel rejected its parameters") : 0;
}

/* ONNX's Gather of constant indices: the input as outer x axis x inner,
 * dk_gather along the axis (ONNX Runtime's block order). */
static int run_gather(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);
	const int *v = s->gather_view;

	if (!in || !out || in->dtype != out->dtype)
		return fail(c, "needs an input and an output of one type");
	if (v[0] < 1 || v[1] < 1 || v[2] < 1 || elems(in) != (uint64_t)v[0] * v[1] * v[2] ||
	    elems(out) != (uint64_t)v[0] * s->n_gather_indices * v[2])
		return fail(c, "the gather's view %dx%dx%d does not give its tensors", v[0], v[1], v[2]);
	const struct dk_shape shape = { 3, { v[0], v[1], v[2] } };
	if (!c->arena)
		return 0;
	return dk_gather(&shape, 1, s->gather_indices, s->n_gather_indices, dmo_net_dtype_size(in->dtype),
			 at(c, in), at(c, out), NULL)
		       ? fail(c, "the kernel rejected its indices") : 0;
}

/* ONNX's MatMul of two float32 activations: A [..., M, K] times B [..., K,
 * N], the batch dims equal (the reader refused others). */
static int run_matmul(struct ctx *c)
{
	const struct dmo_net_tensor *a = operand(c, 0), *b = operand(c, 1), *out = result(c);

	if (!a || !b || !out)
		return fail(c, "missing operand");
	if (a->dtype != DMO_NET_F32 || b->dtype != DMO_NET_F32 || out->dtype != DMO_NET_F32)
		return fail(c, "only float32 is supported");
	if (a->rank < 2 || b->rank != a->rank || b->dims[a->rank - 2] != a->dims[a->rank - 1])
		return fail(c, "A and B are not [..., M, K] and [..., K, N]");
	const int M = a->dims[a->rank - 2], K = a->dims[a->rank - 1], N = b->dims[a->rank - 1];
	uint64_t batches = elems(a) / ((uint64_t)M * K);

	if (batches > INT32_MAX || elems(b) != batches * K * N || elems(out) != batches * M * N)
		return fail(c, "the batch dims of A, B and the output differ");
	c->p = (struct dk_params){ .batch = 1, .in_h = (int)batches, .in_w = M, .in_c = K,
				   .out_h = (int)batches, .out_w = M, .out_c = N };
	if (!c->arena)
		return 0;
	return dk_matmul_f32(&c->p, at(c, a), at(c, b), at(c, out), NULL)
		       ? fail(c, "the kernel rejected its parameters") : 0;
}

static int run_layout(struct ctx *c)
{
	const struct dmo_net_step *s = c->step;
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);

	if (!in || !out)
		return fail(c, "missing operand");
	if (in->dtype != out->dtype)
		return fail(c, "input and output types differ");
	if (in->rank < 1 || in->rank > DK_MAX_DIMS)
		return fail(c, "rank %d is not supported", in->rank);
	size_t elem = dmo_net_dtype_size(in->dtype);
	struct dk_shape shape;
	to_shape(in, &shape);
	int rc = 0;
	switch (s->op) {
	case DMO_NET_RESHAPE:
		if (elems(in) != elems(out))
			return fail(c, "element counts differ");
		if (c->arena)
			rc = dk_reshape(at(c, in), at(c, out), elems(in) * elem, NULL);
		break;
	case DMO_NET_PAD: {
		const int32_t *pads = s->pads_given ? NULL
				      : int_constant(c, 1, 2 * (uint64_t)in->rank, "paddings");
		int before[DK_MAX_DIMS], after[DK_MAX_DIMS];
		if (!pads && !s->pads_given)
			return -1;
		/* ONNX's tensors carry no quantisation: its Pad copies values. */
		if (!s->pads_given && !same_quant(in, out))
			return fail(c, "input and output quantisation differ");
		for (int i = 0; i < in->rank; i++) {
			before[i] = pads ? pads[2 * i] : s->pad_before[i];
			after[i] = pads ? pads[2 * i + 1] : s->pad_after[i];
			if (out->rank != in->rank || before[i] < 0 || after[i] < 0 ||
			    out->dims[i] != in->dims[i] + before[i] + after[i])
				return fail(c, "paddings do not give the output shape");
		}
		/* TFLite pads a quantised tensor with its zero point (real 0);
		 * ONNX's Pad (pads_given) with its constant_value as stored,
		 * whatever the tensor's quantisation. */
		unsigned char value[4] = { 0 };
		int32_t zero = s->pads_given ? (int32_t)s->pad_value : zero_of(out);
		float f = (float)s->pad_value;
		memcpy(value, in->dtype == DMO_NET_F32 ? (const void *)&f : (const void *)&zero,
		       elem <= 4 ? elem : 4);
		if (c->arena && s->pad_mode != DK_PAD_CONSTANT)
			rc = dk_pad_onnx(&shape, before, after, (enum dk_pad_mode)s->pad_mode, elem, value,
					 at(c, in), at(c, out), NULL);
		else if (c->arena)
			rc = dk_pad(&shape, before, after, elem, value, at(c, in), at(c, out), NULL);
		break;
	}
	case DMO_NET_SLICE: { /* a Gather's output drops or keeps the axis */
		int start[DK_MAX_DIMS], size[DK_MAX_DIMS], step[DK_MAX_DIMS];
		uint64_t kept = 1;
		for (int i = 0; i < in->rank; i++) {
			step[i] = s->slice_step[i] ? s->slice_step[i] : 1;
			dk_slice_box(in->dims[i], s->pad_before[i], s->pad_after[i], step[i], &start[i],
				     &size[i]);
			if (s->pad_before[i] < 0 || s->pad_after[i] < 0 || size[i] < 1)
				return fail(c, "the slice's starts and ends leave no element");
			kept *= (uint64_t)size[i];
		}
		if (kept != elems(out))
			return fail(c, "the slice's starts and ends do not give the output's elements");
		if (c->arena)
			rc = dk_slice(&shape, start, step, size, elem, at(c, in), at(c, out), NULL);
		break;
	}
	case DMO_NET_TRANSPOSE: {
		const int32_t *perm32 = s->perm_given ? NULL : int_constant(c, 1, (uint64_t)in->rank, "perm");
		int perm[DK_MAX_DIMS], taken[DK_MAX_DIMS] = { 0 };
		if (!perm32 && !s->perm_given)
			return -1;
		if (s->perm_given) {
			uint64_t viewed = 1;

			shape.rank = 4;
			for (int i = 0; i < 4; i++)
				viewed *= (uint64_t)(shape.dims[i] = s->perm_dims[i]);
			if (viewed != elems(in) || elems(out) != elems(in))
				return fail(c, "the transpose's view does not hold the tensors' elements");
		}
		for (int i = 0; i < shape.rank; i++) {
			perm[i] = s->perm_given ? s->perm[i] : perm32[i];
			if (perm[i] < 0 || perm[i] >= shape.rank ||
			    (!s->perm_given && (out->rank != in->rank || out->dims[i] != in->dims[perm[i]])))
				return fail(c, "perm does not give the output shape");
			if (taken[perm[i]]++)
				return fail(c, "perm takes axis %d twice", perm[i]);
		}
		if (c->arena)
			rc = dk_transpose(&shape, perm, elem, at(c, in), at(c, out), NULL);
		break;
	}
	case DMO_NET_RESIZE: {
		int scale[DK_MAX_DIMS];

		for (int i = 0; i < in->rank; i++) {
			if (out->rank != in->rank || out->dims[i] % in->dims[i] != 0)
				return fail(c, "the output is not the input scaled by integer factors");
			scale[i] = out->dims[i] / in->dims[i];
		}
		if (c->arena)
			rc = dk_resize_nearest(&shape, scale, elem, at(c, in), at(c, out), NULL);
		break;
	}
	case DMO_NET_MEAN: {
		if (s->mean_reduced) {
			/* ONNX's: the reduced middle as the height of one column. */
			if (elems(in) != (uint64_t)s->mean_outer * s->mean_reduced * s->mean_inner ||
			    elems(out) != (uint64_t)s->mean_outer * s->mean_inner)
				return fail(c, "shapes differ from the mean's %d x %d x %d", s->mean_outer,
					    s->mean_reduced, s->mean_inner);
			c->p = (struct dk_params){ .batch = s->mean_outer, .in_h = s->mean_reduced,
						   .in_w = 1, .in_c = s->mean_inner };
		} else {
			const struct dmo_net_tensor *axes_t = operand(c, 1);
			const int32_t *axes = axes_t ? int_constant(c, 1, 2, "axes (height and width)") : NULL;
			if (!axes)
				return axes_t ? -1 : fail(c, "missing axes");
			if (in->rank != 4 || !((axes[0] == 1 && axes[1] == 2) || (axes[0] == 2 && axes[1] == 1)))
				return fail(c, "only the mean over height and width of NHWC is supported");
			if (elems(out) != (uint64_t)in->dims[0] * in->dims[3])
				return fail(c, "output shape");
			c->p = (struct dk_params){ .batch = in->dims[0], .in_h = in->dims[1],
						   .in_w = in->dims[2], .in_c = in->dims[3] };
		}
		if (in->dtype != DMO_NET_F32 && in->dtype != DMO_NET_I8)
			return fail(c, "only int8 and float32 are supported");
		if (in->dtype == DMO_NET_I8) {
			if (need_quant(c, in, "input") || need_quant(c, out, "output"))
				return -1;
			c->p.q.in_zero = zero_of(in);
			c->p.q.out_zero = zero_of(out);
			if (requant_factor(c, scale_of(in) / scale_of(out),
					   &c->p.q.out_mult, &c->p.q.out_shift))
				return -1;
		}
		c->p.q.single_rounding = c->net->single_rounding;
		if (s->reduce != DK_REDUCE_MEAN && in->dtype != DMO_NET_F32)
			return fail(c, "only float32 is supported");
		if (c->arena)
			rc = in->dtype == DMO_NET_F32
				     ? dk_reduce_f32((enum dk_reduce)s->reduce, &c->p, at(c, in), at(c, out), NULL)
				     : dk_mean_i8(&c->p, at(c, in), at(c, out), NULL);
		break;
	}
	default: { /* concatenation */
		struct dk_shape shapes[DMO_NET_MAX_INPUTS];
		const void *ins[DMO_NET_MAX_INPUTS];
		int axis = s->axis < 0 ? s->axis + in->rank : s->axis;
		uint64_t total = 0;
		if (axis < 0 || axis >= in->rank)
			return fail(c, "axis %d is outside rank %d", s->axis, in->rank);
		for (int k = 0; k < s->n_inputs; k++) {
			const struct dmo_net_tensor *t = operand(c, k);
			if (!t || t->dtype != out->dtype || !same_quant(t, out))
				return fail(c, "input %d differs from the output in type or quantisation "
					       "(a requantising concatenation is not supported)", k);
			for (int i = 0; i < in->rank; i++)
				if (t->rank != in->rank || (i != axis && t->dims[i] != in->dims[i]))
					return fail(c, "input %d differs from input 0 beside axis %d", k,
						    s->axis);
			to_shape(t, &shapes[k]);
			ins[k] = c->arena ? at(c, t) : NULL;
			total += elems(t);
		}
		if (total != elems(out))
			return fail(c, "the inputs hold %llu elements, the output %llu",
				    (unsigned long long)total, (unsigned long long)elems(out));
		if (c->arena)
			rc = dk_concat(s->n_inputs, shapes, axis, elem, ins, at(c, out), NULL);
		break;
	}
	}
	return rc ? fail(c, "the kernel rejected its parameters") : 0;
}

/* Float to quantised tensor QT or back with a scale per channel (ONNX's
 * axis): the kernels' axis_* parameters, the zero points copied into
 * c->mults. */
static int axis_quant(struct ctx *c, const struct dmo_net_tensor *qt)
{
	int axis = qt->quant_axis;

	if (axis < 0 || axis >= qt->rank || qt->n_quant != (size_t)qt->dims[axis])
		return fail(c, "%zu scales for axis %d of a %d-D tensor", qt->n_quant, axis, qt->rank);
	c->mults = malloc(sizeof *c->mults * qt->n_quant);
	if (!c->mults)
		return fail(c, "out of memory");
	for (size_t k = 0; k < qt->n_quant; k++) {
		c->mults[k] = (int32_t)qt->zero_point[k];
		if (!(qt->scale[k] > 0))
			return fail(c, "scale %zu, %g, is not positive", k, (double)qt->scale[k]);
	}
	c->p.q.axis_scales = qt->scale;
	c->p.q.axis_zeros = c->mults;
	c->p.q.axis_count = qt->dims[axis];
	c->p.q.axis_inner = 1;
	for (int d = axis + 1; d < qt->rank; d++)
		c->p.q.axis_inner *= (size_t)qt->dims[d];
	return 0;
}

/* QUANTIZE: float to int8 or uint8, or int8 to int8; DEQUANTIZE: int8,
 * uint8 or int32 (ONNX's bias) to float.  Float to integer and back per
 * tensor or per channel. */
static int run_convert(struct ctx *c)
{
	const struct dmo_net_tensor *in = operand(c, 0), *out = result(c);

	if (!in || !out)
		return fail(c, "missing operand");
	if (elems(in) != elems(out) || elems(in) > INT32_MAX || !elems(in))
		return fail(c, "element counts differ");
	flat_params(c, elems(in), (int)elems(in));
	struct dk_quant *q = &c->p.q;
	int quantize = c->step->op == DMO_NET_QUANTIZE;
	const struct dmo_net_tensor *qt = quantize ? out : in;
	if (!(qt->dtype == DMO_NET_I8 || qt->dtype == DMO_NET_U8 ||
	      (!quantize && qt->dtype == DMO_NET_I32)) ||
	    (quantize && in->dtype != DMO_NET_F32 &&
	     (in->dtype != DMO_NET_I8 || qt->dtype != DMO_NET_I8)) ||
	    (!quantize && out->dtype != DMO_NET_F32))
		return fail(c, "conversion between these types is not supported (float to int8 or "
			       "uint8, int8 to int8; int8, uint8 or int32 to float)");
	if (!qt->n_quant)
		return fail(c, "quantised tensor '%s' has no quantisation", qt->name ? qt->name : "");
	if (qt->n_quant > 1 && (in->dtype == DMO_NET_F32 || out->dtype == DMO_NET_F32)) {
		if (axis_quant(c, qt))
			return -1;
		q->round_half_even = c->step->round_half_even;
	} else if (qt->n_quant > 1) {
		return fail(c, "int8 to int8 takes one scale, not one per channel");
	} else if (quantize && in->dtype == DMO_NET_F32) {
		if (!(scale_of(out) > 0))
			return fail(c, "output scale %g is not positive", scale_of(out));
		q->scale = (float)scale_of(out);
		q->out_zero = zero_of(out);
		q->round_half_even = c->step->round_half_even;
	} else if (quantize) {
		if (need_quant(c, in, "input"))
			return -1;
		q->in_zero = zero_of(in);
		q->out_zero = zero_of(out);
		if (requant_factor(c, scale_of(in) / scale_of(out), &q->out_mult, &q->out_shift))
			return -1;
	} else {
		q->scale = (float)scale_of(in);
		q->in_zero = zero_of(in);
	}
	c->p.q.single_rounding = c->net->single_rounding;
	if (!c->arena)
		return 0;
	const void *ip = at(c, in);
	void *op = at(c, out);
	int rc = !quantize ? (in->dtype == DMO_NET_U8    ? dk_dequantize_u8_f32(&c->p, ip, op, NULL)
			      : in->dtype == DMO_NET_I32 ? dk_dequantize_i32_f32(&c->p, ip, op, NULL)
							 : dk_dequantize_i8_f32(&c->p, ip, op, NULL))
		 : in->dtype != DMO_NET_F32 ? dk_quantize_i8_i8(&c->p, ip, op, NULL)
		 : out->dtype == DMO_NET_U8 ? dk_quantize_f32_u8(&c->p, ip, op, NULL)
					    : dk_quantize_f32_i8(&c->p, ip, op, NULL);
	return rc ? fail(c, "the kernel rejected its parameters") : 0;
}

/* Prepare step C (and run it when C has an arena). */
static int prepare_step(struct ctx *c)
{
	const struct dmo_net_tensor *out = result(c);
	int rc;

	snprintf(c->where, sizeof c->where, "step %zu '%s' (%s)", c->index,
		 c->step->name ? c->step->name : "", dmo_net_op_name(c->step->op));
	if (c->step->n_inputs < 1 || c->step->n_inputs > DMO_NET_MAX_INPUTS)
		return fail(c, "%d operands", c->step->n_inputs);
	if (!out || out->data)
		return fail(c, "its output must be an activation tensor");
	switch (c->step->op) {
	case DMO_NET_CONV2D:
	case DMO_NET_DWCONV2D:
	case DMO_NET_FC:
	case DMO_NET_MAXPOOL:
	case DMO_NET_AVGPOOL:
		rc = run_windowed(c);
		break;
	case DMO_NET_ADD:
	case DMO_NET_MUL: {
		/* float32 operands that broadcast run ONNX's kernel. */
		const struct dmo_net_tensor *a = operand(c, 0), *b = operand(c, 1);

		if (a && b && out && a->dtype == DMO_NET_F32 &&
		    (elems(a) != elems(out) || elems(b) != elems(out)))
			rc = run_onnx_elementwise(c);
		else
			rc = run_elementwise(c);
		break;
	}
	case DMO_NET_SUB:
	case DMO_NET_DIV:
	case DMO_NET_HARDSIGMOID:
	case DMO_NET_HARDSWISH:
	case DMO_NET_CLIP:
	case DMO_NET_BATCHNORM:
	case DMO_NET_UNARY:
	case DMO_NET_PRELU:
	case DMO_NET_MAX:
	case DMO_NET_MIN:
	case DMO_NET_POW:
		rc = run_onnx_elementwise(c);
		break;
	case DMO_NET_CONVT:
		rc = run_convt(c);
		break;
	case DMO_NET_MATMUL:
		rc = run_matmul(c);
		break;
	case DMO_NET_GATHER:
		rc = run_gather(c);
		break;
	case DMO_NET_RELU:
	case DMO_NET_RELU6:
	case DMO_NET_SOFTMAX:
	case DMO_NET_LOGISTIC:
	case DMO_NET_TANH:
		rc = run_elementwise(c);
		break;
	case DMO_NET_MEAN:
	case DMO_NET_RESHAPE:
	case DMO_NET_PAD:
	case DMO_NET_TRANSPOSE:
	case DMO_NET_CONCAT:
	case DMO_NET_RESIZE:
	case DMO_NET_SLICE:
		rc = run_layout(c);
		break;
	case DMO_NET_QUANTIZE:
	case DMO_NET_DEQUANTIZE:
		rc = run_convert(c);
		break;
	case DMO_NET_QLINEARADD:
	case DMO_NET_QLINEARMUL:
	case DMO_NET_QLINEARMEAN:
	case DMO_NET_QLINEARAVGPOOL:
		rc = run_qlinear(c);
		break;
	case DMO_NET_QLINEARCONCAT:
		rc = run_qlinear_concat(c);
		break;
	case DMO_NET_SHAPE_ONLY:
		if (c->arena)
			memset(at(c, out), 0, dmo_net_tensor_bytes(c->net, c->step->output));
		rc = 0;
		break;
	default:
		rc = fail(c, "unknown operator %d", (int)c->step->op);
	}
	return rc;
}

static int step(const struct dmo_net *net, size_t i, unsigned char *arena, const uint64_t *offsets,
		char *err, size_t err_len)
{
	struct ctx c = { .net = net, .step = &net->steps[i], .index = i, .arena = arena,
			 .offsets = offsets, .err = err, .err_len = err_len };
	int rc = prepare_step(&c);

	free(c.mults);
	free(c.shifts);
	return rc;
}

int dmo_net_step_params(const struct dmo_net *net, size_t i, struct dk_params *params,
			int32_t **mults, int **shifts, char *err, size_t err_len)
{
	struct ctx c = { .net = net, .index = i, .err = err, .err_len = err_len };

	*mults = NULL;
	*shifts = NULL;
	if (i >= net->n_steps) {
		snprintf(err, err_len, "no step %zu", i);
		return -1;
	}
	c.step = &net->steps[i];
	if (prepare_step(&c) != 0) {
		free(c.mults);
		free(c.shifts);
		return -1;
	}
	*params = c.p;
	*mults = c.mults;
	*shifts = c.shifts;
	return 0;
}

int dmo_net_run_step(const struct dmo_net *net, size_t i, unsigned char *arena,
		     const uint64_t *offsets, char *err, size_t err_len)
{
	if (!arena || !offsets || i >= net->n_steps) {
		snprintf(err, err_len, !arena || !offsets ? "no arena" : "no step %zu", i);
		return -1;
	}
	return step(net, i, arena, offsets, err, err_len);
}

int dmo_net_check(const struct dmo_net *net, char *err, size_t err_len)
{
	for (size_t i = 0; i < net->n_steps; i++)
		if (step(net, i, NULL, NULL, err, err_len))
			return -1;
	return 0;
}

int dmo_net_run(const struct dmo_net *net, unsigned char *arena, const uint64_t *offsets,
		char *err, size_t err_len)
{
	if (!arena || !offsets) {
		snprintf(err, err_len, "no arena");
		return -1;
	}
	for (size_t i = 0; i < net->n_steps; i++)
		if (step(net, i, arena, offsets, err, err_len))
			return -1;
	return 0;
}

/* xorshift64*: the same bytes for the same seed on every machine. */
static uint8_t next_byte(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return (uint8_t)((*state * 0x2545F4914F6CDD1DULL) >> 56);
}

uint64_t dmo_net_input_bytes(const struct dmo_net *net)
{
	uint64_t total = 0;

	for (size_t t = 0; t < net->n_tensors; t++)
		if (net->tensors[t].graph_input)
			total += dmo_net_tensor_bytes(net, (int)t);
	return total;
}

int dmo_net_fill_inputs(const struct dmo_net *net, const struct dmo_net_input *source,
			unsigned char *arena, const uint64_t *offsets, char *err, size_t err_len)
{
	FILE *f = NULL;
	uint64_t state = source->seed * 0x9E3779B97F4A7C15ULL + 1;

	if (source->file && !(f = fopen(source->file, "rb"))) {
		snprintf(err, err_len, "%s: %s", source->file, strerror(errno));
		return -1;
	}
	for (size_t t = 0; t < net->n_tensors; t++) {
		if (!net->tensors[t].graph_input)
			continue;
		unsigned char *p = arena + offsets[t];
		uint64_t bytes = dmo_net_tensor_bytes(net, (int)t);
		if (f) {
			if (fread(p, 1, bytes, f) != bytes) {
				snprintf(err, err_len, "%s: too short for input '%s' (%llu bytes)",
					 source->file, net->tensors[t].name ? net->tensors[t].name : "",
					 (unsigned long long)bytes);
				fclose(f);
				return -1;
			}
		} else if (source->zeros) {
			memset(p, 0, bytes);
		} else if (net->tensors[t].dtype == DMO_NET_F32) {
			for (uint64_t i = 0; i < bytes / 4; i++) {
				int hi = next_byte(&state), lo = next_byte(&state);
				float v = (float)((hi << 8 | lo) / 32768.0 - 1.0);
				memcpy(p + 4 * i, &v, 4);
			}
		} else {
			for (uint64_t i = 0; i < bytes; i++)
				p[i] = next_byte(&state);
		}
	}
	if (f) {
		int extra = fgetc(f);
		fclose(f);
		if (extra != EOF) {
			snprintf(err, err_len, "%s: longer than the model's inputs", source->file);
			return -1;
		}
	}
	return 0;
}
