/* test_model_onnx.c - Check tests of the ONNX reader on small ModelProtos
 * built here with protobuf-c's generated structs and packed by it: a valid
 * one-node graph, and graphs with one initializer, value_info, attribute or
 * node made wrong.  Each case asserts the reader's status and its whole
 * message, the text model_onnx.c says for that fault; accepted cases assert
 * the op spec, derived by hand from the ONNX operator docs next to each. */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "model_table.h"
#include "onnx.pb-c.h"

enum { FLOAT = 1, INT8 = 3, INT32 = 6, INT64 = 7 };
enum { IN, OUT, INFO };

/* Every message of one graph, from fixed pools reset by start(). */
static struct {
	Onnx__ModelProto model;
	Onnx__GraphProto graph;
	Onnx__NodeProto node[3], *node_p[3];
	Onnx__AttributeProto attr[12], *attr_p[3][12];
	size_t n_attr;
	Onnx__ValueInfoProto vi[12], *vi_p[3][12];
	Onnx__TypeProto type[12];
	Onnx__TypeProto__Tensor tensor_type[12];
	Onnx__TypeProto__Sequence seq;
	Onnx__TensorShapeProto shape[12];
	Onnx__TensorShapeProto__Dimension dim[12][10], *dim_p[12][10];
	size_t n_vi;
	Onnx__TensorProto init[4], *init_p[4];
	Onnx__SparseTensorProto sparse, *sparse_p[1];
	Onnx__OperatorSetIdProto opset, *opset_p[1];
	int64_t init_dims[4][10], ints[12][8];
	char strs[48][24], *name_p[3][2][5];
	size_t n_strs;
	unsigned char packed[8192];
	size_t len;
} B;

static char *str(const char *s)
{
	ck_assert_uint_lt(B.n_strs, 48);
	ck_assert_uint_lt(strlen(s), 24);
	return strcpy(B.strs[B.n_strs++], s);
}

/* A new model of ir_version 8 with an empty graph. */
static void start(void)
{
	memset(&B, 0, sizeof B);
	B.model = (Onnx__ModelProto)ONNX__MODEL_PROTO__INIT;
	B.model.has_ir_version = 1;
	B.model.ir_version = 8;
	B.graph = (Onnx__GraphProto)ONNX__GRAPH_PROTO__INIT;
	B.model.graph = &B.graph;
	B.graph.node = B.node_p;
	B.graph.input = B.vi_p[IN];
	B.graph.output = B.vi_p[OUT];
	B.graph.value_info = B.vi_p[INFO];
	B.graph.initializer = B.init_p;
}

/* Import VERSION of the default operator set. */
static void opset(int64_t version)
{
	B.opset = (Onnx__OperatorSetIdProto)ONNX__OPERATOR_SET_ID_PROTO__INIT;
	B.opset.has_version = 1;
	B.opset.version = version;
	B.opset_p[0] = &B.opset;
	B.model.opset_import = B.opset_p;
	B.model.n_opset_import = 1;
}

/* A graph input, output or value_info (WHERE) NAME of element type TYPE
 * and RANK dims after it (-1 dims are symbolic, "N"); rank -1: no shape. */
static Onnx__ValueInfoProto *value(int where, const char *name, int32_t type, int rank, ...)
{
	size_t i = B.n_vi++;
	size_t *count = where == IN ? &B.graph.n_input : where == OUT ? &B.graph.n_output
								     : &B.graph.n_value_info;
	va_list ap;

	B.vi[i] = (Onnx__ValueInfoProto)ONNX__VALUE_INFO_PROTO__INIT;
	B.vi[i].name = str(name);
	B.vi[i].type = &B.type[i];
	B.type[i] = (Onnx__TypeProto)ONNX__TYPE_PROTO__INIT;
	B.type[i].value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
	B.type[i].tensor_type = &B.tensor_type[i];
	B.tensor_type[i] = (Onnx__TypeProto__Tensor)ONNX__TYPE_PROTO__TENSOR__INIT;
	B.tensor_type[i].has_elem_type = 1;
	B.tensor_type[i].elem_type = type;
	if (rank >= 0) {
		B.tensor_type[i].shape = &B.shape[i];
		B.shape[i] = (Onnx__TensorShapeProto)ONNX__TENSOR_SHAPE_PROTO__INIT;
		B.shape[i].n_dim = (size_t)rank;
		B.shape[i].dim = B.dim_p[i];
		va_start(ap, rank);
		for (int k = 0; k < rank; k++) {
			int d = va_arg(ap, int);
			Onnx__TensorShapeProto__Dimension *dim = &B.dim[i][k];

			*dim = (Onnx__TensorShapeProto__Dimension)ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
			if (d < 0) {
				dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
				dim->dim_param = str("N");
			} else {
				dim->value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
				dim->dim_value = d;
			}
			B.dim_p[i][k] = dim;
		}
		va_end(ap);
	}
	B.vi_p[where][(*count)++] = &B.vi[i];
	return &B.vi[i];
}

/* Split "a,b" into up to 5 names (an empty one stays: an absent operand). */
static size_t names(const char *list, char **out)
{
	size_t n = 0;

	for (const char *p = list;; p++) {
		const char *end = strchr(p, ',');
		char buf[16] = "";

		memcpy(buf, p, end ? (size_t)(end - p) : strlen(p));
		ck_assert_uint_lt(n, 5);
		out[n++] = str(buf);
		if (!end)
			return n;
		p = end;
	}
}

static Onnx__NodeProto *node(const char *op, const char *inputs, const char *outputs)
{
	size_t i = B.graph.n_node++;
	Onnx__NodeProto *n = &B.node[i];

	*n = (Onnx__NodeProto)ONNX__NODE_PROTO__INIT;
	n->op_type = op ? str(op) : NULL;
	n->input = B.name_p[i][0];
	n->n_input = names(inputs, n->input);
	n->output = B.name_p[i][1];
	n->n_output = names(outputs, n->output);
	n->attribute = B.attr_p[i];
	B.node_p[i] = n;
	return n;
}

static Onnx__AttributeProto *new_attr(Onnx__NodeProto *n, const char *name)
{
	Onnx__AttributeProto *a = &B.attr[B.n_attr++];

	*a = (Onnx__AttributeProto)ONNX__ATTRIBUTE_PROTO__INIT;
	a->name = str(name);
	n->attribute[n->n_attribute++] = a;
	return a;
}

static void attr_i(Onnx__NodeProto *n, const char *name, int64_t v)
{
	Onnx__AttributeProto *a = new_attr(n, name);

	a->has_i = 1;
	a->i = v;
}

static void attr_ints(Onnx__NodeProto *n, const char *name, int count, ...)
{
	Onnx__AttributeProto *a = new_attr(n, name);
	va_list ap;

	a->ints = B.ints[B.n_attr - 1];
	a->n_ints = (size_t)count;
	va_start(ap, count);
	for (int k = 0; k < count; k++)
		a->ints[k] = va_arg(ap, int);
	va_end(ap);
}

static void attr_f(Onnx__NodeProto *n, const char *name, float v)
{
	Onnx__AttributeProto *a = new_attr(n, name);

	a->has_f = 1;
	a->f = v;
}

