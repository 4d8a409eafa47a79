/* model_onnx.c - the ONNX reader: a ModelProto, decoded by protobuf-c from
 * C generated at build time out of the onnx.proto Debian's libonnx-dev
 * installs, into dmo's in-memory model.
 *
 * ONNX tensors are NCHW.  A Conv, MaxPool or AveragePool becomes the op
 * spec of its geometry with layout=nchw, so its O_s is that of dmo's NCHW
 * kernels, whose loop order is ONNX Runtime's (docs/kernels.md, "NCHW
 * kernels"), and `dmo infer` runs it on them; a QLinearConv is the integer
 * conv of the same geometry (ONNX Runtime's image-at-a-time order), a
 * QLinearMatMul the fc of MatMul.  Tensor shapes and byte
 * counts stay as in the file.  Element-wise ops and Gemm are
 * layout-free.  Shapes must be static: a symbolic dimension needs --shape;
 * intermediate shapes come from value_info or, when the file leaves them
 * out, from ONNX shape inference (onnx_shapes.c). */
#include "errbuf.h"
#include "model_table.h"
#include "name_index.h"
#include "onnx.pb-c.h"
#include "onnx_shapes.h"
#include "onnx_window1d.h"
#include "protobuf_depth.h"

#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* TensorProto.DataType: name, dmo dtype (-1: none), bytes per element. */
static const struct {
	const char *name;
	int dtype;
	size_t size;
} onnx_types[] = {
	{ "undefined", -1, 0 }, { "float32", DMO_F32, 4 }, { "uint8", DMO_U8, 1 },
	{ "int8", DMO_I8, 1 },  { "uint16", -1, 2 },       { "int16", DMO_I16, 2 },
	{ "int32", DMO_I32, 4 }, { "int64", -1, 8 },       { "string", -1, 0 },
	{ "bool", -1, 1 },      { "float16", -1, 2 },      { "float64", -1, 8 },
	{ "uint32", -1, 4 },    { "uint64", -1, 8 },       { "complex64", -1, 8 },
	{ "complex128", -1, 16 }, { "bfloat16", -1, 2 },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The values of a small integer tensor a node writes (Constant, Shape,
 * ...), which a later Reshape, Pad or Slice may read. */
struct known_ints {
	int tensor;
	int n;
	int64_t ints[DMO_ONNX_MAX_INTS];
};

struct onnx {
	const char *source;
	struct dmo_model *model;
	size_t cap;             /* tensors allocated */
	struct dmo_name_index names; /* tensor names to indices (a long chain) */
	const struct dmo_model_shape *shapes;
	size_t n_shapes;
	const Onnx__GraphProto *graph;
	int64_t opset;          /* of the default domain */
	size_t node;            /* the node being read, for messages */
	struct known_ints *known;
	size_t n_known, cap_known;
	char *err;
	size_t err_len;
};

/* An error about the model file, prefixed with its name (a macro: the format
 * arguments reach dmo_errf_at as written, checked against the format). */
#define fail(x, ...) dmo_errf_at((x)->err, (x)->err_len, (x)->source, __VA_ARGS__)
/* A layer kept without an op spec, for the reason given (format and
 * arguments); -1 with the error set when memory runs out. */
#define unsupported(x, layer, ...) \
	dmo_model_layer_unsupported((layer), (x)->source, (x)->err, (x)->err_len, __VA_ARGS__)

/* Tensor NAME, created (rank -1: shape unknown) when new.  Returns its
 * index, or -1 with the error set. */
static int tensor(struct onnx *o, const char *name)
{
	struct dmo_model *m = o->model;
	int t = dmo_name_index_find(&o->names, name, strlen(name));

	if (t >= 0)
		return t;
	if (m->n_tensors == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		struct dmo_model_tensor *grown = realloc(m->tensors, cap * sizeof *grown);

		if (grown == NULL)
			return fail(o, "out of memory");
		m->tensors = grown;
		o->cap = cap;
	}
	m->tensors[m->n_tensors] = (struct dmo_model_tensor){ .rank = -1,
							      .producer = DMO_MODEL_INPUT,
							      .type_name = "undefined" };
	m->tensors[m->n_tensors].name = strdup(name);
	if (m->tensors[m->n_tensors].name == NULL)
		return fail(o, "out of memory");
	if (dmo_name_index_add(&o->names, m->tensors[m->n_tensors].name, (int)m->n_tensors) != 0) {
		free(m->tensors[m->n_tensors].name); /* not counted yet: nobody else frees it */
		return fail(o, "out of memory");
	}
	return (int)m->n_tensors++;
}

static int set_type(struct onnx *o, struct dmo_model_tensor *t, int32_t type)
{
	if (type < 0 || (size_t)type >= N_OF(onnx_types))
		return fail(o, "tensor '%s' has unknown element type %d", t->name, type);
	t->type_name = onnx_types[type].name;
	t->known_dtype = onnx_types[type].dtype >= 0;
	t->dtype = t->known_dtype ? (enum dmo_dtype)onnx_types[type].dtype : DMO_F32;
	t->elem_size = onnx_types[type].size;
	return 0;
}

/* Give T the shape DIMS[RANK]; -1 dims are left for --shape.  Returns 0,
 * or -1 with the error set.  Callers refuse a rank over the maximum with
 * their own message (initializer, value_info) or pass one already read. */
static int set_shape(struct onnx *o, struct dmo_model_tensor *t, const int64_t *dims, int rank)
{
	assert(rank <= DMO_MODEL_MAX_RANK);
	for (size_t s = 0; s < o->n_shapes; s++)
		if (dmo_model_shape_names(&o->shapes[s], t->name)) {
			dims = o->shapes[s].dims;
			rank = o->shapes[s].rank;
		}
	t->rank = rank;
	t->elems = 1;
	for (int i = 0; i < rank; i++) {
		if (dims[i] < 0 || dims[i] > (1 << 30))
			return fail(o, "tensor '%s' has no static dimension %d: give its shape with --shape '%s=D1x...'",
				    t->name, i, t->name);
		t->shape[i] = dims[i];
		t->elems *= (uint64_t)dims[i];
		if (t->elems > (1ULL << 40))
			return fail(o, "tensor '%s' has over 2^40 elements", t->name);
	}
	t->bytes = t->elems * t->elem_size;
	return 0;
}

/* Constant NAME: an initializer, or the value of a Constant node (which
 * ONNX Runtime, like dmo, folds into the weights). */
static int read_initializer(struct onnx *o, const char *name, const Onnx__TensorProto *init)
{
	int idx;
	struct dmo_model_tensor *t;

	if (name == NULL || !name[0])
		return fail(o, "an initializer has no name");
	if ((idx = tensor(o, name)) < 0)
		return -1;
	t = &o->model->tensors[idx];
	if (t->producer == DMO_MODEL_CONSTANT)
		return fail(o, "two initializers are named '%s'", name);
	t->producer = DMO_MODEL_CONSTANT;
	if (set_type(o, t, init->data_type) != 0 || init->n_dims > DMO_MODEL_MAX_RANK ||
	    set_shape(o, t, init->dims, (int)init->n_dims) != 0)
		return init->n_dims > DMO_MODEL_MAX_RANK
			       ? fail(o, "initializer '%s' has rank %zu", name, init->n_dims)
			       : -1;
	if (init->has_raw_data) {
		t->data = init->raw_data.data;
		t->data_len = init->raw_data.len;
	} else if (init->n_float_data) {
		t->data = (const unsigned char *)init->float_data;
		t->data_len = init->n_float_data * sizeof(float);
	} else if (init->n_int64_data) {
		t->data = (const unsigned char *)init->int64_data;
		t->data_len = init->n_int64_data * sizeof(int64_t);
	} else if (init->n_int32_data) {
		/* One value per element of any type up to 32 bits (int8,
		 * float16, ...), so not always the tensor's own bytes. */
		if (init->n_int32_data != t->elems)
			return fail(o, "initializer '%s' holds %zu values for %llu elements",
				    name, init->n_int32_data, (unsigned long long)t->elems);
		t->data = (const unsigned char *)init->int32_data;
		t->data_len = init->n_int32_data * sizeof(int32_t);
		return 0;
	}
	if (t->data && t->elem_size && t->data_len != t->bytes)
		return fail(o, "initializer '%s' holds %zu bytes for %llu", name, t->data_len,
			    (unsigned long long)t->bytes);
	return 0;
}

/* The tensor of node N when it is a Constant dmo reads as a constant, or
 * NULL. */
static const Onnx__TensorProto *constant_node(const Onnx__NodeProto *n)
{
	const Onnx__AttributeProto *a;

	if (n->op_type == NULL || strcmp(n->op_type, "Constant") || n->n_output != 1 ||
	    (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx")))
		return NULL;
	return (a = dmo_onnx_attr(n, "value")) != NULL ? a->t : NULL;
}

/* The type and shape a ValueInfoProto gives its tensor, if any. */
static int read_value_info(struct onnx *o, const Onnx__ValueInfoProto *vi, int graph_input,
			   int graph_output)
{
	const Onnx__TypeProto__Tensor *tt;
	int64_t dims[DMO_MODEL_MAX_RANK];
	struct dmo_model_tensor *t;
	int idx;

	if (vi->name == NULL || !vi->name[0])
		return fail(o, "a graph input, output or value_info has no name");
	if ((idx = tensor(o, vi->name)) < 0)
		return -1;
	t = &o->model->tensors[idx];
	if (t->producer == DMO_MODEL_CONSTANT)
		return 0; /* an initializer listed among the inputs (ONNX < 1.4) */
	t->graph_input |= graph_input;
	t->graph_output |= graph_output;
	if (vi->type == NULL || vi->type->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE)
		return fail(o, "tensor '%s' is not a tensor (sequences, maps and optionals are not read)",
			    vi->name);
	tt = vi->type->tensor_type;
	if (set_type(o, t, tt->elem_type) != 0)
		return -1;
	t->bytes = t->elems * t->elem_size; /* a second value_info's type */
	if (tt->shape == NULL)
		return 0;
	if (tt->shape->n_dim > DMO_MODEL_MAX_RANK)
		return fail(o, "tensor '%s' has rank %zu, dmo reads up to %d", vi->name,
			    tt->shape->n_dim, DMO_MODEL_MAX_RANK);
	for (size_t i = 0; i < tt->shape->n_dim; i++) {
		const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];

		dims[i] = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE
				  ? d->dim_value : -1;
	}
	/* Graph inputs must be static; an intermediate's symbolic shape may
	 * still be derived from its op spec. */
	if (!graph_input) {
		for (size_t i = 0; i < tt->shape->n_dim; i++)
			if (dims[i] < 0)
				return 0;
	}
	return set_shape(o, t, dims, (int)tt->shape->n_dim);
}

static int attr_string_is(const Onnx__NodeProto *n, const char *name, const char *value)
{
	const Onnx__AttributeProto *a = dmo_onnx_attr(n, name);

	if (a == NULL || !a->has_s)
		return strcmp(value, "NOTSET") == 0;
	return a->s.len == strlen(value) && memcmp(a->s.data, value, a->s.len) == 0;
}

/* The operand tensor K of the layer, or NULL. */
static struct dmo_model_tensor *operand(struct dmo_model *m, const struct dmo_model_layer *l,
					size_t k)
{
	return k < l->n_operands && l->operands[k] >= 0 ? &m->tensors[l->operands[k]] : NULL;
}

/* Total padding of SAME along one axis of IN elements: what makes
 * ceil(IN / S) windows of K taps dilated by D fit. */
static int64_t same_total(int64_t in, int64_t k, int64_t s, int64_t d)
{
	int64_t total = ((in + s - 1) / s - 1) * s + (k - 1) * d + 1 - in;

	return total > 0 ? total : 0;
}

/* pad=... of a window op over the NCHW input IN giving OUT, windows K
 * strided by S dilated by D, from auto_pad/pads and (CEIL) a pool's
 * ceil_mode, written into BUF; NULL (with WHY) when dmo cannot express it.
 * TensorFlow's SAME split (SAME_UPPER, SAME_LOWER with an even total,
 * explicit pads equal to it) is `same`; any other padding is explicit,
 * PHxPW when symmetric, else TxLxBxR (SAME_LOWER with an odd total puts
 * the odd row first).  ceil_mode's extra window at the end is a window over
 * more bottom (right) padding: that padding grows to what OUT's size needs,
 * refused when the window would start inside it (ONNX Runtime drops such
 * a window; the kernels would read nothing for it). */
static const char *window_pad(const Onnx__NodeProto *n, const struct dmo_model_tensor *in,
			      const struct dmo_model_tensor *out, const int64_t *k, const int64_t *s,
			      const int64_t *d, int ceil, char *buf, size_t len, const char **why)
{
	int64_t pads[4] = { 0, 0, 0, 0 };
	int same_upper = 1, lower = attr_string_is(n, "auto_pad", "SAME_LOWER");

	/* ONNX's SAME and VALID outputs ignore ceil_mode. */
	if (attr_string_is(n, "auto_pad", "SAME_UPPER"))
		return "same";
	if (attr_string_is(n, "auto_pad", "VALID"))
		return "valid";
	if (lower) {
		ceil = 0;
		for (int a = 0; a < 2; a++) {
			int64_t total = same_total(in->shape[2 + a], k[a], s[a], d[a]);

			pads[a] = total - total / 2;
			pads[a + 2] = total / 2;
		}
	} else if (!attr_string_is(n, "auto_pad", "NOTSET")) {
		*why = "an auto_pad other than NOTSET, SAME_UPPER, SAME_LOWER or VALID";
		return NULL;
	} else if (dmo_onnx_attr_ints(n, "pads", pads, 4, 0) != 0) {
		*why = "pads are not 2-D";
		return NULL;
	}
	for (int a = 0; a < 2 && ceil && out->rank == 4; a++) {
		/* In 128 bits: a file's sizes and strides are any int64. */
		__int128 extent = (__int128)(k[a] - 1) * d[a] + 1;
		__int128 need = (__int128)(out->shape[2 + a] - 1) * s[a] + extent - in->shape[2 + a] - pads[a];

		if (need >= extent || need > INT32_MAX) {
			*why = "ceil_mode adds a window that starts in the padding";
			return NULL;
		}
		if (need > pads[a + 2])
			pads[a + 2] = (int64_t)need;
	}
	for (int a = 0; a < 2; a++) {
		int64_t total = same_total(in->shape[2 + a], k[a], s[a], d[a]);

		same_upper &= pads[a] == total / 2 && pads[a + 2] == total - total / 2;
	}
	if (pads[0] == pads[2] && pads[1] == pads[3] && !lower)
		snprintf(buf, len, "%lldx%lld", (long long)pads[0], (long long)pads[1]);
	else if (same_upper)
		return "same";
	else
		snprintf(buf, len, "%lldx%lldx%lldx%lld", (long long)pads[0], (long long)pads[1],
			 (long long)pads[2], (long long)pads[3]);
	return buf;
}

/* NHWC `in=` of a 4-D NCHW tensor. */
static void nhwc(const struct dmo_model_tensor *t, char *buf, size_t len)
{
	snprintf(buf, len, "%lldx%lldx%lldx%lld", (long long)t->shape[0], (long long)t->shape[2],
		 (long long)t->shape[3], (long long)t->shape[1]);
}

/* The convt op spec of ConvTranspose node N over IN with weights W into
 * TEXT, or why dmo's convt (kernels_convt.c) cannot run it: dmo maps 2-D
 * float32 with weights [C][M / group][KH][KW], any strides, dilations,
 * group, pads, auto_pad, output_shape and output_padding whose extra rows
 * stay below the stride (as ONNX Runtime's col2im needs), resolved as
 * ONNX Runtime resolves them (dmo_onnx_convt_axes). */
static const char *convt_spec(const Onnx__NodeProto *n, const struct dmo_model_tensor *in,
			      const struct dmo_model_tensor *w, char *text, size_t len)
{
	struct dmo_onnx_convt_axis a[2];
	int64_t group = dmo_onnx_attr_int(n, "group", 1);
	const char *why;
	char shape[96];

	if (in->rank != 4 || in->dtype != DMO_F32)
		return "not a 1-D or 2-D float32 ConvTranspose (dmo's convt is NCHW f32)";
	if (w == NULL || w->rank != 4 || w->shape[0] != in->shape[1])
		return "weights are not C x M/group x KH x KW";
	if (group < 1 || in->shape[1] % group)
		return "a group that does not divide the input channels";
	if (dmo_onnx_convt_axes(n, 2, in->shape + 2, w->shape + 2, a, &why))
		return why;
	if (a[0].out_pad >= a[0].stride || a[1].out_pad >= a[1].stride)
		return "output_padding (or an output_shape past the unpadded output) not below the stride";
	nhwc(in, shape, sizeof shape);
	snprintf(text, len,
		 "convt:in=%s,k=%lldx%lld,stride=%lldx%lld,dil=%lldx%lld,pad=%lldx%lldx%lldx%lld,"
		 "out_pad=%lldx%lld,group=%lld,out_c=%lld,dtype=f32,layout=nchw",
		 shape, (long long)w->shape[2], (long long)w->shape[3], (long long)a[0].stride,
		 (long long)a[1].stride, (long long)a[0].dil, (long long)a[1].dil,
		 (long long)a[0].pad_head, (long long)a[1].pad_head, (long long)a[0].pad_tail,
		 (long long)a[1].pad_tail, (long long)a[0].out_pad, (long long)a[1].out_pad,
		 (long long)group, (long long)(w->shape[1] * group));
	return NULL;
}

/* Product of dims FROM to TO (exclusive) of T. */
static int64_t dims_product(const struct dmo_model_tensor *t, int from, int to)
{
	int64_t p = 1;

	for (int i = from; i < to; i++)
		p *= t->shape[i];
	return p;
}

/* Transpose of IN by P (a valid perm of its rank) as the transpose of the
 * fewest axes that moves the same elements in the same order: axes of one
 * element dropped, and axes that stay side by side and in order merged
 * into one (a ShuffleNet channel shuffle's 1 x g x c x h x w, perm 0 2 1
 * 3 4, is g x c x hw, perm 1 0 2).  dk_transpose walks the output in
 * order and reads each element's source, so both views make the same
 * accesses.  Fills DIMS and PERM, padded in front to 4 axes (leading axes
 * of one, not moved) when there are at most 4 groups.  Returns the number
 * of groups (at least 1). */
static int transpose_groups(const struct dmo_model_tensor *in, const int64_t *p, int64_t *perm,
			    int64_t *dims)
{
	int r = in->rank, kept[DMO_MODEL_MAX_RANK], group_of[DMO_MODEL_MAX_RANK], groups = 0;
	int64_t size[DMO_MODEL_MAX_RANK];
	int m = 0, order[DMO_MODEL_MAX_RANK];

	/* Output order, axes of one element left out; a group starts where
	 * the next kept input axis is not the one after the last's. */
	for (int i = 0; i < r; i++) {
		if (in->shape[p[i]] == 1)
			continue;
		int next = m > 0 ? kept[m - 1] + 1 : -1;

		while (next >= 0 && next < r && in->shape[next] == 1)
			next++;
		if (m == 0 || p[i] != next)
			size[groups++] = 1;
		size[groups - 1] *= in->shape[p[i]];
		group_of[m] = groups - 1;
		kept[m++] = (int)p[i];
	}
	if (groups == 0) { /* every axis of one element */
		size[groups++] = 1;
		kept[m] = 0;
		group_of[m++] = 0;
	}
	if (groups > 4)
		return groups;
	/* Each group's place in the input: the order of its first axes. */
	for (int g = 0; g < groups; g++)
		order[g] = 0;
	for (int a = 0; a < m; a++)
		if (a == 0 || group_of[a] != group_of[a - 1])
			for (int b = 0; b < m; b++)
				order[group_of[a]] += (b == 0 || group_of[b] != group_of[b - 1]) &&
						      kept[b] < kept[a];
	for (int g = 0; g < 4; g++) {
		perm[g] = g;
		dims[g] = 1;
	}
	for (int g = 0; g < groups; g++) {
		perm[4 - groups + g] = 4 - groups + order[g];
		dims[4 - groups + order[g]] = size[g];
	}
	return groups;
}

/* Sigmoid, Tanh, Softmax (rows: its opset's rule), Transpose and the reshapes
 * (Reshape, Flatten, Squeeze, Unsqueeze) over the stored dims, which are
 * layout-free (docs/models.md). */
static int derive_layout_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n,
			      struct dmo_model_tensor *in, struct dmo_model_tensor *out)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = layer->op_name, *dt = dmo_dtype_name(in->dtype);
	int r = in->rank;
	int64_t perm[4];
	char text[256], shape[96];

	dmo_model_flat_shape(in, shape, sizeof shape);
	if (!strcmp(op, "Softmax") || !strcmp(op, "LogSoftmax")) {
		/* Before opset 13 the input is flattened to 2-D at AXIS (1 by
		 * default) and each row normalised: rows of the dims from
		 * AXIS on.  From 13 on it is over AXIS alone (the last by
		 * default): rows when that is the last, else the dims before
		 * it, it and those after as softmax's H, W and C with axis=2
		 * (ONNX Runtime's transposing order). */
		int64_t axis = dmo_onnx_attr_int(n, "axis", o->opset < 13 ? 1 : -1), rows = 1;

		if (axis < 0)
			axis += r;
		if (axis < 0 || axis >= (r ? r : 1))
			return unsupported(o, layer, "softmax over axis %lld of %d", (long long)axis, r);
		for (int i = (int)axis; o->opset < 13 && i < r - 1; i++)
			rows *= in->shape[i];
		if (rows > 1 && in->elems) /* over more than the last dim */
			snprintf(shape, sizeof shape, "1x%llux%lld",
				 (unsigned long long)(in->elems / (uint64_t)(rows * in->shape[r - 1])),
				 (long long)(rows * in->shape[r - 1]));
		if (o->opset >= 13 && axis != r - 1)
			snprintf(shape, sizeof shape, "1x%lldx%lldx%lld,axis=2",
				 (long long)dims_product(in, 0, (int)axis), (long long)in->shape[axis],
				 (long long)dims_product(in, (int)axis + 1, r));
	}
	if (!strcmp(op, "Transpose")) {
		int64_t given[DMO_MODEL_MAX_RANK], p[DMO_MODEL_MAX_RANK], dims[4];
		int seen[DMO_MODEL_MAX_RANK] = { 0 }, groups;

		if (r < 1 || dmo_onnx_attr_ints(n, "perm", given, (size_t)r, -1) != 0)
			return unsupported(o, layer, "not an input with a perm of its rank");
		for (int i = 0; i < r; i++) {
			/* No perm: the axes reversed. */
			p[i] = dmo_onnx_attr(n, "perm") == NULL ? r - 1 - i : given[i];
			if (p[i] < 0 || p[i] >= r)
				return unsupported(o, layer, "perm entry %lld of %d axes", (long long)p[i], r);
			if (seen[p[i]]++)
				return unsupported(o, layer, "a perm that takes axis %lld twice", (long long)p[i]);
		}
		groups = transpose_groups(in, p, perm, dims);
		if (groups > 4)
			return unsupported(o, layer, "a transpose that moves %d groups of axes (dmo's moves up to 4)",
					   groups);
		snprintf(text, sizeof text, "transpose:in=%lldx%lldx%lldx%lld,perm=%lldx%lldx%lldx%lld,dtype=%s",
			 (long long)dims[0], (long long)dims[1], (long long)dims[2], (long long)dims[3],
			 (long long)perm[0], (long long)perm[1], (long long)perm[2], (long long)perm[3], dt);
	} else if (!strcmp(op, "Sigmoid") || !strcmp(op, "Softmax") || !strcmp(op, "Tanh") ||
		   !strcmp(op, "LogSoftmax")) {
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s",
			 op[0] == 'T' ? "tanh" : op[1] == 'i' ? "logistic" : op[0] == 'L' ? "logsoftmax"
			 : "softmax", shape, dt);
	} else {
		snprintf(text, sizeof text, "reshape:in=%s,dtype=%s", shape, dt);
	}
	if (!out->known_dtype || out->dtype != in->dtype)
		return unsupported(o, layer, "%s input to %s output", in->type_name,
				   out->type_name);
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

