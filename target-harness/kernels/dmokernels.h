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
	/* Per output channel requantisation (conv/dwconv/fc with per-axis
	 * quantised filters): when OUT_MULTS is not NULL, output channel c
	 * uses OUT_MULTS[c] and OUT_SHIFTS[c] instead of OUT_MULT/OUT_SHIFT. */
	const int32_t *out_mults;
	const int *out_shifts;
	/* ONNX's QLinearConv and QLinearMatMul requantise as ONNX Runtime
	 * does (MlasRequantizeOutput) instead: when REAL_SCALES is not NULL,
	 * the accumulator (bias added) converted to float, times the float
	 * factor REAL_SCALES[c] of output channel c (REAL_PER_CHANNEL) or
	 * REAL_SCALES[0], rounded half to even, then out_zero and the clamp.
	 * The caller computes each factor in float as ONNX Runtime does:
	 * in_scale * filter_scale / out_scale, left to right. */
	const float *real_scales;
	int real_per_channel;
	/* softmax: the smallest in - row_max still counted (TFLite's
	 * diff_min); in_mult/in_shift scale beta * in_scale to Q5.26.
	 * logistic: inputs at or beyond +-IN_RADIUS saturate; in_mult/in_shift
	 * scale in_scale to Q4.27.  See dk_softmax_quant/dk_logistic_quant. */
	int32_t diff_min;
	int32_t in_radius;
	/* quantize (float to integer): the output scale; dequantize: the
	 * input scale. */
	float scale;
	/* quantize (float to integer) and dequantize with a scale per
	 * channel (ONNX's axis): when AXIS_SCALES is not NULL, element e
	 * belongs to channel c = e / AXIS_INNER mod AXIS_COUNT (AXIS_INNER:
	 * the elements after the axis) and takes AXIS_SCALES[c] and
	 * AXIS_ZEROS[c] instead of scale and the zero point (out_zero,
	 * in_zero). */
	const float *axis_scales;
	const int32_t *axis_zeros;
	int axis_count;
	size_t axis_inner;
	/* quantize (float to integer): 0 rounds x / scale half away from zero
	 * (TFLite's round); 1 half to even (ONNX's QuantizeLinear, as ONNX
	 * Runtime computes it with nearbyint). */
	int round_half_even;
	/* 0: TFLite's requantisation as TFLite Micro builds it by default (a
	 * doubling high multiply, then a rounding shift: two roundings); 1:
	 * its TFLITE_SINGLE_ROUNDING build (x * M rounded once), which is what
	 * Arm NN's reference backend computes.  Softmax and logistic's
	 * fixed-point exp and the 16x8 kernels are the same in both. */
	int single_rounding;
	/* Clamp of every integer output, in output units: the fused activation
	 * (e.g. -128..127 for none; narrowed further to the output type).
	 * relu and relu6 raise the lower bound to out_zero; the quantised 6.0
	 * of relu6 is the caller's act_max, as the kernel has no scales. */
	int32_t act_min, act_max;
	/* ONNX Runtime's QOperator ops (kernels_qlinear.c): the float scales
	 * of the first input, the second (QLinearAdd, QLinearMul) and the
	 * output; the zero points are in_zero, in2_zero and out_zero. */
	float qlinear_scales[3];
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
	float beta; /* softmax (float): exp(beta * (x - max)); TFLite's default is 1;
		     * hardsigmoid: alpha x + beta */
	float alpha; /* hardsigmoid */
	float lo, hi; /* clip: the bounds */
	struct dk_quant q;
	float gamma;    /* selu: gamma (x > 0 ? x : alpha (e^x - 1)) */
	float exponent; /* pow: x^exponent */
	/* NCHW conv2d (f32, i8, u8) and convt: groups of in_c / groups
	 * input planes, each read by (conv2d) or writing (convt) out_c /
	 * groups output planes (ONNX's group); 0 or 1: one group. */
	int groups;
	/* fc: non-zero when the input is stored transposed, K rows of batch
	 * (ONNX's Gemm transA): output row b reads in[d * batch + b]. */
	int trans_a;
	/* fc: non-zero when the bias holds one value per output element,
	 * batch x out_c (ONNX's Gemm with a matrix C), not one per unit. */
	int bias_per_output;
	/* NCHW avgpool: non-zero divides by k_h x k_w, padding included
	 * (ONNX's count_include_pad), instead of by the in-image taps. */
	int count_pad;
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

