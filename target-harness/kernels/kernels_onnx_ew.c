/* kernels_onnx_ew.c - libdmokernels' float32 element-wise ops of ONNX
 * models: Add, Sub, Mul, Div and PRelu with NumPy broadcasting,
 * HardSigmoid, HardSwish, Clip to any bounds, the inference form of
 * BatchNormalization, and the unary ops of one table (dk_onnx_unary: LeakyRelu,
 * Elu, Selu, Exp, Log, Sqrt, Neg, Abs, Reciprocal, Softplus, Erf, Floor,
 * Ceil, Pow by a constant, and Mean's last pass, x times 1/n), and Pow by
 * an exponent tensor on the broadcasting kernel.
 *
 * Loop order (docs/kernels.md, "ONNX element-wise ops"): the output's flat
 * order; element e reads its input element(s), then writes out[e].  Each
 * is one pass as ONNX Runtime's CPU kernels make it (their Eigen and MLAS
 * loops run over the output in memory order too). */
#include "kernels_internal.h"

#include <math.h>

/* ---- broadcasting binary ops ---- */

/* Strides of SHAPE's elements seen from an output of RANK dims (NumPy's
 * rule: dims right-aligned, a dim of 1 repeats its element): 0 where it
 * broadcasts.  -1 when SHAPE does not broadcast to OUT. */
static int broadcast_strides(const struct dk_shape *shape, const struct dk_shape *out,
			     size_t strides[DK_MAX_DIMS])
{
	size_t stride = 1;

	if (shape->rank < 0 || shape->rank > out->rank || out->rank > DK_MAX_DIMS)
		return -1;
	for (int d = out->rank - 1; d >= 0; d--) {
		int k = d - (out->rank - shape->rank);
		int n = k >= 0 ? shape->dims[k] : 1;

		if (n != 1 && n != out->dims[d])
			return -1;
		strides[d] = n == 1 ? 0 : stride;
		stride *= (size_t)n;
	}
	return 0;
}

/* ONNX Runtime's Pow of float32: a square and a cube by products, any
 * other exponent by powf. */
static float pow_f32(float x, float y)
{
	return y == 2 ? x * x : y == 3 ? x * x * x : powf(x, y);
}

static float binary(enum dk_binary op, float a, float b)
{
	switch (op) {
	case DK_ADD:
		return a + b;
	case DK_SUB:
		return a - b;
	case DK_MUL:
		return a * b;
	case DK_PRELU: /* ONNX Runtime's PRelu: x > 0 ? x : x slope */
		return a > 0 ? a : a * b;
	case DK_MAX: /* Eigen's max and min, ONNX Runtime's Max and Min */
		return a < b ? b : a;
	case DK_MIN:
		return b < a ? b : a;
	case DK_POWT:
		return pow_f32(a, b);
	default:
		return a / b;
	}
}

int dk_binary_bcast_f32(enum dk_binary op, const struct dk_shape *out_shape,
			const struct dk_shape *a_shape, const float *a,
			const struct dk_shape *b_shape, const float *b, float *out,
			const struct dk_thread *t)
{
	size_t sa[DK_MAX_DIMS], sb[DK_MAX_DIMS], n = 1;
	struct share sh;

	if (!out_shape || !a_shape || !b_shape || !a || !b || !out || op < DK_ADD || op > DK_POWT ||
	    broadcast_strides(a_shape, out_shape, sa) || broadcast_strides(b_shape, out_shape, sb))
		return -1;
	for (int d = 0; d < out_shape->rank; d++) {
		if (out_shape->dims[d] < 1)
			return -1;
		n *= (size_t)out_shape->dims[d];
	}
	if (share_init(&sh, t, n))
		return -1;
	for (size_t e = sh.lo; e < sh.hi; e++) {
		size_t rest = e, ia = 0, ib = 0;

		if (!owns(&sh, e))
			continue;
		for (int d = out_shape->rank - 1; d >= 0; d--) {
			size_t i = rest % (size_t)out_shape->dims[d];

			rest /= (size_t)out_shape->dims[d];
			ia += i * sa[d];
			ib += i * sb[d];
		}
		out[e] = binary(op, a[ia], b[ib]);
	}
	return 0;
}

