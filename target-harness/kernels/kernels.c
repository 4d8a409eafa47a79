/* kernels.c - libdmokernels: parameter checks, the exported fixed-point
 * helpers and the per-type instantiations of the loop nests in
 * kernels_body.h. */
#include "kernels_internal.h"

#include <float.h>
#include <math.h>

static size_t in_elems(const struct dk_params *p)
{
	return (size_t)p->batch * p->in_h * p->in_w * p->in_c;
}

static size_t out_elems(const struct dk_params *p)
{
	return (size_t)p->batch * p->out_h * p->out_w * p->out_c;
}

static int32_t clamp_act(const struct dk_quant *q, int32_t v, int32_t lo, int32_t hi)
{
	if (q->act_min > lo)
		lo = q->act_min;
	if (q->act_max < hi)
		hi = q->act_max;
	return v < lo ? lo : v > hi ? hi : v;
}

/* ONNX Runtime's requantisation of ACC by the float factor SCALE
 * (struct dk_quant's real_scales): float(acc) * scale rounded half to even
 * (nearbyintf in the default rounding mode, as MLAS's conversion).  ONNX
 * Runtime clamps the float to the output range less the zero point before
 * rounding; rounding first and clamping after (WITH_ZERO, clamp_act) gives
 * the same integer, as the range's ends are integers.  Beyond int32 the
 * value saturates; a NaN factor gives 0. */
static inline int32_t requant_real(int32_t acc, float scale)
{
	float v = (float)acc * scale;

	if (v != v)
		return 0;
	if (v >= 2147483648.0f)
		return INT32_MAX;
	if (v <= -2147483648.0f)
		return INT32_MIN;
	return (int32_t)nearbyintf(v);
}

/* The requantisation of output channel OC: its own multiplier when the
 * filters are quantised per channel. */
static inline int32_t requant_channel(const struct dk_quant *q, int32_t acc, int oc)
{
	if (q->real_scales)
		return requant_real(acc, q->real_scales[q->real_per_channel ? oc : 0]);
	return q->out_mults ? requant_q(q, acc, q->out_mults[oc], q->out_shifts[oc])
			    : requant_q(q, acc, q->out_mult, q->out_shift);
}

static inline int32_t requant_channel64(const struct dk_quant *q, int64_t acc, int oc)
{
	return q->out_mults ? requant64(acc, q->out_mults[oc], q->out_shifts[oc])
			    : requant64(acc, q->out_mult, q->out_shift);
}

/* Average of COUNT values rounded half away from zero (TFLite). */
static int64_t rounded_average(int64_t sum, int count)
{
	return sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
}

void dk_quantize_multiplier(double real, int32_t *mult, int *shift)
{
	if (real <= 0) {
		*mult = 0;
		*shift = 0;
		return;
	}
	double frac = frexp(real, shift);
	int64_t q = llround(frac * (double)(1ll << 31));
	if (q == (1ll << 31)) {
		q /= 2;
		++*shift;
	}
	if (*shift < -31) {
		*shift = 0;
		q = 0;
	}
	*mult = (int32_t)q;
}

int32_t dk_doubling_high_mul(int32_t a, int32_t b)
{
	return high_mul(a, b);
}

int32_t dk_rounding_divide_by_pot(int32_t x, int exponent)
{
	return exponent < 0 || exponent > 31 ? 0 : divide_by_pot(x, exponent);
}

int32_t dk_multiply_by_quantized_multiplier(int32_t x, int32_t mult, int shift)
{
	return requant32(x, mult, shift);
}

int32_t dk_multiply_by_quantized_multiplier_single(int32_t x, int32_t mult, int shift)
{
	return requant32_single(x, mult, shift);
}

