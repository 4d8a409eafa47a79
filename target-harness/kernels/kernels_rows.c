/* kernels_rows.c - libdmokernels: softmax, logistic, mean, quantize and
 * dequantize, with TFLite Micro's integer arithmetic for int8 (gemmlowp's
 * fixed-point exp and reciprocal; docs/quantised-arithmetic.md). */
#include "kernels_internal.h"

#include <math.h>
#include <stdlib.h>

/* ---- gemmlowp fixed point, on raw int32 values.  Qm is a value with m
 * integer bits and 31 - m fractional bits; a product of Qa and Qb is
 * Q(a+b), which is high_mul on the raw values. ---- */

/* exp(a) for a in [-1/4, 0), Q0 in and out: the Taylor expansion of degree
 * 4 around -1/8, x = a + 1/8: exp(-1/8) * (1 + x + x^2/2 + x^3/6 + x^4/24). */
static int32_t exp_quarter(int32_t a)
{
	const int32_t exp_minus_one_eighth = 1895147668; /* exp(-1/8) in Q0 */
	const int32_t one_third = 715827883;             /* 1/3 in Q0 */
	int32_t x = a + (1 << 28);
	int32_t x2 = high_mul(x, x);
	int32_t x3 = high_mul(x2, x);
	int32_t x4 = high_mul(x2, x2);
	int32_t x4_over_4 = divide_by_pot(x4, 2);
	int32_t poly = divide_by_pot(high_mul(x4_over_4 + x3, one_third) + x2, 1);
	return exp_minus_one_eighth + high_mul(exp_minus_one_eighth, x + poly);
}

/* exp(a) for a <= 0 given in Q(INT_BITS), INT_BITS <= 5; result in Q0.
 * a = r - k/4 with r in [-1/4, 0): exp(r) times exp(-2^j) for each bit j of
 * the multiple of 1/4 (a barrel shifter of the constants below). */
static int32_t exp_negative(int32_t a, int int_bits)
{
	/* exp(-2^j) in Q0 for j = -2 .. 4. */
	static const int32_t exp_minus_pot[7] = { 1672461947, 1302514674, 790015084, 290630308,
						  39332535,   720401,     242 };
	int frac_bits = 31 - int_bits;
	int32_t quarter = (int32_t)1 << (frac_bits - 2);
	int32_t r = (a & (quarter - 1)) - quarter;
	int32_t result = exp_quarter(shift_left_saturating(r, int_bits));
	int32_t remainder = r - a;
	for (int j = -2; j <= 4 && j < int_bits; j++)
		if (remainder & ((int32_t)1 << (frac_bits + j)))
			result = high_mul(result, exp_minus_pot[j + 2]);
	return a == 0 ? INT32_MAX : result;
}

/* gemmlowp's RoundingHalfSum: (a + b) / 2, ties away from zero. */
static int32_t rounding_half_sum(int32_t a, int32_t b)
{
	int64_t sum = (int64_t)a + b;
	return (int32_t)((sum + (sum >= 0 ? 1 : -1)) / 2);
}

/* 1 / (1 + a) for a in [0, 1), Q0 in and out: Newton-Raphson on the half
 * denominator d = (1 + a) / 2 in Q2, from 48/17 - 32/17 d, three steps of
 * x += x (1 - d x); the result x = 1 / d is halved back. */
static int32_t one_over_one_plus(int32_t a)
{
	const int32_t c48_over_17 = 1515870810;      /* Q2 */
	const int32_t c_neg32_over_17 = -1010580540; /* Q2 */
	int32_t d = rounding_half_sum(a, INT32_MAX);
	int32_t x = c48_over_17 + high_mul(d, c_neg32_over_17);
	for (int i = 0; i < 3; i++) {
		int32_t one_minus_dx = (1 << 29) - high_mul(d, x);
		x += shift_left_saturating(high_mul(x, one_minus_dx), 2);
	}
	return shift_left_saturating(x, 1);
}

