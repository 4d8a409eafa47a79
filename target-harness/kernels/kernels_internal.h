/* kernels_internal.h - what the files of libdmokernels share and do not
 * export: the thread share of the output, and TFLite's fixed-point
 * arithmetic (gemmlowp's semantics), inlined into every loop that uses it.
 * docs/quantised-arithmetic.md derives each rounding rule. */
#ifndef DMOKERNELS_INTERNAL_H
#define DMOKERNELS_INTERNAL_H

#include "dmokernels.h"

enum kind { KIND_CONV, KIND_DWCONV, KIND_POOL, KIND_FC, KIND_ELEMENTWISE };

/* Whether P describes an op of KIND the kernels can run (dmokernels.h:
 * every kernel returns -1 otherwise). */
static inline int check_params(const struct dk_params *p, enum kind kind)
{
	if (!p || p->batch < 1 || p->in_h < 1 || p->in_w < 1 || p->in_c < 1)
		return -1;
	if (kind == KIND_ELEMENTWISE)
		return 0;
	if (p->out_c < 1)
		return -1;
	if (kind == KIND_FC)
		return 0;
	if (p->out_h < 1 || p->out_w < 1 || p->k_h < 1 || p->k_w < 1 ||
	    p->stride_h < 1 || p->stride_w < 1 || p->pad_top < 0 || p->pad_left < 0)
		return -1;
	if (kind == KIND_POOL)
		return p->out_c == p->in_c ? 0 : -1;
	if (p->dil_h < 1 || p->dil_w < 1)
		return -1;
	if (kind == KIND_DWCONV)
		return p->mult >= 1 && (long long)p->in_c * p->mult == p->out_c ? 0 : -1;
	return p->groups >= 0 && (p->groups < 2 || (p->in_c % p->groups == 0 && p->out_c % p->groups == 0))
		       ? 0 : -1;
}

/* The groups of an NCHW conv2d (dk_params: 0 reads as 1). */
static inline int conv_groups(const struct dk_params *p)
{
	return p->groups > 1 ? p->groups : 1;
}

struct dk_shape;
/* dk_concat's walk (kernels_layout.c): per block of the dims before AXIS,
 * the inputs' slabs in turn, each element copied, or (TABLES not NULL,
 * ELEM 1) a byte of input k mapped by TABLES[k] where that is not NULL
 * (dk_qlinear_concat). */
int concat_walk(int n, const struct dk_shape *in_shapes, int axis, size_t elem,
		const uint8_t *const *tables, const void *const *ins, void *out,
		const struct dk_thread *t);

/* The output elements one thread owns; see struct dk_thread. */
struct share {
	size_t lo, hi;
	size_t count, index;
	int interleave;
};

static inline int share_init(struct share *s, const struct dk_thread *t, size_t total)
{
	if (!t) {
		*s = (struct share){ 0, total, 1, 0, 0 };
		return 0;
	}
	if (t->count < 1 || t->index < 0 || t->index >= t->count)
		return -1;
	s->count = (size_t)t->count;
	s->index = (size_t)t->index;
	s->interleave = t->interleave != 0;
	s->lo = s->interleave ? 0 : total * s->index / s->count;
	s->hi = s->interleave ? total : total * (s->index + 1) / s->count;
	return 0;
}

static inline int owns(const struct share *s, size_t e)
{
	return e >= s->lo && e < s->hi && (!s->interleave || e % s->count == s->index);
}

/* Elements of a flat op's input (batch x in_h x in_w x in_c), or 0 when
 * P is NULL or a dimension is not positive. */
static inline size_t elems_or_zero(const struct dk_params *p)
{
	if (!p || p->batch < 1 || p->in_h < 1 || p->in_w < 1 || p->in_c < 1)
		return 0;
	return (size_t)p->batch * p->in_h * p->in_w * p->in_c;
}

/* An element-wise kernel in flat order: out[e] = ELEM(p, in[e]) for each
 * element the thread owns, E ascending (the loop order dmokernels.h
 * documents for these ops; kernels_rows.c and kernels_onnx_ew.c). */
