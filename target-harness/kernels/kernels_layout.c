/* kernels_layout.c - libdmokernels: the ops that only move elements
 * (reshape, pad, transpose, nearest resize, concatenation), for any
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

int dk_pad(const struct dk_shape *in_shape, const int *before, const int *after,
	   size_t elem, const void *pad_value, const void *in, void *out,
	   const struct dk_thread *t)
{
	struct share sh;
	int out_dims[DK_MAX_DIMS], coord[DK_MAX_DIMS] = { 0 };
	size_t in_strides[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || !before || !after || !elem || !pad_value || !in || !out)
		return -1;
	int rank = in_shape->rank;
	for (int i = 0; i < rank; i++) {
		if (before[i] < 0 || after[i] < 0)
			return -1;
		out_dims[i] = in_shape->dims[i] + before[i] + after[i];
	}
	size_t total = shape_elems(out_dims, rank);
	if (share_init(&sh, t, total))
		return -1;
	strides_of(in_shape->dims, rank, in_strides);
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t e = 0; e < total; e++, odometer_step(coord, out_dims, rank)) {
		if (!owns(&sh, e))
			continue;
		size_t offset = 0;
		int inside = 1;
		for (int i = 0; i < rank && inside; i++) {
			int c = coord[i] - before[i];
			inside = c >= 0 && c < in_shape->dims[i];
			offset += (size_t)c * in_strides[i];
		}
		copy_elem(dst + e * elem, inside ? src + offset * elem : pad_value, elem);
	}
	return 0;
}

int dk_transpose(const struct dk_shape *in_shape, const int *perm, size_t elem,
		 const void *in, void *out, const struct dk_thread *t)
{
	struct share sh;
	int out_dims[DK_MAX_DIMS], coord[DK_MAX_DIMS] = { 0 }, seen[DK_MAX_DIMS] = { 0 };
	size_t in_strides[DK_MAX_DIMS], out_to_in[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || !perm || !elem || !in || !out)
		return -1;
	int rank = in_shape->rank;
	for (int i = 0; i < rank; i++) {
		if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]++)
			return -1;
		out_dims[i] = in_shape->dims[perm[i]];
	}
	size_t total = shape_elems(out_dims, rank);
	if (share_init(&sh, t, total))
		return -1;
	strides_of(in_shape->dims, rank, in_strides);
	for (int i = 0; i < rank; i++)
		out_to_in[i] = in_strides[perm[i]];
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t e = 0; e < total; e++, odometer_step(coord, out_dims, rank)) {
		if (!owns(&sh, e))
			continue;
		size_t offset = 0;
		for (int i = 0; i < rank; i++)
			offset += (size_t)coord[i] * out_to_in[i];
		copy_elem(dst + e * elem, src + offset * elem, elem);
	}
	return 0;
}

int dk_resize_nearest(const struct dk_shape *in_shape, const int *scale, size_t elem,
		      const void *in, void *out, const struct dk_thread *t)
{
	struct share sh;
	int out_dims[DK_MAX_DIMS], coord[DK_MAX_DIMS] = { 0 };
	size_t in_strides[DK_MAX_DIMS];

	if (!shape_ok(in_shape) || !scale || !elem || !in || !out)
		return -1;
	int rank = in_shape->rank;
	for (int i = 0; i < rank; i++) {
		if (scale[i] <= 0 || in_shape->dims[i] > INT_MAX / scale[i])
			return -1;
		out_dims[i] = in_shape->dims[i] * scale[i];
	}
	size_t total = shape_elems(out_dims, rank);
	if (share_init(&sh, t, total))
		return -1;
	strides_of(in_shape->dims, rank, in_strides);
	const unsigned char *src = in;
	unsigned char *dst = out;
	for (size_t e = 0; e < total; e++, odometer_step(coord, out_dims, rank)) {
		if (!owns(&sh, e))
			continue;
		size_t offset = 0;
		for (int i = 0; i < rank; i++)
			offset += (size_t)(coord[i] / scale[i]) * in_strides[i];
		copy_elem(dst + e * elem, src + offset * elem, elem);
	}
	return 0;
}

int dk_concat(int n, const struct dk_shape *in_shapes, int axis, size_t elem,
	      const void *const *ins, void *out, const struct dk_thread *t)
{
	struct share sh;

	if (n < 1 || !in_shapes || !ins || !elem || !out || !shape_ok(&in_shapes[0]))
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
				if (owns(&sh, e))
					copy_elem(dst + e * elem, src + j * elem, elem);
		}
	return 0;
}
