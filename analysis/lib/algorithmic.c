/* algorithmic.c - exact O_s by replaying a reference kernel's loop nest on
 * offsets only (see algorithmic.h; derivation in docs/formulas.md).
 *
 * One walker per geometry visits the output elements in the kernel's order
 * and describes each element's reads as up to three boxes of taps, in the
 * order the kernel reads them.  Three visitors share the walkers: the exact
 * O(1) rule, the per-step curves and the event-by-event reducer replay.  The
 * walkers and visitors are always inlined so each mode compiles to its own
 * tight loop. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "algorithmic.h"
#include "event.h"

#define INLINE static inline __attribute__((always_inline))

/* The in-image reads of one output element: ny rows sy apart, nx columns
 * sx apart, nc channels sc apart (NHWC: contiguous, sc = 1; NCHW: a plane
 * apart), from element BASE.  Offsets grow along each loop, so BASE is the
 * smallest offset read.  Only that and the count matter to O_s: the reads
 * of one element all fall between the same two writes, so their order
 * among themselves changes no pair (the replay walks rows, columns,
 * channels).  An
 * element with ny == 0 or nx == 0 reads nothing (window fully in padding). */
struct tap_box {
	uint64_t base, sy, sx;
	uint64_t ny, nx, nc, sc;
};

typedef void (*visit_fn)(void *ctx, uint64_t out, const struct tap_box *boxes, int n);

