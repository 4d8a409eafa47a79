/* kernels_convt.c - libdmokernels' transposed convolution (float32, NCHW):
 * ONNX's ConvTranspose in the order ONNX Runtime's CPU kernel
 * (ConvTranspose<float>::DoConvTranspose) runs it.
 *
 * ONNX Runtime computes each image b (one group: dmo maps group = 1) as
 *   col = W^T x X_b        a GEMM: (out_c KH KW) x (in_c) times
 *                          (in_c) x (H W) into a scratch buffer; it reads
 *                          every input element of image b, and writes no
 *                          output;
 *   Y_b = col2im(col)      zero the output image, then add each column
 *                          entry to the output pixel its tap lands on;
 *   Y_b += bias            per output channel,
 * so the input and output buffers see, per image, every input element of
 * image b read before any output element of image b is written: the
 * image-at-a-time contract the algorithmic and analytic methods replay
 * (docs/kernels.md, "ConvTranspose"; docs/formulas.md section 3.7).
 * This kernel does the same GEMM and col2im into scratch buffers and then
 * writes each output element once, in NCHW order, with its bias: ONNX
 * Runtime writes the same elements more than once (zero, sums, bias) but
 * not earlier, so the first write of every element, which is what an
 * overlap can clobber, comes at the same point of the input reads.
 *
 * Filters are ONNX's: [in_c][out_c][k_h][k_w]; no padding, no dilation
 * (dmo_opspec refuses them), out = (in - 1) stride + k on each axis.
 * Windows may overlap (k > stride): col2im adds where they do.  Thread
 * shares: every thread computes the image and writes the elements it owns. */
#include "kernels_internal.h"

#include <stdlib.h>
#include <string.h>

/* One image: col = W^T x X (reads all of X), then col2im into IMAGE. */
static void convt_image(const struct dk_params *p, const float *x, const float *filter,
			float *col, float *image)
{
	const size_t C = (size_t)p->in_c, M = (size_t)p->out_c;
	const size_t taps = (size_t)p->k_h * p->k_w, pixels = (size_t)p->in_h * p->in_w;

	for (size_t r = 0; r < M * taps; r++)
		for (size_t i = 0; i < pixels; i++) {
			float acc = 0;
			for (size_t c = 0; c < C; c++)
				acc += filter[c * M * taps + r] * x[c * pixels + i];
			col[r * pixels + i] = acc;
		}
	memset(image, 0, M * p->out_h * p->out_w * sizeof *image);
	for (size_t r = 0; r < M * taps; r++) {
		const size_t m = r / taps, ky = r % taps / p->k_w, kx = r % p->k_w;
		float *plane = image + m * p->out_h * p->out_w;
		for (size_t y = 0; y < (size_t)p->in_h; y++)
			for (size_t xi = 0; xi < (size_t)p->in_w; xi++)
				plane[(y * p->stride_h + ky) * p->out_w + xi * p->stride_w + kx] +=
					col[r * pixels + y * p->in_w + xi];
	}
}

int dk_convt_nchw_f32(const struct dk_params *p, const float *in, const float *filter,
		      const float *bias, float *out, const struct dk_thread *t)
{
	struct share sh;
	int rc = 0;

	if (!in || !filter || !out || check_params(p, KIND_CONV) || conv_groups(p) > 1 ||
	    p->pad_top || p->pad_left ||
	    p->out_h != (p->in_h - 1) * p->stride_h + p->k_h ||
	    p->out_w != (p->in_w - 1) * p->stride_w + p->k_w)
		return -1;
	const size_t in_image = (size_t)p->in_c * p->in_h * p->in_w;
	const size_t plane = (size_t)p->out_h * p->out_w, out_image = (size_t)p->out_c * plane;
	if (share_init(&sh, t, (size_t)p->batch * out_image))
		return -1;
	float *col = malloc((size_t)p->out_c * p->k_h * p->k_w * p->in_h * p->in_w * sizeof *col);
	float *image = malloc(out_image * sizeof *image);
	if (!col || !image) {
		rc = -1;
		goto done;
	}
	for (size_t b = 0; b < (size_t)p->batch; b++) {
		convt_image(p, in + b * in_image, filter, col, image);
		for (size_t e = 0; e < out_image; e++)
			if (owns(&sh, b * out_image + e))
				out[b * out_image + e] = image[e] + (bias ? bias[e / plane] : 0);
	}
done:
	free(col);
	free(image);
	return rc;
}
