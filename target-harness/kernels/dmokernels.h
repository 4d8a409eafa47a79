/* dmokernels.h - libdmokernels: plain NHWC reference kernels (float32, int8
 * quantised, int16 symmetric) for conv2d, depthwise conv2d, max/avg pooling,
 * fully connected and element-wise ops.
 *
 * The library is the black box dmo profiles, so it knows nothing about dmo.
 * Its loop order is part of the contract, because dmo's algorithmic and
 * analytic methods replay it (outermost loop first):
 *   conv2d    batch, out_y, out_x, out_c, filter_y, filter_x, in_c
 *   dwconv2d  batch, out_y, out_x, in_c, m, filter_y, filter_x
 *             (out_c = m + in_c * mult)
 *   pooling   batch, out_y, out_x, c, filter_y, filter_x
 *   fc        batch, out_c, d
 *   unary / binary element-wise: flat order
 * Each output element is stored exactly once, right after its reduction, and
 * in every op the outer loops visit output elements in increasing NHWC
 * index order ("output element e").  Taps outside the image are skipped;
 * avgpool divides by the number of in-image taps (a window without any,
 * only possible with oversized padding, yields 0).
 *
 * Threading: every kernel takes a struct dk_thread describing which output
 * elements the calling thread owns; run the same call from COUNT threads with
 * INDEX 0..COUNT-1 to cover the output once.  Each thread keeps the normative
 * order over its own elements.  NULL means "all elements". */
#ifndef DMOKERNELS_H
#define DMOKERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Quantisation parameters of the integer kernels, following TFLite's
 * reference integer kernels.  A real value r of a tensor with scale s and
 * zero point z is stored as q = r / s + z.  A multiplier/shift pair encodes a
 * real factor M = mult * 2^(shift - 31) (mult in [2^30, 2^31) or 0; see
 * dk_quantize_multiplier).  Ignored by the float kernels. */
struct dk_quant {
	int32_t in_zero;     /* zero point of the (first) input */
	int32_t in2_zero;    /* zero point of the second add/mul operand */
	int32_t filter_zero; /* zero point of conv/fc filters */
	int32_t out_zero;    /* zero point of the output */
	/* Accumulator (or rescaled sum for add) to output scale:
	 * in_scale * filter_scale / out_scale for conv/fc, in_scale /
	 * out_scale for relu/relu6, in_scale * in2_scale / out_scale for mul. */
	int32_t out_mult;
	int out_shift;
	/* add only: both operands are shifted left by LEFT_SHIFT and rescaled
	 * to a common scale by (in_mult, in_shift) and (in2_mult, in2_shift)
	 * before OUT is applied (TFLite uses left_shift 20 for i8, 15 for i16). */
	int left_shift;
	int32_t in_mult;
	int in_shift;
	int32_t in2_mult;
	int in2_shift;
	/* Clamp of every integer output, in output units: the fused activation
	 * (e.g. -128..127 for none; narrowed further to the output type).
	 * relu and relu6 raise the lower bound to out_zero; the quantised 6.0
	 * of relu6 is the caller's act_max, as the kernel has no scales. */
	int32_t act_min, act_max;
};

/* Shapes and geometry.  Tensors are NHWC and dense.  Element-wise ops use
 * batch x in_h x in_w x in_c for all operands and the output; fc treats the
 * input as batch rows of K = in_h * in_w * in_c values and produces
 * batch x out_c.  out_h/out_w are given, not derived: the caller resolved the
 * padding (pad_top/pad_left are the rows/columns of zero padding before the
 * image; the bottom/right padding is implied by out_h/out_w). */
struct dk_params {
	int batch;
	int in_h, in_w, in_c;
	int out_h, out_w, out_c;
	int k_h, k_w;
	int stride_h, stride_w;
	int dil_h, dil_w;
	int pad_top, pad_left;
	int mult; /* dwconv2d depth multiplier: out_c == in_c * mult */
	struct dk_quant q;
};

/* The share of one thread.  Contiguous (interleave == 0): thread INDEX owns
 * output elements [total*INDEX/COUNT, total*(INDEX+1)/COUNT).  Interleaved:
 * it owns the elements e with e % COUNT == INDEX. */
struct dk_thread {
	int index;
	int count;
	int interleave;
};

/* All kernels return 0, or -1 (touching nothing) when a pointer that must not
 * be NULL is NULL, a dimension is not positive, out_c does not match
 * in_c * mult (dwconv2d), or the thread share is invalid.  Bias may be NULL.
 *
 * Filter layouts (TFLite): conv2d [out_c][k_h][k_w][in_c];
 * dwconv2d [k_h][k_w][in_c * mult]; fc [out_c][K].
 * Integer biases: int32 for i8, int64 for i16.  The i8 kernels accumulate
 * (in - in_zero) * (filter - filter_zero) in int32, add the bias, requantise
 * by OUT, add out_zero and clamp.  The i16 kernels are TFLite's 16x8 scheme:
 * int16 activations, int8 filters, int64 accumulation and TFLite's 64-bit
 * requantisation (out_shift <= 14); they are symmetric, so their zero points
 * are normally 0. */