static int is_layout_op(const char *op)
{
	return !strcmp(op, "Sigmoid") || !strcmp(op, "Softmax") || !strcmp(op, "Tanh") ||
	       !strcmp(op, "LogSoftmax") || !strcmp(op, "Transpose") ||
	       !strcmp(op, "Reshape") || !strcmp(op, "Flatten") || !strcmp(op, "Squeeze") ||
	       !strcmp(op, "Unsqueeze");
}

static void value_of(const struct onnx *o, int idx, struct dmo_onnx_value *v);

/* Scalar operand K of LAYER as a float when it is a float32 constant: 1
 * with *V, 0 when the operand is absent, -1 when it cannot be read. */
static int const_float(const struct onnx *o, const struct dmo_model_layer *layer, size_t k,
		       float *v)
{
	const struct dmo_model_tensor *t = operand(o->model, layer, k);

	if (t == NULL)
		return 0;
	if (t->producer != DMO_MODEL_CONSTANT || t->elems != 1 || t->dtype != DMO_F32 ||
	    !t->known_dtype || t->data_len != 4)
		return -1;
	memcpy(v, t->data, 4);
	return 1;
}

/* A Pad's constant_value T (one constant element of f32, i8, u8, i16 or
 * i32) into *V; 0 when it is not one. */
static int pad_constant(const struct dmo_model_tensor *t, double *v)
{
	float f;
	int32_t i32;
	int16_t i16;

	if (t->producer != DMO_MODEL_CONSTANT || t->data == NULL || t->elems != 1 || !t->known_dtype ||
	    t->data_len != t->elem_size)
		return 0;
	switch (t->dtype) {
	case DMO_F32:
		memcpy(&f, t->data, 4);
		*v = f;
		return isfinite(f);
	case DMO_I32:
		memcpy(&i32, t->data, 4);
		*v = i32;
		return 1;
	case DMO_I16:
		memcpy(&i16, t->data, 2);
		*v = i16;
		return 1;
	case DMO_I8:
		*v = (int8_t)t->data[0];
		return 1;
	default:
		*v = t->data[0];
		return 1;
	}
}

/* The pad or slice spec (OP) of IN's SHAPE with B and A elements added or
 * removed before and after along each of 4 axes, into TEXT. */
