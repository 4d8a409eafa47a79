/* kernels_nchw.c - libdmokernels' NCHW kernels (float32): convolution
 * (plain, depthwise), max and average pooling over ONNX's memory order, in
 * the plane-by-plane order of ONNX Runtime's default CPU kernels.
 *
 * Loop order (outermost first), the contract the algorithmic and analytic
 * methods replay (docs/kernels.md, "NCHW kernels"):
 *   batch, out_c, out_y, out_x, then the taps: in_c of out_c's group,
 *   filter_y, filter_x
 * so the output is written in its flat NCHW order, one output plane after
 * the other, each element once, right after its reduction.  A group is the
 * in_c / groups input planes an output plane reads: all of them for conv2d
 * (groups = 1), in_c / p->groups for a grouped conv2d (ONNX's group; its
 * out_c / groups output planes follow each other), its own plane for
 * dwconv2d (out_c = m + in_c * mult) and the pools.  ONNX Runtime computes
 * a group the same way plane by plane: Conv<float> runs MlasConv, whose
 * loop over batch and groups (or its threads' split of those pairs) reads
 * one group's input planes and writes that group's output planes before
 * the next group; pooling walks one channel plane at a time.  Within a plane MLAS expands blocks of windows
 * into a scratch buffer (im2col) and multiplies them by blocks, where this
 * kernel reads each window right before its output element: the order of
 * planes, which decides how much of the input stays needed, is the same.
 *
 * Filters are ONNX's: [out_c][in_c / groups][k_h][k_w].  Taps outside the
 * image are skipped (ONNX Runtime multiplies zeros there: the same sum);
 * avgpool divides by the in-image taps (ONNX's count_include_pad = 0),
 * or with count_pad by the whole window (count_include_pad = 1, as ONNX
 * Runtime divides when no ceil_mode window passes the padding). */
#include "kernels_internal.h"

#include <float.h>

/* One output element's reduction over its group's planes: the sum of
 * products (FILTER not NULL), else the maximum (AVERAGE 0) or the mean of
 * the in-image taps. */
static float window_nchw(const struct dk_params *p, const float *plane0, int planes,
			 const float *filter, int oy, int ox, int average)
{
	const size_t plane_size = (size_t)p->in_h * p->in_w;
	/* A pool's callers may leave dil unset (0): undilated. */
	const int dil_h = p->dil_h > 1 ? p->dil_h : 1, dil_w = p->dil_w > 1 ? p->dil_w : 1;
	float acc = filter || average ? 0 : -FLT_MAX;
	int count = 0;

	for (int c = 0; c < planes; c++) {
		const float *plane = plane0 + (size_t)c * plane_size;
		for (int fy = 0; fy < p->k_h; fy++) {
			int iy = oy * p->stride_h - p->pad_top + fy * dil_h;
			if (iy < 0 || iy >= p->in_h)
				continue;
			for (int fx = 0; fx < p->k_w; fx++) {
				int ix = ox * p->stride_w - p->pad_left + fx * dil_w;
				if (ix < 0 || ix >= p->in_w)
					continue;
				float x = plane[(size_t)iy * p->in_w + ix];
				if (filter)
					acc += x * filter[((size_t)c * p->k_h + fy) * p->k_w + fx];
				else if (average)
					acc += x, count++;
				else if (x > acc)
					acc = x;
			}
		}
	}
	if (average && p->count_pad) /* ONNX's count_include_pad */
		return acc / (float)(p->k_h * p->k_w);
	if (average)
		return count ? acc / (float)count : 0;
	return acc;
}

/* The loop nest of every NCHW kernel: GROUPS groups of input planes, each
 * read by out_c / groups output planes. */
static int run_nchw(const struct dk_params *p, int groups, const float *in, const float *filter,
		    const float *bias, float *out, const struct dk_thread *t, int average)
{
	struct share sh;
	const size_t in_plane = (size_t)p->in_h * p->in_w;
	const int planes = p->in_c / groups, per_group = p->out_c / groups;
	const size_t taps = (size_t)planes * p->k_h * p->k_w;
	size_t e = 0;

	if (share_init(&sh, t, (size_t)p->batch * p->out_c * p->out_h * p->out_w))
		return -1;
	for (int b = 0; b < p->batch; b++)
	for (int oc = 0; oc < p->out_c; oc++) {
		const float *group = in + ((size_t)b * p->in_c + (size_t)(oc / per_group) * planes) * in_plane;
		const float *f = filter ? filter + (size_t)oc * taps : NULL;
		for (int oy = 0; oy < p->out_h; oy++)
		for (int ox = 0; ox < p->out_w; ox++, e++) {
			if (!owns(&sh, e))
				continue;
			float v = window_nchw(p, group, planes, f, oy, ox, average);
			out[e] = bias ? v + bias[oc] : v;
		}
	}
	return 0;
}

int dk_conv2d_nchw_f32(const struct dk_params *p, const float *in, const float *filter,
		       const float *bias, float *out, const struct dk_thread *t)
{
	if (!in || !filter || !out || check_params(p, KIND_CONV))
		return -1;
	return run_nchw(p, conv_groups(p), in, filter, bias, out, t, 0);
}

int dk_dwconv2d_nchw_f32(const struct dk_params *p, const float *in, const float *filter,
			 const float *bias, float *out, const struct dk_thread *t)
{
	if (!in || !filter || !out || check_params(p, KIND_DWCONV))
		return -1;
	return run_nchw(p, p->in_c, in, filter, bias, out, t, 0);
}

int dk_maxpool_nchw_f32(const struct dk_params *p, const float *in, float *out,
			const struct dk_thread *t)
{
	if (!in || !out || check_params(p, KIND_POOL))
		return -1;
	return run_nchw(p, p->in_c, in, NULL, NULL, out, t, 0);
}

int dk_avgpool_nchw_f32(const struct dk_params *p, const float *in, float *out,
			const struct dk_thread *t)
{
	if (!in || !out || check_params(p, KIND_POOL))
		return -1;
	return run_nchw(p, p->in_c, in, NULL, NULL, out, t, 1);
}