int dk_conv2d_f32(const struct dk_params *p, const float *in,
		  const float *filter, const float *bias, float *out,
		  const struct dk_thread *t);
int dk_conv2d_i8(const struct dk_params *p, const int8_t *in,
		 const int8_t *filter, const int32_t *bias, int8_t *out,
		 const struct dk_thread *t);
int dk_conv2d_i16(const struct dk_params *p, const int16_t *in,
		  const int8_t *filter, const int64_t *bias, int16_t *out,
		  const struct dk_thread *t);

int dk_dwconv2d_f32(const struct dk_params *p, const float *in,
		    const float *filter, const float *bias, float *out,
		    const struct dk_thread *t);
int dk_dwconv2d_i8(const struct dk_params *p, const int8_t *in,
		   const int8_t *filter, const int32_t *bias, int8_t *out,
		   const struct dk_thread *t);
int dk_dwconv2d_i16(const struct dk_params *p, const int16_t *in,
		    const int8_t *filter, const int64_t *bias, int16_t *out,
		    const struct dk_thread *t);

int dk_fc_f32(const struct dk_params *p, const float *in, const float *filter,
	      const float *bias, float *out, const struct dk_thread *t);
int dk_fc_i8(const struct dk_params *p, const int8_t *in,
	     const int8_t *filter, const int32_t *bias, int8_t *out,
	     const struct dk_thread *t);
int dk_fc_i16(const struct dk_params *p, const int16_t *in,
	      const int8_t *filter, const int64_t *bias, int16_t *out,
	      const struct dk_thread *t);

/* Pooling: in and out share scale and zero point, so only act_min/act_max
 * apply; the integer average rounds half away from zero. */
int dk_maxpool_f32(const struct dk_params *p, const float *in, float *out,
		   const struct dk_thread *t);
int dk_maxpool_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		  const struct dk_thread *t);
int dk_maxpool_i16(const struct dk_params *p, const int16_t *in,
		   int16_t *out, const struct dk_thread *t);
int dk_avgpool_f32(const struct dk_params *p, const float *in, float *out,
		   const struct dk_thread *t);
int dk_avgpool_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		  const struct dk_thread *t);
int dk_avgpool_i16(const struct dk_params *p, const int16_t *in,
		   int16_t *out, const struct dk_thread *t);

/* Element-wise.  out[i] = f(in[i]) or f(a[i], b[i]); A is the operand the
 * harness profiles as "the input".  Integer relu/relu6 requantise
 * in - in_zero by OUT; integer mul requantises (a - in_zero) *
 * (b - in2_zero) by OUT; integer add follows TFLite (see struct dk_quant). */
int dk_relu_f32(const struct dk_params *p, const float *in, float *out,
		const struct dk_thread *t);
int dk_relu_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
	       const struct dk_thread *t);
int dk_relu_i16(const struct dk_params *p, const int16_t *in, int16_t *out,
		const struct dk_thread *t);
int dk_relu6_f32(const struct dk_params *p, const float *in, float *out,
		 const struct dk_thread *t);
int dk_relu6_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		const struct dk_thread *t);
int dk_relu6_i16(const struct dk_params *p, const int16_t *in, int16_t *out,
		 const struct dk_thread *t);
int dk_add_f32(const struct dk_params *p, const float *a, const float *b,
	       float *out, const struct dk_thread *t);
int dk_add_i8(const struct dk_params *p, const int8_t *a, const int8_t *b,
	      int8_t *out, const struct dk_thread *t);
int dk_add_i16(const struct dk_params *p, const int16_t *a, const int16_t *b,
	       int16_t *out, const struct dk_thread *t);
int dk_mul_f32(const struct dk_params *p, const float *a, const float *b,
	       float *out, const struct dk_thread *t);
int dk_mul_i8(const struct dk_params *p, const int8_t *a, const int8_t *b,
	      int8_t *out, const struct dk_thread *t);
int dk_mul_i16(const struct dk_params *p, const int16_t *a, const int16_t *b,
	       int16_t *out, const struct dk_thread *t);

/* Split a real factor REAL (>= 0) into the Q31 multiplier and shift used by
 * struct dk_quant (TFLite's QuantizeMultiplier). */
void dk_quantize_multiplier(double real, int32_t *mult, int *shift);

#ifdef __cplusplus
}
#endif

#endif
