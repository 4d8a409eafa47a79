/* kernels_nchw_quant.c - libdmokernels' NCHW integer convolutions (int8 and
 * uint8, plain and depthwise): ONNX's QLinearConv in the order ONNX
 * Runtime's CPU kernel (QLinearConv<T>, qlinearconv.cc) runs it.
 *
 * ONNX Runtime does not convolve NCHW planes for integers: per image it
 * transposes the whole input image to NHWC in a scratch buffer, computes
 * the image there (im2col or an indirection buffer and MLAS's integer
 * GEMM, requantising into a second scratch buffer), and only then
 * transposes that buffer into the NCHW output.  What the input and output
 * buffers see is the contract the algorithmic and analytic methods replay
 * (docs/kernels.md, "NCHW kernels"; docs/formulas.md section 3.7):
 *   for each image b: read every input element of image b (NCHW order),
 *                     then write every output element of image b
 *                     (NCHW order).
 * The arithmetic inside is the NHWC kernel's (kernels_body.h): int32
 * accumulation of (x - x_zero) * (w - w_zero), the bias, requantisation
 * by struct dk_quant.  A grouped conv2d (p->groups > 1) is computed group
 * after group inside the scratch image, as ONNX Runtime's loop over
 * group_count does, which leaves the contract above unchanged.  Thread
 * shares: every thread computes the image and writes the output elements
 * it owns. */
#include "kernels_internal.h"

#include <stdlib.h>

/* ONNX's filters [out_c][in_c / groups][k_h][k_w] in the NHWC kernels'
 * layout: conv2d [out_c][k_h][k_w][in_c / groups] (group g's filters are
 * rows g * out_c / groups on), dwconv2d [k_h][k_w][out_c]. */
static void reorder_filter(const struct dk_params *p, int depthwise, const unsigned char *onnx,
			   unsigned char *nhwc)
{
	const size_t taps = (size_t)p->k_h * p->k_w;
	const size_t planes = depthwise ? 1 : (size_t)(p->in_c / conv_groups(p));

	for (size_t m = 0; m < (size_t)p->out_c; m++)
		for (size_t c = 0; c < planes; c++)
			for (size_t k = 0; k < taps; k++) {
				unsigned char w = onnx[(m * planes + c) * taps + k];
				if (depthwise)
					nhwc[k * p->out_c + m] = w;
				else
					nhwc[(m * taps + k) * planes + c] = w;
			}
}

/* Scratch buffers of one image: the input and output images in NHWC, and
 * a group's share of them (conv2d with groups: ONNX Runtime's
 * QLinearConv runs the NHWC image group by group). */
struct scratch {
	unsigned char *in, *out, *group_in, *group_out, *filter;
};

/* Image IMG (NHWC in S->in) computed into S->out by the NHWC kernel, one
 * group of C / G input and M / G output channels at a time: the group's
 * channels gathered, the kernel run with the group's filters, bias and
 * requantisation, its output channels scattered back. */
static int image_by_groups(const struct dk_params *img, int u8, struct scratch *s,
			   const int32_t *bias)
{
	const int G = conv_groups(img);
	const size_t C = (size_t)img->in_c, M = (size_t)img->out_c, Cg = C / G, Mg = M / G;
	const size_t in_plane = (size_t)img->in_h * img->in_w, out_plane = (size_t)img->out_h * img->out_w;
	const size_t group_filter = Mg * Cg * img->k_h * img->k_w;
	struct dk_params one = *img;

	one.in_c = (int)Cg;
	one.out_c = (int)Mg;
	one.groups = 1;
	for (size_t g = 0; g < (size_t)G; g++) {
		const struct dk_quant *q = &img->q;
		const int32_t *gb = bias ? bias + g * Mg : NULL;

		if (q->out_mults)
			one.q.out_mults = q->out_mults + g * Mg, one.q.out_shifts = q->out_shifts + g * Mg;
		if (q->real_scales && q->real_per_channel)
			one.q.real_scales = q->real_scales + g * Mg;
		for (size_t i = 0; i < in_plane; i++)
			for (size_t c = 0; c < Cg; c++)
				s->group_in[i * Cg + c] = s->in[i * C + g * Cg + c];
		const unsigned char *f = s->filter + g * group_filter;
		if (u8 ? dk_conv2d_u8(&one, s->group_in, f, gb, s->group_out, NULL)
		       : dk_conv2d_i8(&one, (const int8_t *)s->group_in, (const int8_t *)f, gb,
				      (int8_t *)s->group_out, NULL))
			return -1;
		for (size_t i = 0; i < out_plane; i++)
			for (size_t m = 0; m < Mg; m++)
				s->out[i * M + g * Mg + m] = s->group_out[i * Mg + m];
	}
	return 0;
}

