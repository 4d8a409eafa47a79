/* test_model_tflite.c - Check tests of the TFLite reader on small models
 * written here: a FlatBuffer writer (vtable before each table, every field
 * in an 8-byte slot, children after their parents, as the format allows),
 * a valid one-operator model, and copies of it with one field or one byte
 * made wrong.  Each case asserts the reader's status and its whole message,
 * whose text is what model_tflite.c and flatbuf.c say for that fault; the
 * accepted ones assert the op spec, derived by hand next to the case. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "model_table.h"

/* ---- A FlatBuffer writer ------------------------------------------------ */

struct fbb {
	unsigned char d[1 << 16];
	size_t len;
};

static void put_le(unsigned char *p, uint64_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static uint64_t get_le(const unsigned char *p, size_t n)
{
	uint64_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)p[i] << 8 * i;
	return v;
}

static size_t reserve(struct fbb *b, size_t n)
{
	size_t at = b->len;

	ck_assert_uint_le(b->len + n, sizeof b->d);
	memset(b->d + at, 0, n);
	b->len += n;
	return at;
}

/* A table of N_FIELDS 8-byte slots, all absent; returns its position. */
static size_t fb_new_table(struct fbb *b, unsigned n_fields)
{
	size_t vt = reserve(b, 4 + 2 * (size_t)n_fields), t = reserve(b, 4 + 8 * (size_t)n_fields);

	put_le(b->d + vt, 4 + 2 * n_fields, 2);
	put_le(b->d + vt + 2, 4 + 8 * n_fields, 2);
	put_le(b->d + t, t - vt, 4); /* vtable = table - soffset */
	return t;
}

static size_t slot(struct fbb *b, size_t t, unsigned id)
{
	size_t vt = t - (size_t)get_le(b->d + t, 4);

	put_le(b->d + vt + 4 + 2 * id, 4 + 8 * id, 2);
	return t + 4 + 8 * id;
}

/* A scalar field (the reader takes the low bytes it needs). */
static void fb_set(struct fbb *b, size_t t, unsigned id, uint64_t v)
{
	put_le(b->d + slot(b, t, id), v, 8);
}

/* An offset field to TARGET (written after the table). */
static void fb_ref(struct fbb *b, size_t t, unsigned id, size_t target)
{
	size_t at = slot(b, t, id);

	put_le(b->d + at, target - at, 4);
}

/* A vector of N elements of SIZE bytes; returns the position of its count. */
static size_t fb_vec(struct fbb *b, uint32_t n, size_t size, const void *elems)
{
	size_t at = reserve(b, 4 + n * size);

	put_le(b->d + at, n, 4);
	if (elems)
		memcpy(b->d + at + 4, elems, n * size);
	return at;
}

static size_t fb_vec_i32(struct fbb *b, uint32_t n, const int32_t *v)
{
	size_t at = fb_vec(b, n, 4, NULL);

	for (uint32_t i = 0; i < n; i++)
		put_le(b->d + at + 4 + 4 * i, (uint32_t)v[i], 4);
	return at;
}

static void fb_vec_ref(struct fbb *b, size_t vec, uint32_t i, size_t target)
{
	size_t at = vec + 4 + 4 * (size_t)i;

	put_le(b->d + at, target - at, 4);
}

static size_t fb_string(struct fbb *b, const char *s)
{
	size_t at = fb_vec(b, (uint32_t)strlen(s) + 1, 1, s);

	put_le(b->d + at, strlen(s), 4); /* the count leaves out the NUL */
	return at;
}

/* ---- A model description and its FlatBuffer ------------------------------ */

enum { F32 = 0, I32 = 2, U8 = 3, I64 = 4, I16 = 7, I8 = 9 };

struct t_tensor {
	const char *name;       /* NULL: no name field */
	uint8_t type;
	int rank;               /* -1: no shape field */
	int32_t shape[10];
	uint32_t buffer;
	int variable;
	int n_scale;
	float scale[2];
	int64_t zero[2];
};

#define TENSOR(n, ty, r, ...) \
	((struct t_tensor){ .name = (n), .type = (ty), .rank = (r), .shape = { __VA_ARGS__ } })

#define MAX_OPT 8
struct t_op {
	uint32_t code_index;
	int n_in, n_out;
	int32_t in[4], out[2];
	uint8_t opt_type;
	int32_t opt[MAX_OPT];   /* option field values, used when set */
	unsigned opt_set;       /* bit per option field */
};

struct t_buffer {
	size_t len;             /* of DATA, inside the FlatBuffer */
	const void *data;
	uint64_t offset, size;  /* data after the FlatBuffer (files over 2 GB) */
};

struct t_model {
	uint32_t version;
	int n_codes;
	int32_t builtin[3];
	int8_t deprecated[3];
	const char *custom[3];
	int n_subgraphs;
	const char *subgraph_name[3];
	int n_tensors;
	struct t_tensor tensor[6];
	int n_in, n_out;
	int32_t in[3], out[3];
	int n_ops;
	struct t_op op[3];
	int n_buffers;
	struct t_buffer buffer[3];
};

/* Where the writer put things a case then damages. */
struct t_where {
	size_t root, subgraph, tensors, tensor[6], op[3];
};

