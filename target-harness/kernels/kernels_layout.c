/* kernels_layout.c - libdmokernels: the ops that only move elements
 * (reshape, pad, slice, transpose, nearest resize, concatenation), for any
 * element size.  Each
 * walks its output in flat order with an odometer over the output
 * coordinates and copies one element at a time, so that the access pattern
 * is the documented one whatever the element type. */
#include "kernels_internal.h"

#include <limits.h>
#include <string.h>

/* Keeps GCC from turning the byte loops into memcpy calls, whose direction
 * and width are the C library's, not ours. */
#if defined(__GNUC__) && !defined(__clang__)
#define DK_NO_MEMCPY __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define DK_NO_MEMCPY
#endif

static DK_NO_MEMCPY void copy_elem(unsigned char *dst, const unsigned char *src, size_t elem)
{
	for (size_t i = 0; i < elem; i++)
		dst[i] = src[i];
}

static int shape_ok(const struct dk_shape *s)
{
	if (!s || s->rank < 1 || s->rank > DK_MAX_DIMS)
		return 0;
	for (int i = 0; i < s->rank; i++)
		if (s->dims[i] < 1)
			return 0;
	return 1;
}

static size_t shape_elems(const int *dims, int rank)
{
	size_t n = 1;
	for (int i = 0; i < rank; i++)
		n *= (size_t)dims[i];
	return n;
}

/* Element strides of a dense tensor, innermost 1. */
static void strides_of(const int *dims, int rank, size_t *strides)
{
	size_t s = 1;
	for (int i = rank - 1; i >= 0; i--) {
		strides[i] = s;
		s *= (size_t)dims[i];
	}
}

/* Advance the output coordinates COORD (of DIMS) by one element. */
static void odometer_step(int *coord, const int *dims, int rank)
{
	for (int i = rank - 1; i >= 0; i--) {
		if (++coord[i] < dims[i])
			return;
		coord[i] = 0;
	}
}

DK_NO_MEMCPY int dk_reshape(const void *in, void *out, size_t bytes, const struct dk_thread *t)
{
	struct share sh;

	if (!in || !out || share_init(&sh, t, bytes))
		return -1;
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t e = sh.lo; e < sh.hi; e++)
		if (owns(&sh, e))
			dst[e] = src[e];
	return 0;
}

/* What pad, slice, transpose and resize share: the output (OUT_DIMS) in
 * flat order, each element the thread owns copied from the input element
 * whose offset SOURCE gives for the output coordinates, or from FILL when
 * SOURCE says there is none (pad's border).  PARAM is the op's per-axis
 * vector, STEP slice's steps (NULL for the others). */
struct gather {
	const struct dk_shape *in;
	size_t in_strides[DK_MAX_DIMS];
	const int *param;
	const int *step; /* slice's steps, or NULL */
	int axis;	 /* gather's axis, PARAM its indices */
};
typedef int (*source_fn)(const struct gather *g, const int *coord, size_t *offset);

static int gather_walk(const struct dk_shape *in_shape, const int *out_dims, const int *param,
		       const int *step, int axis, source_fn source, size_t elem, const void *fill,
		       const void *in, void *out, const struct dk_thread *t)
{
	struct share sh;
	struct gather g = { in_shape, { 0 }, param, step, axis };
	int coord[DK_MAX_DIMS] = { 0 }, rank = in_shape->rank;
	size_t total = shape_elems(out_dims, rank);

	if (share_init(&sh, t, total))
		return -1;
	strides_of(in_shape->dims, rank, g.in_strides);
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t e = 0; e < total; e++, odometer_step(coord, out_dims, rank)) {
		size_t offset = 0;

		if (!owns(&sh, e))
			continue;
		copy_elem(dst + e * elem, source(&g, coord, &offset) ? src + offset * elem : fill, elem);
	}
	return 0;
}

/* pad: PARAM is before; outside the input is the border. */
static int pad_source(const struct gather *g, const int *coord, size_t *offset)
{
	for (int i = 0; i < g->in->rank; i++) {
		int c = coord[i] - g->param[i];
		if (c < 0 || c >= g->in->dims[i])
			return 0;
		*offset += (size_t)c * g->in_strides[i];
	}
	return 1;
}

int dk_pad(const struct dk_shape *in_shape, const int *before, const int *after,
	   size_t elem, const void *pad_value, const void *in, void *out,
	   const struct dk_thread *t)
{
	int out_dims[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || !before || !after || !elem || !pad_value || !in || !out)
		return -1;
	for (int i = 0; i < in_shape->rank; i++) {
		if (before[i] < 0 || after[i] < 0)
			return -1;
		out_dims[i] = in_shape->dims[i] + before[i] + after[i];
	}
	return gather_walk(in_shape, out_dims, before, NULL, 0, pad_source, elem, pad_value, in, out, t);
}

