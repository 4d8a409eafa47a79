/* kernels_qlinear.c - ONNX Runtime's QOperator-format ops of the
 * com.microsoft domain, uint8 and int8: QLinearAdd and QLinearMul (flat
 * order, the second operand broadcasting), QLinearGlobalAveragePool
 * (NCHW: one plane after another) and QLinearAveragePool (NCHW: the whole
 * input dequantized first).  Each computes, step by step in float,
 * what ONNX Runtime 1.30's x86-64 CPU kernels compute (MLAS's AVX2
 * QLinearAdd, its SSE2 QLinearMul and NCHW global pool, its float
 * QLinearAveragePool), so that `dmo
 * infer` equals ONNX Runtime byte for byte; docs/kernels.md ("QOperator
 * ops") gives each formula and the experiments that fixed it. */
#include "dmokernels.h"
#include "kernels_internal.h"

#include <math.h>
#include <stdlib.h>

/* Inputs of one QLinearConcat (dmo infer's steps take at most 5). */
#define DK_MAX_CONCAT_INPUTS 16

/* A float rounded as x86's cvtps2dq rounds it (half to even; out of the
 * int32 range, and NaN, its "integer indefinite" INT32_MIN), then
 * saturated to [LO, HI] as MLAS's packs to 16 and 8 bits saturate. */
static int32_t saturate(float v, int32_t lo, int32_t hi)
{
	long r = v > -2147483648.0f && v < 2147483648.0f ? lrintf(v) : INT32_MIN;

	return r < lo ? lo : r > hi ? hi : (int32_t)r;
}

/* The value of element E of an 8-bit tensor (SIGNED: int8). */
static int32_t value_at(const void *t, size_t e, int is_signed)
{
	return is_signed ? ((const int8_t *)t)[e] : ((const uint8_t *)t)[e];
}

/* B's strides seen from OUT (NumPy's rule: dims right-aligned, 0 where
 * B's dim is 1), or -1 when B does not broadcast to OUT. */
static int b_strides(const struct dk_shape *out, const struct dk_shape *b, size_t *strides)
{
	size_t stride = 1;

	if (b->rank < 0 || b->rank > out->rank || out->rank > DK_MAX_DIMS)
		return -1;
	for (int d = out->rank - 1; d >= 0; d--) {
		int k = d - (out->rank - b->rank), n = k >= 0 ? b->dims[k] : 1;

		if (out->dims[d] < 1 || (n != 1 && n != out->dims[d]))
			return -1;
		strides[d] = n == 1 ? 0 : stride;
		stride *= (size_t)n;
	}
	return 0;
}

static int qlinear_binary(int mul, const struct dk_params *p, const struct dk_shape *out_shape,
			  const struct dk_shape *b_shape, const void *a, const void *b, void *out,
			  const struct dk_thread *t, int is_signed)
{
	const struct dk_quant *q = p ? &p->q : NULL;
	size_t sb[DK_MAX_DIMS], n = 1;
	struct share sh;

	if (!q || !out_shape || !b_shape || !a || !b || !out ||
	    b_strides(out_shape, b_shape, sb))
		return -1;
	for (int d = 0; d < out_shape->rank; d++)
		n *= (size_t)out_shape->dims[d];
	if (share_init(&sh, t, n))
		return -1;
	const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
	const float sa = q->qlinear_scales[0], sb_ = q->qlinear_scales[1], sc = q->qlinear_scales[2];
	/* QLinearAdd: MLAS's ratios and the part every element shares,
	 * with the fused multiply-add its AVX2 build compiles it to. */
	const float ra = sa / sc, rb = sb_ / sc;
	const float fixed = (float)q->out_zero - fmaf(ra, (float)q->in_zero, rb * (float)q->in2_zero);
	/* QLinearMul: one factor, A's scale times B's over C's. */
	const float ratio = sa * sb_ / sc;
	for (size_t e = sh.lo; e < sh.hi; e++) {
		size_t rest = e, ib = 0;

		if (!owns(&sh, e))
			continue;
		for (int d = out_shape->rank - 1; d >= 0; d--) {
			ib += rest % (size_t)out_shape->dims[d] * sb[d];
			rest /= (size_t)out_shape->dims[d];
		}
		const int32_t x = value_at(a, e, is_signed), y = value_at(b, ib, is_signed);
		float v;
		if (mul) {
			/* Differences multiplied exactly in int32, then one float
			 * multiply and one add (SSE2: no fused multiply-add). */
			const float product = (float)((x - q->in_zero) * (y - q->in2_zero));
			v = product * ratio;
			v = v + (float)q->out_zero;
		} else {
			/* B's term first, then A's, each fused (ONNX Runtime's
			 * broadcaster hands MLAS a span or a scalar of B: a
			 * scalar's term joins the shared part by the same
			 * fused multiply-add, the same value). */
			v = fmaf((float)x, ra, fmaf((float)y, rb, fixed));
		}
		if (is_signed)
			((int8_t *)out)[e] = (int8_t)saturate(v, lo, hi);
		else
			((uint8_t *)out)[e] = (uint8_t)saturate(v, lo, hi);
	}
	return 0;
}

