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
 * by struct dk_quant.  Thread shares: every thread computes the image and
 * writes the output elements it owns. */
#include "kernels_internal.h"

#include <stdlib.h>

/* One image computed from the scratch buffers by the NHWC kernel of the
 * op (DEPTHWISE) and type (U8: uint8, else int8). */
static int image(const struct dk_params *p, int depthwise, int u8, const void *in,
		 const void *filter, const int32_t *bias, void *out)
{
	if (u8)
		return depthwise ? dk_dwconv2d_u8(p, in, filter, bias, out, NULL)
				 : dk_conv2d_u8(p, in, filter, bias, out, NULL);
	return depthwise ? dk_dwconv2d_i8(p, in, filter, bias, out, NULL)
			 : dk_conv2d_i8(p, in, filter, bias, out, NULL);
}

/* ONNX's filters [out_c][in_c / groups][k_h][k_w] in the NHWC kernels'
 * layout: conv2d [out_c][k_h][k_w][in_c], dwconv2d [k_h][k_w][out_c]. */
static void reorder_filter(const struct dk_params *p, int depthwise, const unsigned char *onnx,
			   unsigned char *nhwc)
{
	const size_t taps = (size_t)p->k_h * p->k_w;
	const size_t planes = depthwise ? 1 : (size_t)p->in_c;

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

/* The image-at-a-time loop of every NCHW integer convolution (the file's
 * comment): DEPTHWISE and U8 select the op and the element type. */
static int run_images(const struct dk_params *p, int depthwise, int u8, const void *in_bytes,
		      const void *filter, const int32_t *bias, void *out_bytes,
		      const struct dk_thread *t)
{
	struct share sh;
	const size_t C = (size_t)p->in_c, M = (size_t)p->out_c;
	const size_t in_plane = (size_t)p->in_h * p->in_w, out_plane = (size_t)p->out_h * p->out_w;
	const size_t filter_size = M * (depthwise ? 1 : C) * p->k_h * p->k_w;
	const unsigned char *in = in_bytes;
	unsigned char *out = out_bytes;
	struct dk_params one = *p;
	int rc = 0;

	if (!in || !filter || !out || check_params(p, depthwise ? KIND_DWCONV : KIND_CONV) ||
	    share_init(&sh, t, (size_t)p->batch * M * out_plane))
		return -1;
	unsigned char *image_in = malloc(C * in_plane), *image_out = malloc(M * out_plane);
	unsigned char *image_filter = malloc(filter_size);
	if (!image_in || !image_out || !image_filter) {
		rc = -1;
		goto done;
	}
	reorder_filter(p, depthwise, filter, image_filter);
	one.batch = 1;
	for (size_t b = 0; b < (size_t)p->batch; b++) {
		const unsigned char *from = in + b * C * in_plane;
		for (size_t c = 0; c < C; c++)
			for (size_t i = 0; i < in_plane; i++)
				image_in[i * C + c] = from[c * in_plane + i];
		if (image(&one, depthwise, u8, image_in, image_filter, bias, image_out)) {
			rc = -1;
			goto done;
		}
		size_t e = b * M * out_plane;
		for (size_t m = 0; m < M; m++)
			for (size_t i = 0; i < out_plane; i++, e++)
				if (owns(&sh, e))
					out[e] = image_out[i * M + m];
	}
done:
	free(image_in);
	free(image_out);
	free(image_filter);
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