/* One image computed from the scratch buffers by the NHWC kernel of the
 * op (DEPTHWISE) and type (U8: uint8, else int8). */
static int image(const struct dk_params *p, int depthwise, int u8, struct scratch *s,
		 const int32_t *bias)
{
	if (!depthwise && conv_groups(p) > 1)
		return image_by_groups(p, u8, s, bias);
	if (u8)
		return depthwise ? dk_dwconv2d_u8(p, s->in, s->filter, bias, s->out, NULL)
				 : dk_conv2d_u8(p, s->in, s->filter, bias, s->out, NULL);
	return depthwise ? dk_dwconv2d_i8(p, (const int8_t *)s->in, (const int8_t *)s->filter, bias,
					  (int8_t *)s->out, NULL)
			 : dk_conv2d_i8(p, (const int8_t *)s->in, (const int8_t *)s->filter, bias,
					(int8_t *)s->out, NULL);
}

/* The image-at-a-time loop of every NCHW integer convolution (the file's
 * comment): DEPTHWISE and U8 select the op and the element type. */
static int run_images(const struct dk_params *p, int depthwise, int u8, const void *in_bytes,
		      const void *filter, const int32_t *bias, void *out_bytes,
		      const struct dk_thread *t)
{
	struct share sh;
	const size_t C = (size_t)p->in_c, M = (size_t)p->out_c;
	const size_t in_plane = (size_t)p->in_h * p->in_w, out_plane = (size_t)p->out_h * p->out_w;
	const size_t G = depthwise ? 1 : (size_t)conv_groups(p);
	const size_t filter_size = M * (depthwise ? 1 : C / G) * p->k_h * p->k_w;
	const unsigned char *in = in_bytes;
	unsigned char *out = out_bytes;
	struct dk_params one = *p;
	struct scratch s;
	int rc = 0;

	if (!in || !filter || !out || check_params(p, depthwise ? KIND_DWCONV : KIND_CONV) ||
	    share_init(&sh, t, (size_t)p->batch * M * out_plane))
		return -1;
	s.in = malloc(C * in_plane);
	s.out = malloc(M * out_plane);
	s.group_in = malloc(C / G * in_plane);
	s.group_out = malloc(M / G * out_plane);
	s.filter = malloc(filter_size);
	if (!s.in || !s.out || !s.group_in || !s.group_out || !s.filter) {
		rc = -1;
		goto done;
	}
	reorder_filter(p, depthwise, filter, s.filter);
	one.batch = 1;
	for (size_t b = 0; b < (size_t)p->batch; b++) {
		const unsigned char *from = in + b * C * in_plane;
		for (size_t c = 0; c < C; c++)
			for (size_t i = 0; i < in_plane; i++)
				s.in[i * C + c] = from[c * in_plane + i];
		if (image(&one, depthwise, u8, &s, bias)) {
			rc = -1;
			goto done;
		}
		size_t e = b * M * out_plane;
		for (size_t m = 0; m < M; m++)
			for (size_t i = 0; i < out_plane; i++, e++)
				if (owns(&sh, e))
					out[e] = s.out[i * M + m];
	}
done:
	free(s.in);
	free(s.out);
	free(s.group_in);
	free(s.group_out);
	free(s.filter);
	return rc;
}

/* The four exported kernels (dmokernels.h): op and element type. */
#define NCHW_QUANT(name, T, depthwise, u8)                                                  \
	int name(const struct dk_params *p, const T *in, const T *filter, const int32_t *bias, \
		 T *out, const struct dk_thread *t)                                           \
	{                                                                                     \
		return run_images(p, depthwise, u8, in, filter, bias, out, t);                \
	}

NCHW_QUANT(dk_conv2d_nchw_i8, int8_t, 0, 0)
NCHW_QUANT(dk_conv2d_nchw_u8, uint8_t, 0, 1)
NCHW_QUANT(dk_dwconv2d_nchw_i8, int8_t, 1, 0)
NCHW_QUANT(dk_dwconv2d_nchw_u8, uint8_t, 1, 1)
