/* onnx_shapes.c - ONNX shape inference: each output's element type and
 * shape from a node's inputs and attributes, by the rules of the ONNX
 * operator specification, for the element-wise and broadcasting operators,
 * the reshape family, convolution and pooling, Gemm and MatMul (and their
 * QLinear forms), Concat, Pad, Slice, Split and the reductions.  Small
 * integer tensors (Shape's output, Gather, Concat and Unsqueeze of them,
 * constants) carry their values, so that PyTorch's
 * Shape -> Gather -> Unsqueeze -> Concat -> Reshape flattening is followed.
 * The ONNX reader calls it for outputs the file gives no value_info. */
#include "onnx_shapes.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* TensorProto.DataType values the rules produce. */
enum { T_FLOAT = 1, T_UINT8 = 2, T_INT32 = 6, T_INT64 = 7, T_BOOL = 9 };

struct infer {
	const Onnx__NodeProto *n;
	int64_t opset;
	const struct dmo_onnx_value *in;
	size_t n_in;
	struct dmo_onnx_value *out;
	size_t n_out;
	char *why;
	size_t why_len;
};

static int bad(struct infer *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct infer *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, x->why_len, fmt, ap);
	va_end(ap);
	return -1;
}

const Onnx__AttributeProto *dmo_onnx_attr(const Onnx__NodeProto *n, const char *name)
{
	for (size_t i = 0; i < n->n_attribute; i++)
		if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
			return n->attribute[i];
	return NULL;
}

int64_t dmo_onnx_attr_int(const Onnx__NodeProto *n, const char *name, int64_t def)
{
	const Onnx__AttributeProto *a = dmo_onnx_attr(n, name);

	return a && a->has_i ? a->i : def;
}

int dmo_onnx_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *ints, size_t count,
		       int64_t def)
{
	const Onnx__AttributeProto *a = dmo_onnx_attr(n, name);

	for (size_t i = 0; i < count; i++)
		ints[i] = a && a->n_ints == count ? a->ints[i] : def;
	return a == NULL || a->n_ints == count ? 0 : -1;
}

static int is(const char *op, const char *const *names)
{
	for (; *names; names++)
		if (!strcmp(op, *names))
			return 1;
	return 0;
}

/* Input K, which must have a shape. */
static const struct dmo_onnx_value *shaped(struct infer *x, size_t k)
{
	if (k >= x->n_in || x->in[k].rank < 0) {
		bad(x, "input %zu has no known shape", k + 1);
		return NULL;
	}
	return &x->in[k];
}

/* Input K's integer values, which must be known (a constant or a value
 * inference followed), or NULL with WHY set. */
static const struct dmo_onnx_value *values(struct infer *x, size_t k, const char *what)
{
	if (k >= x->n_in || x->in[k].rank < 0 || x->in[k].n_ints < 0) {
		bad(x, "its %s (input %zu) is not a constant dmo can read", what, k + 1);
		return NULL;
	}
	return &x->in[k];
}

static void set(struct dmo_onnx_value *v, int32_t type, int rank, const int64_t *dims)
{
	v->elem_type = type;
	v->rank = rank;
	v->n_ints = -1;
	v->n_floats = -1;
	if (dims != v->dims)
		memmove(v->dims, dims, (size_t)rank * sizeof *dims);
}

/* AXIS of a RANK-dimensional tensor, negative counting from the end; -1
 * when outside it. */
static int axis_of(int64_t axis, int rank)
{
	if (axis < 0)
		axis += rank;
	return axis < 0 || axis >= rank ? -1 : (int)axis;
}

int dmo_onnx_broadcast(int rank_a, const int64_t *a, int rank_b, const int64_t *b,
		       int64_t *out, int64_t bad[2])
{
	const int rank = rank_a > rank_b ? rank_a : rank_b;

	/* From the last axis down, so that OUT may be A: out[d] reads a's
	 * axis d - (rank - rank_a) <= d, not yet written. */
	for (int d = rank - 1; d >= 0; d--) {
		const int64_t x = d >= rank - rank_a ? a[d - (rank - rank_a)] : 1;
		const int64_t y = d >= rank - rank_b ? b[d - (rank - rank_b)] : 1;

		if (x != y && x != 1 && y != 1) {
			bad[0] = x;
			bad[1] = y;
			return -1;
		}
		out[d] = x == 1 ? y : x;
	}
	return rank;
}

/* Multidirectional (numpy) broadcasting of every shaped input into OUT. */
static int broadcast(struct infer *x, size_t first, size_t count, struct dmo_onnx_value *out)
{
	int rank = 0;
	int64_t dims[DMO_MODEL_MAX_RANK], pair[2];

	for (size_t k = first; k < first + count; k++)
		if (shaped(x, k) == NULL)
			return -1;
	for (size_t k = first; k < first + count; k++)
		if ((rank = dmo_onnx_broadcast(rank, dims, x->in[k].rank, x->in[k].dims, dims, pair)) < 0)
			return bad(x, "inputs of dimensions %lld and %lld do not broadcast",
				   (long long)pair[0], (long long)pair[1]);
	set(out, out->elem_type, rank, dims);
	return 0;
}

/* numpy.matmul's shape of inputs A and B into OUT. */
static int matmul(struct infer *x, size_t a, size_t b, int32_t type)
{
	const struct dmo_onnx_value *va = shaped(x, a), *vb = va ? shaped(x, b) : NULL;
	struct dmo_onnx_value ea, eb, batch;
	struct infer sub = *x;
	int rank;

	if (vb == NULL)
		return -1;
	if (va->rank < 1 || vb->rank < 1)
		return bad(x, "a scalar operand");
	ea = *va;
	eb = *vb;
	if (ea.rank == 1) { /* [K] -> [1, K] */
		ea.dims[1] = ea.dims[0];
		ea.dims[0] = 1;
		ea.rank = 2;
	}
	if (eb.rank == 1) /* [K] -> [K, 1] */
		eb.dims[eb.rank++] = 1;
	if (ea.dims[ea.rank - 1] != eb.dims[eb.rank - 2])
		return bad(x, "inner dimensions %lld and %lld differ",
			   (long long)ea.dims[ea.rank - 1], (long long)eb.dims[eb.rank - 2]);
	/* The batch dimensions broadcast. */
	ea.rank -= 2;
	eb.rank -= 2;
	{
		struct dmo_onnx_value pair[2] = { ea, eb };

		sub.in = pair;
		sub.n_in = 2;
		batch.elem_type = type;
		if (broadcast(&sub, 0, 2, &batch) != 0)
			return -1;
	}
	rank = batch.rank;
	if (va->rank > 1)
		batch.dims[rank++] = va->dims[va->rank - 2];
	if (vb->rank > 1)
		batch.dims[rank++] = vb->dims[vb->rank - 1];
	if (rank > DMO_MODEL_MAX_RANK)
		return bad(x, "rank over %d", DMO_MODEL_MAX_RANK);
	set(&x->out[0], type, rank, batch.dims);
	return 0;
}