static void write_model(struct fbb *b, const struct t_model *m, struct t_where *w)
{
	size_t root, codes, subs, bufs, g, v;

	memset(w, 0, sizeof *w);
	b->len = 0;
	reserve(b, 8);
	memcpy(b->d + 4, "TFL3", 4);
	root = w->root = fb_new_table(b, 5);
	put_le(b->d, root, 4);
	fb_set(b, root, 0, m->version);
	codes = fb_vec(b, (uint32_t)m->n_codes, 4, NULL);
	fb_ref(b, root, 1, codes);
	subs = fb_vec(b, (uint32_t)m->n_subgraphs, 4, NULL);
	fb_ref(b, root, 2, subs);
	bufs = fb_vec(b, (uint32_t)m->n_buffers, 4, NULL);
	fb_ref(b, root, 4, bufs);
	for (int i = 0; i < m->n_codes; i++) {
		size_t c = fb_new_table(b, 4);

		fb_vec_ref(b, codes, (uint32_t)i, c);
		fb_set(b, c, 0, (uint8_t)m->deprecated[i]);
		fb_set(b, c, 3, (uint32_t)m->builtin[i]);
		if (m->custom[i])
			fb_ref(b, c, 1, fb_string(b, m->custom[i]));
	}
	for (int i = 0; i < m->n_buffers; i++) {
		const struct t_buffer *tb = &m->buffer[i];
		size_t t = fb_new_table(b, 3);

		fb_vec_ref(b, bufs, (uint32_t)i, t);
		if (tb->len)
			fb_ref(b, t, 0, fb_vec(b, (uint32_t)tb->len, 1, tb->data));
		if (tb->offset)
			fb_set(b, t, 1, tb->offset);
		if (tb->size)
			fb_set(b, t, 2, tb->size);
	}
	for (int s = 0; s < m->n_subgraphs; s++) {
		g = fb_new_table(b, 5);
		fb_vec_ref(b, subs, (uint32_t)s, g);
		if (m->subgraph_name[s])
			fb_ref(b, g, 4, fb_string(b, m->subgraph_name[s]));
		if (s > 0)
			continue;
		w->subgraph = g;
		fb_ref(b, g, 1, fb_vec_i32(b, (uint32_t)m->n_in, m->in));
		fb_ref(b, g, 2, fb_vec_i32(b, (uint32_t)m->n_out, m->out));
		w->tensors = v = fb_vec(b, (uint32_t)m->n_tensors, 4, NULL);
		fb_ref(b, g, 0, v);
		for (int i = 0; i < m->n_tensors; i++) {
			const struct t_tensor *tt = &m->tensor[i];
			size_t t = w->tensor[i] = fb_new_table(b, 8);

			fb_vec_ref(b, v, (uint32_t)i, t);
			if (tt->rank >= 0)
				fb_ref(b, t, 0, fb_vec_i32(b, (uint32_t)tt->rank, tt->shape));
			fb_set(b, t, 1, tt->type);
			fb_set(b, t, 2, tt->buffer);
			if (tt->name)
				fb_ref(b, t, 3, fb_string(b, tt->name));
			if (tt->variable)
				fb_set(b, t, 5, 1);
			if (tt->n_scale) {
				size_t q = fb_new_table(b, 7);

				fb_ref(b, t, 4, q);
				fb_ref(b, q, 2, fb_vec(b, (uint32_t)tt->n_scale, 4, tt->scale));
				fb_ref(b, q, 3, fb_vec(b, (uint32_t)tt->n_scale, 8, tt->zero));
			}
		}
		v = fb_vec(b, (uint32_t)m->n_ops, 4, NULL);
		fb_ref(b, g, 3, v);
		for (int i = 0; i < m->n_ops; i++) {
			const struct t_op *o = &m->op[i];
			size_t t = w->op[i] = fb_new_table(b, 5);

			fb_vec_ref(b, v, (uint32_t)i, t);
			fb_set(b, t, 0, o->code_index);
			fb_ref(b, t, 1, fb_vec_i32(b, (uint32_t)o->n_in, o->in));
			fb_ref(b, t, 2, fb_vec_i32(b, (uint32_t)o->n_out, o->out));
			if (o->opt_type) {
				size_t opts = fb_new_table(b, MAX_OPT);

				fb_set(b, t, 3, o->opt_type);
				fb_ref(b, t, 4, opts);
				for (unsigned k = 0; k < MAX_OPT; k++)
					if (o->opt_set & 1u << k)
						fb_set(b, opts, k, (uint32_t)o->opt[k]);
			}
		}
	}
}

/* BuiltinOperator and BuiltinOptions values (schema.fbs). */
enum { ADD = 0, AVERAGE_POOL_2D = 1, CONCATENATION = 2, CONV_2D = 3, DEPTHWISE_CONV_2D = 4,
       FULLY_CONNECTED = 9, MAX_POOL_2D = 17, RELU = 19, CUSTOM = 32, PAD = 34,
       TRANSPOSE = 39, MEAN = 40, QUANTIZE = 114 };
enum { OPT_CONV = 1, OPT_DWCONV = 2, OPT_POOL = 5, OPT_FC = 8, OPT_CONCAT = 10 };