/* NCHW (ONNX's memory order), float32 (kernels_nchw.c): the same
 * dk_params, with tensors dense N x C x H x W and ONNX's filters
 * [out_c][in_c / groups][k_h][k_w] (conv2d's groups: p->groups;
 * dwconv2d: [in_c * mult][1][k_h][k_w]).
 * Loop order: batch, out_c, out_y, out_x, then in_c of out_c's group,
 * filter_y, filter_x: the output in flat NCHW order, plane by plane. */
int dk_conv2d_nchw_f32(const struct dk_params *p, const float *in,
		       const float *filter, const float *bias, float *out,
		       const struct dk_thread *t);
int dk_dwconv2d_nchw_f32(const struct dk_params *p, const float *in,
			 const float *filter, const float *bias, float *out,
			 const struct dk_thread *t);
int dk_maxpool_nchw_f32(const struct dk_params *p, const float *in, float *out,
			const struct dk_thread *t);
int dk_avgpool_nchw_f32(const struct dk_params *p, const float *in, float *out,
			const struct dk_thread *t);

/* ONNX's ConvTranspose, float32, NCHW (kernels_convt.c): filters
 * [in_c][out_c / group][k_h][k_w], out_h = (in_h - 1) stride_h + (k_h - 1)
 * dil_h + 1 + output_padding - pads (out_w alike; the kernel takes pad_top
 * and pad_left, and output_padding below the stride).  Per group of each
 * image, ONNX Runtime's order: a GEMM reading the group's whole input into
 * a scratch buffer, then col2im; each output element is written once,
 * after all of its group's input is read. */
int dk_convt_nchw_f32(const struct dk_params *p, const float *in, const float *filter,
		      const float *bias, float *out, const struct dk_thread *t);

/* NCHW, int8 and uint8 (kernels_nchw_quant.c): ONNX's QLinearConv as ONNX
 * Runtime's CPU kernel computes it.  Filters are ONNX's, as above, of the
 * activations' type (a uint8 model's int8 filters shifted by 128, filter
 * and zero point); bias int32; requantisation by q.real_scales or
 * TFLite's out_mult/out_shift.  Loop order: per image, every input element
 * of the image is read (ONNX Runtime's transpose to NHWC, channel plane
 * after plane), the image is computed in a scratch buffer by the NHWC
 * kernel above, and then every output element of the image is written in
 * flat NCHW order: no output element of an image is written before its
 * whole input image was read.  Returns -1 also when the scratch buffers
 * cannot be allocated. */
int dk_conv2d_nchw_i8(const struct dk_params *p, const int8_t *in, const int8_t *filter,
		      const int32_t *bias, int8_t *out, const struct dk_thread *t);
int dk_conv2d_nchw_u8(const struct dk_params *p, const uint8_t *in, const uint8_t *filter,
		      const int32_t *bias, uint8_t *out, const struct dk_thread *t);
int dk_dwconv2d_nchw_i8(const struct dk_params *p, const int8_t *in, const int8_t *filter,
			const int32_t *bias, int8_t *out, const struct dk_thread *t);
int dk_dwconv2d_nchw_u8(const struct dk_params *p, const uint8_t *in, const uint8_t *filter,
			const int32_t *bias, uint8_t *out, const struct dk_thread *t);

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

/* ONNX's element-wise ops, float32 (kernels_onnx_ew.c), in the output's
 * flat order: element e reads its input elements, then writes out[e].
 * dk_binary_bcast_f32: OUT = A op B with NumPy broadcasting, each of A's
 * and B's dims (right-aligned to OUT's) 1 or OUT's.  hardsigmoid:
 * max(0, min(1, alpha x + beta)); hardswish: x hardsigmoid(x) with alpha
 * 1/6, beta 1/2; clip: min(max(x, lo), hi); batchnorm: x scale[c] +
 * shift[c], c = e / (in_w * in_c) % in_h (an NCHW tensor as N x C x 1 x
 * H*W). */