/* Conv, ConvTranspose-free pools and their QLinear forms: X is input XK,
 * the kernel's spatial dims W's (or kernel_shape), output channels
 * OUT_C (0: X's). */
static int window(struct infer *x, size_t xk, const int64_t *kernel, int64_t out_c, int32_t type)
{
	const struct dmo_onnx_value *v = shaped(x, xk);
	int64_t dims[DMO_MODEL_MAX_RANK], s[DMO_MODEL_MAX_RANK], d[DMO_MODEL_MAX_RANK],
		p[2 * DMO_MODEL_MAX_RANK];
	const Onnx__AttributeProto *auto_pad = dmo_onnx_attr(x->n, "auto_pad");
	char mode[16] = "NOTSET";
	int ns, ceil_mode = dmo_onnx_attr_int(x->n, "ceil_mode", 0) != 0;

	if (v == NULL)
		return -1;
	if (v->rank < 3)
		return bad(x, "a %d-D input (N x C x spatial...)", v->rank);
	ns = v->rank - 2;
	if (dmo_onnx_attr_ints(x->n, "strides", s, (size_t)ns, 1) ||
	    dmo_onnx_attr_ints(x->n, "dilations", d, (size_t)ns, 1) ||
	    dmo_onnx_attr_ints(x->n, "pads", p, 2 * (size_t)ns, 0))
		return bad(x, "strides, dilations or pads not of %d spatial axes", ns);
	if (auto_pad && auto_pad->has_s && auto_pad->s.len < sizeof mode) {
		memcpy(mode, auto_pad->s.data, auto_pad->s.len);
		mode[auto_pad->s.len] = '\0';
	}
	dims[0] = v->dims[0];
	dims[1] = out_c ? out_c : v->dims[1];
	for (int i = 0; i < ns; i++) {
		int64_t in = v->dims[2 + i], ek = (kernel[i] - 1) * d[i] + 1, span;

		if (kernel[i] <= 0 || s[i] <= 0 || d[i] <= 0)
			return bad(x, "kernel, stride or dilation below 1");
		if (!strcmp(mode, "SAME_UPPER") || !strcmp(mode, "SAME_LOWER")) {
			dims[2 + i] = (in + s[i] - 1) / s[i];
			continue;
		}
		if (!strcmp(mode, "VALID"))
			span = in - ek;
		else if (!strcmp(mode, "NOTSET"))
			span = in + p[i] + p[ns + i] - ek;
		else
			return bad(x, "auto_pad %s", mode);
		if (span < 0)
			return bad(x, "a window of %lld over %lld elements", (long long)ek,
				   (long long)in);
		dims[2 + i] = (ceil_mode ? (span + s[i] - 1) / s[i] : span / s[i]) + 1;
		/* ceil_mode: the last window must start inside the input
		 * or its leading padding. */
		if (ceil_mode && (dims[2 + i] - 1) * s[i] >= in + p[i])
			dims[2 + i]--;
	}
	set(&x->out[0], type, v->rank, dims);
	return 0;
}

/* Conv and QLinearConv: X input XK, weights input WK. */
static int conv(struct infer *x, size_t xk, size_t wk, int32_t type)
{
	const struct dmo_onnx_value *v = shaped(x, xk), *w = v ? shaped(x, wk) : NULL;
	int64_t kernel[DMO_MODEL_MAX_RANK];
	int ns;

	if (w == NULL)
		return -1;
	if (w->rank != v->rank)
		return bad(x, "%d-D weights for a %d-D input", w->rank, v->rank);
	ns = v->rank - 2;
	if (dmo_onnx_attr_ints(x->n, "kernel_shape", kernel, (size_t)ns, 0))
		return bad(x, "kernel_shape not of %d axes", ns);
	for (int i = 0; i < ns; i++)
		kernel[i] = w->dims[2 + i];
	return window(x, xk, kernel, w->dims[0], type);
}

/* Whether string attribute NAME of N is VALUE (absent: NOTSET). */
static int attr_is(const Onnx__NodeProto *n, const char *name, const char *value)
{
	const Onnx__AttributeProto *a = dmo_onnx_attr(n, name);

	if (a == NULL || !a->has_s)
		return !strcmp(value, "NOTSET");
	return a->s.len == strlen(value) && !memcmp(a->s.data, value, a->s.len);
}

int dmo_onnx_convt_axes(const Onnx__NodeProto *n, int ns, const int64_t *in, const int64_t *k,
			struct dmo_onnx_convt_axis *axes, const char **why)
{
	int64_t s[DMO_MODEL_MAX_RANK], d[DMO_MODEL_MAX_RANK], adj[DMO_MODEL_MAX_RANK],
		shape[DMO_MODEL_MAX_RANK + 2], p[2 * DMO_MODEL_MAX_RANK];
	int same = attr_is(n, "auto_pad", "SAME_UPPER") || attr_is(n, "auto_pad", "SAME_LOWER"),
	    lead = 0;