/* TFLite's CalculateInputRadius: the largest |input difference| that still
 * fits in Q(INT_BITS) after the left shift. */
static int32_t input_radius(int int_bits, int left_shift)
{
	/* ldexp, not shifts: a tiny input scale gives a negative LEFT_SHIFT
	 * (the caller refuses it, after this), and a shift by it is undefined. */
	double max_rescaled = ldexp((double)((1 << int_bits) - 1), 31 - int_bits - left_shift);
	return max_rescaled >= 2147483647.0 ? INT32_MAX : (int32_t)floor(max_rescaled);
}

void dk_softmax_quant(float beta, float in_scale, struct dk_quant *q)
{
	/* Differences are scaled by beta * in_scale into Q5.26; a factor that
	 * large saturates anyway, so it is capped (TFLite's
	 * PreprocessSoftmaxScaling). */
	double real = (double)beta * (double)in_scale * (double)(1 << (31 - 5));
	if (real > 2147483647.0)
		real = 2147483647.0;
	dk_quantize_multiplier(real, &q->in_mult, &q->in_shift);
	q->diff_min = -input_radius(5, q->in_shift);
}

void dk_logistic_quant(float in_scale, struct dk_quant *q)
{
	dk_quantize_multiplier((double)in_scale * (double)(1 << (31 - 4)), &q->in_mult, &q->in_shift);
	q->in_radius = input_radius(4, q->in_shift);
}

/* ---- softmax ---- */

/* Whether the thread owns any element of row R (of DEPTH elements). */
static int owns_row(const struct share *sh, size_t r, size_t depth)
{
	for (size_t c = 0; c < depth; c++)
		if (owns(sh, r * depth + c))
			return 1;
	return 0;
}

/* Softmax (LOG 0) or LogSoftmax (1) of ROWS rows of DEPTH from IN to OUT
 * (which may be IN: each element is read before it is written), the rows
 * and elements the share owns: read the row (max), read it again (sum of
 * exponentials), then for c: read in[c], write out[c]. */
static void softmax_rows(const struct share *sh, const float *in, float *out, size_t rows,
			 size_t depth, float beta, int log)
{
	for (size_t r = 0; r < rows; r++) {
		if (!owns_row(sh, r, depth))
			continue;
		const float *row = in + r * depth;
		float max = row[0], sum = 0;
		for (size_t c = 1; c < depth; c++)
			max = row[c] > max ? row[c] : max;
		for (size_t c = 0; c < depth; c++)
			sum += expf((row[c] - max) * beta);
		float log_sum = log ? logf(sum) : 0;
		for (size_t c = 0; c < depth; c++)
			if (owns(sh, r * depth + c))
				out[r * depth + c] = log ? (row[c] - max) - log_sum
							 : expf((row[c] - max) * beta) / sum;
	}
}

int dk_softmax_f32(const struct dk_params *p, const float *in, float *out,
		   const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || share_init(&sh, t, n))
		return -1;
	softmax_rows(&sh, in, out, n / (size_t)p->in_c, (size_t)p->in_c, p->beta, 0);
	return 0;
}

/* Where element E of a 4-D tensor of DIMS lies once axis A and the last
 * are swapped (the transposed layout of dk_softmax_axis_f32). */
static size_t swapped_offset(const size_t dims[4], size_t e, int a)
{
	size_t d[4] = { dims[0], dims[1], dims[2], dims[3] }, i[4];

	for (int k = 3; k >= 0; k--) {
		i[k] = e % dims[k];
		e /= dims[k];
	}
	d[a] = dims[3], d[3] = dims[a];
	e = i[a], i[a] = i[3], i[3] = e;
	return ((i[0] * d[1] + i[1]) * d[2] + i[2]) * d[3] + i[3];
}