enum dk_binary { DK_ADD, DK_SUB, DK_MUL, DK_DIV, DK_PRELU, DK_MAX, DK_MIN, DK_POWT };
struct dk_shape;
int dk_binary_bcast_f32(enum dk_binary op, const struct dk_shape *out_shape,
			const struct dk_shape *a_shape, const float *a,
			const struct dk_shape *b_shape, const float *b, float *out,
			const struct dk_thread *t);
int dk_hardsigmoid_f32(const struct dk_params *p, const float *in, float *out,
		       const struct dk_thread *t);
int dk_hardswish_f32(const struct dk_params *p, const float *in, float *out,
		     const struct dk_thread *t);
int dk_clip_f32(const struct dk_params *p, const float *in, float *out,
		const struct dk_thread *t);
int dk_batchnorm_f32(const struct dk_params *p, const float *scale, const float *shift,
		     const float *in, float *out, const struct dk_thread *t);

/* ONNX's unary f32 ops of one table (kernels_onnx_ew.c), each in flat
 * order as above: out[e] = fn(in[e]) computed as ONNX Runtime's CPU
 * kernels write it (docs/kernels.md): leakyrelu x >= 0 ? x : alpha x; elu
 * x >= 0 ? x : alpha (e^x - 1); selu x > 0 ? gamma x : gamma alpha (e^x -
 * 1); exp, log, sqrt, neg, abs, reciprocal 1 / x; softplus log(1 + e^x)
 * (x + log(1 + e^-x) for x > 0); erf; floor; ceil; pow x^exponent (x x for
 * 2, x x x for 3).  DK_PRELU, DK_MAX, DK_MIN (dk_binary, appended): a > 0 ?
 * a : a b; a < b ? b : a; b < a ? b : a (ONNX's PRelu, Max and Min);
 * DK_POWT a^b as pow above with b the exponent (ONNX's Pow by a tensor).
 * DK_SCALE (appended): alpha x (ONNX Runtime's last pass of Mean, alpha
 * 1/n). */
enum dk_onnx_unary {
	DK_LEAKYRELU, DK_ELU, DK_SELU, DK_EXP, DK_LOG, DK_SQRT, DK_NEG, DK_ABS,
	DK_RECIPROCAL, DK_SOFTPLUS, DK_ERF, DK_FLOOR, DK_CEIL, DK_POW, DK_SCALE, DK_UNARY_COUNT
};
int dk_onnx_unary_f32(enum dk_onnx_unary fn, const struct dk_params *p, const float *in, float *out,
		 const struct dk_thread *t);

/* ONNX's Softmax and LogSoftmax (f32) over NHWC axis AXIS of in
 * (batch x in_h x in_w x in_c; any 4-D view of the tensor), LOG 0 or 1.
 * AXIS 3 (the last): rows as dk_softmax_f32, in its loop order (LogSoftmax
 * writes x - max - log(sum)).  Another axis: ONNX Runtime's order
 * (softmax.cc, opset 13): the whole input transposed into scratch with
 * AXIS swapped with the last, rows computed there, then transposed back
 * into the output, so every input element is read before the first output
 * element is written. */
int dk_softmax_axis_f32(const struct dk_params *p, int axis, int log, const float *in,
			float *out, const struct dk_thread *t);

/* ONNX's reductions (f32) over in_h x in_w of each batch and channel,
 * dk_mean_f32's loop order (batch, c, then the reduced elements; output
 * batch x 1 x 1 x in_c): ReduceMean, ReduceMax (GlobalMaxPool), ReduceMin,
 * ReduceSum. */
enum dk_reduce { DK_REDUCE_MEAN, DK_REDUCE_MAX, DK_REDUCE_MIN, DK_REDUCE_SUM };
int dk_reduce_f32(enum dk_reduce op, const struct dk_params *p, const float *in, float *out,
		  const struct dk_thread *t);

/* ---- uint8, per tensor (TFLite's legacy asymmetric scheme: filters have a
 * zero point, the int32 arithmetic is that of the int8 kernels) ---- */
int dk_conv2d_u8(const struct dk_params *p, const uint8_t *in,
		 const uint8_t *filter, const int32_t *bias, uint8_t *out,
		 const struct dk_thread *t);
int dk_dwconv2d_u8(const struct dk_params *p, const uint8_t *in,
		   const uint8_t *filter, const int32_t *bias, uint8_t *out,
		   const struct dk_thread *t);