	if (ns < 1 || ns > DMO_MODEL_MAX_RANK - 2 || dmo_onnx_attr_ints(n, "strides", s, (size_t)ns, 1) ||
	    dmo_onnx_attr_ints(n, "dilations", d, (size_t)ns, 1) ||
	    dmo_onnx_attr_ints(n, "output_padding", adj, (size_t)ns, 0) ||
	    dmo_onnx_attr_ints(n, "pads", p, 2 * (size_t)ns, 0)) {
		*why = "strides, dilations, output_padding or pads not of the input's spatial axes";
		return -1;
	}
	/* output_shape: the spatial sizes, or N and C first. */
	if (dmo_onnx_attr_ints(n, "output_shape", shape, (size_t)ns, -1) &&
	    dmo_onnx_attr_ints(n, "output_shape", shape, (size_t)ns + 2, -1)) {
		*why = "output_shape not of the input's spatial axes";
		return -1;
	}
	if (dmo_onnx_attr(n, "output_shape") && dmo_onnx_attr(n, "output_shape")->n_ints == (size_t)ns + 2)
		lead = 2;
	if (!same && !attr_is(n, "auto_pad", "NOTSET") && !attr_is(n, "auto_pad", "VALID")) {
		*why = "an auto_pad other than NOTSET, VALID, SAME_UPPER and SAME_LOWER";
		return -1;
	}
	for (int i = 0; i < ns; i++) {
		struct dmo_onnx_convt_axis *a = &axes[i];
		int64_t full, target = shape[lead + i], total;

		if (k[i] <= 0 || s[i] <= 0 || d[i] <= 0 || adj[i] < 0 || p[i] < 0 || p[ns + i] < 0 ||
		    k[i] > INT32_MAX || s[i] > INT32_MAX || d[i] > INT32_MAX || in[i] > INT32_MAX) {
			*why = "a kernel, stride or dilation below 1 or a negative pad";
			return -1;
		}
		full = (in[i] - 1) * s[i] + adj[i] + (k[i] - 1) * d[i] + 1;
		*a = (struct dmo_onnx_convt_axis){ .stride = s[i], .dil = d[i], .out_pad = adj[i],
						   .pad_head = attr_is(n, "auto_pad", "NOTSET") ? p[i] : 0,
						   .pad_tail = attr_is(n, "auto_pad", "NOTSET") ? p[ns + i] : 0 };
		if (target >= 0 || same) {
			/* ONNX's total padding (and ONNX Runtime 1.30's, checked
			 * against it), split with the odd one at the end for
			 * SAME_UPPER, at the start otherwise (SAME_LOWER, and
			 * output_shape without auto_pad); an output_shape larger
			 * than the unpadded output takes its extra rows at the
			 * end, SAME's in x stride none (the output stays the
			 * unpadded one). */
			total = full - (target >= 0 ? target : in[i] * s[i]);
			a->pad_head = total < 0 ? 0 : attr_is(n, "auto_pad", "SAME_UPPER") ? total / 2
											  : total - total / 2;
			a->pad_tail = total < 0 ? 0 : total - a->pad_head;
			if (total < 0 && target >= 0)
				a->out_pad -= total;
		}
		a->out = full + a->out_pad - adj[i] - a->pad_head - a->pad_tail;
		if (a->out <= 0) {
			*why = "pads larger than the output";
			return -1;
		}
	}
	return 0;
}

/* ConvTranspose: each spatial output is stride (in - 1) + output_padding
 * + the dilated kernel - the pads, or output_shape when given
 * (dmo_onnx_convt_axes). */
static int conv_transpose(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0), *w = v ? shaped(x, 1) : NULL;
	struct dmo_onnx_convt_axis axes[DMO_MODEL_MAX_RANK];
	int64_t dims[DMO_MODEL_MAX_RANK];
	const char *why;
	int ns;

	if (w == NULL)
		return -1;
	if (v->rank < 3 || w->rank != v->rank)
		return bad(x, "%d-D weights for a %d-D input", w->rank, v->rank);
	ns = v->rank - 2;
	if (dmo_onnx_convt_axes(x->n, ns, v->dims + 2, w->dims + 2, axes, &why))
		return bad(x, "%s", why);
	dims[0] = v->dims[0];
	dims[1] = w->dims[1] * dmo_onnx_attr_int(x->n, "group", 1);
	for (int i = 0; i < ns; i++)
		dims[2 + i] = axes[i].out;
	set(&x->out[0], v->elem_type, v->rank, dims);
	return 0;
}

/* The reduction axes AXES[*COUNT] (empty: all) of ReduceXxx, from the
 * attribute or, for ReduceSum from opset 13 on, the second input. */
static int reduce(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0);
	int64_t axes[DMO_MODEL_MAX_RANK], dims[DMO_MODEL_MAX_RANK];
	int keep = dmo_onnx_attr_int(x->n, "keepdims", 1) != 0, reduced[DMO_MODEL_MAX_RANK] = { 0 };
	int count = 0, rank = 0;
	const Onnx__AttributeProto *a = dmo_onnx_attr(x->n, "axes");

	if (v == NULL)
		return -1;
	if (x->n_in > 1 && x->in[1].rank >= 0) {
		const struct dmo_onnx_value *c = values(x, 1, "axes");

		if (c == NULL)
			return -1;
		count = c->n_ints;
		memcpy(axes, c->ints, (size_t)count * sizeof *axes);
	} else if (a) {
		if (a->n_ints > DMO_MODEL_MAX_RANK)
			return bad(x, "%zu axes", a->n_ints);
		count = (int)a->n_ints;
		memcpy(axes, a->ints, (size_t)count * sizeof *axes);
	}
	if (count == 0 && dmo_onnx_attr_int(x->n, "noop_with_empty_axes", 0) != 0) {
		set(&x->out[0], v->elem_type, v->rank, v->dims);
		return 0;
	}
	for (int i = 0; i < count; i++) {
		int ax = axis_of(axes[i], v->rank);

		if (ax < 0)
			return bad(x, "axis %lld of a %d-D input", (long long)axes[i], v->rank);
		reduced[ax] = 1;
	}
	for (int i = 0; i < v->rank; i++) {
		if (count && !reduced[i])
			dims[rank++] = v->dims[i];
		else if (keep)
			dims[rank++] = 1;
	}
	set(&x->out[0], v->elem_type, rank, dims);
	return 0;
}

/* Reshape, Flatten, Squeeze, Unsqueeze: the output shape; the values of a
 * small integer input pass through. */