static void attr_s(Onnx__NodeProto *n, const char *name, const char *s)
{
	Onnx__AttributeProto *a = new_attr(n, name);

	a->has_s = 1;
	a->s.data = (uint8_t *)str(s);
	a->s.len = strlen(s);
}

/* An initializer NAME of TYPE and RANK dims; the caller adds its data. */
static Onnx__TensorProto *initializer(const char *name, int32_t type, int rank, ...)
{
	size_t i = B.graph.n_initializer++;
	Onnx__TensorProto *t = &B.init[i];
	va_list ap;

	*t = (Onnx__TensorProto)ONNX__TENSOR_PROTO__INIT;
	t->name = name ? str(name) : NULL;
	t->has_data_type = 1;
	t->data_type = type;
	t->dims = B.init_dims[i];
	t->n_dims = (size_t)rank;
	va_start(ap, rank);
	for (int k = 0; k < rank; k++)
		t->dims[k] = va_arg(ap, int);
	va_end(ap);
	B.init_p[i] = t;
	return t;
}

/* Pack the graph and read it, with SHAPE (or none). */
static int read_packed(const char *shape, struct dmo_model *m, char *err, size_t len)
{
	struct dmo_model_shape s;

	B.len = onnx__model_proto__get_packed_size(&B.model);
	ck_assert_uint_le(B.len, sizeof B.packed);
	onnx__model_proto__pack(&B.model, B.packed);
	if (shape)
		ck_assert_int_eq(dmo_model_shape_parse(shape, &s, err, len), 0);
	return dmo_model_parse_onnx(B.packed, B.len, "m.onnx", shape ? &s : NULL, shape ? 1 : 0, m,
				    err, len);
}

static void refused_shaped(const char *shape, const char *want)
{
	struct dmo_model m;
	char err[512] = "";

	ck_assert_int_eq(read_packed(shape, &m, err, sizeof err), -1);
	ck_assert_str_eq(err, want);
	ck_assert_uint_eq(m.n_layers, 0);
	ck_assert_ptr_null(m.tensors);
}

static void refused(const char *want)
{
	refused_shaped(NULL, want);
}

/* Node 0's op spec (SPEC), or its reason for having none (WHY). */
static void expect_layer_shaped(const char *shape, const char *spec, const char *why)
{
	struct dmo_model m;
	char err[512] = "";

	ck_assert_msg(read_packed(shape, &m, err, sizeof err) == 0, "%s", err);
	if (spec) {
		ck_assert_msg(m.layers[0].supported, "no spec: %s", m.layers[0].why);
		ck_assert_str_eq(m.layers[0].spec, spec);
	} else {
		ck_assert_int_eq(m.layers[0].supported, 0);
		ck_assert_str_eq(m.layers[0].why, why);
	}
	dmo_model_free(&m);
}

static void expect_layer(const char *spec, const char *why)
{
	expect_layer_shaped(NULL, spec, why);
}

/* x (1x3x4x4 float, NCHW) -> Relu -> y. */
static Onnx__NodeProto *relu_graph(void)
{
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(OUT, "y", FLOAT, 4, 1, 3, 4, 4);
	return node("Relu", "x", "y");
}

START_TEST(base_graph_reads)
{
	struct dmo_model m;
	char err[512] = "";

	relu_graph();
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(m.layers[0].name, "1_relu");
	/* Element-wise: the stored dims flattened, 1x3x4x4. */
	ck_assert_str_eq(m.layers[0].spec, "relu:in=1x3x4x4,dtype=f32");
	dmo_model_free(&m);
}
END_TEST

/* Issue 28: LEVELS of Graph -> Node -> Attribute -> Graph ... nesting in a
 * ModelProto (graph = field 7, node = 1, attribute = 5, attribute's g = 6;
 * all length-delimited, key = field << 3 | 2), written from the inside
 * out.  Returns the message's length; it ends at BUF + CAP. */
static size_t nested_model(unsigned char *buf, size_t cap, int levels)
{
	static const unsigned char fields[3] = { 1, 5, 6 }; /* graph's node, node's attribute, its g */
	size_t start = cap, len;

	for (int level = 0; level <= levels; level++) {
		unsigned char field = level == levels ? 7 : fields[level % 3], varint[10];
		size_t n = 0;

		len = cap - start;
		do { /* the payload's length, a varint: low 7 bits first */
			varint[n++] = (unsigned char)((len & 0x7f) | (len > 0x7f ? 0x80 : 0));
			len >>= 7;
		} while (len);
		start -= n;
		memcpy(buf + start, varint, n);
		buf[--start] = (unsigned char)(field << 3 | 2);
	}
	return cap - start;
}

START_TEST(nesting_depth)
{
	enum { CAP = 1 << 20 };
	unsigned char *buf = malloc(CAP);
	struct dmo_model m;
	char err[512] = "";
	size_t len;

	ck_assert_ptr_nonnull(buf);
	/* 100,000 levels overflowed protobuf-c's stack (SIGSEGV). */
	len = nested_model(buf, CAP, 100000);
	ck_assert_int_eq(dmo_model_parse_onnx(buf + CAP - len, len, "m.onnx", NULL, 0, &m, err,
					      sizeof err), -1);
	ck_assert_str_eq(err, "m.onnx: messages nested more than 100 levels deep: no model dmo reads");
	/* 98 levels inside the model (99 messages, the model one of them) are
	 * within the bound; unpacked, the graph has no nodes with an op. */
	len = nested_model(buf, CAP, 98);
	ck_assert_int_eq(dmo_model_parse_onnx(buf + CAP - len, len, "m.onnx", NULL, 0, &m, err,
					      sizeof err), -1);
	ck_assert_msg(strstr(err, "nested") == NULL, "%s", err);
	len = nested_model(buf, CAP, 100);
	ck_assert_int_eq(dmo_model_parse_onnx(buf + CAP - len, len, "m.onnx", NULL, 0, &m, err,
					      sizeof err), -1);
	ck_assert_msg(strstr(err, "nested more than 100") != NULL, "%s", err);
	free(buf);
}
END_TEST