void dk_add_quant(float in_scale, float in2_scale, float out_scale, int left_shift,
		  struct dk_quant *q)
{
	/* TFLite brings both operands to twice the larger input scale, so each
	 * input factor is at most 1/2, and leaves LEFT_SHIFT bits of headroom
	 * for the rounding of the two rescalings. */
	double twice_max = 2.0 * (in_scale > in2_scale ? in_scale : in2_scale);
	q->left_shift = left_shift;
	dk_quantize_multiplier(in_scale / twice_max, &q->in_mult, &q->in_shift);
	dk_quantize_multiplier(in2_scale / twice_max, &q->in2_mult, &q->in2_shift);
	dk_quantize_multiplier(twice_max / ((double)(1 << left_shift) * out_scale),
			       &q->out_mult, &q->out_shift);
}

int dk_activation_range(int act, float out_scale, int32_t out_zero, int32_t qmin,
			int32_t qmax, struct dk_quant *q)
{
	/* TFLite quantises the bounds in float: zero + round(bound / scale). */
#define QUANTIZED(bound) (out_zero + (int32_t)roundf((float)(bound) / out_scale))
	int32_t lo = qmin, hi = qmax;
	switch (act) {
	case 0:
		break;
	case 1:
		lo = QUANTIZED(0);
		break;
	case 2:
		lo = QUANTIZED(-1);
		hi = QUANTIZED(1);
		break;
	case 3:
		lo = QUANTIZED(0);
		hi = QUANTIZED(6);
		break;
	default:
		return -1;
	}
#undef QUANTIZED
	q->act_min = lo > qmin ? lo : qmin;
	q->act_max = hi < qmax ? hi : qmax;
	return 0;
}

/* ---- float32 ---- */

static inline float relu_f32(const struct dk_quant *q, float x)
{
	(void)q;
	return x > 0 ? x : 0;
}

static inline float relu6_f32(const struct dk_quant *q, float x)
{
	(void)q;
	return x > 0 ? (x < 6 ? x : 6) : 0;
}

static inline float add_f32(const struct dk_quant *q, float a, float b)
{
	(void)q;
	return a + b;
}

static inline float mul_f32(const struct dk_quant *q, float a, float b)
{
	(void)q;
	return a * b;
}

#define T float
#define W float
#define B float
#define ACC float
#define SUFFIX f32
#define T_LOWEST (-FLT_MAX)
#define MAC(q, x, f) ((void)(q), (x) * (f))
#define FINISH(q, acc, oc) ((void)(q), (void)(oc), (acc))
#define POOL_AVG(q, sum, count) ((void)(q), (sum) / (float)(count))
#define POOL_MAX(q, max) ((void)(q), (max))
#define EW_RELU relu_f32
#define EW_RELU6 relu6_f32
#define EW_ADD add_f32
#define EW_MUL mul_f32
#include "kernels_body.h"
#undef MAC
#undef POOL_AVG
#undef POOL_MAX
#undef EW_RELU6

/* ---- integers: element functions shared by i8 and i16, parameterised by
 * the output type's range ---- */

static inline int32_t relu_int(const struct dk_quant *q, int32_t x,
			       int32_t lo, int32_t hi)
{
	int32_t v = q->out_zero + requant_q(q, x - q->in_zero, q->out_mult, q->out_shift);
	return clamp_act(q, v, q->out_zero > lo ? q->out_zero : lo, hi);
}

static inline int32_t add_int(const struct dk_quant *q, int32_t a, int32_t b,
			      int32_t lo, int32_t hi)
{
	int64_t scale = (int64_t)1 << q->left_shift;
	int32_t sa = requant_q(q, saturate32((a - q->in_zero) * scale), q->in_mult, q->in_shift);
	int32_t sb = requant_q(q, saturate32((b - q->in2_zero) * scale), q->in2_mult, q->in2_shift);
	int32_t v = q->out_zero + requant_q(q, saturate32((int64_t)sa + sb), q->out_mult, q->out_shift);
	return clamp_act(q, v, lo, hi);
}

static inline int32_t mul_int(const struct dk_quant *q, int32_t a, int32_t b,
			      int32_t lo, int32_t hi)
{
	int64_t product = (int64_t)(a - q->in_zero) * (b - q->in2_zero);
	int32_t v = q->out_zero + requant_q(q, saturate32(product), q->out_mult, q->out_shift);
	return clamp_act(q, v, lo, hi);
}