static void box_spec(char *text, size_t len, const char *op, const char *shape, const int64_t *b,
		     const int64_t *a, const char *dt)
{
	snprintf(text, len, "%s:in=%s,before=%lldx%lldx%lldx%lld,after=%lldx%lldx%lldx%lld,dtype=%s", op,
		 shape, (long long)b[0], (long long)b[1], (long long)b[2], (long long)b[3], (long long)a[0],
		 (long long)a[1], (long long)a[2], (long long)a[3], dt);
}

/* Operators that move, pad or rescale elements over the stored dims, read
 * as dmo's layout-free op specs (docs/models.md): Pad (constant zeros),
 * Concat (along any axis: the dims before it are rows, the rest a row's
 * elements), ReduceMean over adjacent axes and GlobalAveragePool (the
 * mean's batch is the dims before, its channels the dims after),
 * QuantizeLinear, DequantizeLinear, and Slice with steps 1 and Gather of
 * consecutive indices, both slices. */
static int derive_flat_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n,
			    struct dmo_model_tensor *in, struct dmo_model_tensor *out)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = layer->op_name, *dt = dmo_dtype_name(in->dtype);
	int r = in->rank;
	char text[256], shape[96];

	dmo_model_flat_shape(in, shape, sizeof shape);
	if (strcmp(op, "QuantizeLinear") && strcmp(op, "DequantizeLinear") &&
	    (!out->known_dtype || out->dtype != in->dtype))
		return unsupported(o, layer, "%s input to %s output", in->type_name, out->type_name);
	if (!strcmp(op, "QuantizeLinear") || !strcmp(op, "DequantizeLinear")) {
		const struct dmo_model_tensor *scale = operand(m, layer, 1);

		if (!out->known_dtype)
			return unsupported(o, layer, "%s output: no dmo kernel", out->type_name);
		/* A scale per index of `axis` (ONNX Runtime's per-channel
		 * weights and biases) leaves the flat order as it is. */
		int64_t axis = dmo_onnx_attr_int(n, "axis", 1);
		axis += axis < 0 ? r : 0;
		if (scale == NULL ||
		    (scale->elems != 1 &&
		     (axis < 0 || axis >= r || scale->elems != (uint64_t)in->shape[axis])))
			return unsupported(o, layer, "scales that are neither one nor one per index of axis");
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s,out_dtype=%s",
			 op[0] == 'Q' ? "quantize" : "dequantize", shape, dt,
			 dmo_dtype_name(out->dtype));
	} else if (!strcmp(op, "Pad")) {
		struct dmo_onnx_value pads = { .n_ints = -1, .n_floats = -1 };
		const struct dmo_model_tensor *value = operand(m, layer, 2);
		int64_t b[4] = { 0 }, a[4] = { 0 };
		const Onnx__AttributeProto *v = dmo_onnx_attr(n, "value");
		static const char *const modes[] = { "constant", "reflect", "edge" };
		int mode = dmo_onnx_attr(n, "mode") ? -1 : 0;
		double border = 0;

		for (int k = 0; k < 3 && mode < 0; k++)
			mode = attr_string_is(n, "mode", modes[k]) ? k : -1;
		if (mode < 0)
			return unsupported(o, layer, "a pad mode other than constant, reflect or edge");
		if (o->opset < 11) {
			pads.n_ints = dmo_onnx_attr_ints(n, "pads", pads.ints, 2 * (size_t)r, 0) ? -1
												 : 2 * r;
			border = v != NULL ? v->f : 0;
		} else if (layer->operands[1] >= 0) {
			value_of(o, layer->operands[1], &pads);
			/* constant_value: absent, or a constant of one element. */
			if (value && !pad_constant(value, &border))
				return unsupported(o, layer, "a constant_value that is not one constant "
						   "element of the input's type");
		}
		if (r < 1 || r > 4 || pads.n_ints != 2 * r)
			return unsupported(o, layer, "not a 1-D to 4-D input with constant pads");
		for (int i = 0; i < r; i++) {
			b[4 - r + i] = pads.ints[i];
			a[4 - r + i] = pads.ints[r + i];
			if (b[4 - r + i] < 0 || a[4 - r + i] < 0)
				return unsupported(o, layer, "negative pads (cropping)");
			if (mode == 1 && (pads.ints[i] >= in->shape[i] || pads.ints[r + i] >= in->shape[i]))
				return unsupported(o, layer, "reflect pads %lld and %lld along an axis of %lld "
						   "(at most %lld mirror)", (long long)pads.ints[i],
						   (long long)pads.ints[r + i], (long long)in->shape[i],
						   (long long)in->shape[i] - 1);
		}
		box_spec(text, sizeof text, "pad", shape, b, a, dt);
		/* reflect and edge run in ONNX Runtime's order (dk_pad_onnx);
		 * the border's mode or value, written when not zeros. */
		if (mode != 0)
			snprintf(text + strlen(text), sizeof text - strlen(text), ",mode=%s", modes[mode]);
		else if (border != 0)
			snprintf(text + strlen(text), sizeof text - strlen(text), ",value=%.9g", border);
	} else if (!strcmp(op, "Slice")) {
		/* Constant starts, ends, axes and steps (ONNX's clamping): the
		 * box from the first to the last element read kept, the
		 * elements before and after it removed, and the steps. */
		struct dmo_onnx_value v, lists[4];
		int64_t start[DMO_MODEL_MAX_RANK], step[DMO_MODEL_MAX_RANK], keep[DMO_MODEL_MAX_RANK];
		int64_t b[4] = { 0 }, a[4] = { 0 }, steps[4] = { 1, 1, 1, 1 };
		int stepped = 0;
		char why[128];

		value_of(o, layer->operands[0], &v);
		for (size_t k = 0; k < 4; k++) {
			lists[k] = (struct dmo_onnx_value){ .rank = -1, .n_ints = -1, .n_floats = -1 };
			if (k + 1 < layer->n_operands && layer->operands[k + 1] >= 0)
				value_of(o, layer->operands[k + 1], &lists[k]);
		}
		/* An int32 slice is shape arithmetic (a Shape's dims), which
		 * dmo infer resolves rather than runs (shape-only layers). */
		if (in->dtype == DMO_I32)
			return unsupported(o, layer, "a slice of int32 (shape arithmetic)");
		if (r < 1 || r > 4)
			return unsupported(o, layer, "a slice of a %d-D tensor (dmo's is 1-D to 4-D)", r);
		if (dmo_onnx_slice_axes(n, o->opset, &v, lists, 4, start, step, keep, why, sizeof why))
			return unsupported(o, layer, "%s", why);
		for (int i = 0; i < r; i++) {
			/* The last element read, below the first for a step < 0. */
			int64_t last = start[i] + (keep[i] - 1) * step[i];

			if (keep[i] < 1)
				return unsupported(o, layer, "an empty slice");
			if (step[i] > INT32_MAX || step[i] < -INT32_MAX)
				return unsupported(o, layer, "a step of %lld", (long long)step[i]);
			steps[4 - r + i] = step[i];
			b[4 - r + i] = step[i] > 0 ? start[i] : last;
			a[4 - r + i] = in->shape[i] - 1 - (step[i] > 0 ? last : start[i]);
			stepped |= step[i] != 1;
		}
		box_spec(text, sizeof text, "slice", shape, b, a, dt);
		if (stepped)
			snprintf(text + strlen(text), sizeof text - strlen(text), ",step=%lldx%lldx%lldx%lld",
				 (long long)steps[0], (long long)steps[1], (long long)steps[2],
				 (long long)steps[3]);
	} else if (!strcmp(op, "Gather")) {
		/* A constant scalar index, or 1-D consecutive ascending ones,
		 * along one axis picks a box: a slice (its output drops or
		 * keeps the axis, the same elements in the same order).  Other
		 * constant indices, of any rank (flat order), are a gather
		 * along W of the input as 1 x outer x axis x inner. */
		struct dmo_onnx_value idx = { .rank = -1, .n_ints = -1, .n_floats = -1 };
		int64_t axis = dmo_onnx_attr_int(n, "axis", 0), b[4] = { 0 }, a[4] = { 0 }, first;
		int consecutive = 1;

		if (axis < 0)
			axis += r;
		if (layer->n_operands > 1 && layer->operands[1] >= 0)
			value_of(o, layer->operands[1], &idx);
		if (in->dtype == DMO_I32)
			return unsupported(o, layer, "a gather of int32 (shape arithmetic)");
		if (r < 1 || r > 4 || axis < 0 || axis >= r)
			return unsupported(o, layer, "a gather along axis %lld of a %d-D tensor (dmo's slice is 1-D to 4-D)",
					   (long long)axis, r);
		if (idx.n_ints < 1)
			return unsupported(o, layer, "indices that are not a constant dmo can read");
		first = idx.ints[0] < 0 ? idx.ints[0] + in->shape[axis] : idx.ints[0];
		for (int k = 0; k < idx.n_ints; k++) {
			int64_t at = idx.ints[k] < 0 ? idx.ints[k] + in->shape[axis] : idx.ints[k];

			if (at < 0 || at >= in->shape[axis])
				return unsupported(o, layer, "index %lld outside an axis of %lld",
						   (long long)idx.ints[k], (long long)in->shape[axis]);
			consecutive &= at == first + k;
			idx.ints[k] = at;
		}
		if (consecutive && idx.rank <= 1) {
			b[4 - r + axis] = first;
			a[4 - r + axis] = in->shape[axis] - first - idx.n_ints;
			box_spec(text, sizeof text, "slice", shape, b, a, dt);
		} else {
			int len;

			if (idx.n_ints > DMO_GATHER_MAX)
				return unsupported(o, layer, "%d indices (dmo's gather takes at most %d)",
						   idx.n_ints, DMO_GATHER_MAX);
			len = snprintf(text, sizeof text, "gather:in=1x%lldx%lldx%lld,dtype=%s,indices=",
				       (long long)dims_product(in, 0, (int)axis), (long long)in->shape[axis],
				       (long long)dims_product(in, (int)axis + 1, r), dt);
			for (int k = 0; k < idx.n_ints && len < (int)sizeof text; k++)
				len += snprintf(text + len, sizeof text - (size_t)len, "%s%lld", k ? "x" : "",
						(long long)idx.ints[k]);
			if (len >= (int)sizeof text)
				return unsupported(o, layer, "indices too many to write in an op spec");
		}
	} else if (!strcmp(op, "Concat")) {
		int64_t axis = dmo_onnx_attr_int(n, "axis", 0), outer, inner;

		if (axis < 0)
			axis += r;
		if (r < 1 || axis < 0 || axis >= r || out->rank != r)
			return unsupported(o, layer, "concatenation along axis %lld of %d",
					   (long long)axis, r);
		for (size_t k = 1; k < layer->n_operands; k++) {
			const struct dmo_model_tensor *t = operand(m, layer, k);

			if (t == NULL || t->dtype != in->dtype)
				return unsupported(o, layer, "inputs of other types");
		}
		outer = dims_product(in, 0, (int)axis);
		inner = dims_product(in, (int)axis + 1, r);
		snprintf(text, sizeof text, "concat:in=1x%lldx%lld,out_c=%lld,at=0,dtype=%s",
			 (long long)outer, (long long)(in->shape[axis] * inner),
			 (long long)(out->shape[axis] * inner), dt);
	} else { /* ReduceMean/Max/Min/Sum, GlobalAveragePool, GlobalMaxPool */
		int first = r, last = -1, reduced[DMO_MODEL_MAX_RANK] = { 0 };
		const Onnx__AttributeProto *a = dmo_onnx_attr(n, "axes");
		struct dmo_onnx_value given = { .n_ints = -1 };
		const int global = op[0] == 'G';

		/* The axes: an attribute, or (ReduceSum from opset 13, the
		 * others from 18) a constant input. */
		if (!global && layer->n_operands > 1 && layer->operands[1] >= 0) {
			const struct dmo_model_tensor *axes = operand(m, layer, 1);

			value_of(o, layer->operands[1], &given);
			if (given.n_ints < 0)
				return unsupported(o, layer, "node '%s' takes its axes from %s '%s', not a constant",
						   layer->name, axes->graph_input ? "graph input" : "tensor",
						   axes->name);
		} else if (a != NULL) {
			if (a->n_ints > DMO_ONNX_MAX_INTS)
				return unsupported(o, layer, "%zu axes", a->n_ints);
			given.n_ints = (int)a->n_ints;
			for (int i = 0; i < given.n_ints; i++)
				given.ints[i] = a->ints[i];
		}
		if (given.n_ints == 0 && dmo_onnx_attr_int(n, "noop_with_empty_axes", 0) != 0)
			return unsupported(o, layer, "noop_with_empty_axes (no reduction)");
		for (int i = 2; global && i < r; i++)
			reduced[i] = 1;
		for (int i = 0; i < given.n_ints; i++) {
			int64_t ax = given.ints[i] < 0 ? given.ints[i] + r : given.ints[i];

			if (ax < 0 || ax >= r)
				return unsupported(o, layer, "axis %lld of %d", (long long)given.ints[i], r);
			reduced[ax] = 1;
		}
		for (int i = 0; i < r; i++) {
			if (!global && given.n_ints <= 0)
				reduced[i] = 1; /* no axes: all of them */
			if (reduced[i] && first == r)
				first = i;
			if (reduced[i])
				last = i;
		}
		for (int i = first; i <= last; i++)
			if (!reduced[i])
				return unsupported(o, layer, "a reduction over axes that are not adjacent");
		if (last < 0)
			return unsupported(o, layer, "a reduction over no axis");
		if (strcmp(op, "ReduceMean") && strcmp(op, "GlobalAveragePool") && in->dtype != DMO_F32)
			return unsupported(o, layer, "%s input (dmo's %s is f32)", in->type_name, op);
		snprintf(text, sizeof text, "%s:in=%lldx%lldx1x%lld,dtype=%s",
			 !strcmp(op, "ReduceMax") || !strcmp(op, "GlobalMaxPool") ? "reducemax"
			 : !strcmp(op, "ReduceMin") ? "reducemin"
			 : !strcmp(op, "ReduceSum") ? "reducesum" : "mean",
			 (long long)dims_product(in, 0, first), (long long)dims_product(in, first, last + 1),
			 (long long)dims_product(in, last + 1, r), dt);
	}
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

