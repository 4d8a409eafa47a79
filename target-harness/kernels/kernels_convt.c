/* kernels_convt.c - libdmokernels' transposed convolution (float32, NCHW):
 * ONNX's ConvTranspose in the order ONNX Runtime's CPU kernel runs it
 * (conv_transpose.cc, ConvTranspose<float>::DoConvTranspose, and its
 * col2im, math_cpu.cc's Col2im<float, CPUMathUtil, StorageOrder::NCHW>).
 *
 * ONNX Runtime computes each image b, and in it each group g of G (input
 * channels g C/G ... (g+1) C/G - 1 give output channels g M/G ...), as
 *   col = W_g^T x X_bg     a GEMM: (M/G KH KW) x (C/G) times (C/G) x (H W)
 *                          into a scratch buffer; it reads every input
 *                          element of group g of image b and writes no
 *                          output;
 *   Y_bg = col2im(col)     zero group g's output channels, then add each
 *                          column entry (m, ky, kx, y, x) to output pixel
 *                          (y SH - pad_top + ky DH, x SW - pad_left + kx DW)
 *                          when it lies inside the output (the pads cut
 *                          the rest off; output_padding's rows at the end
 *                          stay zero);
 * and after its G groups Y_b += bias per output channel.  So, per group of
 * each image, every input element of the group is read before any output
 * element of the group is written, and the next group's input after: the
 * image-at-a-time contract over N x G "images" of C/G input and M/G output
 * channels, contiguous in NCHW, which the algorithmic and analytic methods
 * replay (docs/kernels.md, "ONNX's ConvTranspose"; docs/formulas.md 3.8).
 * This kernel does each group's GEMM and col2im into scratch buffers in
 * that order and then writes the group's output elements once, in NCHW
 * order, with their bias: ONNX Runtime writes the same elements more than
 * once (zero, sums, bias) but not earlier, so the first write of every
 * element, which is what an overlap can clobber, comes at the same point
 * of the input reads.
 *
 * Filters are ONNX's: [in_c][out_c / group][k_h][k_w].  out_h and out_w
 * are ONNX's (in - 1) stride + (k - 1) dil + 1 + output_padding - pads;
 * the kernel takes pad_top and pad_left and needs out + pad_top below
 * (in - 1) stride + (k - 1) dil + 1 + stride (output_padding below the
 * stride, as ONNX Runtime's col2im assumes).  Thread shares: every thread
 * computes each group and writes the elements it owns. */
#include "kernels_internal.h"

#include <stdlib.h>
#include <string.h>

/* One group of one image: col = W_g^T x X_g (reads all of X_g), then
 * col2im into PLANES, the group's M/G output planes. */
static void convt_group(const struct dk_params *p, size_t groups, const float *x,
			const float *filter, float *col, float *planes)
{
	const size_t C = (size_t)p->in_c / groups, M = (size_t)p->out_c / groups;
	const size_t taps = (size_t)p->k_h * p->k_w, pixels = (size_t)p->in_h * p->in_w;
	const size_t plane = (size_t)p->out_h * p->out_w;

	for (size_t r = 0; r < M * taps; r++)
		for (size_t i = 0; i < pixels; i++) {
			float acc = 0;
			for (size_t c = 0; c < C; c++)
				acc += filter[c * M * taps + r] * x[c * pixels + i];
			col[r * pixels + i] = acc;
		}
	memset(planes, 0, M * plane * sizeof *planes);
	for (size_t r = 0; r < M * taps; r++) {
		const long ky = (long)(r % taps / p->k_w), kx = (long)(r % p->k_w);
		float *out = planes + r / taps * plane;
		for (long y = 0; y < p->in_h; y++) {
			long oy = y * p->stride_h - p->pad_top + ky * p->dil_h;
			if (oy < 0 || oy >= p->out_h)
				continue;
			for (long xi = 0; xi < p->in_w; xi++) {
				long ox = xi * p->stride_w - p->pad_left + kx * p->dil_w;
				if (ox >= 0 && ox < p->out_w)
					out[oy * p->out_w + ox] += col[r * pixels + (size_t)(y * p->in_w + xi)];
			}
		}
	}
}

/* Whether the output size along one axis is ONNX's for some bottom pad
 * >= 0 and output_padding below the stride. */
static int axis_fits(long in, long k, long stride, long dil, long pad, long out)
{
	long full = (in - 1) * stride + (k - 1) * dil + 1;
	return out + pad < full + stride;
}

int dk_convt_nchw_f32(const struct dk_params *p, const float *in, const float *filter,
		      const float *bias, float *out, const struct dk_thread *t)
{
	struct share sh;
	int rc = 0;

	if (!in || !filter || !out || check_params(p, KIND_CONV) ||
	    !axis_fits(p->in_h, p->k_h, p->stride_h, p->dil_h, p->pad_top, p->out_h) ||
	    !axis_fits(p->in_w, p->k_w, p->stride_w, p->dil_w, p->pad_left, p->out_w))
		return -1;
	/* check_params: the groups divide in_c and out_c. */
	const size_t groups = (size_t)conv_groups(p);
	const size_t in_group = (size_t)p->in_c / groups * p->in_h * p->in_w;
	const size_t plane = (size_t)p->out_h * p->out_w, M = (size_t)p->out_c / groups;
	const size_t out_group = M * plane, filter_group = (size_t)p->in_c / groups * M * p->k_h * p->k_w;
	if (share_init(&sh, t, (size_t)p->batch * groups * out_group))
		return -1;
	float *col = malloc(M * p->k_h * p->k_w * p->in_h * p->in_w * sizeof *col);
	float *planes = malloc(out_group * sizeof *planes);
	if (!col || !planes) {
		rc = -1;
		goto done;
	}
	/* Unit u = b G + g: image b's group g, contiguous in X and in Y. */
	for (size_t u = 0; u < (size_t)p->batch * groups; u++) {
		const size_t g = u % groups;
		convt_group(p, groups, in + u * in_group, filter + g * filter_group, col, planes);
		for (size_t e = 0; e < out_group; e++)
			if (owns(&sh, u * out_group + e))
				out[u * out_group + e] = planes[e] + (bias ? bias[g * M + e / plane] : 0);
	}
done:
	free(col);
	free(planes);
	return rc;
}