/* The base model: one RELU of a float32 1x2x2x3 tensor "in" into "out",
 * buffer 0 empty as TFLite writes it.  Cases change it before writing. */
static struct t_model relu_model(void)
{
	return (struct t_model){
		.version = 3,
		.n_codes = 1, .builtin = { RELU },
		.n_subgraphs = 1,
		.n_tensors = 2,
		.tensor = { TENSOR("in", F32, 4, 1, 2, 2, 3), TENSOR("out", F32, 4, 1, 2, 2, 3) },
		.n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 },
		.n_ops = 1,
		.op = { { .n_in = 1, .in = { 0 }, .n_out = 1, .out = { 1 } } },
		.n_buffers = 1,
	};
}

/* One operator CODE reading tensor 0 and a second operand, tensor 2 (a
 * constant in buffer 1 when DATA is given), writing tensor 1. */
static struct t_model binary_model(int32_t code, struct t_tensor in, struct t_tensor arg,
				   struct t_tensor out, const void *data, size_t len)
{
	struct t_model m = relu_model();

	m.builtin[0] = code;
	m.n_tensors = 3;
	m.tensor[0] = in;
	m.tensor[1] = out;
	m.tensor[2] = arg;
	m.op[0].n_in = 2;
	m.op[0].in[1] = 2;
	if (data) {
		m.n_buffers = 2;
		m.buffer[1] = (struct t_buffer){ .len = len, .data = data };
		m.tensor[2].buffer = 1;
	}
	return m;
}

static void set_opt(struct t_op *o, uint8_t type, unsigned id, int32_t v)
{
	o->opt_type = type;
	o->opt[id] = v;
	o->opt_set |= 1u << id;
}

static struct fbb buf;
static struct t_where where;

static int parse(struct dmo_model *out, char *err, size_t len)
{
	return dmo_model_parse_tflite(buf.d, buf.len, "m.tflite", NULL, 0, out, err, len);
}

/* Write M, read it, and expect refusal with exactly WANT. */
static void expect_refused(const char *want)
{
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(parse(&m, err, sizeof err), -1);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(m.n_layers, 0);
	ck_assert_ptr_null(m.tensors);
}

static void refused(const struct t_model *tm, const char *want)
{
	write_model(&buf, tm, &where);
	expect_refused(want);
}

/* Write M, read it, expect it accepted; the caller frees *OUT. */
static void accepted(const struct t_model *tm, struct dmo_model *out)
{
	char err[512] = "";

	write_model(&buf, tm, &where);
	ck_assert_msg(parse(out, err, sizeof err) == 0, "%s", err);
}

/* Layer 0's op spec, or its reason for having none. */
static void expect_layer(const struct t_model *tm, const char *spec, const char *why)
{
	struct dmo_model m;

	accepted(tm, &m);
	if (spec) {
		ck_assert_msg(m.layers[0].supported, "no spec: %s", m.layers[0].why);
		ck_assert_str_eq(m.layers[0].spec, spec);
	} else {
		ck_assert_int_eq(m.layers[0].supported, 0);
		ck_assert_str_eq(m.layers[0].why, why);
	}
	dmo_model_free(&m);
}

/* ---- Cases --------------------------------------------------------------- */

START_TEST(base_model_reads)
{
	struct t_model tm = relu_model();
	struct dmo_model m;

	accepted(&tm, &m);
	ck_assert_uint_eq(m.n_layers, 1);
	ck_assert_str_eq(m.layers[0].name, "1_relu");
	ck_assert_str_eq(m.layers[0].spec, "relu:in=1x2x2x3,dtype=f32");
	ck_assert_uint_eq(m.tensors[1].bytes, 48);
	dmo_model_free(&m);
}
END_TEST

START_TEST(model_level_faults)
{
	struct t_model tm = relu_model();

	tm.version = 2;
	refused(&tm, "m.tflite: TFLite schema version 2; dmo reads version 3");

	tm = relu_model();
	tm.n_subgraphs = 3;
	tm.subgraph_name[0] = "main";
	tm.subgraph_name[2] = "body";
	refused(&tm, "m.tflite: 3 subgraphs (main, #1, body): dmo plans models of one subgraph (no control flow)");

	tm = relu_model();
	tm.n_ops = 0;
	refused(&tm, "m.tflite: the subgraph has no operators");

	tm = relu_model();
	tm.op[0].code_index = 1;
	refused(&tm, "m.tflite: operator 1 uses operator code 1 of 1");

	tm = relu_model();
	tm.op[0].in[0] = 2;
	refused(&tm, "m.tflite: operator input 0 names tensor 2 of 2");

	tm = relu_model();
	tm.op[0].n_out = 0;
	refused(&tm, "m.tflite: operator 1 (RELU) has no output");

	tm = relu_model();
	tm.op[0].out[0] = -1; /* -1 (optional) is for inputs only */
	refused(&tm, "m.tflite: operator output 0 names tensor -1 of 2");

	tm = relu_model();
	tm.in[0] = 7;
	refused(&tm, "m.tflite: subgraph input 0 names tensor 7 of 2");

	tm = relu_model();
	tm.out[0] = -1;
	refused(&tm, "m.tflite: subgraph output 0 names tensor -1 of 2");
}
END_TEST