static int is_flat_op(const char *op)
{
	return !strcmp(op, "Pad") || !strcmp(op, "Concat") || !strcmp(op, "ReduceMean") ||
	       !strcmp(op, "GlobalAveragePool") || !strcmp(op, "QuantizeLinear") ||
	       !strcmp(op, "DequantizeLinear") || !strcmp(op, "ReduceMax") ||
	       !strcmp(op, "ReduceMin") || !strcmp(op, "ReduceSum") || !strcmp(op, "GlobalMaxPool") ||
	       !strcmp(op, "Slice") || !strcmp(op, "Gather");
}

/* ---- ONNX's float32 element-wise ops (kernels_onnx_ew.c) ---- */

/* ONNX's variadic Sum, Max, Min and Mean: a layer per pass of ONNX
 * Runtime's (variadic_layers), each of two operands (Sum's and Mean's
 * passes as add), Mean's last pass scale; one operand alone a copy
 * (reshape), or Mean's scale by 1. */
static int is_variadic(const char *op)
{
	return !strcmp(op, "Sum") || !strcmp(op, "Max") || !strcmp(op, "Min") ||
	       !strcmp(op, "Mean");
}

/* Whether LAYER is a Pow whose exponent is not a float32 constant scalar
 * (the unary table's pow): then powt, on the broadcasting kernel. */
static int pow_by_tensor(const struct onnx *o, const struct dmo_model_layer *layer)
{
	float exponent;

	return !strcmp(layer->op_name, "Pow") && const_float(o, layer, 1, &exponent) != 1;
}

static int is_onnx_elementwise(const char *op)
{
	return !strcmp(op, "Add") || !strcmp(op, "Sub") || !strcmp(op, "Mul") ||
	       !strcmp(op, "Div") || !strcmp(op, "HardSigmoid") || !strcmp(op, "HardSwish") ||
	       !strcmp(op, "BatchNormalization") || is_variadic(op);
}

/* An Add, Sub, Mul or Div whose activation of the output's shape is its
 * second operand (a constant first, as PyTorch's bias + x) gets it first: O_s is the first operand's (docs/formulas.md,
 * 4.5), and a constant is no arena tensor.  Add and Mul commute; a Sub,
 * Div or Pow keeps its meaning through dmo_model_onnx_commuted. */
static void commute_operands(struct dmo_model *m, struct dmo_model_layer *layer)
{
	const struct dmo_model_tensor *a = operand(m, layer, 0), *b = operand(m, layer, 1);
	const struct dmo_model_tensor *out = &m->tensors[layer->results[0]];

	if (layer->n_operands != 2 || a == NULL || b == NULL || b->producer == DMO_MODEL_CONSTANT ||
	    b->rank < 0 || b->elems != out->elems)
		return;
	if (a->producer == DMO_MODEL_CONSTANT || a->elems != out->elems) {
		int t = layer->operands[0];

		layer->operands[0] = layer->operands[1];
		layer->operands[1] = t;
	}
}

/* Add, Sub, Mul, Div (NumPy broadcasting), HardSigmoid, HardSwish and
 * BatchNormalization, float32 (docs/models.md): element-wise in flat order
 * over the stored dims, so layout-free.  A binary op's first operand must
 * have the output's shape (the second broadcasts); BatchNormalization
 * reads as batchnorm:in=N x C x 1 x (the rest). */
static int derive_onnx_elementwise_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n,
					 struct dmo_model_tensor *in, struct dmo_model_tensor *out)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = layer->op_name;
	const struct dmo_model_tensor *in2 = operand(m, layer, 1);
	char text[256], shape[96];

	if (in->dtype != DMO_F32 || !out->known_dtype || out->dtype != DMO_F32)
		return unsupported(o, layer, "%s input to %s output (dmo's %s is f32)", in->type_name,
				   out->type_name, op);
	dmo_model_flat_shape(out, shape, sizeof shape);
	if (!strcmp(op, "BatchNormalization")) {
		if (dmo_onnx_attr_int(n, "training_mode", 0) != 0 || in->rank < 2 ||
		    layer->n_operands != 5)
			return unsupported(o, layer, "not the inference form over N x C x ...");
		for (size_t k = 1; k < 5; k++)
			if (operand(m, layer, k) == NULL || operand(m, layer, k)->producer != DMO_MODEL_CONSTANT)
				return unsupported(o, layer, "scale, B, mean and var must be constants (the net folds them)");
		snprintf(text, sizeof text, "batchnorm:in=%lldx%lldx1x%lld,dtype=f32",
			 (long long)in->shape[0], (long long)in->shape[1],
			 (long long)dims_product(in, 2, in->rank));
	} else if (!strcmp(op, "HardSigmoid") || !strcmp(op, "HardSwish")) {
		snprintf(text, sizeof text, "%s:in=%s,dtype=f32",
			 !strcmp(op, "HardSigmoid") ? "hardsigmoid" : "hardswish", shape);
	} else if (is_variadic(op) && layer->n_operands == 1) {
		snprintf(text, sizeof text, "%s:in=%s,dtype=f32", !strcmp(op, "Mean") ? "scale" : "reshape",
			 shape);
	} else if (!strcmp(op, "Pow")) { /* by a tensor (pow_by_tensor) */
		if (in2 == NULL)
			return unsupported(o, layer, "no exponent operand");
		if (in2->rank < 0 || !in2->known_dtype || in2->dtype != DMO_F32)
			return unsupported(o, layer, "an exponent '%s' of %s (dmo's Pow by a tensor is float32 by float32)",
					   in2->name, in2->type_name);
		if (in->elems != out->elems || in->rank > out->rank)
			return unsupported(o, layer, "no activation operand of the output's shape (dmo's O_s is of such a first operand)");
		snprintf(text, sizeof text, "powt:in=%s,dtype=f32", shape);
	} else {
		if (in2 == NULL || in2->rank < 0 || !in2->known_dtype || in2->dtype != DMO_F32)
			return unsupported(o, layer, "a second operand that is not float32");
		if (in->elems != out->elems || in->rank > out->rank)
			return unsupported(o, layer, "no activation operand of the output's shape (dmo's O_s is of such a first operand)");
		snprintf(text, sizeof text, "%s:in=%s,dtype=f32",
			 !strcmp(op, "Add") || !strcmp(op, "Sum") || !strcmp(op, "Mean") ? "add"
			 : !strcmp(op, "Sub") ? "sub"
			 : !strcmp(op, "Mul") ? "mul" : !strcmp(op, "Max") ? "max"
			 : !strcmp(op, "Min") ? "min" : "div", shape);
	}
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* ONNX's unary float32 ops dmo's one table computes (dk_onnx_unary, in the
 * op specs' order), and their op spec names. */
static const char *const onnx_unary_ops[][2] = {
	{ "LeakyRelu", "leakyrelu" }, { "Elu", "elu" },   { "Selu", "selu" },
	{ "Exp", "exp" },             { "Log", "log" },   { "Sqrt", "sqrt" },
	{ "Neg", "neg" },             { "Abs", "abs" },   { "Reciprocal", "reciprocal" },
	{ "Softplus", "softplus" },   { "Erf", "erf" },   { "Floor", "floor" },
	{ "Ceil", "ceil" },           { "Pow", "pow" },   { "PRelu", "prelu" },
};

static const char *onnx_unary_spec(const char *op)
{
	for (size_t i = 0; i < N_OF(onnx_unary_ops); i++)
		if (!strcmp(op, onnx_unary_ops[i][0]))
			return onnx_unary_ops[i][1];
	return NULL;
}

/* The unary ops of onnx_unary_ops over the stored dims (f32, flat order);
 * Pow by a float32 constant scalar exponent (pow_by_tensor: any other is
 * powt's); PRelu with X of the output's
 * shape, its slope broadcasting (a constant, like Mul's second operand);
 * Identity and Dropout (inference: no mask output, no training_mode) as
 * reshape, a copy whose O_s is its whole buffer (docs/models.md). */
static int derive_onnx_unary_spec(struct onnx *o, size_t l, struct dmo_model_tensor *in,
				  struct dmo_model_tensor *out)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = layer->op_name, *name = onnx_unary_spec(op);
	const struct dmo_model_tensor *in2 = operand(m, layer, 1);
	char text[256], shape[96];

	dmo_model_flat_shape(out, shape, sizeof shape);
	if (!out->known_dtype || out->dtype != in->dtype)
		return unsupported(o, layer, "%s input to %s output", in->type_name, out->type_name);
	if (name == NULL) { /* Identity, Dropout */
		if (!strcmp(op, "Dropout") && operand(m, layer, 2) != NULL)
			return unsupported(o, layer, "a training_mode input");
		snprintf(text, sizeof text, "reshape:in=%s,dtype=%s", shape, dmo_dtype_name(in->dtype));
		return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
						     o->source, o->err, o->err_len);
	}
	if (in->dtype != DMO_F32)
		return unsupported(o, layer, "%s input (dmo's %s is f32)", in->type_name, op);
	if (!strcmp(op, "PRelu")) {
		int fits = in2 != NULL && in2->rank >= 0 && in2->rank <= in->rank;

		/* NumPy's rule from opset 7 on; before, a slope of C values
		 * was per channel, which dmo's kernel does not read. */
		for (int i = 0; fits && i < in2->rank; i++)
			fits = in2->shape[in2->rank - 1 - i] == 1 ||
			       in2->shape[in2->rank - 1 - i] == in->shape[in->rank - 1 - i];
		if (!fits || !in2->known_dtype || in2->dtype != DMO_F32 || in->elems != out->elems ||
		    (o->opset < 7 && in2->elems != 1))
			return unsupported(o, layer, "a slope that is not float32 or does not broadcast "
						     "to X by NumPy's rule (opset 7 on)");
	}
	snprintf(text, sizeof text, "%s:in=%s,dtype=f32", name, shape);
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* ONNX's Resize (opset 10 on) and Upsample (opset 9), mode nearest, as
 * resize: an NCHW upsample of H and W by integer factors, under the
 * coordinate mappings that make ONNX's nearest input coordinate floor(o /
 * s) (docs/kernels.md, "Nearest resize"): asymmetric with nearest_mode
 * floor (PaddleOCR's, PyTorch's export), half_pixel or pytorch_half_pixel
 * with round_prefer_floor or round_prefer_ceil (ONNX's defaults), and
 * opset 10's and Upsample's fixed asymmetric floor.  Anything else is
 * named as refused. */
static int derive_resize_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n,
			      struct dmo_model_tensor *in, struct dmo_model_tensor *out)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const int resize = !strcmp(layer->op_name, "Resize"), modes = resize && o->opset >= 11;
	/* Scales: Resize's input 3 from opset 11 (after roi), else input 2. */
	const struct dmo_model_tensor *scales = operand(m, layer, modes ? 2 : 1);
	int64_t factor[4];
	char text[256], shape[96];

	if (!attr_string_is(n, "mode", "nearest") && !attr_string_is(n, "mode", "NOTSET"))
		return unsupported(o, layer, "a mode other than nearest (dmo's resize is nearest)");
	if (modes) {
		const int half = attr_string_is(n, "coordinate_transformation_mode", "half_pixel") ||
				 attr_string_is(n, "coordinate_transformation_mode", "NOTSET") ||
				 attr_string_is(n, "coordinate_transformation_mode", "pytorch_half_pixel");
		const int rounds = attr_string_is(n, "nearest_mode", "round_prefer_floor") ||
				   attr_string_is(n, "nearest_mode", "NOTSET") ||
				   attr_string_is(n, "nearest_mode", "round_prefer_ceil");

		if (!(half && rounds) &&
		    !(attr_string_is(n, "coordinate_transformation_mode", "asymmetric") &&
		      attr_string_is(n, "nearest_mode", "floor")))
			return unsupported(o, layer, "coordinate_transformation_mode and nearest_mode "
						     "other than asymmetric with floor or half_pixel with "
						     "round_prefer_floor/ceil");
		if (dmo_onnx_attr(n, "axes") != NULL)
			return unsupported(o, layer, "an axes attribute");
	}
	if (in->rank != 4 || out->rank != 4)
		return unsupported(o, layer, "not 4-D (dmo's resize is NCHW)");
	for (int i = 0; i < 4; i++) {
		if (out->shape[i] % in->shape[i] != 0 || (i < 2 && out->shape[i] != in->shape[i]))
			return unsupported(o, layer, "not an upsample of H and W by integer factors");
		factor[i] = out->shape[i] / in->shape[i];
	}
	/* Scales given (not sizes) must be those integers: with any other
	 * float ONNX divides the output coordinate by it. */
	if (scales != NULL && scales->elems > 0) {
		struct dmo_onnx_value v;

		value_of(o, layer->operands[modes ? 2 : 1], &v);
		if (v.n_floats != 4)
			return unsupported(o, layer, "scales that are not a float constant dmo can read");
		for (int i = 0; i < 4; i++)
			if (v.floats[i] != (float)factor[i])
				return unsupported(o, layer, "a scale %g that is not the integer factor %lld",
						   (double)v.floats[i], (long long)factor[i]);
	}
	nhwc(in, shape, sizeof shape);
	snprintf(text, sizeof text, "resize:in=%s,scale=%lldx%lld,dtype=%s", shape,
		 (long long)factor[2], (long long)factor[3], dmo_dtype_name(in->dtype));
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* Derive layer L's op spec; fill an output shape the file left out from it.
 * Returns 0 (supported or not), or -1 with the error set. */