int dk_softmax_axis_f32(const struct dk_params *p, int axis, int log, const float *in,
			float *out, const struct dk_thread *t)
{
	struct share sh, all;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || axis < 0 || axis > 3 || share_init(&sh, t, n))
		return -1;
	const size_t dims[4] = { (size_t)p->batch, (size_t)p->in_h, (size_t)p->in_w, (size_t)p->in_c };
	if (axis == 3) {
		softmax_rows(&sh, in, out, n / dims[3], dims[3], 1, log);
		return 0;
	}
	float *scratch = malloc(n * sizeof *scratch);
	if (scratch == NULL)
		return -1;
	/* Read every input element into the swapped layout, compute its rows
	 * there (in place), then write the owned output elements back. */
	for (size_t e = 0; e < n; e++)
		scratch[swapped_offset(dims, e, axis)] = in[e];
	share_init(&all, NULL, n);
	softmax_rows(&all, scratch, scratch, n / dims[axis], dims[axis], 1, log);
	for (size_t e = 0; e < n; e++)
		if (owns(&sh, e))
			out[e] = scratch[swapped_offset(dims, e, axis)];
	free(scratch);
	return 0;
}

int dk_softmax_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		  const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || share_init(&sh, t, n) || p->q.in_shift < 0)
		return -1;
	const struct dk_quant *q = &p->q;
	size_t depth = (size_t)p->in_c, rows = n / depth;
	for (size_t r = 0; r < rows; r++) {
		if (!owns_row(&sh, r, depth))
			continue;
		const int8_t *row = in + r * depth;
		int32_t max = INT8_MIN, sum = 0;
		for (size_t c = 0; c < depth; c++)
			max = row[c] > max ? row[c] : max;
		/* Differences in Q5.26, exponentials in Q0, their sum in Q12. */
		for (size_t c = 0; c < depth; c++) {
			int32_t diff = row[c] - max;
			if (diff >= q->diff_min)
				sum += divide_by_pot(exp_negative(high_mul(shift_left_saturating(diff, q->in_shift),
									   q->in_mult), 5), 12);
		}
		/* sum = 2^bits_over_unit * (1 + f), f in [0, 1): its reciprocal is
		 * 1 / (1 + f) in Q0, shifted by bits_over_unit on output. */
		int headroom = __builtin_clz((uint32_t)sum);
		int bits_over_unit = 12 - headroom;
		int32_t sum_minus_one = (int32_t)(((uint32_t)sum << headroom) - (1u << 31));
		int32_t scale = one_over_one_plus(sum_minus_one);
		for (size_t c = 0; c < depth; c++) {
			if (!owns(&sh, r * depth + c))
				continue;
			int32_t diff = row[c] - max, v = INT8_MIN;
			if (diff >= q->diff_min) {
				int32_t e = exp_negative(high_mul(shift_left_saturating(diff, q->in_shift),
								  q->in_mult), 5);
				v = clamp32(divide_by_pot(high_mul(scale, e), bits_over_unit + 31 - 8) + INT8_MIN,
					    INT8_MIN, INT8_MAX);
			}
			out[r * depth + c] = (int8_t)v;
		}
	}
	return 0;
}

/* ---- logistic ---- */

static inline float logistic_f32(const struct dk_params *p, float x)
{
	(void)p;
	return 1.0f / (1.0f + expf(-x));
}

DK_FLAT_KERNEL(dk_logistic_f32, float, float, logistic_f32)

/* ---- tanh (f32 only: ONNX models' Tanh) ---- */

static inline float tanh_f32(const struct dk_params *p, float x)
{
	(void)p;
	return tanhf(x);
}

DK_FLAT_KERNEL(dk_tanh_f32, float, float, tanh_f32)

/* gemmlowp's logistic of A in Q4, result in Q0: 1 / (1 + exp(-|a|)), and
 * one minus that for a negative A. */