START_TEST(tensor_faults)
{
	struct t_model tm = relu_model();
	static const unsigned char four[4];

	tm.tensor[0].type = 200;
	refused(&tm, "m.tflite: tensor 'in' has unknown type 200");

	tm = relu_model();
	tm.tensor[1].rank = 9;
	refused(&tm, "m.tflite: tensor 'out' has rank 9, dmo reads up to 8");

	tm = relu_model();
	tm.tensor[0].shape[0] = -1;
	refused(&tm, "m.tflite: tensor 'in' has dimension 0 = -1: give its shape with --shape 'in=D1x...'");

	/* 2^20 * 2^20 * 2 elements: past 2^40 at the third dimension. */
	tm = relu_model();
	tm.tensor[0].rank = 3;
	tm.tensor[0].shape[0] = 1 << 20;
	tm.tensor[0].shape[1] = 1 << 20;
	tm.tensor[0].shape[2] = 2;
	refused(&tm, "m.tflite: tensor 'in' has over 2^40 elements");

	tm = relu_model();
	tm.tensor[0].buffer = 3;
	refused(&tm, "m.tflite: tensor 'in' uses buffer 3 of 1");

	/* Data "after the FlatBuffer" (offset, size) that is not there. */
	tm = relu_model();
	tm.n_buffers = 2;
	tm.buffer[1] = (struct t_buffer){ .offset = 1 << 20, .size = 4 };
	tm.tensor[0].buffer = 1;
	refused(&tm, "m.tflite: tensor 'in': buffer 1's data [1048576, +4) lies outside the file");

	/* A tensor with no name is named by its index; one the operator
	 * writes but that is a constant is refused by the linker. */
	tm = relu_model();
	tm.tensor[1].name = NULL;
	tm.n_buffers = 2;
	tm.buffer[1] = (struct t_buffer){ .len = 4, .data = four };
	tm.tensor[1].buffer = 1;
	refused(&tm, "m.tflite: operator 1 (1_relu) writes tensor 'tensor1', which is a constant");

	tm = relu_model();
	tm.tensor[1].variable = 1;
	refused(&tm, "m.tflite: operator 1 (1_relu) writes tensor 'out', which is a variable (state) tensor, not supported as an output");

	tm = relu_model();
	tm.n_in = 2;
	tm.in[1] = 1;
	refused(&tm, "m.tflite: operator 1 (1_relu) writes tensor 'out', which is a model input");

	/* Two RELUs writing "out"; a RELU reading what nothing writes. */
	tm = relu_model();
	tm.n_ops = 2;
	tm.op[1] = tm.op[0];
	refused(&tm, "m.tflite: tensor 'out' is written by two operators, 1 (1_relu) and 2 (2_relu)");
	tm = relu_model();
	tm.n_in = 0;
	refused(&tm, "m.tflite: operator 1 (1_relu) reads tensor 'in', which no operator writes and which is neither a model input, a constant nor a variable");

	/* 2^30 x 2 float32 elements, 8 GiB: past what an op spec holds.
	 * A RELU must have its op spec, so the file is refused; a RESHAPE
	 * is kept without one. */
	tm = relu_model();
	tm.tensor[0] = tm.tensor[1] = TENSOR("in", F32, 4, 1, 1 << 30, 2, 1);
	tm.tensor[1].name = "out";
	refused(&tm, "m.tflite: operator 1 (RELU): op spec 'relu:in=1x1073741824x2x1,dtype=f32': input buffer of 'in' exceeds 4 GiB");
	tm.builtin[0] = 22; /* RESHAPE */
	expect_layer(&tm, NULL, "input buffer of 'in' exceeds 4 GiB");
}
END_TEST

/* Constants stored after the FlatBuffer (offset and size, files over
 * 2 GB) are found there; per-channel quantisation is read. */
START_TEST(buffer_after_flatbuffer_and_quant)
{
	struct t_model tm = relu_model();
	struct dmo_model m;
	static const int32_t axes[2] = { 1, 2 };
	size_t at;

	tm = binary_model(MEAN, tm.tensor[0], TENSOR("axes", I32, 1, 2),
			  TENSOR("out", F32, 4, 1, 1, 1, 3), NULL, 0);
	tm.n_buffers = 2;
	tm.tensor[2].buffer = 1;
	tm.tensor[1].n_scale = 2;
	tm.tensor[1].scale[0] = 0.5f;
	tm.tensor[1].scale[1] = 0.25f;
	tm.tensor[1].zero[1] = -3;
	/* The buffer's offset is only known once the rest is written: write
	 * once to learn the size, then put the axes at the end. */
	tm.buffer[1] = (struct t_buffer){ .offset = 2, .size = 8 };
	write_model(&buf, &tm, &where);
	at = buf.len;
	tm.buffer[1].offset = at;
	write_model(&buf, &tm, &where);
	ck_assert_uint_eq(buf.len, at);
	memcpy(buf.d + at, axes, sizeof axes);
	buf.len += sizeof axes;
	{
		char err[512] = "";

		ck_assert_msg(parse(&m, err, sizeof err) == 0, "%s", err);
	}
	ck_assert_str_eq(m.layers[0].spec, "mean:in=1x2x2x3,dtype=f32");
	ck_assert_int_eq(m.tensors[2].producer, DMO_MODEL_CONSTANT);
	ck_assert_uint_eq(m.tensors[1].quant.count, 2);
	ck_assert_float_eq(m.tensors[1].quant.scale[1], 0.25f);
	ck_assert_int_eq(m.tensors[1].quant.zero_point[1], -3);
	dmo_model_free(&m);
}
END_TEST