int dmo_geom_from_spec(const struct dmo_opspec *s, struct dmo_geom *g)
{
	struct dmo_geom z = { 0 };
	*g = z;
	if ((unsigned)s->op >= DMO_OP_COUNT || (unsigned)s->dtype >= DMO_DTYPE_COUNT ||
	    s->batch <= 0 || s->in_h <= 0 || s->in_w <= 0 || s->in_c <= 0) {
		errno = EINVAL;
		return -1;
	}
	g->elem_size = dmo_dtype_size(s->dtype);
	g->out_elem_size = dmo_dtype_size(s->out_dtype);
	g->batch = g->out_batch = s->batch;
	g->k_h = g->k_w = g->stride_h = g->stride_w = g->dil_h = g->dil_w = 1;
	g->mult = 1;
	g->in_h = g->in_w = g->out_h = g->out_w = 1;
	switch (s->op) {
	case DMO_OP_RELU:
	case DMO_OP_RELU6:
	case DMO_OP_ADD:
	case DMO_OP_MUL:
	case DMO_OP_QLINEARADD:
	case DMO_OP_QLINEARMUL:
	case DMO_OP_SUB:
	case DMO_OP_DIV:
	case DMO_OP_PRELU:
	case DMO_OP_MAX:
	case DMO_OP_MIN:
	case DMO_OP_POWT:
		/* Flat order is that of a 1x1, stride-1 depthwise walk. */
		g->kind = DMO_GEOM_DEPTH;
		g->in_h = g->out_h = s->in_h, g->in_w = g->out_w = s->in_w;
		g->in_c = g->out_c = s->in_c;
		break;
	case DMO_OP_FC: {
		uint64_t k = (uint64_t)s->in_h * s->in_w * s->in_c;
		g->kind = DMO_GEOM_CONV;
		g->in_c = k > INT_MAX ? 0 : (int)k; /* rejected below */
		g->out_c = s->out_c;
		g->trans_a = s->trans_a;
		break;
	}
	case DMO_OP_MATMUL: {
		/* dk_matmul_f32 walks A's rows as fc walks its batch: row r's
		 * K elements, then each of the units columns (B is a second
		 * operand, never the profiled input). */
		uint64_t rows = (uint64_t)s->batch * s->in_h * s->in_w;
		g->kind = DMO_GEOM_CONV;
		g->batch = g->out_batch = rows > INT_MAX ? 0 : (int)rows; /* rejected below */
		g->in_c = s->in_c;
		g->out_c = s->out_c;
		g->matmul = 1;
		break;
	}
	case DMO_OP_CONV2D:
	case DMO_OP_DWCONV2D:
	case DMO_OP_MAXPOOL:
	case DMO_OP_AVGPOOL:
	case DMO_OP_QLINEARAVGPOOL:
		g->kind = s->op == DMO_OP_CONV2D ? DMO_GEOM_CONV : DMO_GEOM_DEPTH;
		g->in_h = s->in_h, g->in_w = s->in_w, g->in_c = s->in_c;
		g->out_h = s->out_h, g->out_w = s->out_w, g->out_c = s->out_c;
		g->k_h = s->k_h, g->k_w = s->k_w;
		g->stride_h = s->stride_h, g->stride_w = s->stride_w;
		g->pad_top = s->pad_top, g->pad_left = s->pad_left;
		/* Pools: 1 but an NCHW maxpool's (ONNX's MaxPool). */
		g->dil_h = s->dil_h, g->dil_w = s->dil_w;
		if (s->op == DMO_OP_DWCONV2D)
			g->mult = s->mult;
		if (s->layout == DMO_LAYOUT_NCHW) {
			g->kind = dmo_opspec_image_at_a_time(s) ? DMO_GEOM_IMAGES : DMO_GEOM_PLANES;
			g->groups = s->op == DMO_OP_CONV2D ? s->group : s->in_c;
		}
		break;
	case DMO_OP_CONVT:
		/* ONNX Runtime's GEMM then col2im (kernels_convt.c): a group
		 * of an image at a time, its taps, pads and dilation never
		 * matter.  Group g of image b is NCHW's contiguous channels
		 * g C/G ... of input and g M/G ... of output: the walk of N G
		 * images of C/G and M/G channels (formulas.md 3.8). */
		g->kind = DMO_GEOM_IMAGES;
		g->batch = g->out_batch = s->batch * s->group;
		g->in_h = s->in_h, g->in_w = s->in_w, g->in_c = s->in_c / s->group;
		g->out_h = s->out_h, g->out_w = s->out_w, g->out_c = s->out_c / s->group;
		g->groups = 1;
		break;
	case DMO_OP_LOGISTIC:
	case DMO_OP_TANH:
	case DMO_OP_HARDSIGMOID:
	case DMO_OP_HARDSWISH:
	case DMO_OP_CLIP:
	case DMO_OP_BATCHNORM:
	case DMO_OP_QUANTIZE:
	case DMO_OP_DEQUANTIZE:
	case DMO_OP_SOFTMAX:
	case DMO_OP_LOGSOFTMAX:
		g->kind = s->op == DMO_OP_SOFTMAX || s->op == DMO_OP_LOGSOFTMAX ? DMO_GEOM_ROWS
										 : DMO_GEOM_FLAT;
		g->in_h = g->out_h = s->in_h, g->in_w = g->out_w = s->in_w;
		g->in_c = g->out_c = s->in_c;
		break;
	case DMO_OP_RESHAPE: {
		/* dk_reshape copies bytes: a flat walk over bytes. */
		uint64_t c = (uint64_t)s->in_c * g->elem_size;
		g->kind = DMO_GEOM_FLAT;
		g->in_h = g->out_h = s->in_h, g->in_w = g->out_w = s->in_w;
		g->in_c = g->out_c = c > INT_MAX ? 0 : (int)c; /* rejected below */
		g->elem_size = g->out_elem_size = 1;
		break;
	}
	case DMO_OP_MEAN:
	case DMO_OP_QLINEARMEAN:
	case DMO_OP_REDUCEMAX:
	case DMO_OP_REDUCEMIN:
	case DMO_OP_REDUCESUM:
		/* One window over the whole image: the DEPTH loops batch, c,
		 * filter_y, filter_x are the reduction's batch, c, y, x. */
		g->kind = DMO_GEOM_MEAN;
		g->in_h = g->k_h = s->in_h, g->in_w = g->k_w = s->in_w;
		g->in_c = g->out_c = s->in_c;
		break;
	case DMO_OP_RESIZE:
		g->kind = DMO_GEOM_NEAREST;
		g->in_h = s->in_h, g->in_w = s->in_w, g->in_c = g->out_c = s->in_c;
		g->out_h = s->out_h, g->out_w = s->out_w;
		g->scale_h = s->scale_h, g->scale_w = s->scale_w;
		break;
	case DMO_OP_PAD:
	case DMO_OP_CONCAT:
	case DMO_OP_TRANSPOSE:
	case DMO_OP_SLICE:
	case DMO_OP_GATHER:
		g->kind = DMO_GEOM_GATHER;
		g->in_h = s->in_h, g->in_w = s->in_w, g->in_c = s->in_c;
		g->out_batch = s->out_n;
		g->out_h = s->out_h, g->out_w = s->out_w, g->out_c = s->out_c;
		for (int i = 0; i < 4; i++) {
			/* slice: output coordinate o reads input first + o step,
			 * its first read the box's first element, or its last
			 * for a step < 0 */
			int in_dim = i == 0 ? s->batch : i == 1 ? s->in_h : i == 2 ? s->in_w : s->in_c;
			int slice = s->op == DMO_OP_SLICE, back = slice && s->step[i] < 0;
			g->step[i] = slice && s->step[i] ? s->step[i] : 1;
			g->before[i] = s->op == DMO_OP_TRANSPOSE ? 0
				       : back ? -(in_dim - 1 - s->after[i])
				       : slice ? -s->before[i] : s->before[i];
			g->perm[i] = s->perm[i];
			g->after[i] = s->after[i];
		}
		g->pad_onnx = s->op == DMO_OP_PAD && s->pad_mode != DMO_PAD_CONSTANT;
		if (s->op == DMO_OP_GATHER) {
			g->n_indices = s->n_indices;
			memcpy(g->indices, s->indices, sizeof g->indices);
		}
		break;
	default:
		if (dmo_op_onnx_unary(s->op) >= 0) {
			g->kind = DMO_GEOM_FLAT;
			g->in_h = g->out_h = s->in_h, g->in_w = g->out_w = s->in_w;
			g->in_c = g->out_c = s->in_c;
		}
		break;
	}
	/* A softmax over another axis than the last (dk_softmax_axis_f32,
	 * ONNX Runtime's order) reads the whole tensor before its first
	 * write: one image of all its elements. */
	if ((s->op == DMO_OP_SOFTMAX || s->op == DMO_OP_LOGSOFTMAX) && s->axis != 3) {
		g->kind = DMO_GEOM_IMAGES;
		g->batch = g->out_batch = 1;
		g->in_h = g->out_h = s->batch * s->in_h;
		g->groups = 1;
	}
	/* So does ONNX Runtime's QLinearAveragePool (dk_qlinear_avgpool_*
	 * dequantizes every image first): one image of every image's rows. */
	if (s->op == DMO_OP_QLINEARAVGPOOL) {
		g->kind = DMO_GEOM_IMAGES;
		g->batch = g->out_batch = 1;
		g->in_h = s->batch * s->in_h;
		g->out_h = s->batch * s->out_h;
		g->groups = 1;
	}
	if (g->elem_size == 0 || g->out_elem_size == 0 || g->in_c <= 0 || g->batch <= 0 || g->out_batch <= 0 || g->out_h <= 0 || g->out_w <= 0 ||
	    g->out_c <= 0 || g->k_h <= 0 || g->k_w <= 0 || g->stride_h <= 0 ||
	    g->stride_w <= 0 || g->dil_h <= 0 || g->dil_w <= 0 || g->mult <= 0 ||
	    (g->kind == DMO_GEOM_DEPTH && g->out_c != g->in_c * g->mult) ||
	    (g->kind == DMO_GEOM_NEAREST && (g->scale_h <= 0 || g->scale_w <= 0)) ||
	    ((g->kind == DMO_GEOM_PLANES || g->kind == DMO_GEOM_IMAGES) &&
	     (g->groups <= 0 || g->in_c % g->groups || g->out_c % g->groups)) ||
	    (g->kind != DMO_GEOM_FLAT && g->out_elem_size != g->elem_size)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

uint64_t dmo_geom_in_bytes(const struct dmo_geom *g)
{
	return (uint64_t)g->batch * g->in_h * g->in_w * g->in_c * g->elem_size;
}

uint64_t dmo_geom_out_bytes(const struct dmo_geom *g)
{
	return (uint64_t)g->out_batch * g->out_h * g->out_w * g->out_c * g->out_elem_size;
}

/* Taps of one axis inside the image, for output position O: *FIRST is the
 * input position of the first one, the return value their number. */
INLINE uint64_t axis_taps(int o, int stride, int pad, int dil, int k, int n,
			  int *first)
{
	int start = o * stride - pad;
	if (start >= 0 && start + (k - 1) * dil < n) {
		*first = start;
		return (uint64_t)k;
	}
	int f0 = start >= 0 ? 0 : (-start + dil - 1) / dil;
	int room = n - 1 - start; /* largest fy * dil still inside */
	int f1 = room < 0 ? -1 : room / dil;
	if (f1 > k - 1)
		f1 = k - 1;
	*first = start + f0 * dil;
	return f1 >= f0 ? (uint64_t)(f1 - f0 + 1) : 0;
}

/* The loop nest of docs/kernels.md: batch, out_y, out_x, then out_c (CONV) or
 * in_c, mult (DEPTH, MEAN).  OUT is the flat output element. */
INLINE void walk_window(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const uint64_t C = (uint64_t)g->in_c, W = (uint64_t)g->in_w;
	struct tap_box box = { .sy = (uint64_t)g->dil_h * W * C,
			       .sx = (uint64_t)g->dil_w * C, .sc = 1 };
	uint64_t out = 0;

	box.nc = g->kind == DMO_GEOM_CONV ? C : 1;
	for (uint64_t b = 0; b < (uint64_t)g->batch; b++)
	for (int oy = 0; oy < g->out_h; oy++) {
		int iy, ix;
		uint64_t ny = axis_taps(oy, g->stride_h, g->pad_top, g->dil_h,
					g->k_h, g->in_h, &iy);
		for (int ox = 0; ox < g->out_w; ox++) {
			uint64_t nx = axis_taps(ox, g->stride_w, g->pad_left,
						g->dil_w, g->k_w, g->in_w, &ix);
			uint64_t pixel = 0;
			box.ny = ny, box.nx = nx;
			if (ny && nx)
				pixel = ((b * (uint64_t)g->in_h + (uint64_t)iy) * W +
					 (uint64_t)ix) * C;
			if (g->kind == DMO_GEOM_CONV && g->trans_a) {
				/* fc over a transposed input: row b is column
				 * b, its K elements a batch apart. */
				struct tap_box column = { .base = b, .ny = 1, .nx = 1, .nc = C,
							  .sc = (uint64_t)g->batch };
				for (int oc = 0; oc < g->out_c; oc++)
					visit(ctx, out++, &column, 1);
			} else if (g->kind == DMO_GEOM_CONV) {
				box.base = pixel;
				for (int oc = 0; oc < g->out_c; oc++)
					visit(ctx, out++, &box, 1);
			} else {
				for (uint64_t ic = 0; ic < C; ic++) {
					box.base = pixel + ic;
					for (int m = 0; m < g->mult; m++)
						visit(ctx, out++, &box, 1);
				}
			}
		}
	}
}

/* FLAT: read element t, write element t. */
INLINE void walk_flat(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	uint64_t n = (uint64_t)g->batch * g->in_h * g->in_w * g->in_c;
	struct tap_box box = { .ny = 1, .nx = 1, .nc = 1, .sc = 1 };

	for (uint64_t t = 0; t < n; t++) {
		box.base = t;
		visit(ctx, t, &box, 1);
	}
}

/* ROWS (softmax, docs/kernels.md): per row of C elements, a pass reading
 * the row (maximum), a pass reading it again (sum of exponentials), then
 * for each c: read in[c], write out[c].  The two passes come before the
 * row's first write, so they belong to element c = 0. */
INLINE void walk_rows(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	uint64_t C = (uint64_t)g->in_c, rows = (uint64_t)g->batch * g->in_h * g->in_w;
	struct tap_box first[3] = { { .ny = 1, .nx = 1, .nc = C, .sc = 1 },
				    { .ny = 1, .nx = 1, .nc = C, .sc = 1 },
				    { .ny = 1, .nx = 1, .nc = 1, .sc = 1 } };
	struct tap_box one = { .ny = 1, .nx = 1, .nc = 1, .sc = 1 };

	for (uint64_t r = 0, t = 0; r < rows; r++) {
		first[0].base = first[1].base = first[2].base = r * C;
		visit(ctx, t++, first, 3);
		for (uint64_t c = 1; c < C; c++) {
			one.base = r * C + c;
			visit(ctx, t++, &one, 1);
		}
	}
}

/* GATHER (pad, concat, transpose, slice, gather): the output in flat
 * order; output axis i reads input axis perm[i] at o step[i] - before[i]
 * (gather's W: at indices[o]), and an element outside the input (padding,
 * another input's slab) reads nothing. */
INLINE void walk_gather(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const int in[4] = { g->batch, g->in_h, g->in_w, g->in_c };
	const int od[4] = { g->out_batch, g->out_h, g->out_w, g->out_c };
	const uint64_t in_stride[4] = { (uint64_t)g->in_h * g->in_w * g->in_c,
					(uint64_t)g->in_w * g->in_c, (uint64_t)g->in_c, 1 };
	int ext[4], sh[4];
	uint64_t st[4], out = 0;
	struct tap_box box = { .nc = 1, .sc = 1 };

	for (int i = 0; i < 4; i++) {
		ext[i] = in[g->perm[i]];
		st[i] = in_stride[g->perm[i]];
		sh[i] = g->before[i];
	}
	for (int a = 0; a < od[0]; a++) {
		int ia = a * g->step[0] - sh[0], ok0 = ia >= 0 && ia < ext[0];
		for (int b = 0; b < od[1]; b++) {
			int ib = b * g->step[1] - sh[1], ok1 = ok0 && ib >= 0 && ib < ext[1];
			for (int c = 0; c < od[2]; c++) {
				int ic = g->n_indices ? g->indices[c] : c * g->step[2] - sh[2];
				int ok2 = ok1 && ic >= 0 && ic < ext[2];
				uint64_t row = ok2 ? (uint64_t)ia * st[0] + (uint64_t)ib * st[1] +
							      (uint64_t)ic * st[2]
						    : 0;
				for (int d = 0; d < od[3]; d++) {
					int id = d * g->step[3] - sh[3];
					int inside = ok2 && id >= 0 && id < ext[3];
					box.ny = box.nx = inside;
					box.base = inside ? row + (uint64_t)id * st[3] : 0;
					visit(ctx, out++, &box, 1);
				}
			}
		}
	}
}

/* The border of one axis in ONNX Runtime's order (dk_pad_onnx): B
 * slices of PITCH output elements before the block [LO, HI), then A
 * after it; a border element reads no input (it copies output). */
INLINE void visit_border(visit_fn visit, void *ctx, uint64_t lo, uint64_t hi, uint64_t b,
			 uint64_t a, uint64_t pitch)
{
	const struct tap_box none = { .nc = 1, .sc = 1 };

	for (uint64_t j = 0; j < b + a; j++) {
		uint64_t to = j < b ? lo - (b - j) * pitch : hi + (j - b) * pitch;
		for (uint64_t e = 0; e < pitch; e++)
			visit(ctx, to + e, &none, 1);
	}
}

/* GATHER of a reflect or edge pad (dk_pad_onnx, ONNX Runtime's PadImpl):
 * each input row copied in input order to its output place, then its
 * border, then the border of each outer axis whose block it completes. */
INLINE void walk_pad_onnx(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const int in[4] = { g->batch, g->in_h, g->in_w, g->in_c };
	const uint64_t od[4] = { (uint64_t)g->out_batch, (uint64_t)g->out_h, (uint64_t)g->out_w,
				 (uint64_t)g->out_c };
	const uint64_t pitch[4] = { od[1] * od[2] * od[3], od[2] * od[3], od[3], 1 };
	struct tap_box box = { .ny = 1, .nx = 1, .nc = 1, .sc = 1 };
	const uint64_t rows = (uint64_t)in[0] * in[1] * in[2], row = (uint64_t)in[3];
	uint64_t at = 0;
	int count[3] = { 0 };

	for (int i = 0; i < 4; i++)
		at += (uint64_t)g->before[i] * pitch[i];
	for (uint64_t r = 0; r < rows; r++) {
		uint64_t start = at, skip = (uint64_t)g->before[3];
		for (uint64_t e = 0; e < row; e++) {
			box.base = r * row + e;
			visit(ctx, at + e, &box, 1);
		}
		at += row;
		visit_border(visit, ctx, start, at, (uint64_t)g->before[3], (uint64_t)g->after[3], 1);
		at += (uint64_t)g->after[3];
		for (int k = 2; k >= 0 && ++count[k] == in[k]; k--) {
			count[k] = 0;
			visit_border(visit, ctx, at - pitch[k] * (uint64_t)in[k], at, (uint64_t)g->before[k],
				     (uint64_t)g->after[k], pitch[k]);
			at += (uint64_t)g->after[k] * pitch[k];
			skip += (uint64_t)g->before[k] * pitch[k];
		}
		at += skip;
	}
}

/* NEAREST (dk_resize_nearest over NCHW): the output in flat order, each
 * element reading the one input element it copies. */
INLINE void walk_nearest(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const uint64_t W = (uint64_t)g->in_w, plane = (uint64_t)g->in_h * W;
	const uint64_t planes = (uint64_t)g->batch * (uint64_t)g->in_c;
	struct tap_box box = { .ny = 1, .nx = 1, .nc = 1, .sc = 1 };
	uint64_t out = 0;

	for (uint64_t p = 0; p < planes; p++)
		for (int y = 0; y < g->out_h; y++)
			for (int x = 0; x < g->out_w; x++) {
				box.base = p * plane + (uint64_t)(y / g->scale_h) * W +
					   (uint64_t)(x / g->scale_w);
				visit(ctx, out++, &box, 1);
			}
}

/* PLANES (kernels_nchw.c): for b, out_c, out_y, out_x; the element reads
 * the taps of its group's in_c / groups planes, a plane apart, from the
 * group's first plane.  Pools are groups = in_c with one output plane a
 * group, their windows undilated (dmo_geom_from_spec). */
INLINE void walk_planes(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const uint64_t W = (uint64_t)g->in_w, plane = (uint64_t)g->in_h * W;
	const uint64_t planes = (uint64_t)(g->in_c / g->groups);
	const int per_group = g->out_c / g->groups;
	struct tap_box box = { .sy = (uint64_t)g->dil_h * W, .sx = (uint64_t)g->dil_w,
			       .nc = planes, .sc = plane };
	uint64_t out = 0;

	for (uint64_t b = 0; b < (uint64_t)g->batch; b++)
	for (int oc = 0; oc < g->out_c; oc++) {
		uint64_t group = (b * (uint64_t)g->in_c + (uint64_t)(oc / per_group) * planes) * plane;
		for (int oy = 0; oy < g->out_h; oy++) {
			int iy, ix;
			box.ny = axis_taps(oy, g->stride_h, g->pad_top, g->dil_h, g->k_h, g->in_h, &iy);
			for (int ox = 0; ox < g->out_w; ox++) {
				box.nx = axis_taps(ox, g->stride_w, g->pad_left, g->dil_w, g->k_w,
						   g->in_w, &ix);
				box.base = box.ny && box.nx ? group + (uint64_t)iy * W + (uint64_t)ix : 0;
				visit(ctx, out++, &box, 1);
			}
		}
	}
}

/* IMAGES (kernels_nchw_quant.c): per image b, the image's first output
 * element reads the C x H x W input elements of image b (one row of them),
 * the rest read nothing: the kernel reads the whole input image before it
 * writes any of the image's output. */
INLINE void walk_images(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	const uint64_t image_in = (uint64_t)g->in_c * g->in_h * g->in_w;
	const uint64_t image_out = (uint64_t)g->out_c * g->out_h * g->out_w;
	struct tap_box box = { .sy = 0, .sx = 1, .nc = 1, .sc = 0 };
	uint64_t out = 0;

	for (uint64_t b = 0; b < (uint64_t)g->batch; b++)
		for (uint64_t e = 0; e < image_out; e++) {
			box.ny = e == 0;
			box.nx = e == 0 ? image_in : 0;
			box.base = e == 0 ? b * image_in : 0;
			visit(ctx, out++, &box, 1);
		}
}

INLINE void walk(const struct dmo_geom *g, visit_fn visit, void *ctx)
{
	switch (g->kind) {
	case DMO_GEOM_IMAGES:
		walk_images(g, visit, ctx);
		break;
	case DMO_GEOM_PLANES:
		walk_planes(g, visit, ctx);
		break;
	case DMO_GEOM_FLAT:
		walk_flat(g, visit, ctx);
		break;
	case DMO_GEOM_ROWS:
		walk_rows(g, visit, ctx);
		break;
	case DMO_GEOM_GATHER:
		if (g->pad_onnx)
			walk_pad_onnx(g, visit, ctx);
		else
			walk_gather(g, visit, ctx);
		break;
	case DMO_GEOM_NEAREST:
		walk_nearest(g, visit, ctx);
		break;
	default:
		walk_window(g, visit, ctx);
		break;
	}
}

/* Smallest offset the boxes read, or NO_READ. */
#define NO_READ UINT64_MAX

INLINE uint64_t boxes_min(const struct tap_box *boxes, int n, uint64_t *count)
{
	uint64_t min = NO_READ;
	*count = 0;
	for (int i = 0; i < n; i++) {
		uint64_t k = boxes[i].ny * boxes[i].nx * boxes[i].nc;
		*count += k;
		if (k && boxes[i].base < min)
			min = boxes[i].base;
	}
	return min;
}

/* Exact mode (docs/formulas.md, "Exact O_s of a reference kernel"): the
 * reads of an element come before its write, so the tightest pair that
 * involves them is (largest write end so far, smallest read of the element):
 * a running maximum and a running minimum suffice.  Units are bytes. */
struct exact_state {
	uint64_t ies, oes; /* input and output element sizes */
	uint64_t max_w;  /* largest write end so far; 0 = no write yet */
	uint64_t steps, reads, crit;
	int64_t min_d;   /* min (read - max_w) over reads after a write */
	int have;
};

INLINE void exact_visit(void *ctx, uint64_t out, const struct tap_box *boxes, int nb)
{
	struct exact_state *e = ctx;
	uint64_t n, min = boxes_min(boxes, nb, &n);
	if (n && e->max_w) {
		int64_t d = (int64_t)(min * e->ies) - (int64_t)e->max_w;
		if (!e->have || d < e->min_d) {
			e->min_d = d;
			e->crit = e->steps;
			e->have = 1;
		}
	}
	e->reads += n;
	if ((out + 1) * e->oes > e->max_w)
		e->max_w = (out + 1) * e->oes;
	e->steps++;
}

static void exact_walk(const struct dmo_geom *g, struct exact_state *e)
{
	walk(g, exact_visit, e);
}

int dmo_algorithmic_geom(const struct dmo_geom *g, struct dmo_algo_result *res)
{
	struct exact_state e = { .ies = g->elem_size, .oes = g->out_elem_size };
	exact_walk(g, &e);

	res->in_bytes = dmo_geom_in_bytes(g);
	res->out_bytes = dmo_geom_out_bytes(g);
	res->steps = e.steps;
	res->reads = e.reads;
	res->have_pair = e.have;
	res->raw_bound = e.have ? (int64_t)res->out_bytes + e.min_d : 0;
	res->critical_step = e.have ? e.crit : 0;
	res->os = dmo_os_clamp(e.have, res->raw_bound, res->in_bytes, res->out_bytes);
	return 0;
}

int dmo_algorithmic(const struct dmo_opspec *spec, struct dmo_algo_result *res)
{
	struct dmo_geom g;
	if (dmo_geom_from_spec(spec, &g))
		return -1;
	return dmo_algorithmic_geom(&g, res);
}

/* Replay mode: every event, in the kernel's order, into the reducer. */
struct replay_state {
	struct dmo_reducer *r;
	uint64_t ies, oes;
};

INLINE void replay_visit(void *ctx, uint64_t out, const struct tap_box *boxes, int nb)
{
	struct replay_state *s = ctx;
	for (int i = 0; i < nb; i++) {
		const struct tap_box *box = &boxes[i];
		for (uint64_t y = 0; y < box->ny; y++)
			for (uint64_t x = 0; x < box->nx; x++)
				for (uint64_t c = 0; c < box->nc; c++)
					dmo_reducer_add(s->r, 0,
							(box->base + y * box->sy + x * box->sx +
							 c * box->sc) * s->ies,
							s->ies);
	}
	dmo_reducer_add(s->r, DMO_EV_WRITE | DMO_EV_OUT, out * s->oes, s->oes);
}

int dmo_algorithmic_replay(const struct dmo_geom *g, struct dmo_reducer *r)
{
	struct replay_state s = { r, g->elem_size, g->out_elem_size };
	walk(g, replay_visit, &s);
	return 0;
}

/* Curve mode: a first walk records each step's smallest read, a backward
 * scan turns them into suffix minima, a second walk emits them with the
 * running write maximum. */
struct min_state {
	uint64_t *min;
	uint64_t step;
};

INLINE void min_visit(void *ctx, uint64_t out, const struct tap_box *boxes, int nb)
{
	struct min_state *s = ctx;
	uint64_t n;
	(void)out;
	s->min[s->step++] = boxes_min(boxes, nb, &n);
}

struct emit_state {
	const uint64_t *suffix; /* suffix[i]: smallest read of steps >= i */
	uint64_t steps, step, max_w, ies, oes, in_bytes;
	dmo_curve_fn fn;
	void *ctx;
	int rc;
};

INLINE void emit_visit(void *ctx, uint64_t out, const struct tap_box *boxes, int nb)
{
	struct emit_state *s = ctx;
	(void)boxes, (void)nb;
	if (out + 1 > s->max_w)
		s->max_w = out + 1;
	s->step++;
	if (s->rc)
		return;
	uint64_t next = s->step < s->steps ? s->suffix[s->step] : NO_READ;
	s->rc = s->fn(s->ctx, s->step, next == NO_READ ? s->in_bytes : next * s->ies,
		      s->max_w * s->oes);
}

int dmo_algorithmic_curves(const struct dmo_geom *g, dmo_curve_fn fn, void *ctx)
{
	uint64_t steps = dmo_geom_out_bytes(g) / g->out_elem_size;
	uint64_t *suffix = malloc((steps ? steps : 1) * sizeof *suffix);
	if (!suffix)
		return -1;

	struct min_state m = { suffix, 0 };
	walk(g, min_visit, &m);
	for (uint64_t i = steps; i-- > 1;)
		if (suffix[i] < suffix[i - 1])
			suffix[i - 1] = suffix[i];

	struct emit_state e = { .suffix = suffix, .steps = steps, .ies = g->elem_size,
				.oes = g->out_elem_size,
				.in_bytes = dmo_geom_in_bytes(g), .fn = fn, .ctx = ctx };
	walk(g, emit_visit, &e);
	free(suffix);
	return e.rc;
}