/* The border of one axis around the block [LO, HI) of OUT already
 * written (elements; PITCH elements a slice of the axis): B slices before
 * it, then A after it, each slice in increasing order (ONNX Runtime's
 * PadAxis and PadAxisConstant). */
static void pad_border(unsigned char *out, size_t elem, size_t lo, size_t hi, size_t b, size_t a,
		       size_t pitch, enum dk_pad_mode mode, const void *value)
{
	for (size_t j = 0; j < b + a; j++) {
		size_t to = j < b ? lo - (b - j) * pitch : hi + (j - b) * pitch;
		/* The slice copied: mirrored about the edge slice (reflect),
		 * the edge slice (edge). */
		size_t from = mode == DK_PAD_REFLECT ? (j < b ? lo + (b - j) * pitch
							      : hi - (j - b + 2) * pitch)
			      : j < b ? lo : hi - pitch;

		for (size_t e = 0; e < pitch; e++)
			copy_elem(out + (to + e) * elem,
				  mode == DK_PAD_CONSTANT ? value : out + (from + e) * elem, elem);
	}
}

int dk_pad_onnx(const struct dk_shape *in_shape, const int *before, const int *after,
		enum dk_pad_mode mode, size_t elem, const void *pad_value, const void *in,
		void *out, const struct dk_thread *t)
{
	const int rank = in_shape->rank;
	int od[DK_MAX_DIMS], count[DK_MAX_DIMS] = { 0 };
	size_t pitch[DK_MAX_DIMS], at = 0, rows, row;

	if (!shape_ok(in_shape) || !before || !after || !elem || !pad_value || !in || !out ||
	    (t && t->count > 1) || (unsigned)mode > DK_PAD_EDGE)
		return -1;
	for (int i = 0; i < rank; i++) {
		if (before[i] < 0 || after[i] < 0 ||
		    (mode == DK_PAD_REFLECT && (before[i] >= in_shape->dims[i] || after[i] >= in_shape->dims[i])))
			return -1;
		od[i] = in_shape->dims[i] + before[i] + after[i];
	}
	strides_of(od, rank, pitch);
	row = (size_t)in_shape->dims[rank - 1];
	rows = shape_elems(in_shape->dims, rank - 1);
	for (int i = 0; i < rank; i++) /* every axis's leading border */
		at += (size_t)before[i] * pitch[i];
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t r = 0; r < rows; r++) {
		size_t start = at, skip = (size_t)before[rank - 1];

		for (size_t e = 0; e < row; e++)
			copy_elem(dst + (at + e) * elem, src + (r * row + e) * elem, elem);
		at += row;
		pad_border(dst, elem, start, at, (size_t)before[rank - 1], (size_t)after[rank - 1], 1, mode,
			   pad_value);
		at += (size_t)after[rank - 1];
		/* Each outer axis whose block this row completes. */
		for (int k = rank - 2; k >= 0 && ++count[k] == in_shape->dims[k]; k--) {
			count[k] = 0;
			pad_border(dst, elem, at - pitch[k] * (size_t)in_shape->dims[k], at,
				   (size_t)before[k], (size_t)after[k], pitch[k], mode, pad_value);
			at += (size_t)after[k] * pitch[k];
			skip += (size_t)before[k] * pitch[k];
		}
		at += skip;
	}
	return 0;
}

/* slice: PARAM is the start; output coordinate o copies input start + o
 * step. */
static int slice_source(const struct gather *g, const int *coord, size_t *offset)
{
	for (int i = 0; i < g->in->rank; i++)
		*offset += (size_t)(g->param[i] + (ptrdiff_t)coord[i] * g->step[i]) * g->in_strides[i];
	return 1;
}

void dk_slice_box(int dim, int before, int after, int step, int *start, int *size)
{
	int by = step < 0 ? -step : step ? step : 1;

	*start = step < 0 ? dim - 1 - after : before;
	*size = (dim - before - after + by - 1) / by;
}

int dk_slice(const struct dk_shape *in_shape, const int *start, const int *step, const int *size,
	     size_t elem, const void *in, void *out, const struct dk_thread *t)
{
	static const int ones[DK_MAX_DIMS] = { 1, 1, 1, 1, 1, 1 };

	if (!shape_ok(in_shape) || !start || !size || !elem || !in || !out)
		return -1;
	step = step ? step : ones;
	for (int i = 0; i < in_shape->rank; i++) {
		/* The last coordinate read, in 64 bits. */
		int64_t last = start[i] + (int64_t)(size[i] - 1) * step[i];
		if (step[i] == 0 || start[i] < 0 || start[i] >= in_shape->dims[i] || size[i] < 1 ||
		    last < 0 || last >= in_shape->dims[i])
			return -1;
	}
	return gather_walk(in_shape, size, start, step, 0, slice_source, elem, NULL, in, out, t);
}

/* gather: PARAM is the indices; along AXIS output coordinate i copies
 * input indices[i]. */