/* Issue 28: quantisation a kernel cannot use is refused by the reader,
 * named: a scale of 0, inf or NaN, a zero point outside the type's range
 * (2^40 for int8; 256 for uint8 would wrap). */
START_TEST(quant_refused)
{
	struct t_model tm = relu_model();
	static const struct { float scale; int64_t zero; int type; const char *why; } cases[] = {
		{ 0.0f, 0, I8, "quantisation scale 0 is 0: it must be finite and positive" },
		{ -0.5f, 0, I8, "quantisation scale 0 is -0.5: it must be finite and positive" },
		{ INFINITY, 0, I8, "quantisation scale 0 is inf: it must be finite and positive" },
		{ NAN, 0, I8, "quantisation scale 0 is nan: it must be finite and positive" },
		{ 0.5f, (int64_t)1 << 40, I8,
		  "quantisation zero point 0 is 1099511627776, outside i8's range [-128, 127]" },
		{ 0.5f, -129, I8, "quantisation zero point 0 is -129, outside i8's range [-128, 127]" },
		{ 0.5f, 256, U8, "quantisation zero point 0 is 256, outside u8's range [0, 255]" },
	};
	char want[256];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		tm = relu_model();
		tm.tensor[0].type = tm.tensor[1].type = cases[i].type;
		tm.tensor[0].n_scale = 1;
		tm.tensor[0].scale[0] = cases[i].scale;
		tm.tensor[0].zero[0] = cases[i].zero;
		snprintf(want, sizeof want, "m.tflite: tensor '%s': %s", tm.tensor[0].name, cases[i].why);
		refused(&tm, want);
	}
	/* The bounds themselves are accepted. */
	tm.tensor[0].zero[0] = 255;
	tm.tensor[0].scale[0] = 1e-30f;
	write_model(&buf, &tm, &where);
	{
		struct dmo_model m;
		char err[512] = "";
		ck_assert_msg(parse(&m, err, sizeof err) == 0, "%s", err);
		dmo_model_free(&m);
	}
}
END_TEST

/* Operators without an op spec: named by their code. */
START_TEST(op_names)
{
	struct t_model tm = relu_model();

	tm.builtin[0] = CUSTOM;
	tm.custom[0] = "Foo";
	expect_layer(&tm, NULL, "op CUSTOM:Foo has no dmo model");
	tm.custom[0] = NULL;
	expect_layer(&tm, NULL, "op CUSTOM:? has no dmo model");
	tm.builtin[0] = 150;
	expect_layer(&tm, NULL, "op BUILTIN_150 has no dmo model");
	/* An old file: only the deprecated byte. */
	tm.builtin[0] = 0;
	tm.deprecated[0] = RELU;
	expect_layer(&tm, "relu:in=1x2x2x3,dtype=f32", NULL);
}
END_TEST

static const struct t_tensor in4 = TENSOR("in", F32, 4, 1, 4, 4, 2);

START_TEST(conv_faults)
{
	static float filter[3 * 3 * 3 * 2];
	struct t_model tm;

	/* CONV_2D 3x3, 3 filters over 2 channels, stride 1, pad same:
	 * out 1x4x4x3. */
	tm = binary_model(CONV_2D, in4, TENSOR("w", F32, 4, 3, 3, 3, 2),
			  TENSOR("out", F32, 4, 1, 4, 4, 3), filter, sizeof filter);
	set_opt(&tm.op[0], OPT_CONV, 1, 1);
	set_opt(&tm.op[0], OPT_CONV, 2, 1);
	expect_layer(&tm, "conv2d:in=1x4x4x2,k=3x3,stride=1x1,dil=1x1,pad=same,out_c=3,dtype=f32", NULL);
	/* Its bias left out (-1, an optional operand) reads the same. */
	tm.op[0].n_in = 3;
	tm.op[0].in[2] = -1;
	expect_layer(&tm, "conv2d:in=1x4x4x2,k=3x3,stride=1x1,dil=1x1,pad=same,out_c=3,dtype=f32", NULL);

	set_opt(&tm.op[0], OPT_CONV, 0, 2); /* Padding is SAME (0) or VALID (1) */
	refused(&tm, "m.tflite: operator 1 (CONV_2D): bad padding, stride or dilation");
	tm.op[0].opt[0] = 0;
	tm.op[0].opt_type = OPT_DWCONV;
	refused(&tm, "m.tflite: operator 1 (CONV_2D): not a 4-D input, filter and output with its options");
	tm.op[0].opt_type = OPT_CONV;

	/* A filter over 1 channel of 2: grouped. */
	tm.tensor[2].shape[3] = 1;
	expect_layer(&tm, NULL, "grouped convolution (2 input channels, filter has 1)");

	/* Output channels do not match the filter: the options give 3 */
	tm.tensor[2].shape[3] = 2;
	tm.tensor[1].shape[3] = 4;
	refused(&tm, "m.tflite: operator 1 (CONV_2D): its options give conv2d:in=1x4x4x2,k=3x3,stride=1x1,dil=1x1,pad=same,out_c=3,dtype=f32 (128 input and 192 output bytes), but tensor 'in' has 128 bytes and 'out' 256");

	/* DEPTHWISE_CONV_2D: filter 1x3x3x4, multiplier 2 on 2 channels. */
	tm = binary_model(DEPTHWISE_CONV_2D, in4, TENSOR("w", F32, 4, 1, 3, 3, 4),
			  TENSOR("out", F32, 4, 1, 4, 4, 4), filter, 36 * 4);
	set_opt(&tm.op[0], OPT_DWCONV, 1, 1);
	set_opt(&tm.op[0], OPT_DWCONV, 2, 1);
	expect_layer(&tm, "dwconv2d:in=1x4x4x2,k=3x3,stride=1x1,dil=1x1,pad=same,mult=2,dtype=f32", NULL);
	tm.tensor[1].shape[3] = 3;
	tm.tensor[2].shape[3] = 3;
	refused(&tm, "m.tflite: operator 1 (DEPTHWISE_CONV_2D): 3 output channels from 2 input channels");

	/* An int8 input to a float output. */
	tm.tensor[0].type = I8;
	expect_layer(&tm, NULL, "int8 input to float32 output: no dmo kernel");
}
END_TEST