START_TEST(graph_faults)
{
	static const unsigned char junk[] = { 0xff, 0xff, 0xff };
	struct dmo_model m;
	char err[512] = "";
	Onnx__NodeProto *n;

	ck_assert_int_eq(dmo_model_parse_onnx(junk, sizeof junk, "m.onnx", NULL, 0, &m, err,
					      sizeof err), -1);
	ck_assert_str_eq(err, "m.onnx: not a model dmo reads: no TFLite identifier (TFL3 at byte 4), no layer-table header ('layer,name,spec,inputs') and not an ONNX ModelProto with a graph (protobuf decoding failed)");

	relu_graph();
	B.model.graph = NULL;
	refused("m.onnx: not a model dmo reads: no TFLite identifier (TFL3 at byte 4), no layer-table header ('layer,name,spec,inputs') and not an ONNX ModelProto with a graph");

	relu_graph();
	B.graph.n_node = 0;
	refused("m.onnx: the graph has no nodes");

	relu_graph();
	B.sparse = (Onnx__SparseTensorProto)ONNX__SPARSE_TENSOR_PROTO__INIT;
	B.sparse_p[0] = &B.sparse;
	B.graph.sparse_initializer = B.sparse_p;
	B.graph.n_sparse_initializer = 1;
	refused("m.onnx: sparse initializers are not read");

	relu_graph();
	refused_shaped("nosuch=1x2", "m.onnx: --shape nosuch=1x2: the graph has no input or value_info of that name");

	/* An output no node writes, and an input given no shape. */
	relu_graph();
	value(OUT, "z", FLOAT, -1);
	refused("m.onnx: tensor 'z' has no shape (no node writes it)");
	relu_graph();
	value(IN, "q", FLOAT, -1);
	refused("m.onnx: model input 'q' has no shape: give it with --shape NAME=D1x...");

	/* A node that writes nothing, one with a domain, one optional input. */
	relu_graph();
	B.node[0].output[0][0] = '\0';
	refused("m.onnx: node 1 (Relu) has no output");
	n = relu_graph();
	n->domain = str("com.example");
	expect_layer(NULL, "op com.example:Relu has no dmo model");
	n->domain = str("ai.onnx");
	expect_layer("relu:in=1x3x4x4,dtype=f32", NULL);

	/* Node 0 reads the output of node 1: not in execution order. */
	relu_graph();
	B.node[0].input[0] = str("h");
	node("Relu", "x", "h");
	value(INFO, "h", FLOAT, 4, 1, 3, 4, 4);
	refused("m.onnx: operator 1 (1_relu) reads tensor 'h' before operator 2 writes it (operators must be in execution order)");
}
END_TEST

START_TEST(initializer_faults)
{
	Onnx__TensorProto *t;
	static float w4[4];
	static int64_t i4[4];
	static int32_t i32[4];

	/* Each on an Add of x and an initializer w. */
#define ADD_GRAPH() (relu_graph(), B.node[0].op_type = str("Add"), \
		     B.node[0].input[1] = str("w"), B.node[0].n_input = 2)
	ADD_GRAPH();
	initializer(NULL, FLOAT, 1, 4);
	refused("m.onnx: an initializer has no name");
	ADD_GRAPH();
	initializer("w", FLOAT, 1, 4);
	initializer("w", FLOAT, 1, 4);
	refused("m.onnx: two initializers are named 'w'");
	ADD_GRAPH();
	initializer("w", 99, 1, 4);
	refused("m.onnx: tensor 'w' has unknown element type 99");
	ADD_GRAPH();
	initializer("w", FLOAT, 9, 1, 1, 1, 1, 1, 1, 1, 1, 4);
	refused("m.onnx: initializer 'w' has rank 9");
	ADD_GRAPH();
	initializer("w", FLOAT, 2, -1, 4);
	refused("m.onnx: tensor 'w' has no static dimension 0: give its shape with --shape 'w=D1x...'");
	/* 2^20 * 2^20 * 2 elements: past 2^40 at the third dimension. */
	ADD_GRAPH();
	initializer("w", FLOAT, 3, 1 << 20, 1 << 20, 2);
	refused("m.onnx: tensor 'w' has over 2^40 elements");

	/* 4 floats for a 1x4 tensor... */
	ADD_GRAPH();
	t = initializer("w", FLOAT, 2, 1, 4);
	t->float_data = w4;
	t->n_float_data = 4;
	/* (w broadcasts: O_s is x's, of the output's shape) */
	expect_layer("add:in=1x3x4x4,dtype=f32", NULL);
	/* ...but only 3 of them: 12 bytes for 16. */
	t->n_float_data = 3;
	refused("m.onnx: initializer 'w' holds 12 bytes for 16");
	/* int64 data for an int64 tensor, one value short: 24 bytes for
	 * 32; raw bytes one short; int32_data holds one value per element
	 * of narrower types too, so it is counted in elements. */
	ADD_GRAPH();
	t = initializer("w", INT64, 1, 4);
	t->int64_data = i4;
	t->n_int64_data = 4;
	expect_layer(NULL, "a second operand that is not float32");
	t->n_int64_data = 3;
	refused("m.onnx: initializer 'w' holds 24 bytes for 32");
	ADD_GRAPH();
	t = initializer("w", INT8, 1, 4);
	t->has_raw_data = 1;
	t->raw_data.data = (uint8_t *)i32;
	t->raw_data.len = 3;
	refused("m.onnx: initializer 'w' holds 3 bytes for 4");
	ADD_GRAPH();
	t = initializer("w", INT8, 1, 4);
	t->int32_data = i32;
	t->n_int32_data = 4;
	expect_layer(NULL, "a second operand that is not float32");
	t->n_int32_data = 3;
	refused("m.onnx: initializer 'w' holds 3 values for 4 elements");
	/* An initializer also listed among the inputs (ONNX < 1.4) stays
	 * a constant; Relu of a constant has no kernel reading the arena. */
	relu_graph();
	initializer("x", FLOAT, 4, 1, 3, 4, 4);
	expect_layer(NULL, "input 'x' is a constant, not an activation in the arena");
#undef ADD_GRAPH
}
END_TEST

START_TEST(value_info_faults)
{
	relu_graph();
	B.vi[1].name = str("");
	refused("m.onnx: a graph input, output or value_info has no name");

	relu_graph();
	B.type[1].value_case = ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE;
	B.seq = (Onnx__TypeProto__Sequence)ONNX__TYPE_PROTO__SEQUENCE__INIT;
	B.type[1].sequence_type = &B.seq;
	refused("m.onnx: tensor 'y' is not a tensor (sequences, maps and optionals are not read)");

	relu_graph();
	value(INFO, "h", 40, 1, 4);
	refused("m.onnx: tensor 'h' has unknown element type 40");

	relu_graph();
	B.tensor_type[0].elem_type = 40;
	refused("m.onnx: tensor 'x' has unknown element type 40");

	start();
	value(IN, "x", FLOAT, 9, 1, 1, 1, 1, 1, 1, 1, 1, 4);
	value(OUT, "y", FLOAT, 4, 1, 3, 4, 4);
	node("Relu", "x", "y");
	refused("m.onnx: tensor 'x' has rank 9, dmo reads up to 8");

	/* A symbolic batch: refused, then given with --shape. */
	start();
	value(IN, "x", FLOAT, 4, -1, 3, 4, 4);
	value(OUT, "y", FLOAT, 4, -1, 3, 4, 4);
	node("Relu", "x", "y");
	refused("m.onnx: tensor 'x' has no static dimension 0: give its shape with --shape 'x=D1x...'");
	expect_layer_shaped("x=2x3x4x4", "relu:in=2x3x4x4,dtype=f32", NULL);

	/* An input the node reads whose shape the file leaves out. */
	relu_graph();
	B.tensor_type[0].shape = NULL;
	refused("m.onnx: node 1 (Relu) reads 'x', whose shape is unknown");

	/* An int64 input has no kernel. */
	relu_graph();
	B.tensor_type[0].elem_type = INT64;
	expect_layer(NULL, "int64 input: no dmo kernel");
}
END_TEST