/* Binds an integer element function to one output type. */
#define DK_INT_ELEMENT_FNS(T, SUFFIX, LO, HI)                                     \
	static inline T relu_##SUFFIX(const struct dk_quant *q, T x)              \
	{                                                                         \
		return (T)relu_int(q, x, LO, HI);                                 \
	}                                                                         \
	static inline T add_##SUFFIX(const struct dk_quant *q, T a, T b)          \
	{                                                                         \
		return (T)add_int(q, a, b, LO, HI);                               \
	}                                                                         \
	static inline T mul_##SUFFIX(const struct dk_quant *q, T a, T b)          \
	{                                                                         \
		return (T)mul_int(q, a, b, LO, HI);                               \
	}

DK_INT_ELEMENT_FNS(int8_t, i8, INT8_MIN, INT8_MAX)
DK_INT_ELEMENT_FNS(int16_t, i16, INT16_MIN, INT16_MAX)
DK_INT_ELEMENT_FNS(uint8_t, u8, 0, UINT8_MAX)

#define POOL_AVG(q, sum, count) ((T)clamp_act(q, (int32_t)rounded_average(sum, count), T_LOWEST, T_HIGHEST))
#define POOL_MAX(q, max) ((T)clamp_act(q, max, T_LOWEST, T_HIGHEST))
#define MAC(q, x, f) ((ACC)((x) - (q)->in_zero) * ((f) - (q)->filter_zero))
/* Integer relu6 is relu: its upper bound 6.0 arrives as act_max. */
#define EW_RELU6 EW_RELU

/* The output's zero point added to a requantised value, which may be near
 * the int32 limits: in 64 bits, saturated (the sum overflowed int32). */
#define WITH_ZERO(q, v) saturate32((int64_t)(q)->out_zero + (v))

/* ---- int8: int32 accumulation, as TFLite's, summed in 64 bits and
 * saturated to int32: a window of more than 33025 taps of 255 x 255 (zero
 * points at their limits) overflowed int32, undefined behaviour, where
 * TFLite's kernels wrap in practice ---- */
#define T int8_t
#define W int8_t
#define B int32_t
#define ACC int64_t
#define SUFFIX i8
#define T_LOWEST INT8_MIN
#define T_HIGHEST INT8_MAX
#define FINISH(q, acc, oc) ((T)clamp_act(q, WITH_ZERO(q, requant_channel(q, saturate32(acc), oc)), T_LOWEST, T_HIGHEST))
#define EW_RELU relu_i8
#define EW_ADD add_i8
#define EW_MUL mul_i8
#include "kernels_body.h"

/* ---- int16 (16x8): int64 accumulation ---- */
#define T int16_t
#define W int8_t
#define B int64_t
#define ACC int64_t
#define SUFFIX i16
#define T_LOWEST INT16_MIN
#define T_HIGHEST INT16_MAX
#define FINISH(q, acc, oc) ((T)clamp_act(q, WITH_ZERO(q, requant_channel64(q, acc, oc)), T_LOWEST, T_HIGHEST))
#define EW_RELU relu_i16
#define EW_ADD add_i16
#define EW_MUL mul_i16
#include "kernels_body.h"

/* ---- uint8 (legacy per-tensor asymmetric): the int8 arithmetic ---- */
#define T uint8_t
#define W uint8_t
#define B int32_t
#define ACC int64_t
#define SUFFIX u8
#define T_LOWEST 0
#define T_HIGHEST UINT8_MAX
#define FINISH(q, acc, oc) ((T)clamp_act(q, WITH_ZERO(q, requant_channel(q, saturate32(acc), oc)), T_LOWEST, T_HIGHEST))
#define EW_RELU relu_u8
#define EW_ADD add_u8
#define EW_MUL mul_u8
#include "kernels_body.h"