START_TEST(pool_fc_add_faults)
{
	static float weights[3 * 8];
	struct t_model tm = relu_model();

	/* MAX_POOL_2D 2x2 stride 2 valid: 1x4x4x2 to 1x2x2x2. */
	tm.builtin[0] = MAX_POOL_2D;
	tm.tensor[0] = in4;
	tm.tensor[1] = TENSOR("out", F32, 4, 1, 2, 2, 2);
	set_opt(&tm.op[0], OPT_POOL, 0, 1);
	set_opt(&tm.op[0], OPT_POOL, 1, 2);
	set_opt(&tm.op[0], OPT_POOL, 2, 2);
	set_opt(&tm.op[0], OPT_POOL, 3, 2);
	set_opt(&tm.op[0], OPT_POOL, 4, 2);
	expect_layer(&tm, "maxpool:in=1x4x4x2,k=2x2,stride=2x2,pad=valid,dtype=f32", NULL);
	tm.builtin[0] = AVERAGE_POOL_2D;
	expect_layer(&tm, "avgpool:in=1x4x4x2,k=2x2,stride=2x2,pad=valid,dtype=f32", NULL);
	tm.op[0].opt[3] = 0;
	refused(&tm, "m.tflite: operator 1 (AVERAGE_POOL_2D): bad padding, stride or filter size");
	tm.op[0].opt_type = OPT_CONV;
	refused(&tm, "m.tflite: operator 1 (AVERAGE_POOL_2D): not a 4-D input and output with pool options");

	/* FULLY_CONNECTED: 3 units over K = 8, the 1x2x2x2 input one row. */
	tm = binary_model(FULLY_CONNECTED, TENSOR("in", F32, 4, 1, 2, 2, 2),
			  TENSOR("w", F32, 2, 3, 8),
			  TENSOR("out", F32, 2, 1, 3), weights, sizeof weights);
	set_opt(&tm.op[0], OPT_FC, 0, 1);
	expect_layer(&tm, "fc:in=1x8,units=3,dtype=f32", NULL);
	set_opt(&tm.op[0], OPT_FC, 1, 1);
	expect_layer(&tm, NULL, "shuffled weights format");
	tm.tensor[2].shape[1] = 5;
	tm.tensor[2].shape[0] = 1; /* 5 does not divide 8 */
	refused(&tm, "m.tflite: operator 1 (FULLY_CONNECTED): weights are not units x K with K dividing the input");

	/* ADD of two tensors of other sizes: broadcasting. */
	tm = binary_model(ADD, in4, TENSOR("b", F32, 1, 2), in4, NULL, 0);
	tm.tensor[1].name = "out";
	tm.n_in = 2;
	tm.in[1] = 2;
	expect_layer(&tm, NULL, "broadcasting operands");

	/* A RELU with two outputs. */
	tm = relu_model();
	tm.n_tensors = 3;
	tm.tensor[2] = tm.tensor[1];
	tm.tensor[2].name = "out2";
	tm.op[0].n_out = 2;
	tm.op[0].out[1] = 2;
	expect_layer(&tm, NULL, "not one input and one output tensor");
}
END_TEST