static int derive_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = layer->op_name, *why = NULL, *pad;
	/* ONNX's QOperator forms (QLinearConv, QLinearMatMul) are the conv
	 * and fc of their integer operands X (0) and W (3); their scales and
	 * zero points (the other operands) are dmo infer's. */
	const int qlinear_conv = !strcmp(op, "QLinearConv"), qlinear_matmul = !strcmp(op, "QLinearMatMul");
	const int conv = qlinear_conv || !strcmp(op, "Conv"), matmul = qlinear_matmul || !strcmp(op, "MatMul");
	struct dmo_model_tensor *in = operand(m, layer, 0), *out;
	struct dmo_model_tensor *w = operand(m, layer, qlinear_conv || qlinear_matmul ? 3 : 1);
	char text[256], shape[96], padbuf[96];
	int64_t k[2], s[2], d[2];
	struct dmo_window1d row;

	if (layer->n_results != 1 || in == NULL)
		return unsupported(o, layer, "not one input and one output tensor");
	out = &m->tensors[layer->results[0]];
	const int powt = pow_by_tensor(o, layer);
	if (!strcmp(op, "Add") || !strcmp(op, "Mul") || !strcmp(op, "Sub") || !strcmp(op, "Div") ||
	    is_variadic(op) || powt) {
		commute_operands(m, layer);
		in = operand(m, layer, 0);
		w = operand(m, layer, 1);
	}
	if (in->rank < 0)
		return fail(o, "node %zu (%s) reads '%s', whose shape is unknown", o->node + 1, op, in->name);
	if (in->producer == DMO_MODEL_CONSTANT)
		return unsupported(o, layer, "input '%s' is a constant, not an activation in the arena",
				   in->name);
	if (is_layout_op(op) && in->known_dtype)
		return derive_layout_spec(o, l, n, in, out);
	if (is_flat_op(op) && in->known_dtype)
		return derive_flat_spec(o, l, n, in, out);
	if ((!strcmp(op, "Resize") || (!strcmp(op, "Upsample") && o->opset >= 9)) && in->known_dtype)
		return derive_resize_spec(o, l, n, in, out);
	/* Same-shape int8 Add and Mul are TFLite's (below). */
	if ((is_onnx_elementwise(op) || powt) && in->known_dtype &&
	    (in->dtype == DMO_F32 || (strcmp(op, "Add") && strcmp(op, "Mul"))))
		return derive_onnx_elementwise_spec(o, l, n, in, out);
	if ((onnx_unary_spec(op) || !strcmp(op, "Identity") || !strcmp(op, "Dropout")) && in->known_dtype)
		return derive_onnx_unary_spec(o, l, in, out);
	if (!in->known_dtype || in->dtype == DMO_I32)
		return unsupported(o, layer, "%s input: no dmo kernel", in->type_name);
	if (!strcmp(op, "Clip")) {
		/* Clip to [0, 6] is relu6, to [0, no maximum] relu (which
		 * int8 has too), any other f32 clip `clip`: min and max are
		 * attributes before opset 11, inputs from then on. */
		float lo = -HUGE_VALF, hi = HUGE_VALF;
		int got_lo, got_hi;

		if (o->opset < 11) {
			const Onnx__AttributeProto *a;

			got_lo = (a = dmo_onnx_attr(n, "min")) && a->has_f ? (lo = a->f, 1) : 0;
			got_hi = (a = dmo_onnx_attr(n, "max")) && a->has_f ? (hi = a->f, 1) : 0;
		} else {
			got_lo = const_float(o, layer, 1, &lo);
			got_hi = const_float(o, layer, 2, &hi);
		}
		if (in->dtype != DMO_F32)
			return unsupported(o, layer, "a clip of %s (dmo's is f32)", in->type_name);
		if (got_lo < 0 || got_hi < 0)
			return unsupported(o, layer, "bounds that are not float32 constants");
		dmo_model_flat_shape(in, shape, sizeof shape);
		snprintf(text, sizeof text, "%s:in=%s,dtype=f32",
			 got_lo <= 0 || lo != 0 || (got_hi && hi != 6) ? "clip"
			 : got_hi ? "relu6" : "relu", shape);
		goto spec;
	}
	if (matmul && !qlinear_matmul && w != NULL && w->producer != DMO_MODEL_CONSTANT) {
		/* A [..., M, K] times an activation B [..., K, N] of the same
		 * batch dims: matmul, B a second operand the plan never
		 * overlaps (formulas.md 4.11). */
		int same_batch = w->rank == in->rank && in->rank >= 2;

		for (int d = 0; same_batch && d < in->rank - 2; d++)
			same_batch = in->shape[d] == w->shape[d];
		if (!same_batch || w->shape[in->rank - 2] != in->shape[in->rank - 1])
			return unsupported(o, layer, "MatMul of two activations that are not A [..., M, K] "
					   "and B [..., K, N] with equal batch dims (dmo broadcasts none)");
		if (in->dtype != DMO_F32 || !w->known_dtype || w->dtype != DMO_F32)
			return unsupported(o, layer, "MatMul of two activations of %s (dmo's is f32)",
					   in->type_name);
		snprintf(text, sizeof text, "matmul:in=1x%llux%lldx%lld,units=%lld,dtype=f32",
			 (unsigned long long)dims_product(in, 0, in->rank - 2),
			 (long long)in->shape[in->rank - 2], (long long)in->shape[in->rank - 1],
			 (long long)w->shape[in->rank - 1]);
		goto spec;
	}
	if (matmul) {
		/* A [..., M, K] times a constant B [K, N]: fc reads A's rows
		 * against B's columns, as Gemm. */
		if (in->rank < 2 || w == NULL || w->rank != 2 || w->producer != DMO_MODEL_CONSTANT ||
		    w->shape[0] != in->shape[in->rank - 1])
			return unsupported(o, layer, "not A [..., M, K] times a constant B [K, N]");
		snprintf(text, sizeof text, "fc:in=%llux%lld,units=%lld,dtype=%s",
			 (unsigned long long)(in->elems / (uint64_t)w->shape[0]),
			 (long long)w->shape[0], (long long)w->shape[1], dmo_dtype_name(in->dtype));
		goto spec;
	}
	if (!strcmp(op, "Relu") || !strcmp(op, "Add") || !strcmp(op, "Mul")) {
		if (strcmp(op, "Relu") && (w == NULL || w->rank < 0 || w->elems != in->elems ||
					    w->dtype != in->dtype))
			return unsupported(o, layer, "broadcasting operands");
		dmo_model_flat_shape(in, shape, sizeof shape);
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s",
			 !strcmp(op, "Relu") ? "relu" : !strcmp(op, "Add") ? "add" : "mul", shape,
			 dmo_dtype_name(in->dtype));
		goto spec;
	}
	if (!strcmp(op, "Gemm")) {
		/* Y = alpha A B + beta C: fc reads A row by row against B's
		 * columns whatever alpha, beta and C; with transA, A is stored
		 * [K, M] and row m is its column m (trans_a). */
		int trans_b = dmo_onnx_attr_int(n, "transB", 0) != 0;
		int trans_a = dmo_onnx_attr_int(n, "transA", 0) != 0;

		if (in->rank != 2 || w == NULL || w->rank != 2)
			return unsupported(o, layer, "not 2-D A and B");
		if (in->shape[!trans_a] != w->shape[trans_b])
			return unsupported(o, layer, "A's K (%lld) is not B's (%lld)",
					   (long long)in->shape[!trans_a], (long long)w->shape[trans_b]);
		snprintf(text, sizeof text, "fc:in=%lldx%lld,units=%lld,dtype=%s%s",
			 (long long)in->shape[trans_a], (long long)in->shape[!trans_a],
			 (long long)w->shape[trans_b ? 0 : 1], dmo_dtype_name(in->dtype),
			 trans_a ? ",trans_a=1" : "");
		goto spec;
	}
	if (in->rank == 3 && (!strcmp(op, "Conv") || !strcmp(op, "MaxPool") ||
			      !strcmp(op, "AveragePool") || !strcmp(op, "ConvTranspose"))) {
		/* 1-D: the 2-D op over one row, the same bytes
		 * (onnx_window1d.c, formulas.md 3.11). */
		if (dmo_window1d_view(n, in, out, w, &row))
			return unsupported(o, layer, "a 1-D %s whose output or weights are not 3-D", op);
		n = &row.node;
		in = &row.in;
		out = &row.out;
		w = w != NULL ? &row.w : NULL;
	}
	if (!strcmp(op, "ConvTranspose")) {
		if ((why = convt_spec(n, in, w, text, sizeof text)) != NULL)
			return unsupported(o, layer, "%s", why);
		goto spec;
	}
	if (!conv && strcmp(op, "MaxPool") && strcmp(op, "AveragePool"))
		return unsupported(o, layer, "op %s has no dmo model", op);
	if (in->rank != 4)
		return unsupported(o, layer, "%d-D input (dmo's %s is 1-D or 2-D: N x C x L or NCHW)",
				   in->rank, op);
	nhwc(in, shape, sizeof shape);
	if (conv) {
		int64_t group = dmo_onnx_attr_int(n, "group", 1);

		if (w == NULL || w->rank != 4)
			return unsupported(o, layer, "weights are not 4-D");
		if (dmo_onnx_attr_ints(n, "strides", s, 2, 1) || dmo_onnx_attr_ints(n, "dilations", d, 2, 1))
			return unsupported(o, layer, "strides or dilations not 2-D");
		k[0] = w->shape[2];
		k[1] = w->shape[3];
		if ((pad = window_pad(n, in, out, k, s, d, 0, padbuf, sizeof padbuf, &why)) == NULL)
			return unsupported(o, layer, "%s", why);
		if (group == 1 && w->shape[1] == in->shape[1])
			snprintf(text, sizeof text,
				 "conv2d:in=%s,k=%lldx%lld,stride=%lldx%lld,dil=%lldx%lld,pad=%s,out_c=%lld,dtype=%s,layout=nchw",
				 shape, (long long)k[0], (long long)k[1], (long long)s[0],
				 (long long)s[1], (long long)d[0], (long long)d[1], pad,
				 (long long)w->shape[0], dmo_dtype_name(in->dtype));
		else if (group == in->shape[1] && w->shape[1] == 1 && w->shape[0] % group == 0)
			snprintf(text, sizeof text,
				 "dwconv2d:in=%s,k=%lldx%lld,stride=%lldx%lld,dil=%lldx%lld,pad=%s,mult=%lld,dtype=%s,layout=nchw",
				 shape, (long long)k[0], (long long)k[1], (long long)s[0],
				 (long long)s[1], (long long)d[0], (long long)d[1], pad,
				 (long long)(w->shape[0] / group), dmo_dtype_name(in->dtype));
		else if (group > 1 && w->shape[1] * group == in->shape[1] && w->shape[0] % group == 0)
			/* Grouped (ResNeXt, ShuffleNet, RegNet): conv2d's group
			 * key, ONNX Runtime's group-by-group order. */
			snprintf(text, sizeof text,
				 "conv2d:in=%s,k=%lldx%lld,stride=%lldx%lld,dil=%lldx%lld,pad=%s,out_c=%lld,group=%lld,dtype=%s,layout=nchw",
				 shape, (long long)k[0], (long long)k[1], (long long)s[0],
				 (long long)s[1], (long long)d[0], (long long)d[1], pad,
				 (long long)w->shape[0], (long long)group, dmo_dtype_name(in->dtype));
		else
			return unsupported(o, layer, "grouped convolution (group %lld) whose weights "
					   "do not divide the channels", (long long)group);
	} else { /* MaxPool or AveragePool */
		int avg = op[0] == 'A';

		if (dmo_onnx_attr_ints(n, "kernel_shape", k, 2, 0) || k[0] <= 0 ||
		    dmo_onnx_attr_ints(n, "strides", s, 2, 1) || dmo_onnx_attr_ints(n, "dilations", d, 2, 1))
			return unsupported(o, layer, "not a 2-D window");
		int count_pad = avg && dmo_onnx_attr_int(n, "count_include_pad", 0) != 0;
		char floor_pad[96];

		if (dmo_onnx_attr_int(n, "storage_order", 0) != 0 || layer->n_results != 1)
			return unsupported(o, layer, "storage_order or indices output");
		if ((pad = window_pad(n, in, out, k, s, d, dmo_onnx_attr_int(n, "ceil_mode", 0) != 0,
				      padbuf, sizeof padbuf, &why)) == NULL)
			return unsupported(o, layer, "%s", why);
		/* count_include_pad divides by the whole window, which lies
		 * inside the padding unless ceil_mode added a window past it
		 * (ONNX Runtime then divides by less). */
		if (count_pad && strcmp(pad, window_pad(n, in, out, k, s, d, 0, floor_pad,
							sizeof floor_pad, &why)))
			return unsupported(o, layer, "count_include_pad with a ceil_mode window past the "
					   "padding (its divisor is not the window)");
		snprintf(text, sizeof text, "%s:in=%s,k=%lldx%lld,stride=%lldx%lld,pad=%s,dtype=%s,layout=nchw",
			 avg ? "avgpool" : "maxpool", shape, (long long)k[0], (long long)k[1],
			 (long long)s[0], (long long)s[1], pad, dmo_dtype_name(in->dtype));
		/* MaxPool's dilations (opset 10 on), AveragePool's (19 on). */
		if (d[0] != 1 || d[1] != 1)
			snprintf(text + strlen(text), sizeof text - strlen(text), ",dil=%lldx%lld",
				 (long long)d[0], (long long)d[1]);
		if (count_pad && strcmp(pad, "valid") && strcmp(pad, "0x0"))
			snprintf(text + strlen(text), sizeof text - strlen(text), ",count_pad=1");
	}