static int reshape(struct infer *x, const char *op)
{
	const struct dmo_onnx_value *v = shaped(x, 0), *c = NULL;
	int64_t dims[DMO_MODEL_MAX_RANK], target[DMO_ONNX_MAX_INTS], elems = 1, known = 1;
	int rank = 0, count = 0, infer_at = -1;
	const Onnx__AttributeProto *a;

	if (v == NULL)
		return -1;
	for (int i = 0; i < v->rank; i++)
		elems *= v->dims[i];
	if (!strcmp(op, "Flatten")) {
		int ax = (int)dmo_onnx_attr_int(x->n, "axis", 1);

		if (ax < 0)
			ax += v->rank;
		if (ax < 0 || ax > v->rank)
			return bad(x, "axis %d of a %d-D input", ax, v->rank);
		dims[0] = 1;
		for (int i = 0; i < ax; i++)
			dims[0] *= v->dims[i];
		dims[1] = dims[0] ? elems / dims[0] : 0;
		set(&x->out[0], v->elem_type, 2, dims);
		goto values;
	}
	/* The integer list: an input from opset 5 (Reshape) or 13
	 * (Squeeze, Unsqueeze), an attribute before. */
	a = dmo_onnx_attr(x->n, !strcmp(op, "Reshape") ? "shape" : "axes");
	if (x->n_in > 1 && x->in[1].rank >= 0) {
		if ((c = values(x, 1, !strcmp(op, "Reshape") ? "shape" : "axes")) == NULL)
			return -1;
		count = c->n_ints;
		memcpy(target, c->ints, (size_t)count * sizeof *target);
	} else if (a) {
		if (a->n_ints > DMO_ONNX_MAX_INTS)
			return bad(x, "%zu dimensions", a->n_ints);
		count = (int)a->n_ints;
		memcpy(target, a->ints, (size_t)count * sizeof *target);
	} else if (!strcmp(op, "Reshape") || !strcmp(op, "Unsqueeze")) {
		return bad(x, "no %s", !strcmp(op, "Reshape") ? "shape" : "axes");
	}
	if (!strcmp(op, "Reshape")) {
		int allow_zero = dmo_onnx_attr_int(x->n, "allowzero", 0) != 0;

		if (count > DMO_MODEL_MAX_RANK)
			return bad(x, "a %d-D shape", count);
		for (int i = 0; i < count; i++) {
			dims[i] = target[i];
			if (dims[i] == 0 && !allow_zero) {
				if (i >= v->rank)
					return bad(x, "shape entry %d copies a dimension the input lacks", i);
				dims[i] = v->dims[i];
			}
			if (dims[i] == -1 && infer_at < 0)
				infer_at = i;
			else if (dims[i] < 0)
				return bad(x, "shape entry %lld", (long long)dims[i]);
			else
				known *= dims[i];
		}
		if (infer_at >= 0) {
			if (known == 0 || elems % known)
				return bad(x, "%lld elements do not fill the shape", (long long)elems);
			dims[infer_at] = elems / known;
		} else if (known != elems) {
			return bad(x, "a shape of %lld elements for %lld", (long long)known,
				   (long long)elems);
		}
		rank = count;
	} else if (!strcmp(op, "Squeeze")) {
		int drop[DMO_MODEL_MAX_RANK] = { 0 };

		for (int i = 0; i < count; i++) {
			int ax = axis_of(target[i], v->rank);

			if (ax < 0 || v->dims[ax] != 1)
				return bad(x, "axis %lld is not of size 1", (long long)target[i]);
			drop[ax] = 1;
		}
		for (int i = 0; i < v->rank; i++)
			if (count ? !drop[i] : v->dims[i] != 1)
				dims[rank++] = v->dims[i];
	} else { /* Unsqueeze */
		int add[DMO_MODEL_MAX_RANK] = { 0 }, k = 0;

		rank = v->rank + count;
		if (rank > DMO_MODEL_MAX_RANK)
			return bad(x, "rank over %d", DMO_MODEL_MAX_RANK);
		for (int i = 0; i < count; i++) {
			int ax = axis_of(target[i], rank);

			if (ax < 0 || add[ax])
				return bad(x, "axis %lld", (long long)target[i]);
			add[ax] = 1;
		}
		for (int i = 0; i < rank; i++)
			dims[i] = add[i] ? 1 : v->dims[k++];
	}
	set(&x->out[0], v->elem_type, rank, dims);
values:
	if (v->n_ints >= 0) {
		x->out[0].n_ints = v->n_ints;
		memcpy(x->out[0].ints, v->ints, (size_t)v->n_ints * sizeof *v->ints);
	}
	return 0;
}

static int concat(struct infer *x)
{
	const struct dmo_onnx_value *first = shaped(x, 0);
	int64_t dims[DMO_MODEL_MAX_RANK];
	int ax, n_ints = 0;

	if (first == NULL)
		return -1;
	if ((ax = axis_of(dmo_onnx_attr_int(x->n, "axis", first->rank ? 0 : -1), first->rank)) < 0)
		return bad(x, "axis outside a %d-D input", first->rank);
	memcpy(dims, first->dims, sizeof dims);
	dims[ax] = 0;
	for (size_t k = 0; k < x->n_in; k++) {
		const struct dmo_onnx_value *v = shaped(x, k);

		if (v == NULL)
			return -1;
		for (int i = 0; i < first->rank; i++)
			if (v->rank != first->rank || (i != ax && v->dims[i] != first->dims[i]))
				return bad(x, "input %zu's shape differs off the axis", k + 1);
		dims[ax] += v->dims[ax];
		if (n_ints >= 0 && v->n_ints >= 0 && n_ints + v->n_ints <= DMO_ONNX_MAX_INTS) {
			memcpy(x->out[0].ints + n_ints, v->ints, (size_t)v->n_ints * sizeof *v->ints);
			n_ints += v->n_ints;
		} else {
			n_ints = -1;
		}
	}
	set(&x->out[0], first->elem_type, first->rank, dims);
	x->out[0].n_ints = first->rank == 1 ? n_ints : -1;
	return 0;
}