static int32_t logistic_q4(int32_t a)
{
	if (a == 0)
		return 1 << 30;
	int32_t positive = one_over_one_plus(exp_negative(a > 0 ? -a : a, 4));
	return a > 0 ? positive : INT32_MAX - positive;
}

static inline int8_t logistic_i8(const struct dk_params *p, int8_t in)
{
	const struct dk_quant *q = &p->q;
	int32_t x = in - q->in_zero;
	if (x <= -q->in_radius)
		return INT8_MIN;
	if (x >= q->in_radius)
		return INT8_MAX;
	return (int8_t)clamp32(divide_by_pot(logistic_q4(requant_q(q, x, q->in_mult, q->in_shift)), 23) +
				       INT8_MIN,
			       INT8_MIN, INT8_MAX);
}

DK_FLAT_KERNEL(dk_logistic_i8, int8_t, int8_t, logistic_i8)

/* ---- mean over height and width ---- */

int dk_reduce_f32(enum dk_reduce op, const struct dk_params *p, const float *in, float *out,
		  const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || op < DK_REDUCE_MEAN || op > DK_REDUCE_SUM ||
	    share_init(&sh, t, (size_t)p->batch * p->in_c))
		return -1;
	size_t e = 0, plane = (size_t)p->in_h * p->in_w;
	for (int b = 0; b < p->batch; b++)
		for (int c = 0; c < p->in_c; c++, e++) {
			if (!owns(&sh, e))
				continue;
			const float *first = in + (size_t)b * plane * p->in_c + c;
			float acc = op == DK_REDUCE_MAX || op == DK_REDUCE_MIN ? first[0] : 0;
			for (size_t i = 0; i < plane; i++) {
				float x = first[i * p->in_c];

				acc = op == DK_REDUCE_MAX ? (x > acc ? x : acc)
				      : op == DK_REDUCE_MIN ? (x < acc ? x : acc) : acc + x;
			}
			out[e] = op == DK_REDUCE_MEAN ? acc / (float)plane : acc;
		}
	return 0;
}

int dk_mean_f32(const struct dk_params *p, const float *in, float *out,
		const struct dk_thread *t)
{
	return dk_reduce_f32(DK_REDUCE_MEAN, p, in, out, t);
}

int dk_mean_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
	       const struct dk_thread *t)
{
	struct share sh;
	size_t n = elems_or_zero(p);

	if (!n || !in || !out || share_init(&sh, t, (size_t)p->batch * p->in_c))
		return -1;
	const struct dk_quant *q = &p->q;
	size_t e = 0, plane = (size_t)p->in_h * p->in_w;
	int32_t count = (int32_t)plane;
	for (int b = 0; b < p->batch; b++)
		for (int c = 0; c < p->in_c; c++, e++) {
			if (!owns(&sh, e))
				continue;
			int32_t sum = 0;
			for (size_t i = 0; i < plane; i++)
				sum += in[((size_t)b * plane + i) * p->in_c + c] - q->in_zero;
			sum = requant_q(q, sum, q->out_mult, q->out_shift);
			sum = sum > 0 ? (sum + count / 2) / count : (sum - count / 2) / count;
			out[e] = (int8_t)clamp32(sum + q->out_zero, INT8_MIN, INT8_MAX);
		}
	return 0;
}

/* ---- quantize / dequantize ---- */

/* ONNX's QuantizeLinear and DequantizeLinear (as ONNX Runtime's kernels
 * compute them), per tensor or with a scale and zero point per channel of
 * one axis: element E's channel is E / axis_inner mod axis_count. */
static inline size_t channel_of(const struct dk_quant *q, size_t e)
{
	return e / q->axis_inner % (size_t)q->axis_count;
}

/* X quantised: x / scale rounded (half to even, or TFLite's half away
 * from zero), plus the zero point, saturated to LO..HI. */