spec:
	{
		int window = conv || !strcmp(op, "MaxPool") || !strcmp(op, "AveragePool") ||
			     !strcmp(op, "ConvTranspose");
		struct dmo_opspec spec;
		char msg[256];
		int64_t dims[4] = { 0 };

		if (dmo_opspec_parse(text, &spec, msg, sizeof msg) != 0)
			return fail(o, "node %zu (%s): op spec '%s': %s", o->node + 1, op, text, msg);
		if (window) {
			dims[0] = spec.batch;
			dims[1] = spec.out_c;
			dims[2] = spec.out_h;
			dims[3] = spec.out_w;
		}
		if (window && (out->rank != 4 || memcmp(out->shape, dims, sizeof dims) != 0)) {
			return fail(o, "node %zu (%s): output '%s' is not the %lldx%lldx%lldx%lld (NCHW) its attributes give",
				    o->node + 1, op, out->name, (long long)dims[0], (long long)dims[1],
				    (long long)dims[2], (long long)dims[3]);
		}
		if (!out->known_dtype || out->dtype != in->dtype)
			return unsupported(o, layer, "%s input to %s output",
					   in->type_name, out->type_name);
	}
	return dmo_model_layer_spec(m, l, text, layer->operands[0], layer->results[0], o->source,
				    o->err, o->err_len);
}

/* ---- ONNX Runtime's QOperator ops of the com.microsoft domain ---- */

static int is_qoperator_domain(const Onnx__NodeProto *n)
{
	return n->domain && !strcmp(n->domain, "com.microsoft");
}

/* The qlinearavgpool op spec of QLinearAveragePool node N over the NCHW IN
 * into TEXT (left empty when the window is the whole plane without
 * padding: ONNX Runtime's global pool, qlinearmean), or why dmo cannot
 * express it: 2-D windows, AveragePool's pads, auto_pad and ceil_mode,
 * the taps inside the image counted. */
static const char *qlinear_avgpool_spec(const Onnx__NodeProto *n, const struct dmo_model_tensor *in,
					const struct dmo_model_tensor *out, char *text, size_t len)
{
	int64_t k[2], s[2], d[2] = { 1, 1 }, pads[4] = { 0, 0, 0, 0 };
	char shape[96], padbuf[96];
	const char *why = NULL, *pad;

	if (in->rank != 4 || out->rank != 4 || dmo_onnx_attr_ints(n, "kernel_shape", k, 2, 0) ||
	    k[0] <= 0 || dmo_onnx_attr_ints(n, "strides", s, 2, 1))
		return "not a 2-D window over N x C x H x W";
	if (k[0] == in->shape[2] && k[1] == in->shape[3] &&
	    dmo_onnx_attr_ints(n, "pads", pads, 4, 0) == 0 && !pads[0] && !pads[1] && !pads[2] &&
	    !pads[3] && (attr_string_is(n, "auto_pad", "NOTSET") || attr_string_is(n, "auto_pad", "VALID")))
		return NULL; /* the global pool */
	if ((pad = window_pad(n, in, out, k, s, d, dmo_onnx_attr_int(n, "ceil_mode", 0) != 0, padbuf,
			      sizeof padbuf, &why)) == NULL)
		return why;
	if (dmo_onnx_attr_int(n, "count_include_pad", 0) != 0 && strcmp(pad, "valid") &&
	    strcmp(pad, "0x0"))
		return "count_include_pad (dmo's average divides by the taps inside the image)";
	nhwc(in, shape, sizeof shape);
	snprintf(text, len, "qlinearavgpool:in=%s,k=%lldx%lld,stride=%lldx%lld,pad=%s,dtype=%s", shape,
		 (long long)k[0], (long long)k[1], (long long)s[0], (long long)s[1], pad,
		 dmo_dtype_name(in->dtype));
	return NULL;
}

/* QGemm (A, A scale, A zero point, B, B scale, B zero point, C, Y scale,
 * Y zero point) as fc, as QLinearMatMul: A [M, K] (not transposed) times a
 * constant B, [K, N] or with transB [N, K], C an int32 bias (none or one
 * per column), Y quantized (its scale given) and alpha 1, which is
 * the form ONNX Runtime's quantiser writes for a Linear layer. */
static int derive_qgemm_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const struct dmo_model_tensor *a = operand(m, layer, 0), *b = operand(m, layer, 3);
	const struct dmo_model_tensor *c = operand(m, layer, 6), *out = &m->tensors[layer->results[0]];
	const int trans_b = dmo_onnx_attr_int(n, "transB", 0) != 0;
	const Onnx__AttributeProto *alpha = dmo_onnx_attr(n, "alpha");
	char text[256];

	if (layer->n_operands != 9 || operand(m, layer, 7) == NULL)
		return unsupported(o, layer, "no Y scale and zero point (a float output: dmo maps the "
				   "quantized one)");
	if (a == NULL || a->rank != 2 || b == NULL || b->rank != 2 ||
	    b->producer != DMO_MODEL_CONSTANT || dmo_onnx_attr_int(n, "transA", 0) != 0 ||
	    (alpha && alpha->has_f && alpha->f != 1.0f))
		return unsupported(o, layer, "not A [M, K] times a constant B with transA 0 and alpha 1");
	if (!a->known_dtype || (a->dtype != DMO_U8 && a->dtype != DMO_I8) || !out->known_dtype ||
	    out->dtype != a->dtype)
		return unsupported(o, layer, "%s A to %s Y (ONNX Runtime's QGemm is uint8 or int8)",
				   a->type_name, out->type_name);
	const int64_t k = a->shape[1], units = b->shape[trans_b ? 0 : 1];
	if (b->shape[trans_b] != k)
		return unsupported(o, layer, "A's K (%lld) is not B's (%lld)", (long long)k,
				   (long long)b->shape[trans_b]);
	if (c && c->elems != (uint64_t)units)
		return unsupported(o, layer, "a C of %llu values (dmo maps one per column)",
				   (unsigned long long)c->elems);
	snprintf(text, sizeof text, "fc:in=%lldx%lld,units=%lld,dtype=%s", (long long)a->shape[0],
		 (long long)k, (long long)units, dmo_dtype_name(a->dtype));
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* QLinearConcat (Y scale, Y zero point, then X, X scale, X zero point an
 * input) as Concat's concat op spec over its first X (operand 2), every X
 * uint8 or int8 of Y's type: their requantisation is dmo infer's. */
static int derive_qconcat_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const struct dmo_model_tensor *in = operand(m, layer, 2), *out = &m->tensors[layer->results[0]];
	int64_t axis = dmo_onnx_attr_int(n, "axis", 0);
	char text[256];

	if (in == NULL || layer->n_operands < 5 || (layer->n_operands - 2) % 3 || in->rank < 1)
		return unsupported(o, layer, "not Y's scale and zero point and a triple an input");
	if (in->producer == DMO_MODEL_CONSTANT)
		return unsupported(o, layer, "input '%s' is a constant, not an activation in the arena",
				   in->name);
	axis += axis < 0 ? in->rank : 0;
	if (axis < 0 || axis >= in->rank || out->rank != in->rank)
		return unsupported(o, layer, "concatenation along axis %lld of %d", (long long)axis,
				   in->rank);
	for (size_t k = 2; k < layer->n_operands; k += 3) {
		const struct dmo_model_tensor *t = operand(m, layer, k);

		if (t == NULL || !t->known_dtype || (t->dtype != DMO_U8 && t->dtype != DMO_I8) ||
		    !out->known_dtype || t->dtype != out->dtype)
			return unsupported(o, layer, "inputs that are not all uint8 or all int8, as Y");
	}
	const int64_t inner = dims_product(in, (int)axis + 1, in->rank);
	snprintf(text, sizeof text, "concat:in=1x%lldx%lld,out_c=%lld,at=0,dtype=%s",
		 (long long)dims_product(in, 0, (int)axis), (long long)(in->shape[axis] * inner),
		 (long long)(out->shape[axis] * inner), dmo_dtype_name(in->dtype));
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[2], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* QLinearAdd and QLinearMul (A, A scale, A zero point, B, B scale, B zero
 * point, C scale, C zero point) as qlinearadd and qlinearmul over A, which
 * must have the output's shape (B broadcasts: the plan's O_s is of such a
 * first operand, formulas.md 4.12), QLinearGlobalAveragePool (X, X
 * scale, X zero point, Y scale, Y zero point; NCHW) as qlinearmean over
 * its N x C planes and QLinearAveragePool (the same inputs) as
 * qlinearavgpool, all uint8 or int8 as ONNX Runtime's CPU kernels take
 * them.  Their other ops (QLinearConcat, QLinearSigmoid, QLinearLeakyRelu,
 * ...) are named as unmapped. */
static int derive_qoperator_spec(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const char *op = n->op_type ? n->op_type : "?";
	const int add = !strcmp(op, "QLinearAdd"), mul = !strcmp(op, "QLinearMul");
	const int avg = !strcmp(op, "QLinearAveragePool"), gemm = !strcmp(op, "QGemm");
	const int pool = avg || !strcmp(op, "QLinearGlobalAveragePool");
	struct dmo_model_tensor *in = operand(m, layer, 0), *in2 = pool ? NULL : operand(m, layer, 3);
	struct dmo_model_tensor *out;
	char text[256] = "", shape[96];
	const char *why;

	if (gemm)
		return derive_qgemm_spec(o, l, n);
	if (!strcmp(op, "QLinearConcat"))
		return derive_qconcat_spec(o, l, n);
	if (!add && !mul && !pool)
		return unsupported(o, layer, "op %s has no dmo model (dmo maps QLinearAdd, QLinearMul, "
				   "QLinearAveragePool, QLinearGlobalAveragePool, QLinearConcat and QGemm "
				   "of the com.microsoft domain)", layer->op_name);
	if (layer->n_results != 1 || in == NULL || layer->n_operands != (pool ? 5u : 8u))
		return unsupported(o, layer, "not %s's %d inputs and one output", op, pool ? 5 : 8);
	out = &m->tensors[layer->results[0]];
	if (in->rank < 0)
		return fail(o, "node %zu (%s) reads '%s', whose shape is unknown", o->node + 1, op, in->name);
	if (in->producer == DMO_MODEL_CONSTANT)
		return unsupported(o, layer, "input '%s' is a constant, not an activation in the arena",
				   in->name);
	if (!in->known_dtype || (in->dtype != DMO_U8 && in->dtype != DMO_I8) || !out->known_dtype ||
	    out->dtype != in->dtype || (in2 && (!in2->known_dtype || in2->dtype != in->dtype)))
		return unsupported(o, layer, "%s input to %s output (ONNX Runtime's %s is uint8 or "
				   "int8, one type throughout)", in->type_name, out->type_name, op);
	if (pool && dmo_onnx_attr_int(n, "channels_last", 0) != 0)
		return unsupported(o, layer, "channels_last (dmo's %s is NCHW)", op);
	if (avg && (why = qlinear_avgpool_spec(n, in, out, text, sizeof text)) != NULL)
		return unsupported(o, layer, "%s", why);
	if (pool && !text[0]) {
		/* QLinearGlobalAveragePool, or a QLinearAveragePool whose
		 * window is the whole plane without padding, which ONNX
		 * Runtime computes as the global one. */
		if (in->rank < 3)
			return unsupported(o, layer, "a %d-D input (N x C x spatial...)", in->rank);
		snprintf(text, sizeof text, "qlinearmean:in=%lldx%lldx1x1,dtype=%s",
			 (long long)dims_product(in, 0, 2), (long long)dims_product(in, 2, in->rank),
			 dmo_dtype_name(in->dtype));
	} else if (!pool) {
		if (in2 == NULL || in2->rank < 0)
			return unsupported(o, layer, "no B of known shape");
		if (in->elems != out->elems || in->rank != out->rank)
			return unsupported(o, layer, "A does not have the output's shape (dmo maps B "
					   "broadcasting to A, not A to B)");
		dmo_model_flat_shape(out, shape, sizeof shape);
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s", add ? "qlinearadd" : "qlinearmul",
			 shape, dmo_dtype_name(in->dtype));
	}
	return dmo_model_layer_spec_runnable(m, l, text, layer->operands[0], layer->results[0],
					     o->source, o->err, o->err_len);
}