static int gather_source(const struct gather *g, const int *coord, size_t *offset)
{
	for (int i = 0; i < g->in->rank; i++)
		*offset += (size_t)(i == g->axis ? g->param[coord[i]] : coord[i]) * g->in_strides[i];
	return 1;
}

int dk_gather(const struct dk_shape *in_shape, int axis, const int *indices, int n, size_t elem,
	      const void *in, void *out, const struct dk_thread *t)
{
	int out_dims[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || axis < 0 || axis >= in_shape->rank || !indices || n < 1 || !elem ||
	    !in || !out)
		return -1;
	for (int i = 0; i < n; i++)
		if (indices[i] < 0 || indices[i] >= in_shape->dims[axis])
			return -1;
	memcpy(out_dims, in_shape->dims, sizeof out_dims);
	out_dims[axis] = n;
	return gather_walk(in_shape, out_dims, indices, NULL, axis, gather_source, elem, NULL, in, out, t);
}

/* transpose: PARAM is perm; output axis i walks input axis perm[i]. */
static int transpose_source(const struct gather *g, const int *coord, size_t *offset)
{
	for (int i = 0; i < g->in->rank; i++)
		*offset += (size_t)coord[i] * g->in_strides[g->param[i]];
	return 1;
}

int dk_transpose(const struct dk_shape *in_shape, const int *perm, size_t elem,
		 const void *in, void *out, const struct dk_thread *t)
{
	int out_dims[DK_MAX_DIMS], seen[DK_MAX_DIMS] = { 0 };

	if (!shape_ok(in_shape) || !perm || !elem || !in || !out)
		return -1;
	for (int i = 0; i < in_shape->rank; i++) {
		if (perm[i] < 0 || perm[i] >= in_shape->rank || seen[perm[i]]++)
			return -1;
		out_dims[i] = in_shape->dims[perm[i]];
	}
	return gather_walk(in_shape, out_dims, perm, NULL, 0, transpose_source, elem, NULL, in, out, t);
}

/* resize: PARAM is scale; output coordinate o reads input o / scale. */
static int resize_source(const struct gather *g, const int *coord, size_t *offset)
{
	for (int i = 0; i < g->in->rank; i++)
		*offset += (size_t)(coord[i] / g->param[i]) * g->in_strides[i];
	return 1;
}

int dk_resize_nearest(const struct dk_shape *in_shape, const int *scale, size_t elem,
		      const void *in, void *out, const struct dk_thread *t)
{
	int out_dims[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || !scale || !elem || !in || !out)
		return -1;
	for (int i = 0; i < in_shape->rank; i++) {
		if (scale[i] <= 0 || in_shape->dims[i] > INT_MAX / scale[i])
			return -1;
		out_dims[i] = in_shape->dims[i] * scale[i];
	}
	return gather_walk(in_shape, out_dims, scale, NULL, 0, resize_source, elem, NULL, in, out, t);
}

int concat_walk(int n, const struct dk_shape *in_shapes, int axis, size_t elem,
		const uint8_t *const *tables, const void *const *ins, void *out,
		const struct dk_thread *t)
{
	struct share sh;

	if (n < 1 || !in_shapes || !ins || !elem || !out || !shape_ok(&in_shapes[0]) ||
	    (tables && elem != 1))
		return -1;
	int rank = in_shapes[0].rank;
	if (axis < 0 || axis >= rank)
		return -1;
	/* Above AXIS the inputs agree: the output is OUTER blocks, each the
	 * inputs' slabs of dims[axis] * inner elements one after the other. */
	size_t outer = shape_elems(in_shapes[0].dims, axis), slab_total = 0;
	size_t inner = shape_elems(in_shapes[0].dims + axis + 1, rank - axis - 1);
	for (int k = 0; k < n; k++) {
		if (!ins[k] || !shape_ok(&in_shapes[k]) || in_shapes[k].rank != rank)
			return -1;
		for (int i = 0; i < rank; i++)
			if (i != axis && in_shapes[k].dims[i] != in_shapes[0].dims[i])
				return -1;
		slab_total += (size_t)in_shapes[k].dims[axis] * inner;
	}
	if (share_init(&sh, t, outer * slab_total))
		return -1;
	unsigned char *dst = out;
	size_t e = 0;
	for (size_t o = 0; o < outer; o++)
		for (int k = 0; k < n; k++) {
			size_t slab = (size_t)in_shapes[k].dims[axis] * inner;
			const unsigned char *src = (const unsigned char *)ins[k] + o * slab * elem;
			for (size_t j = 0; j < slab; j++, e++)
				if (owns(&sh, e) && tables && tables[k])
					dst[e] = tables[k][src[j]];
				else if (owns(&sh, e))
					copy_elem(dst + e * elem, src + j * elem, elem);
		}
	return 0;
}

int dk_concat(int n, const struct dk_shape *in_shapes, int axis, size_t elem,
	      const void *const *ins, void *out, const struct dk_thread *t)
{
	return concat_walk(n, in_shapes, axis, elem, NULL, ins, out, t);
}