int dk_fc_u8(const struct dk_params *p, const uint8_t *in,
	     const uint8_t *filter, const int32_t *bias, uint8_t *out,
	     const struct dk_thread *t);
int dk_maxpool_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
		  const struct dk_thread *t);
int dk_avgpool_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
		  const struct dk_thread *t);
int dk_relu_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
	       const struct dk_thread *t);
int dk_relu6_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
		const struct dk_thread *t);
int dk_add_u8(const struct dk_params *p, const uint8_t *a, const uint8_t *b,
	      uint8_t *out, const struct dk_thread *t);
int dk_mul_u8(const struct dk_params *p, const uint8_t *a, const uint8_t *b,
	      uint8_t *out, const struct dk_thread *t);

/* ---- rows and reductions ----
 * softmax: rows of in_c values (batch * in_h * in_w rows).  Loop order: per
 * row, a pass reading the row for its maximum, a pass reading it for the
 * sum of exponentials, then for c in order: read in[c], write out[c].  The
 * int8 kernel is TFLite Micro's fixed-point one (gemmlowp exp and
 * reciprocal), output scale 1/256 and zero point -128.
 * logistic: element-wise in flat order; int8 is TFLite Micro's fixed-point
 * one, output scale 1/256 and zero point -128.  tanh: element-wise in flat
 * order, f32 only (tanhf).
 * mean: over in_h x in_w of each batch and channel (keep_dims), output
 * batch x 1 x 1 x in_c; loop order batch, c, y, x; int8 requantises the
 * sum of in - in_zero by OUT, then divides by the count rounding half away
 * from zero (TFLite's reference integer Mean).
 * quantize: float to int8 or uint8, round(x / scale) (half away from zero,
 * or half to even with round_half_even) + out_zero, saturated to the
 * type; int8 to int8 requantises in - in_zero by OUT.  dequantize: int8,
 * uint8 or int32 to float, (float)(q - in_zero) * scale in float.  Float
 * to integer and back take one scale or one per channel (axis_scales).
 * Both element-wise in flat order. */
int dk_softmax_f32(const struct dk_params *p, const float *in, float *out,
		   const struct dk_thread *t);
int dk_softmax_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		  const struct dk_thread *t);
int dk_logistic_f32(const struct dk_params *p, const float *in, float *out,
		    const struct dk_thread *t);
int dk_logistic_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		   const struct dk_thread *t);
int dk_tanh_f32(const struct dk_params *p, const float *in, float *out,
		const struct dk_thread *t);
int dk_mean_f32(const struct dk_params *p, const float *in, float *out,
		const struct dk_thread *t);
int dk_mean_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
	       const struct dk_thread *t);
int dk_quantize_f32_i8(const struct dk_params *p, const float *in, int8_t *out,
		       const struct dk_thread *t);
int dk_quantize_i8_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		      const struct dk_thread *t);
int dk_dequantize_i8_f32(const struct dk_params *p, const int8_t *in, float *out,
			 const struct dk_thread *t);
int dk_quantize_f32_u8(const struct dk_params *p, const float *in, uint8_t *out,
		       const struct dk_thread *t);
int dk_dequantize_u8_f32(const struct dk_params *p, const uint8_t *in, float *out,
			 const struct dk_thread *t);
int dk_dequantize_i32_f32(const struct dk_params *p, const int32_t *in, float *out,
			  const struct dk_thread *t);

/* ---- layout: any element type (ELEM bytes), no arithmetic ----
 * Shapes have up to DK_MAX_DIMS dimensions, outermost first.  Each op
 * visits the output in flat order and writes every element once, reading
 * the input element it copies right before (pad: nothing for a padding
 * element).  The thread share is over output elements. */
#define DK_MAX_DIMS 6
struct dk_shape {
	int rank;
	int dims[DK_MAX_DIMS];
};

/* Copy BYTES bytes in increasing address order (reshape, squeeze, or any
 * copy between buffers of equal size). */
int dk_reshape(const void *in, void *out, size_t bytes, const struct dk_thread *t);
/* out has dims[i] + before[i] + after[i] along each axis; PAD_VALUE (one
 * element) fills the border. */
int dk_pad(const struct dk_shape *in_shape, const int *before, const int *after,
	   size_t elem, const void *pad_value, const void *in, void *out,
	   const struct dk_thread *t);