/* TensorProto.DataType of T's element type. */
static int32_t onnx_type(const struct dmo_model_tensor *t)
{
	for (size_t i = 0; i < N_OF(onnx_types); i++)
		if (!strcmp(onnx_types[i].name, t->type_name))
			return (int32_t)i;
	return 0;
}

/* V's values from TP when it is a small int64 or int32 tensor, or a
 * small float32 one. */
static void proto_values(const Onnx__TensorProto *tp, struct dmo_onnx_value *v)
{
	size_t n = 1, size = tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT64   ? 8
			     : tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__INT32 ? 4
										     : 0;

	for (size_t i = 0; i < tp->n_dims; i++)
		n *= tp->dims[i] < 0 || tp->dims[i] > DMO_ONNX_MAX_INTS ? DMO_ONNX_MAX_INTS + 1
									 : (size_t)tp->dims[i];
	if (n > DMO_ONNX_MAX_INTS)
		return;
	if (tp->data_type == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT) {
		/* An empty tensor (a dimension 0) has no data pointer at all. */
		if (tp->has_raw_data && tp->raw_data.len == 4 * n) {
			if (n > 0)
				memcpy(v->floats, tp->raw_data.data, 4 * n);
		} else if (tp->n_float_data == n) {
			if (n > 0)
				memcpy(v->floats, tp->float_data, 4 * n);
		} else {
			return;
		}
		v->n_floats = (int)n;
		return;
	}
	if (size == 0)
		return;
	for (size_t i = 0; i < n; i++) {
		int64_t i64;
		int32_t i32;

		if (tp->has_raw_data && tp->raw_data.len == n * size && size == 8)
			memcpy(&i64, tp->raw_data.data + 8 * i, 8);
		else if (tp->has_raw_data && tp->raw_data.len == n * size)
			memcpy(&i32, tp->raw_data.data + 4 * i, 4), i64 = i32;
		else if (size == 8 && tp->n_int64_data == n)
			i64 = tp->int64_data[i];
		else if (size == 4 && tp->n_int32_data == n)
			i64 = tp->int32_data[i];
		else
			return;
		v->ints[i] = i64;
	}
	v->n_ints = (int)n;
}

/* What shape inference is given of tensor IDX: type, shape, and the
 * values of a small integer constant or of one a node wrote. */
static void value_of(const struct onnx *o, int idx, struct dmo_onnx_value *v)
{
	const struct dmo_model_tensor *t = &o->model->tensors[idx];

	*v = (struct dmo_onnx_value){ .elem_type = onnx_type(t), .rank = t->rank, .n_ints = -1,
				      .n_floats = -1 };
	if (t->rank > 0)
		memcpy(v->dims, t->shape, (size_t)t->rank * sizeof *v->dims);
	if (t->producer == DMO_MODEL_CONSTANT) {
		for (size_t i = 0; i < o->graph->n_initializer; i++)
			if (!strcmp(o->graph->initializer[i]->name, t->name))
				proto_values(o->graph->initializer[i], v);
		for (size_t i = 0; i < o->graph->n_node; i++)
			if (constant_node(o->graph->node[i]) &&
			    !strcmp(o->graph->node[i]->output[0], t->name))
				proto_values(constant_node(o->graph->node[i]), v);
		return;
	}
	for (size_t k = 0; k < o->n_known; k++)
		if (o->known[k].tensor == idx) {
			v->n_ints = o->known[k].n;
			memcpy(v->ints, o->known[k].ints, sizeof v->ints);
		}
}

/* The output of a Constant node that is a layer (one with a `value`
 * tensor is a constant, read_initializer), from `value_int(s)`: 0, or 1
 * for a form dmo does not read. */
static int constant_value(const Onnx__NodeProto *n, struct dmo_onnx_value *v)
{
	const Onnx__AttributeProto *a;

	if ((a = dmo_onnx_attr(n, "value_ints")) != NULL && a->n_ints <= DMO_ONNX_MAX_INTS) {
		v->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
		v->rank = 1;
		v->dims[0] = (int64_t)a->n_ints;
		v->n_ints = (int)a->n_ints;
		memcpy(v->ints, a->ints, a->n_ints * sizeof *a->ints);
		return 0;
	}
	if ((a = dmo_onnx_attr(n, "value_int")) != NULL) {
		v->elem_type = ONNX__TENSOR_PROTO__DATA_TYPE__INT64;
		v->rank = 0;
		v->n_ints = 1;
		v->ints[0] = a->i;
		return 0;
	}
	return 1;
}

/* Shape inference over node N (layer L): give each output the file left
 * without a shape its inferred type and shape, and remember the values
 * of small integer outputs.  Returns 0; 1 when dmo has no shape rule for
 * the node, -1 with WHY when its shapes cannot be known; -2 with the
 * error set (out of memory, a shape over the limits). */
static int infer_outputs(struct onnx *o, size_t l, const Onnx__NodeProto *n, char *why,
			 size_t why_len)
{
	const struct dmo_model_layer *layer = &o->model->layers[l];
	struct dmo_onnx_value *in = calloc(n->n_input + 1, sizeof *in);
	struct dmo_onnx_value *out = calloc(n->n_output + 1, sizeof *out);
	int rc = 1;

	if (in == NULL || out == NULL) {
		fail(o, "out of memory");
		rc = -2;
		goto out;
	}
	for (size_t i = 0; i < n->n_input; i++) {
		in[i] = (struct dmo_onnx_value){ .rank = -1, .n_ints = -1, .n_floats = -1 };
		if (layer->operands[i] != DMO_MODEL_ABSENT)
			value_of(o, layer->operands[i], &in[i]);
	}
	if (is_qoperator_domain(n))
		rc = dmo_onnx_infer_qoperator_shapes(n, in, n->n_input, out, n->n_output, why, why_len);
	else if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx"))
		goto out; /* another domain's operator: no rule */
	else if (n->op_type && !strcmp(n->op_type, "Constant")) {
		out[0] = (struct dmo_onnx_value){ .rank = -1, .n_ints = -1, .n_floats = -1 };
		rc = n->n_output == 1 ? constant_value(n, &out[0]) : 1;
	} else {
		rc = dmo_onnx_infer_shapes(n, o->opset, in, n->n_input, out, n->n_output, why,
					   why_len);
	}
	for (size_t i = 0; rc == 0 && i < n->n_output; i++) {
		struct dmo_model_tensor *t;
		int idx;

		if (!n->output[i][0] || (idx = dmo_name_index_find(&o->names, n->output[i], strlen(n->output[i]))) < 0)
			continue;
		t = &o->model->tensors[idx];
		if (out[i].n_ints >= 0) {
			if (o->n_known == o->cap_known) {
				size_t cap = o->cap_known ? 2 * o->cap_known : 16;
				struct known_ints *grown = realloc(o->known, cap * sizeof *grown);

				if (grown == NULL) {
					fail(o, "out of memory");
					rc = -2;
					break;
				}
				o->known = grown;
				o->cap_known = cap;
			}
			o->known[o->n_known].tensor = idx;
			o->known[o->n_known].n = out[i].n_ints;
			memcpy(o->known[o->n_known++].ints, out[i].ints, sizeof out[i].ints);
		}
		if (t->rank < 0 && (set_type(o, t, out[i].elem_type) != 0 ||
				    set_shape(o, t, out[i].dims, out[i].rank) != 0))
			rc = -2;
	}
out:
	free(in);
	free(out);
	return rc;
}

/* The layers node N becomes: a Split one per output (split_layers), a
 * Sum, Max or Min of n >= 3 operands n - 1 and a Mean of n >= 2 n
 * (variadic_layers), any other node one. */
static size_t node_layers(const Onnx__NodeProto *n)
{
	const int default_domain = !n->domain || !n->domain[0] || !strcmp(n->domain, "ai.onnx");
	const int mean = default_domain && n->op_type && !strcmp(n->op_type, "Mean");

	if (!default_domain || !n->op_type)
		return 1;
	if (!strcmp(n->op_type, "Split") && n->n_output > 1)
		return n->n_output;
	if (is_variadic(n->op_type) && n->n_input >= 3 - (size_t)mean)
		return n->n_input - 1 + (size_t)mean;
	return 1;
}

/* ONNX's Sum, Max and Min of n >= 3 operands and Mean of n >= 2 (node N,
 * read as layer L) in ONNX Runtime's passes (its CPU kernels'
 * UntypedBroadcastVariadic, element_wise_ops.cc): the binary op of
 * operands 0 and 1 into a temporary, then of the temporary and each
 * further operand in turn, the last pass into the output; Mean then
 * multiplies its sum by 1/n in place.  Each pass is a layer (L and the
 * layers after it, named L_op0, L_op1, ...), each temporary a tensor of
 * the plan, OUTPUT:opK, of the broadcast shape of the operands so far:
 * memory ONNX Runtime takes too, from its allocator.  A layer's second
 * operand stays live through it, so the plan never overlaps it
 * (docs/formulas.md, 4.13).  Returns 0 (the node unsupported as one layer
 * when refused), or -1 with the error set. */
static int variadic_layers(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const size_t inputs = layer->n_operands, passes = node_layers(n);
	const int result = layer->results[0], *from = layer->operands, temps = (int)m->n_tensors;
	char lower[8] = "", name[256];
	int64_t dims[DMO_MODEL_MAX_RANK], pair[2];
	struct dmo_model_tensor so_far; /* the broadcast of the operands so far */

	for (size_t k = 0; k < inputs; k++) {
		const struct dmo_model_tensor *t = operand(m, layer, k);
		int rank;

		if (t == NULL || t->rank < 0 || !t->known_dtype || t->dtype != DMO_F32)
			return unsupported(o, layer, "operand %zu is not float32 of a known shape (dmo's %s is f32)",
					   k, layer->op_name);
		if (k == 0) {
			so_far = *t;
			continue;
		}
		if ((rank = dmo_onnx_broadcast(so_far.rank, so_far.shape, t->rank, t->shape, dims, pair)) < 0)
			return unsupported(o, layer, "operand %zu does not broadcast to the ones before it", k);
		memcpy(so_far.shape, dims, sizeof dims);
		so_far.rank = rank;
	}
	for (size_t i = 0; i < 4 && layer->op_name[i]; i++) /* sum, max, min, mean */
		lower[i] = (char)tolower((unsigned char)layer->op_name[i]);
	/* The temporaries, temps + j for pass j, before any pointer into the
	 * tensors (which tensor() may move). */
	for (size_t j = 0; j + 1 < passes; j++) {
		const struct dmo_model_tensor *a = &m->tensors[j ? temps + (int)j - 1 : from[0]],
					      *b = &m->tensors[from[j + 1]];
		const int rank = dmo_onnx_broadcast(a->rank, a->shape, b->rank, b->shape, dims, pair);
		struct dmo_model_tensor *t;
		int got;

		snprintf(name, sizeof name, "%s:%s%zu", m->tensors[result].name, lower, j);
		if (dmo_name_index_find(&o->names, name, strlen(name)) >= 0)
			return fail(o, "node %zu (%s): its temporary '%s' is a tensor of the graph too",
				    o->node + 1, layer->op_name, name);
		if ((got = tensor(o, name)) < 0)
			return -1;
		assert(got == temps + (int)j);
		t = &m->tensors[got];
		t->type_name = m->tensors[from[0]].type_name;
		t->known_dtype = 1;
		t->dtype = DMO_F32;
		t->elem_size = 4;
		if (set_shape(o, t, dims, rank) != 0)
			return -1;
	}
	for (size_t j = 1; j < passes; j++) {
		struct dmo_model_layer *pass = &m->layers[l + j];

		*pass = (struct dmo_model_layer){ .row = layer->row, .n_results = 1 };
		m->n_layers++; /* counted now, so that dmo_model_free frees what follows */
		pass->op_name = strdup(layer->op_name);
		pass->name = malloc(strlen(lower) + 48);
		pass->operands = calloc(2, sizeof *pass->operands);
		pass->results = malloc(sizeof *pass->results);
		if (!pass->op_name || !pass->name || !pass->operands || !pass->results)
			return fail(o, "out of memory");
	}
	/* Pass j reads what the passes before it made and operand j + 1
	 * (Mean's last pass its sum alone).  Pass 0 keeps the node's operands
	 * array, its first two entries unchanged. */
	for (size_t j = 0; j < passes; j++) {
		struct dmo_model_layer *pass = &m->layers[l + j];

		pass->n_operands = j + 1 < inputs ? 2 : 1;
		if (j > 0) {
			pass->operands[0] = temps + (int)j - 1;
			pass->operands[1] = j + 1 < inputs ? from[j + 1] : DMO_MODEL_ABSENT;
		}
		pass->results[0] = j + 1 < passes ? temps + (int)j : result;
		sprintf(pass->name, "%zu_%s%zu", l + j + 1, lower, j);
	}
	for (size_t j = 0; j < passes; j++)
		if (derive_spec(o, l + j, n) != 0)
			return -1;
	return 0;
}