int dk_qlinear_binary_u8(int mul, const struct dk_params *p, const struct dk_shape *out_shape,
			 const struct dk_shape *b_shape, const uint8_t *a, const uint8_t *b,
			 uint8_t *out, const struct dk_thread *t)
{
	return qlinear_binary(mul, p, out_shape, b_shape, a, b, out, t, 0);
}

int dk_qlinear_binary_i8(int mul, const struct dk_params *p, const struct dk_shape *out_shape,
			 const struct dk_shape *b_shape, const int8_t *a, const int8_t *b,
			 int8_t *out, const struct dk_thread *t)
{
	return qlinear_binary(mul, p, out_shape, b_shape, a, b, out, t, 1);
}

/* Output element o = b x in_c + c sums the P = in_h x in_w values
 * in[(b x P + i) x in_c + c], i ascending, then is written: dk_mean_f32's
 * order, which over an NCHW tensor read as batch = N x C planes, in_h = H x
 * W and in_c = 1 is plane after plane, as MLAS's NCHW
 * QLinearGlobalAveragePool reads them.  Its arithmetic: the plane summed in
 * int32 from -zero point x P, scaled by in_scale / (out_scale x P) in
 * float, clamped to the type's range less the output zero point, rounded
 * half to even, the zero point added. */
static int qlinear_mean(const struct dk_params *p, const void *in, void *out,
			const struct dk_thread *t, int is_signed)
{
	struct share sh;

	if (!p || !in || !out || p->batch < 1 || p->in_h < 1 || p->in_w < 1 || p->in_c < 1)
		return -1;
	const size_t planes = (size_t)p->batch * (size_t)p->in_c, size = (size_t)p->in_h * (size_t)p->in_w;
	if (size >= 0x1000000 || share_init(&sh, t, planes))
		return -1;
	const struct dk_quant *q = &p->q;
	const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
	const float scale = q->qlinear_scales[0] / (q->qlinear_scales[2] * (float)(int32_t)size);
	const float below = (float)(lo - q->out_zero), above = (float)(hi - q->out_zero);
	for (size_t o = sh.lo; o < sh.hi; o++) {
		int32_t acc = -q->in_zero * (int32_t)size;

		if (!owns(&sh, o))
			continue;
		const size_t b = o / (size_t)p->in_c, c = o % (size_t)p->in_c;
		for (size_t i = 0; i < size; i++)
			acc += value_at(in, (b * size + i) * (size_t)p->in_c + c, is_signed);
		float v = (float)acc * scale;
		v = v < below ? below : v > above ? above : v;
		const int32_t r = (int32_t)lrintf(v) + q->out_zero;
		if (is_signed)
			((int8_t *)out)[o] = (int8_t)r;
		else
			((uint8_t *)out)[o] = (uint8_t)r;
	}
	return 0;
}

int dk_qlinear_mean_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
		       const struct dk_thread *t)
{
	return qlinear_mean(p, in, out, t, 0);
}

int dk_qlinear_mean_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		       const struct dk_thread *t)
{
	return qlinear_mean(p, in, out, t, 1);
}