static int pad(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0), *c;
	int64_t pads[2 * DMO_MODEL_MAX_RANK], dims[DMO_MODEL_MAX_RANK];

	if (v == NULL)
		return -1;
	if (x->opset < 11) {
		if (dmo_onnx_attr_ints(x->n, "pads", pads, 2 * (size_t)v->rank, 0))
			return bad(x, "pads not of %d axes", v->rank);
	} else {
		if ((c = values(x, 1, "pads")) == NULL)
			return -1;
		if (c->n_ints != 2 * v->rank)
			return bad(x, "%d pads for a %d-D input", c->n_ints, v->rank);
		memcpy(pads, c->ints, (size_t)c->n_ints * sizeof *pads);
	}
	for (int i = 0; i < v->rank; i++) {
		dims[i] = v->dims[i] + pads[i] + pads[v->rank + i];
		if (dims[i] < 0)
			return bad(x, "pads remove more than axis %d holds", i);
	}
	set(&x->out[0], v->elem_type, v->rank, dims);
	return 0;
}

/* Slice: starts, ends, axes, steps as attributes before opset 10, inputs
 * 2 to 5 from then on. */
int dmo_onnx_slice_axes(const Onnx__NodeProto *n, int64_t opset, const struct dmo_onnx_value *v,
			const struct dmo_onnx_value *lists, size_t n_lists, int64_t *start, int64_t *step,
			int64_t *dims, char *why, size_t why_len)
{
	int64_t list[4][DMO_ONNX_MAX_INTS];
	static const char *const names[4] = { "starts", "ends", "axes", "steps" };
	int count = -1;

	for (int k = 0; k < 4; k++) {
		int given = -1;

		if (opset < 10) {
			const Onnx__AttributeProto *a = dmo_onnx_attr(n, names[k]);

			if (a && a->n_ints <= DMO_ONNX_MAX_INTS) {
				given = (int)a->n_ints;
				memcpy(list[k], a->ints, (size_t)given * sizeof **list);
			}
		} else if ((size_t)k < n_lists && lists[k].rank >= 0) {
			if (lists[k].n_ints < 0) {
				snprintf(why, why_len, "its %s (input %d) is not a constant dmo can read",
					 names[k], k + 2);
				return -1;
			}
			given = lists[k].n_ints;
			memcpy(list[k], lists[k].ints, (size_t)given * sizeof **list);
		}
		if (k < 2 && given < 0) {
			snprintf(why, why_len, "no %s", names[k]);
			return -1;
		}
		if (count < 0)
			count = given;
		for (int i = given < 0 ? 0 : count; given < 0 && i < count; i++)
			list[k][i] = k == 2 ? i : 1; /* default axes, steps */
		if (given >= 0 && given != count) {
			snprintf(why, why_len, "%s of %d entries, starts of %d", names[k], given, count);
			return -1;
		}
	}
	for (int i = 0; i < v->rank; i++) {
		start[i] = 0;
		step[i] = 1;
		dims[i] = v->dims[i];
	}
	for (int i = 0; i < count; i++) {
		int ax = axis_of(list[2][i], v->rank);
		int64_t len, from = list[0][i], end = list[1][i], by = list[3][i];

		if (ax < 0 || by == 0) {
			snprintf(why, why_len, "axis %lld or step 0", (long long)list[2][i]);
			return -1;
		}
		len = v->dims[ax];
		from = from < 0 ? from + len : from;
		end = end < 0 ? end + len : end;
		if (by > 0) {
			from = from < 0 ? 0 : from > len ? len : from;
			end = end < 0 ? 0 : end > len ? len : end;
			dims[ax] = end > from ? (end - from + by - 1) / by : 0;
		} else {
			from = from < 0 ? -1 : from >= len ? len - 1 : from;
			end = end < -1 ? -1 : end >= len ? len - 1 : end;
			dims[ax] = from > end ? (from - end - by - 1) / -by : 0;
		}
		start[ax] = from;
		step[ax] = by;
	}
	return 0;
}

static int slice(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0);
	int64_t start[DMO_MODEL_MAX_RANK], step[DMO_MODEL_MAX_RANK], dims[DMO_MODEL_MAX_RANK];
	int n_ints = -1;

	if (v == NULL)
		return -1;
	if (dmo_onnx_slice_axes(x->n, x->opset, v, x->in + 1, x->n_in > 0 ? x->n_in - 1 : 0, start,
				step, dims, x->why, x->why_len))
		return -1;
	/* A slice of a shape: its values too. */
	if (v->rank == 1 && v->n_ints == v->dims[0]) {
		n_ints = (int)dims[0];
		for (int64_t k = 0; k < dims[0]; k++)
			x->out[0].ints[k] = v->ints[start[0] + k * step[0]];
	}
	set(&x->out[0], v->elem_type, v->rank, dims);
	x->out[0].n_ints = n_ints;
	return 0;
}

static int split(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0);
	int64_t parts[DMO_ONNX_MAX_INTS], sum = 0;
	const Onnx__AttributeProto *a = dmo_onnx_attr(x->n, "split");
	int ax;

	if (v == NULL)
		return -1;
	if ((ax = axis_of(dmo_onnx_attr_int(x->n, "axis", 0), v->rank)) < 0)
		return bad(x, "axis outside a %d-D input", v->rank);
	if (x->n_out > DMO_ONNX_MAX_INTS)
		return bad(x, "%zu outputs", x->n_out);
	if (x->n_in > 1 && x->in[1].rank >= 0) {
		const struct dmo_onnx_value *c = values(x, 1, "split");

		if (c == NULL)
			return -1;
		if ((size_t)c->n_ints != x->n_out)
			return bad(x, "%d parts for %zu outputs", c->n_ints, x->n_out);
		memcpy(parts, c->ints, x->n_out * sizeof *parts);
	} else if (a) {
		if (a->n_ints != x->n_out)
			return bad(x, "%zu parts for %zu outputs", a->n_ints, x->n_out);
		memcpy(parts, a->ints, x->n_out * sizeof *parts);
	} else {
		/* Equal parts; from opset 18 (num_outputs) an uneven
		 * division gives each ceil(dim / n) and the last the rest. */
		const int64_t n = (int64_t)x->n_out, each = (v->dims[ax] + n - 1) / n;

		if (v->dims[ax] % n && !dmo_onnx_attr(x->n, "num_outputs"))
			return bad(x, "%lld elements in %zu equal parts", (long long)v->dims[ax],
				   x->n_out);
		for (size_t k = 0; k < x->n_out; k++)
			parts[k] = k + 1 < x->n_out ? each : v->dims[ax] - (n - 1) * each;
	}
	for (size_t k = 0; k < x->n_out; k++)
		sum += parts[k] < 0 ? v->dims[ax] + 1 : parts[k];
	if (sum != v->dims[ax])
		return bad(x, "parts that do not add up to the %lld elements of axis %d",
			   (long long)v->dims[ax], ax);
	for (size_t k = 0; k < x->n_out; k++) {
		set(&x->out[k], v->elem_type, v->rank, v->dims);
		x->out[k].dims[ax] = parts[k];
	}
	return 0;
}