/* ONNX's Split (node N, read as layer L with all its outputs) as one slice
 * layer per output, in output order: L and the layers after it, each
 * reading the whole input and writing its part, the box of the input
 * between the parts before it and those after it along the axis.  ONNX
 * Runtime's one kernel writes the outputs in the same order, each from its
 * own box, so each part's O_s is its slice's (docs/formulas.md, 4.10).
 * The parts' sizes are the outputs' shapes (from value_info or shape
 * inference, which read `split` or the equal division).  Returns 0 (the
 * node unsupported as one layer when refused), or -1 with the error set. */
static int split_layers(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model *m = o->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const struct dmo_model_tensor *in = operand(m, layer, 0);
	const size_t parts = layer->n_results;
	int64_t axis = dmo_onnx_attr_int(n, "axis", 0), at = 0;
	const char *dt;
	char shape[96];
	int r;

	if (in == NULL || in->rank < 0)
		return unsupported(o, layer, "no input of known shape");
	if (layer->n_operands > 1 && layer->operands[1] >= 0) {
		struct dmo_onnx_value sizes;

		value_of(o, layer->operands[1], &sizes);
		if (sizes.n_ints < 0)
			return unsupported(o, layer, "its split sizes '%s' are not a constant",
					   m->tensors[layer->operands[1]].name);
	}
	r = in->rank;
	axis += axis < 0 ? r : 0;
	if (in->producer == DMO_MODEL_CONSTANT)
		return unsupported(o, layer, "input '%s' is a constant, not an activation in the arena",
				   in->name);
	if (!in->known_dtype || in->dtype == DMO_I32)
		return unsupported(o, layer, "%s input: no dmo kernel", in->type_name);
	if (parts != n->n_output)
		return unsupported(o, layer, "an output left unnamed (its part has no tensor)");
	if (r < 1 || r > 4 || axis < 0 || axis >= r)
		return unsupported(o, layer, "a split along axis %lld of a %d-D tensor (dmo's slice is 1-D to 4-D)",
				   (long long)axis, r);
	for (size_t i = 0; i < parts; i++) {
		const struct dmo_model_tensor *out = &m->tensors[layer->results[i]];
		int same = out->rank == r && out->known_dtype && out->dtype == in->dtype &&
			   out->shape[axis] >= 1;

		for (int d = 0; same && d < r; d++)
			same = d == axis || out->shape[d] == in->shape[d];
		if (!same)
			return unsupported(o, layer, "output '%s' is not a nonempty part of the input along axis %lld",
					   out->name, (long long)axis);
		at += out->shape[axis];
	}
	if (at != in->shape[axis])
		return unsupported(o, layer, "parts of %lld elements along an axis of %lld",
				   (long long)at, (long long)in->shape[axis]);
	for (size_t i = 1; i < parts; i++) {
		struct dmo_model_layer *part = &m->layers[l + i];

		*part = (struct dmo_model_layer){ .row = layer->row, .n_operands = layer->n_operands,
						  .n_results = 1 };
		m->n_layers++; /* counted now, so that dmo_model_free frees what follows */
		part->op_name = strdup(layer->op_name);
		part->name = malloc(strlen(layer->name) + 24);
		part->operands = malloc(layer->n_operands * sizeof *part->operands);
		part->results = malloc(sizeof *part->results);
		if (!part->op_name || !part->name || !part->operands || !part->results)
			return fail(o, "out of memory");
		memcpy(part->operands, layer->operands, layer->n_operands * sizeof *part->operands);
		part->results[0] = layer->results[i];
		sprintf(part->name, "%zu_split%zu", l + i + 1, i);
	}
	layer->n_results = 1;
	sprintf(layer->name, "%zu_split0", l + 1);
	dmo_model_flat_shape(in, shape, sizeof shape);
	dt = dmo_dtype_name(in->dtype);
	at = 0;
	for (size_t i = 0; i < parts; i++) {
		const int64_t keep = m->tensors[m->layers[l + i].results[0]].shape[axis];
		int64_t b[4] = { 0 }, a[4] = { 0 };
		char text[256];

		b[4 - r + axis] = at;
		a[4 - r + axis] = in->shape[axis] - at - keep;
		at += keep;
		box_spec(text, sizeof text, "slice", shape, b, a, dt);
		if (dmo_model_layer_spec_runnable(m, l + i, text, layer->operands[0],
						  m->layers[l + i].results[0], o->source, o->err,
						  o->err_len) != 0)
			return -1;
	}
	return 0;
}

static int read_node(struct onnx *o, size_t l, const Onnx__NodeProto *n)
{
	struct dmo_model_layer *layer = &o->model->layers[l];
	const char *op = n->op_type ? n->op_type : "?";
	char why[160];
	size_t i;
	int rc;

	layer->row = (int)o->node; /* the node in the file (Constant nodes are not layers) */
	layer->op_name = malloc(strlen(op) + (n->domain && n->domain[0] ? strlen(n->domain) + 2 : 1));
	layer->name = malloc(strlen(op) + 24);
	layer->operands = calloc(n->n_input + 1, sizeof *layer->operands);
	layer->results = calloc(n->n_output + 1, sizeof *layer->results);
	if (!layer->op_name || !layer->name || !layer->operands || !layer->results)
		return fail(o, "out of memory");
	if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx"))
		sprintf(layer->op_name, "%s:%s", n->domain, op);
	else
		strcpy(layer->op_name, op);
	/* Numbered from 1, as the layer is everywhere (docs/cli.md). */
	i = (size_t)sprintf(layer->name, "%zu_", l + 1);
	for (const char *c = op; *c; c++)
		layer->name[i++] = isalnum((unsigned char)*c) ? (char)tolower((unsigned char)*c) : '_';
	layer->name[i] = '\0';
	for (i = 0; i < n->n_input; i++) {
		int t = n->input[i][0] ? tensor(o, n->input[i]) : DMO_MODEL_ABSENT;

		if (n->input[i][0] && t < 0)
			return -1;
		layer->operands[layer->n_operands++] = t;
	}
	for (i = 0; i < n->n_output; i++) {
		int t;

		if (!n->output[i][0])
			continue; /* an optional output not produced */
		if ((t = tensor(o, n->output[i])) < 0)
			return -1;
		layer->results[layer->n_results++] = t;
	}
	if (layer->n_results == 0)
		return fail(o, "node %zu (%s) has no output", o->node + 1, op);
	if ((rc = infer_outputs(o, l, n, why, sizeof why)) < -1)
		return -1;
	for (i = 0; i < layer->n_results; i++) {
		const struct dmo_model_tensor *t = &o->model->tensors[layer->results[i]];

		if (t->rank >= 0)
			continue;
		if (rc > 0)
			snprintf(why, sizeof why, "dmo has no shape rule for %s", layer->op_name);
		return fail(o, "node %zu (%s): output '%s' has no static shape: %s (no value_info; run ONNX shape inference first, or give --shape '%s=D1x...')",
			    o->node + 1, layer->op_name, t->name, why, t->name);
	}
	if (is_qoperator_domain(n))
		return derive_qoperator_spec(o, l, n);
	if (n->domain && n->domain[0] && strcmp(n->domain, "ai.onnx"))
		return unsupported(o, layer, "op %s has no dmo model", layer->op_name);
	if (node_layers(n) > 1)
		return strcmp(op, "Split") ? variadic_layers(o, l, n) : split_layers(o, l, n);
	return derive_spec(o, l, n);
}

static void release(void *message)
{
	onnx__model_proto__free_unpacked(message, NULL);
}

int dmo_model_parse_onnx(const unsigned char *data, size_t len, const char *source,
			 const struct dmo_model_shape *shapes, size_t n_shapes,
			 struct dmo_model *model, char *err, size_t err_len)
{
	struct onnx o = { .source = source, .model = model, .shapes = shapes,
			  .n_shapes = n_shapes, .err = err, .err_len = err_len };
	Onnx__ModelProto *proto;
	const Onnx__GraphProto *g;
	size_t n_layers_max = 0; /* a Split is a layer per output */
	int rc = -1;

	*model = (struct dmo_model){ .format = DMO_FORMAT_ONNX };
	if (!dmo_protobuf_depth_within(data, len, DMO_PROTOBUF_MAX_DEPTH))
		return fail(&o, "messages nested more than %d levels deep: no model dmo reads",
			    DMO_PROTOBUF_MAX_DEPTH);
	proto = onnx__model_proto__unpack(NULL, len, data);
	if (proto == NULL || proto->graph == NULL || !proto->has_ir_version)
		return fail(&o, "not a model dmo reads: no TFLite identifier (TFL3 at byte 4), no layer-table header ('layer,name,spec,inputs') and not an ONNX ModelProto with a graph%s",
			    proto ? "" : " (protobuf decoding failed)"),
		       proto ? (release(proto), -1) : -1;
	model->reader_state = proto;
	model->reader_free = release;
	o.graph = g = proto->graph;
	o.opset = 1;
	for (size_t i = 0; i < proto->n_opset_import; i++) {
		const char *d = proto->opset_import[i]->domain;

		if (d == NULL || !d[0] || !strcmp(d, "ai.onnx"))
			o.opset = proto->opset_import[i]->version;
	}
	if (g->n_node == 0) {
		fail(&o, "the graph has no nodes");
		goto out;
	}
	for (size_t i = 0; i < g->n_node; i++)
		n_layers_max += node_layers(g->node[i]);
	model->layers = calloc(n_layers_max, sizeof *model->layers);
	if (model->layers == NULL) {
		fail(&o, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < g->n_initializer; i++)
		if (read_initializer(&o, g->initializer[i]->name, g->initializer[i]) != 0)
			goto out;
	for (size_t i = 0; i < g->n_node; i++)
		if (constant_node(g->node[i]) &&
		    read_initializer(&o, g->node[i]->output[0], constant_node(g->node[i])) != 0)
			goto out;
	if (g->n_sparse_initializer) {
		fail(&o, "sparse initializers are not read");
		goto out;
	}
	for (size_t i = 0; i < g->n_input; i++)
		if (read_value_info(&o, g->input[i], 1, 0) != 0)
			goto out;
	for (size_t i = 0; i < g->n_output; i++)
		if (read_value_info(&o, g->output[i], 0, 1) != 0)
			goto out;
	for (size_t i = 0; i < g->n_value_info; i++)
		if (read_value_info(&o, g->value_info[i], 0, 0) != 0)
			goto out;
	for (size_t s = 0; s < n_shapes; s++)
		if (dmo_name_index_find(&o.names, shapes[s].tensor, strlen(shapes[s].tensor)) < 0) {
			size_t k;
			for (k = 0; k < model->n_tensors; k++)
				if (dmo_model_shape_names(&shapes[s], model->tensors[k].name))
					break;
			if (k == model->n_tensors) {
				fail(&o, "--shape %s: the graph has no input or value_info of that name",
				     shapes[s].tensor);
				goto out;
			}
		}
	for (size_t i = 0; i < g->n_node; i++) {
		if (constant_node(g->node[i]))
			continue;
		o.node = i;
		/* Counted before: a Split's read adds its further layers. */
		if (read_node(&o, model->n_layers++, g->node[i]) != 0)
			goto out;
	}
	if (model->n_layers == 0) {
		fail(&o, "the graph has only Constant nodes");
		goto out;
	}
	for (size_t t = 0; t < model->n_tensors; t++)
		if (model->tensors[t].rank < 0) {
			fail(&o, "%s '%s' has no shape%s",
			     model->tensors[t].graph_input ? "model input" : "tensor",
			     model->tensors[t].name,
			     model->tensors[t].graph_input ? ": give it with --shape NAME=D1x..."
							    : " (no node writes it)");
			goto out;
		}
	rc = dmo_model_link(model, source, err, err_len);
out:
	dmo_name_index_free(&o.names);
	free(o.known);
	if (rc != 0)
		dmo_model_free(model);
	return rc;
}

/* The node of layer L: its row (read_node; Constant nodes are constants,
 * not layers). */
static const Onnx__NodeProto *layer_node(const struct dmo_model *m, size_t l)
{
	const Onnx__ModelProto *mp = m->format == DMO_FORMAT_ONNX ? m->reader_state : NULL;

	if (!mp || !mp->graph || l >= m->n_layers || (size_t)m->layers[l].row >= mp->graph->n_node)
		return NULL;
	return mp->graph->node[m->layers[l].row];
}

int64_t dmo_model_onnx_int(const struct dmo_model *m, size_t l, const char *name, int64_t def)
{
	const Onnx__NodeProto *n = layer_node(m, l);

	return n ? dmo_onnx_attr_int(n, name, def) : def;
}

double dmo_model_onnx_float(const struct dmo_model *m, size_t l, const char *name, double def)
{
	const Onnx__NodeProto *n = layer_node(m, l);
	const Onnx__AttributeProto *a = n ? dmo_onnx_attr(n, name) : NULL;

	return a && a->has_f ? a->f : def;
}

int dmo_model_onnx_commuted(const struct dmo_model *m, size_t l)
{
	const Onnx__NodeProto *n = layer_node(m, l);
	const struct dmo_model_layer *layer = n ? &m->layers[l] : NULL;

	return layer && n->n_input >= 2 && layer->n_operands >= 2 && layer->operands[0] >= 0 &&
	       strcmp(m->tensors[layer->operands[0]].name, n->input[0]) != 0;
}

size_t dmo_model_onnx_inputs(const struct dmo_model *m, size_t l)
{
	const Onnx__NodeProto *n = layer_node(m, l);

	return n ? n->n_input : 0;
}