/* QLinearAveragePool, NCHW: first every input element (all images)
 * dequantized into float, scale x (q - zero point), as ONNX Runtime does
 * before its first window; then output element o (planes of out_h x
 * out_w in flat order) sums its window's values inside the image, row by
 * row, in float, divides by their count (count_include_pad 0), and is
 * quantized: nearbyintf(y / out_scale + zero point), saturated.  (A window
 * of the whole plane without padding is ONNX Runtime's global pool,
 * qlinearmean: the reader maps it so.) */
static int qlinear_avgpool(const struct dk_params *p, const void *in, void *out,
			   const struct dk_thread *t, int is_signed)
{
	struct share sh;

	if (!p || !in || !out || p->batch < 1 || p->in_h < 1 || p->in_w < 1 || p->in_c < 1 ||
	    p->out_h < 1 || p->out_w < 1 || p->k_h < 1 || p->k_w < 1 || p->stride_h < 1 ||
	    p->stride_w < 1)
		return -1;
	const size_t planes = (size_t)p->batch * (size_t)p->in_c;
	const size_t in_plane = (size_t)p->in_h * (size_t)p->in_w, out_plane = (size_t)p->out_h * (size_t)p->out_w;
	if (share_init(&sh, t, planes * out_plane))
		return -1;
	float *x = malloc(sizeof *x * planes * in_plane);
	if (!x)
		return -1;
	const struct dk_quant *q = &p->q;
	for (size_t e = 0; e < planes * in_plane; e++)
		x[e] = q->qlinear_scales[0] * (float)(value_at(in, e, is_signed) - q->in_zero);
	const int32_t lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
	for (size_t o = sh.lo; o < sh.hi; o++) {
		if (!owns(&sh, o))
			continue;
		const size_t plane = o / out_plane, at = o % out_plane;
		const int ph = (int)(at / (size_t)p->out_w), pw = (int)(at % (size_t)p->out_w);
		int h0 = ph * p->stride_h - p->pad_top, w0 = pw * p->stride_w - p->pad_left;
		const int h1 = h0 + p->k_h < p->in_h ? h0 + p->k_h : p->in_h;
		const int w1 = w0 + p->k_w < p->in_w ? w0 + p->k_w : p->in_w;
		h0 = h0 > 0 ? h0 : 0;
		w0 = w0 > 0 ? w0 : 0;
		float y = 0;
		for (int h = h0; h < h1; h++)
			for (int w = w0; w < w1; w++)
				y += x[plane * in_plane + (size_t)h * (size_t)p->in_w + (size_t)w];
		y /= (float)((h1 - h0) * (w1 - w0));
		const int32_t r = saturate(y / q->qlinear_scales[2] + (float)q->out_zero, lo, hi);
		if (is_signed)
			((int8_t *)out)[o] = (int8_t)r;
		else
			((uint8_t *)out)[o] = (uint8_t)r;
	}
	free(x);
	return 0;
}

int dk_qlinear_avgpool_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
			  const struct dk_thread *t)
{
	return qlinear_avgpool(p, in, out, t, 0);
}

int dk_qlinear_avgpool_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
			  const struct dk_thread *t)
{
	return qlinear_avgpool(p, in, out, t, 1);
}

/* QLinearConcat of N 8-bit inputs along AXIS: dk_concat's walk, each
 * element written as TABLES[k][x] (ONNX Runtime's lookup table of input
 * k: x dequantized by its scale and zero point, quantized by the
 * output's), or copied when TABLES[k] is NULL (the same scale and zero
 * point as the output's, as ONNX Runtime copies them). */
int dk_qlinear_concat(int n, const struct dk_shape *in_shapes, int axis,
		      const uint8_t *const *tables, const uint8_t *const *ins, uint8_t *out,
		      const struct dk_thread *t)
{
	const void *bytes[DK_MAX_CONCAT_INPUTS];

	if (!tables || !ins || n < 1 || n > DK_MAX_CONCAT_INPUTS)
		return -1;
	for (int k = 0; k < n; k++)
		bytes[k] = ins[k];
	return concat_walk(n, in_shapes, axis, 1, tables, bytes, out, t);
}