START_TEST(gemm_and_elementwise)
{
	Onnx__NodeProto *n;

	/* Gemm A 2x8, B 8x3 a graph input: fc of 2 rows, 3 units; Y
	 * (2x3) left to the op spec. */
	start();
	value(IN, "a", FLOAT, 2, 2, 8);
	value(IN, "b", FLOAT, 2, 8, 3);
	n = node("Gemm", "a,b", "y");
	expect_layer("fc:in=2x8,units=3,dtype=f32", NULL);
	/* transB: B is 3x8, units its first dim. */
	B.dim[1][0].dim_value = 3;
	B.dim[1][1].dim_value = 8;
	attr_i(n, "transB", 1);
	expect_layer("fc:in=2x8,units=3,dtype=f32", NULL);
	/* transA: A stored 8x2 is K = 8 rows of M = 2, row m its column m. */
	B.dim[0][0].dim_value = 8;
	B.dim[0][1].dim_value = 2;
	attr_i(n, "transA", 1);
	expect_layer("fc:in=2x8,units=3,dtype=f32,trans_a=1", NULL);
	/* Without an op spec (A's K 2 is not B's 8), Y needs its value_info. */
	n->attribute[n->n_attribute - 1]->i = 0;
	value(OUT, "y", FLOAT, 2, 8, 3);
	expect_layer(NULL, "A's K (2) is not B's (8)");

	/* Mul of two equal tensors; an int8 output of a float Mul. */
	relu_graph();
	B.node[0].op_type = str("Mul");
	B.node[0].input[1] = str("x");
	B.node[0].n_input = 2;
	expect_layer("mul:in=1x3x4x4,dtype=f32", NULL);
	B.tensor_type[1].elem_type = INT8;
	expect_layer(NULL, "float32 input to int8 output (dmo's Mul is f32)");

	/* An op dmo has no model of, and a window op of a 5-D input (a 3-D
	 * window) and of a 3-D one without its window (a 1-D window read as
	 * 2-D needs kernel_shape). */
	relu_graph();
	B.node[0].op_type = str("Sin");
	expect_layer(NULL, "op Sin has no dmo model");
	start();
	value(IN, "x", FLOAT, 5, 1, 2, 4, 4, 4);
	value(OUT, "y", FLOAT, 5, 1, 2, 4, 4, 4);
	node("MaxPool", "x", "y");
	expect_layer(NULL, "5-D input (dmo's MaxPool is 1-D or 2-D: N x C x L or NCHW)");
	start();
	value(IN, "x", FLOAT, 3, 1, 4, 4);
	value(OUT, "y", FLOAT, 3, 1, 4, 4);
	node("MaxPool", "x", "y");
	expect_layer(NULL, "not a 2-D window");
	/* An op dmo has no model of is named so whatever its rank (Tanh of a
	 * 3-D input was told it was 2-D over NCHW); Tanh is dmo's tanh now,
	 * Elu and Erf the unary table's, Identity a copy. */
	start();
	value(IN, "x", FLOAT, 3, 1, 4, 4);
	value(OUT, "y", FLOAT, 3, 1, 4, 4);
	node("Cos", "x", "y");
	expect_layer(NULL, "op Cos has no dmo model");
	B.node[0].op_type = str("Tanh");
	expect_layer("tanh:in=1x1x4x4,dtype=f32", NULL);
	B.node[0].op_type = str("Elu");
	expect_layer("elu:in=1x1x4x4,dtype=f32", NULL);
	B.node[0].op_type = str("Erf");
	expect_layer("erf:in=1x1x4x4,dtype=f32", NULL);
	B.node[0].op_type = str("Identity");
	expect_layer("reshape:in=1x1x4x4,dtype=f32", NULL);
	/* Pow needs an exponent. */
	B.node[0].op_type = str("Pow");
	expect_layer(NULL, "no exponent operand");
}
END_TEST

/* x 1x3x4x4, W 2x3x3x3 a graph input: Conv 3x3, 2 output channels. */
static Onnx__NodeProto *conv_graph(int out_c, int out_h, int out_w)
{
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(IN, "w", FLOAT, 4, 2, 3, 3, 3);
	value(OUT, "y", FLOAT, 4, 1, out_c, out_h, out_w);
	return node("Conv", "x,w", "y");
}