static inline int32_t quantize_at(const struct dk_quant *q, size_t e, float x, int32_t lo,
				  int32_t hi)
{
	const float scale = q->axis_scales ? q->axis_scales[channel_of(q, e)] : q->scale;
	const int32_t zero = q->axis_scales ? q->axis_zeros[channel_of(q, e)] : q->out_zero;
	float r = q->round_half_even ? nearbyintf(x / scale) : roundf(x / scale);

	/* Clamp in float first: a huge value has no int32. */
	r = r < -1e6f ? -1e6f : r > 1e6f ? 1e6f : r;
	return clamp32((int32_t)r + zero, lo, hi);
}

static inline int8_t quantize_i8_at(const struct dk_quant *q, size_t e, float x)
{
	return (int8_t)quantize_at(q, e, x, INT8_MIN, INT8_MAX);
}

static inline uint8_t quantize_u8_at(const struct dk_quant *q, size_t e, float x)
{
	return (uint8_t)quantize_at(q, e, x, 0, UINT8_MAX);
}

/* X dequantised: (x - zero) converted to float, times the scale, in float
 * (one rounding, as ONNX Runtime's DequantizeLinear; the conversion is
 * exact for 8-bit X). */
static inline float dequantize_at(const struct dk_quant *q, size_t e, int64_t x)
{
	if (q->axis_scales)
		return (float)(x - q->axis_zeros[channel_of(q, e)]) * q->axis_scales[channel_of(q, e)];
	return (float)(x - q->in_zero) * q->scale;
}

/* Whether Q's scales can be used: per channel with zero points and
 * channels, and (QUANTIZE, which divides by them) positive. */
static int convert_quant_ok(const struct dk_quant *q, int quantize)
{
	if (!q->axis_scales)
		return !quantize || q->scale > 0;
	if (!q->axis_zeros || q->axis_count < 1 || q->axis_inner < 1)
		return 0;
	for (int c = 0; quantize && c < q->axis_count; c++)
		if (!(q->axis_scales[c] > 0))
			return 0;
	return 1;
}

/* A quantize or dequantize kernel in flat order, as DK_FLAT_KERNEL, whose
 * element function ELEM_AT also takes the element's index (its channel). */
#define DK_CONVERT_KERNEL(NAME, TIN, TOUT, ELEM_AT, QUANTIZE)                      \
	int NAME(const struct dk_params *p, const TIN *in, TOUT *out,              \
		 const struct dk_thread *t)                                        \
	{                                                                          \
		struct share sh;                                                   \
		size_t n = elems_or_zero(p);                                       \
                                                                                   \
		if (!n || !in || !out || share_init(&sh, t, n) ||                  \
		    !convert_quant_ok(&p->q, QUANTIZE))                            \
			return -1;                                                 \
		for (size_t e = sh.lo; e < sh.hi; e++)                             \
			if (owns(&sh, e))                                          \
				out[e] = ELEM_AT(&p->q, e, in[e]);                 \
		return 0;                                                          \
	}

DK_CONVERT_KERNEL(dk_quantize_f32_i8, float, int8_t, quantize_i8_at, 1)
DK_CONVERT_KERNEL(dk_quantize_f32_u8, float, uint8_t, quantize_u8_at, 1)

static inline int8_t requantize_i8(const struct dk_params *p, int8_t x)
{
	const struct dk_quant *q = &p->q;
	return (int8_t)clamp32(requant_q(q, x - q->in_zero, q->out_mult, q->out_shift) + q->out_zero,
			       INT8_MIN, INT8_MAX);
}

DK_FLAT_KERNEL(dk_quantize_i8_i8, int8_t, int8_t, requantize_i8)

DK_CONVERT_KERNEL(dk_dequantize_i8_f32, int8_t, float, dequantize_at, 0)
DK_CONVERT_KERNEL(dk_dequantize_u8_f32, uint8_t, float, dequantize_at, 0)
DK_CONVERT_KERNEL(dk_dequantize_i32_f32, int32_t, float, dequantize_at, 0)