START_TEST(layout_faults)
{
	static const int32_t axes_hw[2] = { 1, 2 }, axes_c[2] = { 1, 3 };
	static const int32_t pads_neg[8] = { 0, 0, -1, 0, 0, 0, 0, 0 };
	static const int32_t pads_ok[8] = { 0, 0, 1, 1, 0, 0, 0, 0 };
	static const int32_t perm_bad[4] = { 0, 1, 2, 4 };
	static const int64_t perm_ok[4] = { 0, 3, 1, 2 };
	const struct t_tensor out11 = TENSOR("out", F32, 4, 1, 1, 1, 2);
	struct t_model tm;

	tm = binary_model(MEAN, in4, TENSOR("axes", I32, 1, 2), out11, axes_hw,
			  sizeof axes_hw);
	expect_layer(&tm, "mean:in=1x4x4x2,dtype=f32", NULL);
	tm.buffer[1].data = axes_c;
	expect_layer(&tm, NULL, "a mean over other axes than height and width");
	tm.n_buffers = 1;
	tm.tensor[2].buffer = 0; /* the axes a model input, not constant */
	tm.n_in = 2;
	tm.in[1] = 2;
	expect_layer(&tm, NULL, "not a 4-D input with constant axes");
	/* A float input to an int8 output. */
	tm.tensor[1].type = I8;
	expect_layer(&tm, NULL, "float32 input to int8 output");
	/* A constant input: no kernel reads from the arena. */
	tm = relu_model();
	tm.builtin[0] = MEAN;
	tm.n_buffers = 2;
	tm.buffer[1] = (struct t_buffer){ .len = sizeof perm_ok, .data = perm_ok };
	tm.tensor[0].buffer = 1;
	tm.n_in = 0;
	expect_layer(&tm, NULL, "input 'in' is a constant, not an activation in the arena");
	/* A RESHAPE of int64 elements, a type dmo's kernels do not have. */
	tm = relu_model();
	tm.builtin[0] = 22; /* RESHAPE */
	tm.tensor[0].type = tm.tensor[1].type = I64;
	expect_layer(&tm, NULL, "int64 input to int64 output: no dmo kernel");

	/* PAD 1x4x4x2 by one row above and below: 1x6x4x2. */
	tm = binary_model(PAD, in4, TENSOR("pads", I32, 2, 4, 2),
			  TENSOR("out", F32, 4, 1, 6, 4, 2), pads_ok, sizeof pads_ok);
	expect_layer(&tm, "pad:in=1x4x4x2,before=0x1x0x0,after=0x1x0x0,dtype=f32", NULL);
	tm.buffer[1].data = pads_neg;
	expect_layer(&tm, NULL, "negative or huge paddings");
	tm.tensor[2].shape[0] = 3; /* 6 paddings for rank 4 */
	expect_layer(&tm, NULL, "not a 1-D to 4-D input with constant paddings");

	/* TRANSPOSE NHWC to NCHW, the permutation int64. */
	tm = binary_model(TRANSPOSE, in4, TENSOR("perm", I64, 1, 4),
			  TENSOR("out", F32, 4, 1, 2, 4, 4), perm_ok, sizeof perm_ok);
	expect_layer(&tm, "transpose:in=1x4x4x2,perm=0x3x1x2,dtype=f32", NULL);
	tm.tensor[2].type = I32;
	tm.buffer[1].data = perm_bad;
	tm.buffer[1].len = sizeof perm_bad;
	expect_layer(&tm, NULL, "permutation entry 4 of 4 axes");
	tm.tensor[2].shape[0] = 3;
	expect_layer(&tm, NULL, "not a 1-D to 4-D input with a constant permutation");
}
END_TEST

START_TEST(concat_faults)
{
	struct t_model tm = binary_model(CONCATENATION, in4, TENSOR("b", F32, 4, 1, 4, 4, 3),
					 TENSOR("out", F32, 4, 1, 4, 4, 5), NULL, 0);

	tm.n_in = 2;
	tm.in[1] = 2;
	set_opt(&tm.op[0], OPT_CONCAT, 0, -1);
	expect_layer(&tm, "concat:in=1x4x4x2,out_c=5,at=0,dtype=f32", NULL);
	tm.op[0].opt[0] = 1;
	expect_layer(&tm, NULL, "concatenation along axis 1 of 4 (dmo's is along the last)");
	tm.op[0].opt[0] = 3;
	tm.tensor[1].shape[3] = 6;
	expect_layer(&tm, NULL, "an output that is not the inputs side by side");
	tm.tensor[1].shape[3] = 5;
	tm.tensor[2].shape[2] = 3;
	expect_layer(&tm, NULL, "inputs that disagree on axis 2");
	tm.tensor[2].rank = 3;
	expect_layer(&tm, NULL, "inputs of other ranks or types");
}
END_TEST

START_TEST(shape_option)
{
	struct t_model tm = relu_model();
	struct dmo_model_shape shape;
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(dmo_model_shape_parse("nosuch=1x2", &shape, err, sizeof err), 0);
	write_model(&buf, &tm, &where);
	ck_assert_int_eq(dmo_model_parse_tflite(buf.d, buf.len, "m.tflite", &shape, 1, &m, err,
						sizeof err), -1);
	ck_assert_str_eq(err, "m.tflite: --shape nosuch=1x2: the model has no tensor of that name");

	/* A dynamic batch (-1), given: the RELU runs over 2 images. */
	tm.tensor[0].shape[0] = tm.tensor[1].shape[0] = -1;
	write_model(&buf, &tm, &where);
	{
		struct dmo_model_shape two[2];

		ck_assert_int_eq(dmo_model_shape_parse("in=2x2x2x3", &two[0], err, sizeof err), 0);
		ck_assert_int_eq(dmo_model_shape_parse("out=2x2x2x3", &two[1], err, sizeof err), 0);
		ck_assert_msg(dmo_model_parse_tflite(buf.d, buf.len, "m.tflite", two, 2, &m, err,
						     sizeof err) == 0, "%s", err);
	}
	ck_assert_str_eq(m.layers[0].spec, "relu:in=2x2x2x3,dtype=f32");
	dmo_model_free(&m);
}
END_TEST