static int gather(struct infer *x)
{
	const struct dmo_onnx_value *v = shaped(x, 0), *idx = v ? shaped(x, 1) : NULL;
	int64_t dims[DMO_MODEL_MAX_RANK];
	int ax, rank = 0;

	if (idx == NULL)
		return -1;
	if ((ax = axis_of(dmo_onnx_attr_int(x->n, "axis", 0), v->rank)) < 0)
		return bad(x, "axis outside a %d-D input", v->rank);
	if (v->rank - 1 + idx->rank > DMO_MODEL_MAX_RANK)
		return bad(x, "rank over %d", DMO_MODEL_MAX_RANK);
	for (int i = 0; i < ax; i++)
		dims[rank++] = v->dims[i];
	for (int i = 0; i < idx->rank; i++)
		dims[rank++] = idx->dims[i];
	for (int i = ax + 1; i < v->rank; i++)
		dims[rank++] = v->dims[i];
	set(&x->out[0], v->elem_type, rank, dims);
	/* Picking entries of a shape: PyTorch's x.size(0). */
	if (v->rank == 1 && v->n_ints >= 0 && idx->n_ints >= 0) {
		for (int i = 0; i < idx->n_ints; i++) {
			int k = axis_of(idx->ints[i], v->n_ints);

			if (k < 0)
				return bad(x, "index %lld of %d", (long long)idx->ints[i], v->n_ints);
			x->out[0].ints[i] = v->ints[k];
		}
		x->out[0].n_ints = idx->n_ints;
	}
	return 0;
}

/* Operators whose one output has their first input's type and shape. */
static const char *const same_shape[] = {
	"Relu", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Tanh", "Sigmoid", "HardSigmoid",
	"HardSwish", "Softplus", "Softsign", "Clip", "Exp", "Log", "Sqrt", "Neg", "Abs",
	"Reciprocal", "Floor", "Ceil", "Round", "Erf", "Sign", "Sin", "Cos", "Identity",
	"Softmax", "LogSoftmax", "Hardmax", "LRN", "BatchNormalization",
	"InstanceNormalization", "LayerNormalization", "Dropout", "Mish", "Gelu",
	"DynamicQuantizeLinear", NULL
};
/* Broadcasting operators whose output has the inputs' type, and those
 * whose output is bool. */
static const char *const broadcasting[] = { "Add", "Sub", "Mul", "Div", "Pow", "Max", "Min",
					    "Sum", "Mean", "Mod", NULL };
static const char *const comparing[] = { "Equal", "Less", "Greater", "LessOrEqual",
					 "GreaterOrEqual", "And", "Or", "Xor", NULL };
static const char *const reductions[] = { "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin",
					  "ReduceProd", "ReduceL1", "ReduceL2",
					  "ReduceSumSquare", "ReduceLogSumExp", NULL };