START_TEST(conv_faults)
{
	Onnx__NodeProto *n;

	/* No pads: valid, 4 - 3 + 1 = 2. */
	conv_graph(2, 2, 2);
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=0x0,out_c=2,dtype=f32,layout=nchw", NULL);
	n = conv_graph(2, 4, 4);
	attr_s(n, "auto_pad", "SAME_UPPER");
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=same,out_c=2,dtype=f32,layout=nchw", NULL);
	n = conv_graph(2, 2, 2);
	attr_s(n, "auto_pad", "VALID");
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=valid,out_c=2,dtype=f32,layout=nchw", NULL);
	/* SAME_LOWER, stride 1: total padding (4 - 1) + 3 - 4 = 2, one row
	 * each side as SAME_UPPER's; stride 2: (2 - 1) * 2 + 3 - 4 = 1, the
	 * odd row (column) at the top (left): pads 1, 1, 0, 0. */
	n = conv_graph(2, 4, 4);
	attr_s(n, "auto_pad", "SAME_LOWER");
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=same,out_c=2,dtype=f32,layout=nchw", NULL);
	n = conv_graph(2, 2, 2);
	attr_s(n, "auto_pad", "SAME_LOWER");
	attr_ints(n, "strides", 2, 2, 2);
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=2x2,dil=1x1,pad=1x1x0x0,out_c=2,dtype=f32,layout=nchw", NULL);
	/* Stride 2 with pads 0,0,1,1 are SAME_UPPER's (that odd row at the
	 * bottom): 2x2, pad=same. */
	n = conv_graph(2, 2, 2);
	attr_ints(n, "strides", 2, 2, 2);
	attr_ints(n, "pads", 4, 0, 0, 1, 1);
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=2x2,dil=1x1,pad=same,out_c=2,dtype=f32,layout=nchw", NULL);
	n = conv_graph(2, 4, 4);
	attr_ints(n, "pads", 2, 1, 1);
	expect_layer(NULL, "pads are not 2-D");
	n = conv_graph(2, 2, 2);
	attr_ints(n, "strides", 3, 1, 1, 1);
	expect_layer(NULL, "strides or dilations not 2-D");

	/* pads 0,0,1,1 (bottom and right only): 4 + 1 - 3 + 1 = 3 rows, the
	 * four-number form; a 2x2 output given instead contradicts them. */
	n = conv_graph(2, 3, 3);
	attr_ints(n, "pads", 4, 0, 0, 1, 1);
	expect_layer("conv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=0x0x1x1,out_c=2,dtype=f32,layout=nchw", NULL);
	n = conv_graph(2, 2, 2);
	attr_ints(n, "pads", 4, 0, 0, 1, 1);
	refused("m.onnx: node 1 (Conv): output 'y' is not the 1x2x3x3 (NCHW) its attributes give");
	/* An output of the wrong size, symmetric pads. */
	conv_graph(2, 3, 3);
	refused("m.onnx: node 1 (Conv): output 'y' is not the 1x2x2x2 (NCHW) its attributes give");

	/* group 3 over 3 channels, W 6x1x3x3: depthwise, multiplier 2. */
	n = conv_graph(6, 2, 2);
	B.dim[1][0].dim_value = 6;
	B.dim[1][1].dim_value = 1;
	attr_i(n, "group", 3);
	expect_layer("dwconv2d:in=1x4x4x3,k=3x3,stride=1x1,dil=1x1,pad=0x0,mult=2,dtype=f32,layout=nchw", NULL);
	B.dim[1][1].dim_value = 3;
	expect_layer(NULL, "grouped convolution (group 3) whose weights do not divide the channels");

	/* W of rank 3. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(IN, "w", FLOAT, 3, 2, 3, 3);
	value(OUT, "y", FLOAT, 4, 1, 2, 2, 2);
	node("Conv", "x,w", "y");
	expect_layer(NULL, "weights are not 4-D");
}
END_TEST

/* x 1x3x4x4 -> OP -> y, y of OUT_HxOUT_W or, with OUT_H 0, not given. */
static Onnx__NodeProto *pool_graph(const char *op, int out_h, int out_w)
{
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	if (out_h)
		value(OUT, "y", FLOAT, 4, 1, 3, out_h, out_w);
	return node(op, "x", "y");
}

START_TEST(pool_faults)
{
	Onnx__NodeProto *n;

	/* MaxPool 2x2 stride 2: 1x3x2x2, its output left to the spec. */
	n = pool_graph("MaxPool", 0, 0);
	attr_ints(n, "kernel_shape", 2, 2, 2);
	attr_ints(n, "strides", 2, 2, 2);
	expect_layer("maxpool:in=1x4x4x3,k=2x2,stride=2x2,pad=0x0,dtype=f32,layout=nchw", NULL);
	/* Without an op spec, y needs its value_info. */
	pool_graph("MaxPool", 2, 2);
	expect_layer(NULL, "not a 2-D window");
	/* ceil_mode, 2x2 windows over 4: stride 2 gives ceil(2 / 2) + 1 = 2
	 * as floor does, read; stride 3 gives ceil(2 / 3) + 1 = 2 where floor
	 * gives 1: the second window starts at 3 and needs (2 - 1) * 3 + 2 -
	 * 4 = 1 row (column) of padding below (right), TensorFlow's SAME
	 * split of that total (0 above, 1 below): pad=same. */
	n = pool_graph("MaxPool", 2, 2);
	attr_ints(n, "kernel_shape", 2, 2, 2);
	attr_ints(n, "strides", 2, 2, 2);
	attr_i(n, "ceil_mode", 1);
	expect_layer("maxpool:in=1x4x4x3,k=2x2,stride=2x2,pad=0x0,dtype=f32,layout=nchw", NULL);
	n = pool_graph("MaxPool", 2, 2);
	attr_ints(n, "kernel_shape", 2, 2, 2);
	attr_ints(n, "strides", 2, 3, 3);
	attr_i(n, "ceil_mode", 1);
	expect_layer("maxpool:in=1x4x4x3,k=2x2,stride=3x3,pad=same,dtype=f32,layout=nchw", NULL);
	/* An output claiming a third window, which would start in the
	 * padding (ONNX drops such a window): 2 * 3 + 2 - 4 = 4 rows below,
	 * wider than the window. */
	n = pool_graph("MaxPool", 3, 3);
	attr_ints(n, "kernel_shape", 2, 2, 2);
	attr_ints(n, "strides", 2, 3, 3);
	attr_i(n, "ceil_mode", 1);
	expect_layer(NULL, "ceil_mode adds a window that starts in the padding");
	/* SAME_LOWER 2x2 stride 1: total 3 + 2 - 4 = 1, the odd row first. */
	n = pool_graph("MaxPool", 4, 4);
	attr_ints(n, "kernel_shape", 2, 2, 2);
	attr_s(n, "auto_pad", "SAME_LOWER");
	expect_layer("maxpool:in=1x4x4x3,k=2x2,stride=1x1,pad=1x1x0x0,dtype=f32,layout=nchw", NULL);
	/* MaxPool's optional second output, the indices. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(OUT, "y", FLOAT, 4, 1, 3, 2, 2);
	value(OUT, "i", INT64, 4, 1, 3, 2, 2);
	n = node("MaxPool", "x", "y,i");
	attr_ints(n, "kernel_shape", 2, 2, 2);
	expect_layer(NULL, "not one input and one output tensor");
	/* A 5x5 window over 4x4 with no padding leaves nothing. */
	n = pool_graph("MaxPool", 0, 0);
	attr_ints(n, "kernel_shape", 2, 5, 5);
	refused("m.onnx: node 1 (MaxPool): output 'y' has no static shape: a window of 5 over 4 elements (no value_info; run ONNX shape inference first, or give --shape 'y=D1x...')");

	/* AveragePool 3x3, pads 1, counting the padding: count_pad (the
	 * whole window's divisor). */
	n = pool_graph("AveragePool", 4, 4);
	attr_ints(n, "kernel_shape", 2, 3, 3);
	attr_ints(n, "pads", 4, 1, 1, 1, 1);
	expect_layer("avgpool:in=1x4x4x3,k=3x3,stride=1x1,pad=1x1,dtype=f32,layout=nchw", NULL);
	attr_i(n, "count_include_pad", 1);
	expect_layer("avgpool:in=1x4x4x3,k=3x3,stride=1x1,pad=1x1,dtype=f32,layout=nchw,count_pad=1", NULL);
	/* ...strides 2 with ceil_mode over 4 + 2: a third window past the
	 * padding, whose divisor ONNX Runtime clips: refused. */
	n = pool_graph("AveragePool", 3, 3);
	attr_ints(n, "kernel_shape", 2, 3, 3);
	attr_ints(n, "strides", 2, 2, 2);
	attr_ints(n, "pads", 4, 1, 1, 1, 1);
	attr_i(n, "ceil_mode", 1);
	attr_i(n, "count_include_pad", 1);
	expect_layer(NULL, "count_include_pad with a ceil_mode window past the padding (its divisor is not the window)");
}
END_TEST

/* Tensor NAME of the model read has RANK dims, those given. */
static void expect_shape(const char *name, int rank, ...)
{
	struct dmo_model m;
	char err[512] = "";
	va_list ap;
	size_t t;

	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	for (t = 0; t < m.n_tensors && strcmp(m.tensors[t].name, name); t++)
		;
	ck_assert_uint_lt(t, m.n_tensors);
	ck_assert_int_eq(m.tensors[t].rank, rank);
	va_start(ap, rank);
	for (int i = 0; i < rank; i++)
		ck_assert_int_eq(m.tensors[t].shape[i], va_arg(ap, int));
	va_end(ap);
	dmo_model_free(&m);
}

/* Shape inference (onnx_shapes.c) for the forms tests/onnx_shapes.sh
 * does not meet in ONNX's test data, derived by hand from the operator
 * specification. */
START_TEST(inferred_shapes)
{
	static int64_t shape[3] = { 0, -1, 2 };
	Onnx__NodeProto *n;
	Onnx__TensorProto *t;

	/* Squeeze axes 0 and -1 of 1x3x4x1 (opset 1's attribute): 3x4. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 1);
	n = node("Squeeze", "x", "y");
	attr_ints(n, "axes", 2, 0, -1);
	expect_shape("y", 2, 3, 4);
	/* Without axes every 1 goes: 3x4 again. */
	B.node[0].n_attribute = 0;
	expect_shape("y", 2, 3, 4);
	/* Slice (attributes before opset 10) of 1x3x4x1: axis 1 from 1 to
	 * 100 (clamped to 3) and axis 2 from -3 (that is 1) to 3: 1x2x2x1. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 1);
	n = node("Slice", "x", "y");
	attr_ints(n, "starts", 2, 1, -3);
	attr_ints(n, "ends", 2, 100, 3);
	attr_ints(n, "axes", 2, 1, 2);
	expect_shape("y", 4, 1, 2, 2, 1);
	/* Reshape of 1x3x4x4 by a constant {0, -1, 2}: 0 copies the 1, -1
	 * takes 48 / 2 = 24. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	t = initializer("s", INT64, 1, 3);
	t->int64_data = shape;
	t->n_int64_data = 3;
	node("Reshape", "x,s", "y");
	expect_shape("y", 3, 1, 24, 2);
	/* ...by the shape of another input, read by a Shape node: 6x8. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(IN, "z", FLOAT, 2, 6, 8);
	node("Shape", "z", "s");
	node("Reshape", "x,s", "y");
	expect_shape("y", 2, 6, 8);
	/* ...by a shape given as a graph input: unknowable, the node named. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(IN, "s", INT64, 1, 2);
	node("Reshape", "x,s", "y");
	refused("m.onnx: node 1 (Reshape): output 'y' has no static shape: its shape (input 2) is not a constant dmo can read (no value_info; run ONNX shape inference first, or give --shape 'y=D1x...')");
	/* Gemm with B transposed: A 2x5, B 7x5, so Y 2x7; MatMul of 3x2x5
	 * by 5x4 broadcasts B: 3x2x4. */
	start();
	value(IN, "a", FLOAT, 2, 2, 5);
	value(IN, "b", FLOAT, 2, 7, 5);
	n = node("Gemm", "a,b", "y");
	attr_i(n, "transB", 1);
	expect_shape("y", 2, 2, 7);
	start();
	value(IN, "a", FLOAT, 3, 3, 2, 5);
	value(IN, "b", FLOAT, 2, 5, 4);
	node("MatMul", "a,b", "y");
	expect_shape("y", 3, 3, 2, 4);
	/* Sub of 1x3x1x1 and 4x1: broadcast to 1x3x4x1. */
	start();
	value(IN, "a", FLOAT, 4, 1, 3, 1, 1);
	value(IN, "b", FLOAT, 2, 4, 1);
	node("Sub", "a,b", "y");
	expect_shape("y", 4, 1, 3, 4, 1);
	/* ...of 1x3x2x1 and 4x1: 2 and 4 clash, refused naming both. */
	B.dim[0][2].dim_value = 2;
	refused("m.onnx: node 1 (Sub): output 'y' has no static shape: inputs of dimensions 2 and 4 do not broadcast (no value_info; run ONNX shape inference first, or give --shape 'y=D1x...')");
}
END_TEST

/* The operators read as op specs over the stored dims (docs/models.md),
 * their specs derived by hand from the shapes. */
START_TEST(flat_ops)
{
	static int64_t pads[8] = { 0, 0, 1, 2, 0, 0, 3, 4 };
	static float scale = 0.5f, bound[2] = { 0, 6 };
	static int32_t zero[1];
	Onnx__NodeProto *n;
	Onnx__TensorProto *t;

	/* Pad (opset 11: pads an input) of 1x3x4x4 by 1, 2 before and 3, 4
	 * after height and width: 1x3x8x10. */
	start();
	opset(11);
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	t = initializer("p", INT64, 1, 8);
	t->int64_data = pads;
	t->n_int64_data = 8;
	node("Pad", "x,p", "y");
	expect_layer("pad:in=1x3x4x4,before=0x0x1x2,after=0x0x3x4,dtype=f32", NULL);
	expect_shape("y", 4, 1, 3, 8, 10);
	/* ...reflecting 2 and 4 columns of 4: ONNX mirrors at most 3; edge
	 * repeats any number; wrap has no model. */
	attr_s(&B.node[0], "mode", "reflect");
	expect_layer(NULL, "reflect pads 2 and 4 along an axis of 4 (at most 3 mirror)");
	B.node[0].attribute[B.node[0].n_attribute - 1]->s.data = (uint8_t *)str("edge");
	B.node[0].attribute[B.node[0].n_attribute - 1]->s.len = 4;
	expect_layer("pad:in=1x3x4x4,before=0x0x1x2,after=0x0x3x4,dtype=f32,mode=edge", NULL);
	B.node[0].attribute[B.node[0].n_attribute - 1]->s.data = (uint8_t *)str("wrap");
	expect_layer(NULL, "a pad mode other than constant, reflect or edge");
	/* Concat along axis 1 of 2x3x4 and 2x5x4: each of the 2 rows holds
	 * 3 x 4 then 5 x 4 elements, so in=1x2x12 and out_c=32. */
	start();
	value(IN, "a", FLOAT, 3, 2, 3, 4);
	value(IN, "b", FLOAT, 3, 2, 5, 4);
	n = node("Concat", "a,b", "y");
	attr_i(n, "axis", 1);
	expect_layer("concat:in=1x2x12,out_c=32,at=0,dtype=f32", NULL);
	/* ReduceMean over axes 1 and 2 of 2x3x4x5: 2 batches of 12 elements
	 * each, 5 channels.  Axes 1 and 3 are not adjacent: no model. */
	start();
	value(IN, "x", FLOAT, 4, 2, 3, 4, 5);
	n = node("ReduceMean", "x", "y");
	attr_ints(n, "axes", 2, 1, -2);
	expect_layer("mean:in=2x12x1x5,dtype=f32", NULL);
	B.ints[0][1] = 3;
	expect_layer(NULL, "a reduction over axes that are not adjacent");
	/* GlobalAveragePool of 1x3x4x4: 3 means of 16. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	node("GlobalAveragePool", "x", "y");
	expect_layer("mean:in=3x16x1x1,dtype=f32", NULL);
	/* MatMul of 2x3x5 by a constant 5x4: 6 rows of 5, 4 units. */
	start();
	value(IN, "x", FLOAT, 3, 2, 3, 5);
	initializer("w", FLOAT, 2, 5, 4);
	node("MatMul", "x,w", "y");
	expect_layer("fc:in=6x5,units=4,dtype=f32", NULL);
	/* Clip to [0, 6] is relu6: attributes (opset 6), then constant
	 * inputs (opset 11); [0, 1] is clip. */
	start();
	opset(6);
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	n = node("Clip", "x", "y");
	attr_f(n, "min", 0);
	attr_f(n, "max", 6);
	expect_layer("relu6:in=1x3x4x4,dtype=f32", NULL);
	B.attr[1].f = 1;
	expect_layer("clip:in=1x3x4x4,dtype=f32", NULL);
	start();
	opset(11);
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	for (int k = 0; k < 2; k++) {
		t = initializer(k ? "hi" : "lo", FLOAT, 0);
		t->float_data = &bound[k];
		t->n_float_data = 1;
	}
	node("Clip", "x,lo,hi", "y");
	expect_layer("relu6:in=1x3x4x4,dtype=f32", NULL);
	/* QuantizeLinear of f32 to int8 (the zero point's type). */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	t = initializer("s", FLOAT, 0);
	t->float_data = &scale;
	t->n_float_data = 1;
	t = initializer("z", INT8, 0);
	t->int32_data = zero;
	t->n_int32_data = 1;
	node("QuantizeLinear", "x,s,z", "y");
	expect_layer("quantize:in=1x3x4x4,dtype=f32,out_dtype=i8", NULL);
	expect_shape("y", 4, 1, 3, 4, 4);
}
END_TEST

/* ONNX's element-wise ops (kernels_onnx_ew.c): the operand of the output's
 * shape is put first (a Sub or Div so swapped says so), BatchNormalization
 * needs constants, HardSigmoid and HardSwish are f32. */
START_TEST(onnx_elementwise)
{
	static float one = 1, three[3] = { 1, 2, 3 }, six[6] = { 1, 2, 3, 4, 5, 6 };
	struct dmo_model m;
	char err[512] = "";
	Onnx__TensorProto *t;

	/* Sub(c, x): x is first in the layer, the node's order kept. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	t = initializer("c", FLOAT, 0);
	t->float_data = &one;
	t->n_float_data = 1;
	node("Sub", "c,x", "y");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(m.layers[0].spec, "sub:in=1x3x4x4,dtype=f32");
	ck_assert_str_eq(m.tensors[m.layers[0].operands[0]].name, "x");
	ck_assert_int_eq(dmo_model_onnx_commuted(&m, 0), 1);
	dmo_model_free(&m);
	/* Div(g 1x3x1x1, h 1x3x4x4), both activations: h first. */
	start();
	value(IN, "g", FLOAT, 4, 1, 3, 1, 1);
	value(IN, "h", FLOAT, 4, 1, 3, 4, 4);
	node("Div", "g,h", "y");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(m.layers[0].spec, "div:in=1x3x4x4,dtype=f32");
	ck_assert_int_eq(dmo_model_onnx_commuted(&m, 0), 1);
	dmo_model_free(&m);
	/* Div(h, g): as the node has it. */
	B.node[0].input[0] = str("h");
	B.node[0].input[1] = str("g");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_int_eq(dmo_model_onnx_commuted(&m, 0), 0);
	dmo_model_free(&m);
	/* The operand of the output's shape a constant: no op spec. */
	start();
	value(IN, "g", FLOAT, 4, 1, 3, 1, 1);
	t = initializer("c", FLOAT, 3, 3, 1, 2);
	t->float_data = six;
	t->n_float_data = 6;
	node("Sub", "g,c", "y");
	expect_layer(NULL, "no activation operand of the output's shape (dmo's O_s is of such a first operand)");

	/* BatchNormalization: batchnorm over N x C x 1 x H*W, its four
	 * parameters constants; given as graph inputs, no op spec. */
	start();
	value(IN, "x", FLOAT, 4, 2, 3, 4, 4);
	for (int k = 0; k < 4; k++) {
		t = initializer((const char *[]){ "s", "b", "mean", "var" }[k], FLOAT, 1, 3);
		t->float_data = three;
		t->n_float_data = 3;
	}
	node("BatchNormalization", "x,s,b,mean,var", "y");
	expect_layer("batchnorm:in=2x3x1x16,dtype=f32", NULL);
	B.graph.n_initializer = 3;
	value(IN, "var", FLOAT, 1, 3);
	expect_layer(NULL, "scale, B, mean and var must be constants (the net folds them)");

	/* HardSigmoid and HardSwish: f32 only. */
	relu_graph();
	B.node[0].op_type = str("HardSigmoid");
	expect_layer("hardsigmoid:in=1x3x4x4,dtype=f32", NULL);
	B.node[0].op_type = str("HardSwish");
	expect_layer("hardswish:in=1x3x4x4,dtype=f32", NULL);
	B.tensor_type[1].elem_type = INT8;
	expect_layer(NULL, "float32 input to int8 output (dmo's HardSwish is f32)");
}
END_TEST

/* ONNX's Sum, Max, Min and Mean of n operands: a layer per pass of ONNX
 * Runtime's, over temporaries of the broadcast shape so far (Mean's last
 * pass a scale); one operand a copy.  Pow by a tensor is powt, its base
 * first unless the base broadcasts. */
START_TEST(onnx_variadic)
{
	struct dmo_model m;
	char err[512] = "";

	start();
	value(IN, "a", FLOAT, 1, 4);
	value(IN, "b", FLOAT, 2, 3, 1);
	value(IN, "c", FLOAT, 3, 2, 3, 4);
	node("Sum", "a,b,c", "y");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(m.n_layers, 2);
	ck_assert_str_eq(m.layers[0].name, "1_sum0");
	ck_assert_str_eq(m.layers[1].name, "2_sum1");
	/* a (4) + b (3x1) broadcast to 3x4, then c (2x3x4) put first. */
	ck_assert_str_eq(m.tensors[m.layers[0].results[0]].name, "y:sum0");
	ck_assert_int_eq(m.tensors[m.layers[0].results[0]].rank, 2);
	ck_assert_uint_eq(m.tensors[m.layers[0].results[0]].elems, 12);
	ck_assert_int_eq(m.layers[0].supported, 0); /* neither a nor b has 3x4 */
	ck_assert_str_eq(m.layers[1].spec, "add:in=1x2x3x4,dtype=f32");
	ck_assert_str_eq(m.tensors[m.layers[1].operands[0]].name, "c");
	ck_assert_str_eq(m.tensors[m.layers[1].operands[1]].name, "y:sum0");
	dmo_model_free(&m);
	/* Mean of c, c, a: two adds and a scale, c read twice by pass 0. */
	B.node[0].op_type = str("Mean");
	B.node[0].input[0] = str("c");
	B.node[0].input[1] = str("c");
	B.node[0].input[2] = str("a");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(m.n_layers, 3);
	ck_assert_str_eq(m.layers[0].spec, "add:in=1x2x3x4,dtype=f32");
	ck_assert_str_eq(m.layers[1].spec, "add:in=1x2x3x4,dtype=f32");
	ck_assert_str_eq(m.layers[2].spec, "scale:in=1x2x3x4,dtype=f32");
	ck_assert_uint_eq(m.layers[2].n_operands, 1);
	ck_assert_str_eq(m.tensors[m.layers[2].operands[0]].name, "y:mean1");
	ck_assert_str_eq(m.tensors[m.layers[2].results[0]].name, "y");
	ck_assert_uint_eq(dmo_model_onnx_inputs(&m, 2), 3);
	dmo_model_free(&m);
	/* One operand: a copy; Mean's a scale by 1. */
	B.node[0].n_input = 1;
	expect_layer("scale:in=1x2x3x4,dtype=f32", NULL);
	B.node[0].op_type = str("Max");
	expect_layer("reshape:in=1x2x3x4,dtype=f32", NULL);
	/* A temporary's name taken by a graph tensor: named, refused. */
	B.node[0].n_input = 3;
	value(INFO, "y:max0", FLOAT, 3, 2, 3, 4);
	ck_assert_int_eq(read_packed(NULL, &m, err, sizeof err), -1);
	ck_assert_msg(strstr(err, "its temporary 'y:max0' is a tensor of the graph too"), "%s", err);
	/* Operands that do not broadcast (the output's value_info given): one
	 * layer, named, and no temporary made. */
	start();
	value(IN, "a", FLOAT, 1, 4);
	value(IN, "b", FLOAT, 1, 4);
	value(IN, "c", FLOAT, 1, 3);
	value(OUT, "y", FLOAT, 1, 4);
	node("Sum", "a,b,c", "y");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_uint_eq(m.n_layers, 1);
	ck_assert_uint_eq(m.n_tensors, 4);
	ck_assert_str_eq(m.layers[0].why, "operand 2 does not broadcast to the ones before it");
	dmo_model_free(&m);
	/* An integer Sum: one layer, named. */
	start();
	value(IN, "a", INT8, 1, 4);
	value(IN, "b", INT8, 1, 4);
	value(IN, "c", INT8, 1, 4);
	node("Sum", "a,b,c", "y");
	expect_layer(NULL, "operand 0 is not float32 of a known shape (dmo's Sum is f32)");

	/* Pow(x, y) of two activations, and of a constant base. */
	start();
	value(IN, "x", FLOAT, 2, 3, 4);
	value(IN, "e", FLOAT, 1, 4);
	node("Pow", "x,e", "y");
	expect_layer("powt:in=1x1x3x4,dtype=f32", NULL);
	B.node[0].input[0] = str("e");
	B.node[0].input[1] = str("x");
	ck_assert_msg(read_packed(NULL, &m, err, sizeof err) == 0, "%s", err);
	ck_assert_str_eq(m.layers[0].spec, "powt:in=1x1x3x4,dtype=f32");
	ck_assert_str_eq(m.tensors[m.layers[0].operands[0]].name, "x");
	ck_assert_int_eq(dmo_model_onnx_commuted(&m, 0), 1);
	dmo_model_free(&m);
	value(IN, "i", INT32, 1, 4);
	B.node[0].input[0] = str("x");
	B.node[0].input[1] = str("i");
	expect_layer(NULL, "an exponent 'i' of int32 (dmo's Pow by a tensor is float32 by float32)");
}
END_TEST

START_TEST(layout_faults)
{
	Onnx__NodeProto *n;

	/* Softmax over the last axis of 1x3x4x4, its output left out. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	n = node("Softmax", "x", "y");
	attr_i(n, "axis", -1);
	expect_layer("softmax:in=1x3x4x4,dtype=f32", NULL);
	/* Axis 1: before opset 13 the input flattened to 1 x 48 at axis 1,
	 * rows of 48; from 13 on over axis 1 alone: the dims before it (1),
	 * it (3) and after it (16) as H, W and C, over W (axis=2). */
	B.attr[0].i = 1;
	expect_layer("softmax:in=1x1x48,dtype=f32", NULL);
	opset(13);
	expect_layer("softmax:in=1x1x3x16,axis=2,dtype=f32", NULL);
	B.node[0].op_type = str("LogSoftmax");
	expect_layer("logsoftmax:in=1x1x3x16,axis=2,dtype=f32", NULL);
	/* No axis: 1 before opset 13, the last from 13 on. */
	relu_graph();
	B.node[0].op_type = str("Softmax");
	expect_layer("softmax:in=1x1x48,dtype=f32", NULL);
	opset(13);
	expect_layer("softmax:in=1x3x4x4,dtype=f32", NULL);

	/* Transpose without perm: the axes reversed, 1x3x4x4 to 4x4x3x1; the
	 * batch axis of one element moves nothing, dropped: 3x4x4 reversed. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	n = node("Transpose", "x", "y");
	expect_layer("transpose:in=1x3x4x4,perm=0x3x2x1,dtype=f32", NULL);
	attr_ints(n, "perm", 4, 0, 2, 3, 5);
	value(OUT, "y", FLOAT, 4, 4, 4, 3, 1); /* no op spec: y needs one */
	expect_layer(NULL, "perm entry 5 of 4 axes");
	B.attr[0].ints[3] = 2;
	expect_layer(NULL, "a perm that takes axis 2 twice");
	B.attr[0].n_ints = 3;
	expect_layer(NULL, "not an input with a perm of its rank");
	/* ShuffleNet's channel shuffle, 1x4x2x3x3 by 0 2 1 3 4: the batch
	 * dropped, H and W (3, 4) stay side by side in order, one axis of 9:
	 * 4x2x9 by 1 0 2, put after a leading axis of one. */
	start();
	value(IN, "x", FLOAT, 5, 1, 4, 2, 3, 3);
	attr_ints(node("Transpose", "x", "y"), "perm", 5, 0, 2, 1, 3, 4);
	expect_layer("transpose:in=1x4x2x9,perm=0x2x1x3,dtype=f32", NULL);
	/* 2x3x5x7x11 reversed: five groups, none merged, refused. */
	start();
	value(IN, "x", FLOAT, 5, 2, 3, 5, 7, 11);
	node("Transpose", "x", "y");
	expect_layer(NULL, "a transpose that moves 5 groups of axes (dmo's moves up to 4)");
	/* Sigmoid's output symbolic in value_info: the input's shape, or
	 * one --shape gives, here too large for dmo. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	value(INFO, "y", FLOAT, 2, -1, -1);
	node("Sigmoid", "x", "y");
	expect_layer("logistic:in=1x3x4x4,dtype=f32", NULL);
	refused_shaped("y=1073741824x1073741824", "m.onnx: tensor 'y' has over 2^40 elements");
	/* A reshape whose output the file leaves out: inferred. */
	start();
	value(IN, "x", FLOAT, 4, 1, 3, 4, 4);
	node("Flatten", "x", "y");
	expect_layer("reshape:in=1x3x4x4,dtype=f32", NULL);
	/* ...or gives with another element type. */
	value(OUT, "y", INT8, 2, 1, 48);
	expect_layer(NULL, "float32 input to int8 output");
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("model_onnx");
	TCase *tc = tcase_create("onnx");

	tcase_add_test(tc, base_graph_reads);
	tcase_add_test(tc, graph_faults);
	tcase_add_test(tc, nesting_depth);
	tcase_add_test(tc, initializer_faults);
	tcase_add_test(tc, value_info_faults);
	tcase_add_test(tc, gemm_and_elementwise);
	tcase_add_test(tc, conv_faults);
	tcase_add_test(tc, pool_faults);
	tcase_add_test(tc, layout_faults);
	tcase_add_test(tc, inferred_shapes);
	tcase_add_test(tc, flat_ops);
	tcase_add_test(tc, onnx_elementwise);
	tcase_add_test(tc, onnx_variadic);
	suite_add_tcase(suite, tc);

	return dmo_run_suite(suite);
}