/* ---- unary ops, and batchnorm's per-channel affine map ---- */

static inline float clamp_f32(float x, float lo, float hi)
{
	return x < lo ? lo : x > hi ? hi : x;
}

static inline float hardsigmoid_f32(const struct dk_params *p, float x)
{
	return clamp_f32(p->alpha * x + p->beta, 0, 1);
}

/* ONNX's HardSwish: x HardSigmoid(x) with alpha 1/6, beta 1/2. */
static inline float hardswish_f32(const struct dk_params *p, float x)
{
	(void)p;
	return x * clamp_f32(x / 6 + 0.5f, 0, 1);
}

static inline float clip_f32(const struct dk_params *p, float x)
{
	return clamp_f32(x, p->lo, p->hi);
}

DK_FLAT_KERNEL(dk_hardsigmoid_f32, float, float, hardsigmoid_f32)
DK_FLAT_KERNEL(dk_hardswish_f32, float, float, hardswish_f32)
DK_FLAT_KERNEL(dk_clip_f32, float, float, clip_f32)

int dk_batchnorm_f32(const struct dk_params *p, const float *scale, const float *shift,
		     const float *in, float *out, const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p), inner = n ? (size_t)p->in_w * p->in_c : 1;

	if (!n || !scale || !shift || !in || !out || share_init(&sh, t, n))
		return -1;
	for (size_t e = sh.lo; e < sh.hi; e++) {
		size_t c = e / inner % (size_t)p->in_h;

		if (owns(&sh, e))
			out[e] = in[e] * scale[c] + shift[c];
	}
	return 0;
}

/* ---- ONNX's unary ops, one table: dmokernels.h names each formula ---- */

static float neg_f32(float x)
{
	return -x;
}

static float reciprocal_f32(float x)
{
	return 1 / x;
}

/* e^x is only taken where it cannot overflow. */
static float softplus_f32(float x)
{
	return x > 0 ? x + log1pf(expf(-x)) : log1pf(expf(x));
}

/* The functions of x alone, by table; the others take attributes. */
static float (*const of_x[DK_UNARY_COUNT])(float) = {
	[DK_EXP] = expf,   [DK_LOG] = logf,	  [DK_SQRT] = sqrtf,
	[DK_NEG] = neg_f32, [DK_ABS] = fabsf,  [DK_RECIPROCAL] = reciprocal_f32,
	[DK_SOFTPLUS] = softplus_f32, [DK_ERF] = erff, [DK_FLOOR] = floorf,
	[DK_CEIL] = ceilf,
};

static float unary_f32(enum dk_onnx_unary fn, const struct dk_params *p, float x)
{
	switch (fn) {
	case DK_LEAKYRELU:
		return x >= 0 ? x : p->alpha * x;
	case DK_ELU:
		return x >= 0 ? x : p->alpha * (expf(x) - 1);
	case DK_SELU:
		return x > 0 ? p->gamma * x : p->gamma * p->alpha * (expf(x) - 1);
	case DK_POW:
		return pow_f32(x, p->exponent);
	case DK_SCALE:
		return p->alpha * x;
	default:
		return of_x[fn](x);
	}
}

int dk_onnx_unary_f32(enum dk_onnx_unary fn, const struct dk_params *p, const float *in,
		      float *out, const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || fn < DK_LEAKYRELU || fn >= DK_UNARY_COUNT || share_init(&sh, t, n))
		return -1;
	for (size_t e = sh.lo; e < sh.hi; e++)
		if (owns(&sh, e))
			out[e] = unary_f32(fn, p, in[e]);
	return 0;
}