/* Damage to the FlatBuffer itself: each byte-level fault flatbuf.c
 * checks, on the written base model. */
START_TEST(flatbuffer_faults)
{
	struct t_model tm = relu_model();
	char want[256];
	size_t t, vt;

	write_model(&buf, &tm, &where);
	/* A root offset past the end. */
	put_le(buf.d, buf.len, 4);
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, model: root table: 4 bytes at offset %zu lie outside the file (%zu bytes)",
		 buf.len, buf.len);
	expect_refused(want);

	/* The tensor's soffset putting its vtable before the file. */
	write_model(&buf, &tm, &where);
	t = where.tensor[0];
	put_le(buf.d + t, t + 1, 4);
	expect_refused("m.tflite: malformed TFLite file, tensors: Tensor: vtable offset out of the file");

	/* An odd vtable size. */
	write_model(&buf, &tm, &where);
	vt = t - get_le(buf.d + t, 4);
	put_le(buf.d + vt, 5, 2);
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, tensors: Tensor: malformed vtable at offset %zu",
		 vt);
	expect_refused(want);

	/* A field whose value would lie past the end of the file. */
	write_model(&buf, &tm, &where);
	put_le(buf.d + vt + 4 + 2 * 1, 0xfff0, 2); /* Tensor.type */
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, tensors: table field: 1 bytes at offset %zu lie outside the file (%zu bytes)",
		 t + 0xfff0, buf.len);
	expect_refused(want);

	/* An offset field pointing past the end. */
	write_model(&buf, &tm, &where);
	put_le(buf.d + t + 4 + 8 * 3, 0x10000000, 4); /* Tensor.name */
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, tensors: Tensor.name: offset %zu lies outside the file (%zu bytes)",
		 t + 4 + 8 * 3 + 0x10000000, buf.len);
	expect_refused(want);

	/* A vector longer than the file. */
	write_model(&buf, &tm, &where);
	put_le(buf.d + where.tensors, 0x7ffffff0, 4);
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, subgraph: SubGraph.tensors: 2147483632 elements of 4 bytes at offset %zu run past the end of the file (%zu bytes)",
		 where.tensors, buf.len);
	expect_refused(want);

	/* A file too short for its root offset. */
	buf.len = 6;
	expect_refused("m.tflite: malformed TFLite file, model: root offset: 8 bytes at offset 0 lie outside the file (6 bytes)");
}
END_TEST

/* A file whose tensors are all one tensor with a large constant: each
 * visit is charged, and the reader stops where an honest file of this size
 * could not go, instead of reading on. */
START_TEST(flatbuffer_budget)
{
	static unsigned char big[4000];
	struct t_model tm = relu_model();
	char want[256];
	size_t vec, t;

	tm.n_buffers = 2;
	tm.buffer[1] = (struct t_buffer){ .len = sizeof big, .data = big };
	write_model(&buf, &tm, &where);
	/* SubGraph.tensors now 300 offsets to one new tensor, of type
	 * uint8 and shape 4000, in buffer 1: 300 * 4000 = 1.2 M elements
	 * visited against a budget of 16 * 5.6 kB + 4096. */
	vec = fb_vec(&buf, 300, 4, NULL);
	t = fb_new_table(&buf, 8);
	for (uint32_t i = 0; i < 300; i++)
		fb_vec_ref(&buf, vec, i, t);
	fb_ref(&buf, t, 0, fb_vec_i32(&buf, 1, (const int32_t[]){ 4000 }));
	fb_set(&buf, t, 1, U8);
	fb_set(&buf, t, 2, 1);
	fb_ref(&buf, where.subgraph, 0, vec);
	snprintf(want, sizeof want, "m.tflite: malformed TFLite file, buffers: references the same data more often than a file of %zu bytes can (a loop or a forged offset)",
		 buf.len);
	expect_refused(want);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("model_tflite");
	TCase *tc = tcase_create("tflite");

	tcase_add_test(tc, base_model_reads);
	tcase_add_test(tc, model_level_faults);
	tcase_add_test(tc, tensor_faults);
	tcase_add_test(tc, buffer_after_flatbuffer_and_quant);
	tcase_add_test(tc, op_names);
	tcase_add_test(tc, conv_faults);
	tcase_add_test(tc, pool_fc_add_faults);
	tcase_add_test(tc, quant_refused);
	tcase_add_test(tc, layout_faults);
	tcase_add_test(tc, concat_faults);
	tcase_add_test(tc, shape_option);
	tcase_add_test(tc, flatbuffer_faults);
	tcase_add_test(tc, flatbuffer_budget);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