/* ONNX's Pad modes for dk_pad_onnx. */
enum dk_pad_mode { DK_PAD_CONSTANT, DK_PAD_REFLECT, DK_PAD_EDGE };
/* ONNX's Pad in ONNX Runtime's order (PadImpl): each innermost row of the
 * input copied to its place, then that row's border, and when an outer
 * axis's block is complete, that axis's border before and after the
 * block, the border elements copied from the output already written
 * (reflect: mirrored about the edge element; edge: the edge element) or
 * set to PAD_VALUE (constant).  Reflect needs before and after below
 * dims.  One thread only (T NULL or one thread). */
int dk_pad_onnx(const struct dk_shape *in_shape, const int *before, const int *after,
		enum dk_pad_mode mode, size_t elem, const void *pad_value, const void *in,
		void *out, const struct dk_thread *t);
/* ONNX's Slice: out has SIZE[i] elements along axis i, output coordinate
 * o copying input coordinate START[i] + o STEP[i] (non-zero steps, NULL:
 * all 1; every coordinate read inside dims), in flat output order as ONNX
 * Runtime's CPU Slice copies them. */
int dk_slice(const struct dk_shape *in_shape, const int *start, const int *step, const int *size,
	     size_t elem, const void *in, void *out, const struct dk_thread *t);
/* ONNX's Gather of constant indices along AXIS: out has N indices along
 * it, output coordinate i there copying input coordinate INDICES[i]
 * (each below dims[AXIS]), in flat output order as ONNX Runtime's CPU
 * Gather copies its blocks (one thread: one block after the other). */
int dk_gather(const struct dk_shape *in_shape, int axis, const int *indices, int n, size_t elem,
	      const void *in, void *out, const struct dk_thread *t);
/* dk_slice's START and SIZE along an axis of DIM elements from the box
 * that keeps all but BEFORE and AFTER of them, walked every STEP-th from
 * its first (STEP > 0) or backward from its last (STEP < 0; 0 reads as 1),
 * as dmo's slice op spec states it. */
void dk_slice_box(int dim, int before, int after, int step, int *start, int *size);
/* ONNX's MatMul of two activations: A, batch x in_h matrices of in_w rows of
 * in_c values, times B, one in_c x out_c matrix per matrix of A; out
 * batch x in_h x in_w x out_c.  Output elements in flat order, each reading
 * its A row and B column, k ascending, then written (kernels_matmul.c). */
int dk_matmul_f32(const struct dk_params *p, const float *a, const float *b, float *out,
		  const struct dk_thread *t);
/* out dims[i] = in dims[perm[i]]. */
int dk_transpose(const struct dk_shape *in_shape, const int *perm, size_t elem,
		 const void *in, void *out, const struct dk_thread *t);
/* Nearest upsample by integer factors: out dims[i] = in dims[i] *
 * scale[i], and output coordinate o_i reads input coordinate o_i /
 * scale[i] (ONNX Resize, mode nearest, wherever that mapping is floor(o /
 * s): docs/kernels.md).  Output in flat order, as ONNX Runtime's CPU
 * Resize writes it. */
int dk_resize_nearest(const struct dk_shape *in_shape, const int *scale, size_t elem,
		      const void *in, void *out, const struct dk_thread *t);
/* N inputs of equal rank that agree on every axis but AXIS. */
int dk_concat(int n, const struct dk_shape *in_shapes, int axis, size_t elem,
	      const void *const *ins, void *out, const struct dk_thread *t);

/* ---- ONNX Runtime's QOperator ops (com.microsoft; kernels_qlinear.c):
 * uint8 or int8, computed as ONNX Runtime's x86-64 CPU kernels compute them
 * (docs/kernels.md, "QOperator ops"); scales in q.qlinear_scales. ---- */

/* QLinearAdd (MUL 0) or QLinearMul (MUL 1): A of OUT_SHAPE, B of B_SHAPE
 * broadcasting to it (NumPy's rule); output elements in flat order, each
 * reading a[e] and its element of B. */
int dk_qlinear_binary_u8(int mul, const struct dk_params *p, const struct dk_shape *out_shape,
			 const struct dk_shape *b_shape, const uint8_t *a, const uint8_t *b,
			 uint8_t *out, const struct dk_thread *t);