#define DK_FLAT_KERNEL(NAME, TIN, TOUT, ELEM)                                    \
	int NAME(const struct dk_params *p, const TIN *in, TOUT *out,              \
		 const struct dk_thread *t)                                        \
	{                                                                          \
		struct share sh;                                                   \
		size_t n = elems_or_zero(p);                                       \
                                                                                   \
		if (!n || !in || !out || share_init(&sh, t, n))                    \
			return -1;                                                 \
		for (size_t e = sh.lo; e < sh.hi; e++)                             \
			if (owns(&sh, e))                                          \
				out[e] = ELEM(p, in[e]);                           \
		return 0;                                                          \
	}

/* gemmlowp's SaturatingRoundingDoublingHighMul: round(a * b / 2^31), ties
 * towards +infinity; the one overflowing case saturates. */
static inline int32_t high_mul(int32_t a, int32_t b)
{
	if (a == INT32_MIN && b == INT32_MIN)
		return INT32_MAX;
	int64_t ab = (int64_t)a * b;
	int64_t nudge = ab >= 0 ? (1 << 30) : (1 - (1 << 30));
	return (int32_t)((ab + nudge) / ((int64_t)1 << 31));
}

/* gemmlowp's RoundingDivideByPOT: x / 2^exponent, ties away from zero. */
static inline int32_t divide_by_pot(int32_t x, int exponent)
{
	int32_t mask = (int32_t)(((int64_t)1 << exponent) - 1);
	int32_t remainder = x & mask;
	int32_t threshold = (mask >> 1) + (x < 0);
	return (x >> exponent) + (remainder > threshold);
}

static inline int32_t saturate32(int64_t x)
{
	return x > INT32_MAX ? INT32_MAX : x < INT32_MIN ? INT32_MIN : (int32_t)x;
}

/* gemmlowp's SaturatingRoundingMultiplyByPOT for a positive exponent: a
 * left shift that saturates instead of wrapping. */
static inline int32_t shift_left_saturating(int32_t x, int exponent)
{
	return saturate32((int64_t)x * ((int64_t)1 << exponent));
}

/* TFLite's MultiplyByQuantizedMultiplier (the double-rounding one TFLite
 * Micro builds by default): left shift, doubling high multiply, rounding
 * right shift. */
static inline int32_t requant32(int32_t x, int32_t mult, int shift)
{
	int32_t shifted = shift_left_saturating(x, shift > 0 ? shift : 0);
	return divide_by_pot(high_mul(shifted, mult), shift > 0 ? 0 : -shift);
}

/* TFLite's single-rounding MultiplyByQuantizedMultiplier (built with
 * TFLITE_SINGLE_ROUNDING): round(x * mult * 2^(shift - 31)) once, ties
 * towards +infinity, saturated. */
static inline int32_t requant32_single(int32_t x, int32_t mult, int shift)
{
	int total_shift = 31 - shift;
	if (total_shift > 62)
		return 0;
	if (total_shift < 1)
		return saturate32((int64_t)x * mult * ((int64_t)1 << (1 - total_shift)) / 2);
	return saturate32(((int64_t)x * mult + ((int64_t)1 << (total_shift - 1))) >> total_shift);
}

/* The requantisation Q asks for: TFLite's default double rounding, or its
 * single-rounding build. */
static inline int32_t requant_q(const struct dk_quant *q, int32_t x, int32_t mult, int shift)
{
	return q->single_rounding ? requant32_single(x, mult, shift) : requant32(x, mult, shift);
}

/* TFLite's 64-bit variant used by the 16x8 kernels: the multiplier is
 * reduced to 16 bits so that the product fits in int64. */
static inline int32_t requant64(int64_t x, int32_t mult, int shift)
{
	int64_t reduced = mult < 0x7fff0000 ? (mult + (1 << 15)) >> 16 : 0x7fff;
	int total_shift = 15 - shift;
	return saturate32((x * reduced + ((int64_t)1 << (total_shift - 1))) >> total_shift);
}

static inline int32_t clamp32(int32_t v, int32_t lo, int32_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

#endif