static int infer(struct infer *x)
{
	const char *op = x->n->op_type;
	const struct dmo_onnx_value *v;

	if (is(op, same_shape)) {
		if ((v = shaped(x, 0)) == NULL)
			return -1;
		set(&x->out[0], v->elem_type, v->rank, v->dims);
		if (x->n_out > 1 && !strcmp(op, "Dropout")) /* the mask */
			set(&x->out[1], T_BOOL, v->rank, v->dims);
		else if (!strcmp(op, "DynamicQuantizeLinear")) {
			x->out[0].elem_type = T_UINT8;
			for (size_t k = 1; k < x->n_out; k++) /* scale, zero point */
				set(&x->out[k], k == 1 ? T_FLOAT : T_UINT8, 0, v->dims);
		} else if (x->n_out > 1) {
			return bad(x, "outputs beyond the first (training mode)");
		}
		return 0;
	}
	if (is(op, broadcasting) || is(op, comparing) || !strcmp(op, "Where")) {
		size_t first = !strcmp(op, "Where");

		if ((v = shaped(x, first)) == NULL)
			return -1;
		x->out[0].elem_type = is(op, comparing) ? T_BOOL : v->elem_type;
		return broadcast(x, 0, x->n_in, &x->out[0]);
	}
	if (!strcmp(op, "Not") || !strcmp(op, "IsNaN") || !strcmp(op, "IsInf") ||
	    !strcmp(op, "Cast")) {
		if ((v = shaped(x, 0)) == NULL)
			return -1;
		set(&x->out[0], !strcmp(op, "Cast") ? (int32_t)dmo_onnx_attr_int(x->n, "to", 0)
						     : T_BOOL,
		    v->rank, v->dims);
		if (!strcmp(op, "Cast") && v->n_ints >= 0) {
			x->out[0].n_ints = v->n_ints;
			memcpy(x->out[0].ints, v->ints, (size_t)v->n_ints * sizeof *v->ints);
		}
		return 0;
	}
	if (!strcmp(op, "QuantizeLinear") || !strcmp(op, "DequantizeLinear")) {
		/* The output type is the zero point's (uint8 when absent),
		 * or float. */
		if ((v = shaped(x, 0)) == NULL)
			return -1;
		set(&x->out[0], op[0] == 'D'                      ? T_FLOAT
				: x->n_in > 2 && x->in[2].rank >= 0 ? x->in[2].elem_type
								     : T_UINT8,
		    v->rank, v->dims);
		return 0;
	}
	if (!strcmp(op, "Reshape") || !strcmp(op, "Flatten") || !strcmp(op, "Squeeze") ||
	    !strcmp(op, "Unsqueeze"))
		return reshape(x, op);
	if (!strcmp(op, "Transpose")) {
		int64_t perm[DMO_MODEL_MAX_RANK], dims[DMO_MODEL_MAX_RANK];

		if ((v = shaped(x, 0)) == NULL)
			return -1;
		if (dmo_onnx_attr_ints(x->n, "perm", perm, (size_t)v->rank, -1))
			return bad(x, "perm not of %d axes", v->rank);
		for (int i = 0; i < v->rank; i++) {
			int64_t p = dmo_onnx_attr(x->n, "perm") ? perm[i] : v->rank - 1 - i;

			if (p < 0 || p >= v->rank)
				return bad(x, "perm entry %lld", (long long)p);
			dims[i] = v->dims[p];
		}
		set(&x->out[0], v->elem_type, v->rank, dims);
		return 0;
	}
	if (!strcmp(op, "Conv"))
		return conv(x, 0, 1, shaped(x, 0) ? x->in[0].elem_type : 0);
	if (!strcmp(op, "QLinearConv") || !strcmp(op, "ConvInteger")) {
		int q = op[0] == 'Q';

		return conv(x, 0, q ? 3 : 1,
			    !q ? T_INT32 : x->n_in > 7 && x->in[7].rank >= 0 ? x->in[7].elem_type : T_UINT8);
	}
	if (!strcmp(op, "ConvTranspose"))
		return conv_transpose(x);
	if (!strcmp(op, "Resize") || !strcmp(op, "Upsample")) {
		/* Each output dim is the input's times its scale, rounded
		 * down (Upsample's scales are input 2, Resize's input 3 from
		 * opset 11, 2 before), or sizes (input 4). */
		size_t k = !strcmp(op, "Resize") && x->opset >= 11 ? 2 : 1;
		const struct dmo_onnx_value *c = k + 1 < x->n_in ? &x->in[k + 1] : NULL;

		if ((v = shaped(x, 0)) == NULL)
			return -1;
		set(&x->out[0], v->elem_type, v->rank, v->dims);
		if (c && c->rank >= 0 && c->n_ints == v->rank) { /* sizes */
			memcpy(x->out[0].dims, c->ints, (size_t)v->rank * sizeof *c->ints);
			return 0;
		}
		if (k >= x->n_in || x->in[k].n_floats != v->rank)
			return bad(x, "its scales (input %zu) are not a constant dmo can read", k + 1);
		for (int i = 0; i < v->rank; i++) {
			double d = (double)v->dims[i] * x->in[k].floats[i];

			if (!(d >= 0 && d < (double)((int64_t)1 << 40)))
				return bad(x, "scale %g of dimension %d", x->in[k].floats[i], i);
			x->out[0].dims[i] = (int64_t)d; /* rounded down */
		}
		return 0;
	}
	if (!strcmp(op, "Tile")) {
		const struct dmo_onnx_value *r;

		if ((v = shaped(x, 0)) == NULL || (r = values(x, 1, "repeats")) == NULL)
			return -1;
		if (r->n_ints != v->rank)
			return bad(x, "%d repeats for a %d-D input", r->n_ints, v->rank);
		set(&x->out[0], v->elem_type, v->rank, v->dims);
		for (int i = 0; i < v->rank; i++)
			x->out[0].dims[i] *= r->ints[i];
		return 0;
	}
	if (!strcmp(op, "MaxPool") || !strcmp(op, "AveragePool") || !strcmp(op, "LpPool")) {
		int64_t kernel[DMO_MODEL_MAX_RANK];
		int ns;

		if ((v = shaped(x, 0)) == NULL)
			return -1;
		ns = v->rank - 2;
		if (ns < 1 || dmo_onnx_attr(x->n, "kernel_shape") == NULL ||
		    dmo_onnx_attr_ints(x->n, "kernel_shape", kernel, (size_t)ns, 0))
			return bad(x, "kernel_shape not of the input's %d spatial axes", ns);
		if (window(x, 0, kernel, 0, v->elem_type) != 0)
			return -1;
		if (x->n_out > 1) /* MaxPool's indices */
			set(&x->out[1], T_INT64, x->out[0].rank, x->out[0].dims);
		return 0;
	}
	if (!strcmp(op, "GlobalAveragePool") || !strcmp(op, "GlobalMaxPool") ||
	    !strcmp(op, "GlobalLpPool")) {
		if ((v = shaped(x, 0)) == NULL)
			return -1;
		if (v->rank < 3)
			return bad(x, "a %d-D input (N x C x spatial...)", v->rank);
		set(&x->out[0], v->elem_type, v->rank, v->dims);
		for (int i = 2; i < v->rank; i++)
			x->out[0].dims[i] = 1;
		return 0;
	}
	if (!strcmp(op, "Gemm")) {
		const struct dmo_onnx_value *a = shaped(x, 0), *b = a ? shaped(x, 1) : NULL;
		int ta = dmo_onnx_attr_int(x->n, "transA", 0) != 0;
		int tb = dmo_onnx_attr_int(x->n, "transB", 0) != 0;
		int64_t dims[2];

		if (b == NULL)
			return -1;
		if (a->rank != 2 || b->rank != 2)
			return bad(x, "A or B not 2-D");
		if (a->dims[ta ? 0 : 1] != b->dims[tb ? 1 : 0])
			return bad(x, "inner dimensions %lld and %lld differ",
				   (long long)a->dims[ta ? 0 : 1], (long long)b->dims[tb ? 1 : 0]);
		dims[0] = a->dims[ta ? 1 : 0];
		dims[1] = b->dims[tb ? 0 : 1];
		set(&x->out[0], a->elem_type, 2, dims);
		return 0;
	}
	if (!strcmp(op, "MatMul"))
		return matmul(x, 0, 1, shaped(x, 0) ? x->in[0].elem_type : 0);
	if (!strcmp(op, "MatMulInteger"))
		return matmul(x, 0, 1, T_INT32);
	if (!strcmp(op, "QLinearMatMul"))
		return matmul(x, 0, 3, x->n_in > 7 && x->in[7].rank >= 0 ? x->in[7].elem_type : T_UINT8);
	if (!strcmp(op, "Concat"))
		return concat(x);
	if (!strcmp(op, "Pad"))
		return pad(x);
	if (is(op, reductions))
		return reduce(x);
	if (!strcmp(op, "Slice"))
		return slice(x);
	if (!strcmp(op, "Split"))
		return split(x);
	if (!strcmp(op, "Gather"))
		return gather(x);
	if (!strcmp(op, "Shape")) {
		/* Dimensions start to end (opset 15), clamped to the rank. */
		int64_t start, end, len;

		if ((v = shaped(x, 0)) == NULL)
			return -1;
		start = dmo_onnx_attr_int(x->n, "start", 0);
		end = dmo_onnx_attr_int(x->n, "end", v->rank);
		start = start < 0 ? start + v->rank : start;
		end = end < 0 ? end + v->rank : end;
		start = start < 0 ? 0 : start > v->rank ? v->rank : start;
		end = end < start ? start : end > v->rank ? v->rank : end;
		len = end - start;
		set(&x->out[0], T_INT64, 1, &len);
		x->out[0].n_ints = (int)len;
		memcpy(x->out[0].ints, v->dims + start, (size_t)len * sizeof *v->dims);
		return 0;
	}
	return 1;
}