int dk_qlinear_binary_i8(int mul, const struct dk_params *p, const struct dk_shape *out_shape,
			 const struct dk_shape *b_shape, const int8_t *a, const int8_t *b,
			 int8_t *out, const struct dk_thread *t);
/* QLinearGlobalAveragePool: the mean over in_h x in_w in dk_mean_f32's
 * order; an NCHW tensor is read as batch = N x C planes, in_h = H x W,
 * in_w = in_c = 1, plane after plane as ONNX Runtime reads it. */
int dk_qlinear_mean_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
		       const struct dk_thread *t);
int dk_qlinear_mean_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
		       const struct dk_thread *t);
/* QLinearAveragePool over NCHW planes (batch x in_c of in_h x in_w; out_h,
 * out_w, k, stride, pad_top, pad_left as avgpool's; the taps inside the
 * image counted): every input element dequantized first (a float buffer
 * the kernel allocates; -1 when it cannot), then the outputs in flat order. */
int dk_qlinear_avgpool_u8(const struct dk_params *p, const uint8_t *in, uint8_t *out,
			  const struct dk_thread *t);
int dk_qlinear_avgpool_i8(const struct dk_params *p, const int8_t *in, int8_t *out,
			  const struct dk_thread *t);
/* QLinearConcat of N uint8 or int8 inputs (their bytes) along AXIS in
 * dk_concat's order, input k's bytes mapped by TABLES[k] (256 entries,
 * indexed by the byte) or copied where TABLES[k] is NULL. */
int dk_qlinear_concat(int n, const struct dk_shape *in_shapes, int axis,
		      const uint8_t *const *tables, const uint8_t *const *ins, uint8_t *out,
		      const struct dk_thread *t);

/* ---- TFLite's quantised arithmetic, exported for callers that derive
 * parameters and for tests (docs/quantised-arithmetic.md) ---- */

/* round(a * b / 2^31), ties towards +infinity; INT32_MIN * INT32_MIN
 * saturates to INT32_MAX (gemmlowp's SaturatingRoundingDoublingHighMul). */
int32_t dk_doubling_high_mul(int32_t a, int32_t b);
/* x / 2^exponent (0..31), ties away from zero (gemmlowp's
 * RoundingDivideByPOT). */
int32_t dk_rounding_divide_by_pot(int32_t x, int exponent);
/* x * mult * 2^(shift - 31) with TFLite's two roundings (its
 * MultiplyByQuantizedMultiplier); a positive shift saturates. */
int32_t dk_multiply_by_quantized_multiplier(int32_t x, int32_t mult, int shift);
/* The same factor rounded once: round(x * mult * 2^(shift - 31)), ties
 * towards +infinity, saturated (TFLite's TFLITE_SINGLE_ROUNDING build). */
int32_t dk_multiply_by_quantized_multiplier_single(int32_t x, int32_t mult, int shift);

/* Split a real factor REAL (>= 0) into the Q31 multiplier and shift used by
 * struct dk_quant (TFLite's QuantizeMultiplier). */
void dk_quantize_multiplier(double real, int32_t *mult, int *shift);

/* TFLite's parameter derivations, from the tensors' float scales and zero
 * points (the scales as TFLite stores them: float).  Each fills the fields
 * of Q that its op reads and leaves the others alone. */
/* add: left_shift (20 for int8/uint8, 15 for int16), in/in2/out multipliers. */
void dk_add_quant(float in_scale, float in2_scale, float out_scale, int left_shift,
		  struct dk_quant *q);
/* softmax int8: in_mult, in_shift, diff_min for BETA and the input scale. */
void dk_softmax_quant(float beta, float in_scale, struct dk_quant *q);
/* logistic int8: in_mult, in_shift, in_radius for the input scale. */
void dk_logistic_quant(float in_scale, struct dk_quant *q);
/* Fused activation to act_min/act_max (TFLite's
 * CalculateActivationRangeQuantized): ACT 0 none, 1 relu, 2 relu_n1_to_1,
 * 3 relu6, within [QMIN, QMAX]; -1 for an activation it does not know. */
int dk_activation_range(int act, float out_scale, int32_t out_zero, int32_t qmin,
			int32_t qmax, struct dk_quant *q);

#ifdef __cplusplus
}
#endif

#endif