int dmo_onnx_infer_shapes(const Onnx__NodeProto *n, int64_t opset,
			  const struct dmo_onnx_value *in, size_t n_in,
			  struct dmo_onnx_value *out, size_t n_out, char *why, size_t why_len)
{
	struct infer x = { .n = n, .opset = opset, .in = in, .n_in = n_in, .out = out,
			   .n_out = n_out, .why = why, .why_len = why_len };

	for (size_t k = 0; k < n_out; k++)
		out[k] = (struct dmo_onnx_value){ .rank = -1, .n_ints = -1, .n_floats = -1 };
	if (n->op_type == NULL || n_out == 0)
		return 1;
	return infer(&x);
}

int dmo_onnx_infer_qoperator_shapes(const Onnx__NodeProto *n, const struct dmo_onnx_value *in,
				    size_t n_in, struct dmo_onnx_value *out, size_t n_out,
				    char *why, size_t why_len)
{
	/* QLinearAdd and QLinearMul broadcast A (input 1) and B (input 4). */
	struct dmo_onnx_value operands[2];
	struct infer x = { .n = n, .in = operands, .n_in = 2, .out = out, .n_out = n_out,
			   .why = why, .why_len = why_len };
	const char *op = n->op_type;

	for (size_t k = 0; k < n_out; k++)
		out[k] = (struct dmo_onnx_value){ .rank = -1, .n_ints = -1, .n_floats = -1 };
	if (op == NULL || n_out == 0)
		return 1;
	if (!strcmp(op, "QLinearAdd") || !strcmp(op, "QLinearMul")) {
		if (n_in < 4)
			return bad(&x, "%zu inputs (A, its scale and zero point, B, ...)", n_in);
		operands[0] = in[0];
		operands[1] = in[3];
		out[0].elem_type = in[0].elem_type;
		return broadcast(&x, 0, 2, &out[0]);
	}
	if (!strcmp(op, "QLinearAveragePool") && dmo_onnx_attr_int(n, "channels_last", 0) == 0) {
		/* AveragePool's window over X (NCHW). */
		int64_t kernel[DMO_MODEL_MAX_RANK];

		x.in = in;
		x.n_in = n_in;
		if (shaped(&x, 0) == NULL)
			return -1;
		if (in[0].rank < 3 ||
		    dmo_onnx_attr_ints(n, "kernel_shape", kernel, (size_t)in[0].rank - 2, 0) ||
		    dmo_onnx_attr(n, "kernel_shape") == NULL)
			return bad(&x, "kernel_shape not of the input's %d spatial axes", in[0].rank - 2);
		return window(&x, 0, kernel, 0, in[0].elem_type);
	}
	if (!strcmp(op, "QGemm")) {
		/* Y [M, N]: A [M, K] (or [K, M]), B [K, N] (or [N, K]); Y's
		 * type its zero point's, float without one. */
		const int ta = dmo_onnx_attr_int(n, "transA", 0) != 0;
		const int tb = dmo_onnx_attr_int(n, "transB", 0) != 0;
		int64_t dims[2];

		x.in = in;
		x.n_in = n_in;
		if (shaped(&x, 0) == NULL || shaped(&x, 3) == NULL)
			return -1;
		if (in[0].rank != 2 || in[3].rank != 2)
			return bad(&x, "A and B not 2-D");
		dims[0] = in[0].dims[ta];
		dims[1] = in[3].dims[!tb];
		set(&out[0], n_in > 8 && in[8].rank >= 0 ? in[8].elem_type : T_FLOAT, 2, dims);
		return 0;
	}
	if (!strcmp(op, "QLinearConcat")) {
		/* The Xs (inputs 3, 6, ...) joined along axis. */
		int64_t axis = dmo_onnx_attr_int(n, "axis", 0);
		int64_t dims[DMO_MODEL_MAX_RANK];

		x.in = in;
		x.n_in = n_in;
		if (n_in < 5 || (n_in - 2) % 3 || shaped(&x, 2) == NULL)
			return n_in < 5 || (n_in - 2) % 3 ? bad(&x, "%zu inputs, not Y's scale and zero point "
								 "and a triple an input", n_in) : -1;
		const int rank = in[2].rank;
		axis += axis < 0 ? rank : 0;
		if (axis < 0 || axis >= rank)
			return bad(&x, "axis outside the %d-D inputs", rank);
		memcpy(dims, in[2].dims, sizeof dims);
		for (size_t k = 5; k < n_in; k += 3) {
			if (shaped(&x, k) == NULL)
				return -1;
			if (in[k].rank != rank)
				return bad(&x, "inputs of ranks %d and %d", rank, in[k].rank);
			dims[axis] += in[k].dims[axis];
		}
		set(&out[0], in[2].elem_type, rank, dims);
		return 0;
	}
	if (!strcmp(op, "QLinearGlobalAveragePool")) {
		/* N x C x spatial..., or with channels_last N x spatial... x C. */
		const int last = dmo_onnx_attr_int(n, "channels_last", 0) != 0;
		const struct dmo_onnx_value *v;

		x.in = in;
		x.n_in = n_in;
		if ((v = shaped(&x, 0)) == NULL)
			return -1;
		if (v->rank < 3)
			return bad(&x, "a %d-D input (N x C x spatial...)", v->rank);
		set(&out[0], v->elem_type, v->rank, v->dims);
		for (int i = 2 - last; i < v->rank - last; i++)
			out[0].dims[i] = 1;
		return 0;
	}
	return 1;
}
