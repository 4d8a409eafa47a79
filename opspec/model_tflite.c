/* model_tflite.c - the TensorFlow Lite reader: a `.tflite` FlatBuffer
 * (schema version 3, identifier TFL3) into dmo's in-memory model.  Field
 * ids and enum values are those of the TFLite schema (schema.fbs); every
 * read goes through flatbuf.c's bounds checks.  Operators dmo has an op
 * spec for get one, derived from their tensors and options and checked
 * against the output tensor; every other operator is kept, with its name,
 * as a layer without one (planned with O_s = 0). */
#include "errbuf.h"
#include "flatbuf.h"
#include "model_table.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Schema field ids. */
enum { MODEL_VERSION, MODEL_OPERATOR_CODES, MODEL_SUBGRAPHS, MODEL_DESCRIPTION,
       MODEL_BUFFERS };
enum { SUBGRAPH_TENSORS, SUBGRAPH_INPUTS, SUBGRAPH_OUTPUTS, SUBGRAPH_OPERATORS,
       SUBGRAPH_NAME };
enum { TENSOR_SHAPE, TENSOR_TYPE, TENSOR_BUFFER, TENSOR_NAME, TENSOR_QUANTIZATION,
       TENSOR_IS_VARIABLE, TENSOR_SPARSITY, TENSOR_SHAPE_SIGNATURE };
enum { BUFFER_DATA, BUFFER_OFFSET, BUFFER_SIZE };
enum { QUANT_MIN, QUANT_MAX, QUANT_SCALE, QUANT_ZERO_POINT, QUANT_DETAILS_TYPE,
       QUANT_DETAILS, QUANT_DIMENSION };
enum { OPERATOR_OPCODE_INDEX, OPERATOR_INPUTS, OPERATOR_OUTPUTS, OPERATOR_OPTIONS_TYPE,
       OPERATOR_OPTIONS };
enum { OPCODE_DEPRECATED_BUILTIN, OPCODE_CUSTOM, OPCODE_VERSION, OPCODE_BUILTIN };

/* BuiltinOperator values dmo has op specs for. */
enum { OP_ADD = 0, OP_AVERAGE_POOL_2D = 1, OP_CONCATENATION = 2, OP_CONV_2D = 3,
       OP_DEPTHWISE_CONV_2D = 4, OP_DEQUANTIZE = 6, OP_FULLY_CONNECTED = 9,
       OP_LOGISTIC = 14, OP_MAX_POOL_2D = 17, OP_MUL = 18, OP_RELU = 19, OP_RELU6 = 21,
       OP_RESHAPE = 22, OP_SOFTMAX = 25, OP_CUSTOM = 32, OP_PAD = 34, OP_TRANSPOSE = 39,
       OP_MEAN = 40, OP_PADV2 = 60, OP_QUANTIZE = 114 };

/* BuiltinOptions union types and the options' field ids. */
enum { OPT_CONV = 1, OPT_DWCONV = 2, OPT_POOL = 5, OPT_FC = 8, OPT_CONCAT = 10, OPT_ADD = 11,
       OPT_MUL = 21 };
enum { CONV_PADDING, CONV_STRIDE_W, CONV_STRIDE_H, CONV_ACT, CONV_DIL_W, CONV_DIL_H };
enum { DW_PADDING, DW_STRIDE_W, DW_STRIDE_H, DW_MULT, DW_ACT, DW_DIL_W, DW_DIL_H };
enum { POOL_PADDING, POOL_STRIDE_W, POOL_STRIDE_H, POOL_FILTER_W, POOL_FILTER_H, POOL_ACT };
enum { FC_ACT, FC_WEIGHTS_FORMAT, FC_KEEP_NUM_DIMS };
enum { ADDMUL_ACT };
enum { CONCAT_AXIS, CONCAT_ACT };

/* BuiltinOperator names, 0..126 (schema.fbs). */
static const char *const builtin_names[] = {
	"ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
	"DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR", "FULLY_CONNECTED",
	"HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D", "LOCAL_RESPONSE_NORMALIZATION",
	"LOGISTIC", "LSH_PROJECTION", "LSTM", "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1",
	"RELU6", "RESHAPE", "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF",
	"TANH", "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM", "EMBEDDING_LOOKUP_SPARSE",
	"PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER", "BATCH_TO_SPACE_ND",
	"SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB", "DIV", "SQUEEZE",
	"UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE", "BIDIRECTIONAL_SEQUENCE_RNN", "EXP",
	"TOPK_V2", "SPLIT", "LOG_SOFTMAX", "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST",
	"PRELU", "MAXIMUM", "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER",
	"GREATER_EQUAL", "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
	"SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG", "SUM", "SQRT",
	"RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT", "REDUCE_PROD", "REDUCE_MAX", "PACK",
	"LOGICAL_OR", "ONE_HOT", "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN",
	"FLOOR_DIV", "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE",
	"RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE", "MIRROR_PAD", "ABS",
	"SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N", "GATHER_ND", "COS", "WHERE",
	"RANK", "ELU", "REVERSE_SEQUENCE", "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG",
	"ROUND", "HARD_SWISH", "IF", "WHILE", "NON_MAX_SUPPRESSION_V4",
	"NON_MAX_SUPPRESSION_V5", "SCATTER_ND", "SELECT_V2", "DENSIFY", "SEGMENT_SUM",
	"BATCH_MATMUL",
};

/* TensorType: name, dmo dtype (-1: none), bytes per element. */
static const struct {
	const char *name;
	int dtype;
	size_t size;
} tensor_types[] = {
	{ "float32", DMO_F32, 4 }, { "float16", -1, 2 },  { "int32", DMO_I32, 4 },
	{ "uint8", DMO_U8, 1 },    { "int64", -1, 8 },    { "string", -1, 0 },
	{ "bool", -1, 1 },         { "int16", DMO_I16, 2 }, { "complex64", -1, 8 },
	{ "int8", DMO_I8, 1 },     { "float64", -1, 8 },  { "complex128", -1, 16 },
	{ "uint64", -1, 8 },       { "resource", -1, 0 }, { "variant", -1, 0 },
	{ "uint32", -1, 4 },       { "uint16", -1, 2 },   { "int4", -1, 1 },
	{ "bfloat16", -1, 2 },
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

struct tfl {
	struct fb_reader fb;
	const char *source;
	struct dmo_model *model;
	char *err;
	size_t err_len;
	uint32_t *opcodes;      /* builtin code of each operator code */
	char (*customs)[64];    /* custom_code of each operator code */
	uint32_t n_opcodes;
	struct fb_vector buffers;
	const struct dmo_model_shape *shapes;
	size_t n_shapes;
};

/* An error about the model file, prefixed with its name (a macro: the format
 * arguments reach dmo_errf_at as written, checked against the format). */
#define fail(x, ...) dmo_errf_at((x)->err, (x)->err_len, (x)->source, __VA_ARGS__)
/* A layer kept without an op spec, for the reason given (format and
 * arguments); -1 with the error set when memory runs out. */
#define unsupported(x, layer, ...) \
	dmo_model_layer_unsupported((layer), (x)->source, (x)->err, (x)->err_len, __VA_ARGS__)

/* After a batch of FlatBuffer reads: a bounds failure becomes the error. */
static int fb_check(struct tfl *t, const char *where)
{
	if (!fb_failed(&t->fb))
		return 0;
	return fail(t, "malformed TFLite file, %s: %s", where, t->fb.error);
}

static int read_opcodes(struct tfl *t, const struct fb_table *root)
{
	struct fb_vector codes = fb_vector_field(&t->fb, root, MODEL_OPERATOR_CODES, 4,
						 "Model.operator_codes");

	t->n_opcodes = codes.len;
	t->opcodes = calloc(codes.len + 1, sizeof *t->opcodes);
	t->customs = calloc(codes.len + 1, sizeof *t->customs);
	if (t->opcodes == NULL || t->customs == NULL)
		return fail(t, "out of memory");
	for (uint32_t i = 0; i < codes.len && !fb_failed(&t->fb); i++) {
		struct fb_table c = fb_vec_table(&t->fb, &codes, i, "OperatorCode");
		int32_t deprecated = fb_i8(&t->fb, &c, OPCODE_DEPRECATED_BUILTIN, 0);
		int32_t builtin = fb_i32(&t->fb, &c, OPCODE_BUILTIN, 0);

		/* Files from before builtin_code existed only fill the
		 * deprecated byte (127 = "look at builtin_code"). */
		t->opcodes[i] = (uint32_t)(builtin > deprecated ? builtin : deprecated);
		fb_string_field(&t->fb, &c, OPCODE_CUSTOM, t->customs[i], sizeof t->customs[i],
				"OperatorCode.custom_code");
	}
	return fb_check(t, "operator codes");
}

static void op_name(const struct tfl *t, uint32_t code_index, char *buf, size_t len)
{
	uint32_t code = t->opcodes[code_index];

	if (code == OP_CUSTOM)
		snprintf(buf, len, "CUSTOM:%s", t->customs[code_index][0] ? t->customs[code_index] : "?");
	else if (code < N_OF(builtin_names))
		snprintf(buf, len, "%s", builtin_names[code]);
	else
		snprintf(buf, len, "BUILTIN_%u", code);
}

static int read_quant(struct tfl *t, const struct fb_table *tensor, struct dmo_model_tensor *mt)
{
	struct fb_table q = fb_table_field(&t->fb, tensor, TENSOR_QUANTIZATION,
					   "Tensor.quantization");
	struct fb_vector scale = fb_vector_field(&t->fb, &q, QUANT_SCALE, 4,
						 "QuantizationParameters.scale");
	struct fb_vector zero = fb_vector_field(&t->fb, &q, QUANT_ZERO_POINT, 8,
						"QuantizationParameters.zero_point");

	if (fb_failed(&t->fb) || scale.len == 0)
		return 0;
	mt->quant.count = scale.len;
	mt->quant.axis = fb_i32(&t->fb, &q, QUANT_DIMENSION, 0);
	mt->quant.scale = calloc(scale.len, sizeof *mt->quant.scale);
	mt->quant.zero_point = calloc(scale.len, sizeof *mt->quant.zero_point);
	if (mt->quant.scale == NULL || mt->quant.zero_point == NULL)
		return fail(t, "out of memory");
	for (uint32_t i = 0; i < scale.len; i++) {
		mt->quant.scale[i] = fb_vec_f32(&t->fb, &scale, i);
		if (i < zero.len)
			mt->quant.zero_point[i] = fb_vec_i64(&t->fb, &zero, i);
	}
	char why[160];
	if (dmo_model_quant_check(mt, why, sizeof why) != 0)
		return fail(t, "tensor '%s': %s", mt->name, why);
	return 0;
}

/* The constant bytes of buffer INDEX (0 and empty buffers: none). */
static int read_buffer(struct tfl *t, uint32_t index, struct dmo_model_tensor *mt)
{
	struct fb_table b;
	struct fb_vector data;
	uint64_t offset, size;

	if (index == 0)
		return 0;
	if (index >= t->buffers.len)
		return fail(t, "tensor '%s' uses buffer %u of %u", mt->name, index,
			    t->buffers.len);
	b = fb_vec_table(&t->fb, &t->buffers, index, "Buffer");
	data = fb_vector_field(&t->fb, &b, BUFFER_DATA, 1, "Buffer.data");
	offset = fb_u64(&t->fb, &b, BUFFER_OFFSET, 0);
	size = fb_u64(&t->fb, &b, BUFFER_SIZE, 0);
	if (fb_check(t, "buffers") != 0)
		return -1;
	if (data.len) {
		mt->data = t->fb.data + data.pos;
		mt->data_len = data.len;
	} else if (offset > 1 && size) {
		/* Over 2 GB: the data follows the FlatBuffer. */
		if (offset > t->fb.size || size > t->fb.size - offset)
			return fail(t, "tensor '%s': buffer %u's data [%llu, +%llu) lies outside the file",
				    mt->name, index, (unsigned long long)offset,
				    (unsigned long long)size);
		mt->data = t->fb.data + offset;
		mt->data_len = (size_t)size;
	}
	if (mt->data)
		mt->producer = DMO_MODEL_CONSTANT;
	return 0;
}

static const struct dmo_model_shape *given_shape(const struct tfl *t, const char *name)
{
	for (size_t i = 0; i < t->n_shapes; i++)
		if (dmo_model_shape_names(&t->shapes[i], name))
			return &t->shapes[i];
	return NULL;
}

static int read_tensor(struct tfl *t, const struct fb_table *tensor, uint32_t index,
		       struct dmo_model_tensor *mt)
{
	char name[160];
	struct fb_vector shape = fb_vector_field(&t->fb, tensor, TENSOR_SHAPE, 4, "Tensor.shape");
	uint8_t type = fb_u8(&t->fb, tensor, TENSOR_TYPE, 0);
	const struct dmo_model_shape *given;

	if (!fb_string_field(&t->fb, tensor, TENSOR_NAME, name, sizeof name, "Tensor.name") ||
	    !name[0])
		snprintf(name, sizeof name, "tensor%u", index);
	mt->name = strdup(name);
	if (mt->name == NULL)
		return fail(t, "out of memory");
	if (fb_check(t, "tensors") != 0)
		return -1;
	if (type >= N_OF(tensor_types))
		return fail(t, "tensor '%s' has unknown type %u", name, type);
	mt->type_name = tensor_types[type].name;
	mt->known_dtype = tensor_types[type].dtype >= 0;
	mt->dtype = mt->known_dtype ? (enum dmo_dtype)tensor_types[type].dtype : DMO_F32;
	mt->elem_size = tensor_types[type].size;
	mt->variable = fb_u8(&t->fb, tensor, TENSOR_IS_VARIABLE, 0) != 0;
	if (shape.len > DMO_MODEL_MAX_RANK)
		return fail(t, "tensor '%s' has rank %u, dmo reads up to %d", name, shape.len,
			    DMO_MODEL_MAX_RANK);
	mt->rank = (int)shape.len;
	for (uint32_t i = 0; i < shape.len; i++)
		mt->shape[i] = fb_vec_i32(&t->fb, &shape, i);
	given = given_shape(t, name);
	if (given) {
		mt->rank = given->rank;
		memcpy(mt->shape, given->dims, sizeof given->dims);
	}
	mt->elems = 1;
	for (int i = 0; i < mt->rank; i++) {
		if (mt->shape[i] < 0 || mt->shape[i] > (1 << 30))
			return fail(t, "tensor '%s' has dimension %d = %lld: give its shape with --shape '%s=D1x...'",
				    name, i, (long long)mt->shape[i], name);
		mt->elems *= (uint64_t)mt->shape[i];
		if (mt->elems > (1ULL << 40))
			return fail(t, "tensor '%s' has over 2^40 elements", name);
	}
	mt->bytes = mt->elems * mt->elem_size;
	mt->producer = DMO_MODEL_INPUT;
	if (read_buffer(t, fb_u32(&t->fb, tensor, TENSOR_BUFFER, 0), mt) != 0 ||
	    read_quant(t, tensor, mt) != 0)
		return -1;
	return fb_check(t, "tensors");
}

static int read_index_list(struct tfl *t, const struct fb_vector *v, uint32_t n_tensors,
			   int **out, size_t *n_out, const char *what, int allow_absent)
{
	*out = calloc(v->len + 1, sizeof **out);
	*n_out = v->len;
	if (*out == NULL)
		return fail(t, "out of memory");
	for (uint32_t i = 0; i < v->len; i++) {
		int32_t x = fb_vec_i32(&t->fb, v, i);

		if ((x < 0 && !(allow_absent && x == -1)) || (x >= 0 && (uint32_t)x >= n_tensors))
			return fail(t, "%s %u names tensor %d of %u", what, i, x, n_tensors);
		(*out)[i] = x < 0 ? DMO_MODEL_ABSENT : x;
	}
	return fb_check(t, what);
}

/* The tensor of operand K, or NULL when the operator has no such operand. */
static const struct dmo_model_tensor *operand(const struct dmo_model *m,
					      const struct dmo_model_layer *l, size_t k)
{
	return k < l->n_operands && l->operands[k] >= 0 ? &m->tensors[l->operands[k]] : NULL;
}

static enum dmo_act act_of(int8_t code)
{
	return code >= 0 && code <= DMO_ACT_TANH ? (enum dmo_act)code : DMO_ACT_OTHER;
}

static const char *pad_of(int8_t code)
{
	return code == 0 ? "same" : code == 1 ? "valid" : NULL;
}

/* The N integers of constant tensor C (int32 or int64), or -1 with WHY. */
static int const_ints(const struct dmo_model_tensor *c, int64_t *v, size_t n)
{
	if (c == NULL || c->producer != DMO_MODEL_CONSTANT || c->elems != n ||
	    (c->elem_size != 4 && c->elem_size != 8) || c->data_len < n * c->elem_size)
		return -1;
	for (size_t i = 0; i < n; i++) {
		int32_t v32;
		int64_t v64;

		if (c->elem_size == 4) {
			memcpy(&v32, c->data + 4 * i, 4);
			v[i] = v32;
		} else {
			memcpy(&v64, c->data + 8 * i, 8);
			v[i] = v64;
		}
	}
	return 0;
}

/* The op spec text of a layer whose op only moves or rescales elements
 * (docs/kernels.md), over IN's dims right-aligned into NHWC, or a reason
 * it has none in WHY.  Returns 0 with TEXT, or 1 with WHY. */
static int layout_spec(const struct dmo_model *m, const struct dmo_model_layer *layer,
		       uint32_t code, uint8_t options_type, struct fb_reader *fb,
		       const struct fb_table *options, char *text, size_t len, char *why,
		       size_t why_len)
{
	const struct dmo_model_tensor *in = operand(m, layer, 0), *arg = operand(m, layer, 1);
	const struct dmo_model_tensor *out = &m->tensors[layer->results[0]];
	const char *dt = dmo_dtype_name(in->dtype);
	char shape[96];
	int64_t v[8];
	int r = in->rank, lead = 4 - in->rank;

	dmo_model_flat_shape(in, shape, sizeof shape);
	if (code != OP_QUANTIZE && code != OP_DEQUANTIZE && out->dtype != in->dtype)
		return snprintf(why, why_len, "%s input to %s output", in->type_name, out->type_name), 1;
	switch (code) {
	case OP_RESHAPE:
		snprintf(text, len, "reshape:in=%s,dtype=%s", shape, dt);
		return 0;
	case OP_LOGISTIC:
	case OP_SOFTMAX:
		snprintf(text, len, "%s:in=%s,dtype=%s", code == OP_SOFTMAX ? "softmax" : "logistic",
			 shape, dt);
		return 0;
	case OP_QUANTIZE:
	case OP_DEQUANTIZE:
		snprintf(text, len, "%s:in=%s,dtype=%s,out_dtype=%s",
			 code == OP_QUANTIZE ? "quantize" : "dequantize", shape, dt,
			 dmo_dtype_name(out->dtype));
		return 0;
	case OP_MEAN: {
		int h = 0, w = 0;

		if (r != 4 || arg == NULL || arg->elems > 4 || const_ints(arg, v, arg->elems) != 0)
			return snprintf(why, why_len, "not a 4-D input with constant axes"), 1;
		for (uint64_t i = 0; i < arg->elems; i++) {
			h += v[i] == 1 || v[i] == -3;
			w += v[i] == 2 || v[i] == -2;
		}
		if (arg->elems != 2 || h != 1 || w != 1)
			return snprintf(why, why_len, "a mean over other axes than height and width"), 1;
		snprintf(text, len, "mean:in=%s,dtype=%s", shape, dt);
		return 0;
	}
	case OP_PAD:
	case OP_PADV2: {
		int64_t b[4] = { 0 }, a[4] = { 0 };

		if (r < 1 || r > 4 || arg == NULL || const_ints(arg, v, 2 * (size_t)r) != 0)
			return snprintf(why, why_len, "not a 1-D to 4-D input with constant paddings"), 1;
		for (int i = 0; i < r; i++) {
			if (v[2 * i] < 0 || v[2 * i + 1] < 0 || v[2 * i] > (1 << 30) ||
			    v[2 * i + 1] > (1 << 30))
				return snprintf(why, why_len, "negative or huge paddings"), 1;
			b[lead + i] = v[2 * i];
			a[lead + i] = v[2 * i + 1];
		}
		snprintf(text, len, "pad:in=%s,before=%lldx%lldx%lldx%lld,after=%lldx%lldx%lldx%lld,dtype=%s",
			 shape, (long long)b[0], (long long)b[1], (long long)b[2], (long long)b[3],
			 (long long)a[0], (long long)a[1], (long long)a[2], (long long)a[3], dt);
		return 0;
	}
	case OP_TRANSPOSE: {
		int64_t p[4] = { 0, 1, 2, 3 };

		if (r < 1 || r > 4 || arg == NULL || const_ints(arg, v, (size_t)r) != 0)
			return snprintf(why, why_len, "not a 1-D to 4-D input with a constant permutation"), 1;
		for (int i = 0; i < r; i++) {
			if (v[i] < 0 || v[i] >= r)
				return snprintf(why, why_len, "permutation entry %lld of %d axes",
						(long long)v[i], r), 1;
			p[lead + i] = lead + v[i];
		}
		snprintf(text, len, "transpose:in=%s,perm=%lldx%lldx%lldx%lld,dtype=%s", shape,
			 (long long)p[0], (long long)p[1], (long long)p[2], (long long)p[3], dt);
		return 0;
	}
	default: { /* CONCATENATION */
		int32_t axis = options_type == OPT_CONCAT ? fb_i32(fb, options, CONCAT_AXIS, 0) : 0;

		if (axis < 0)
			axis += r;
		if (r < 1 || axis != r - 1)
			return snprintf(why, why_len, "concatenation along axis %d of %d (dmo's is along the last)",
					axis, r), 1;
		/* The inputs agree on every axis but the last, whose sizes add
		 * up to the output's: the runner feeds the second one. */
		int64_t channels = in->shape[r - 1];
		for (size_t k = 1; k < layer->n_operands; k++) {
			const struct dmo_model_tensor *o = operand(m, layer, k);

			if (o == NULL || o->rank != r || o->dtype != in->dtype)
				return snprintf(why, why_len, "inputs of other ranks or types"), 1;
			for (int i = 0; i < r - 1; i++)
				if (o->shape[i] != in->shape[i] || out->shape[i] != in->shape[i])
					return snprintf(why, why_len, "inputs that disagree on axis %d", i), 1;
			channels += o->shape[r - 1];
		}
		if (out->rank != r || channels != out->shape[r - 1])
			return snprintf(why, why_len, "an output that is not the inputs side by side"), 1;
		snprintf(text, len, "concat:in=%s,out_c=%lld,at=0,dtype=%s", shape,
			 (long long)out->shape[r - 1], dt);
		return 0;
	}
	}
}

static int is_layout_code(uint32_t code)
{
	return code == OP_RESHAPE || code == OP_LOGISTIC || code == OP_SOFTMAX ||
	       code == OP_QUANTIZE || code == OP_DEQUANTIZE || code == OP_MEAN || code == OP_PAD ||
	       code == OP_PADV2 || code == OP_TRANSPOSE || code == OP_CONCATENATION;
}

/* Build the op spec of layer L (a supported BuiltinOperator CODE) or say
 * why it has none.  Returns 0, or -1 with the error set. */
static int derive_spec(struct tfl *t, size_t l, uint32_t code, uint8_t options_type,
		       const struct fb_table *options)
{
	struct dmo_model *m = t->model;
	struct dmo_model_layer *layer = &m->layers[l];
	const struct dmo_model_tensor *in = operand(m, layer, 0), *w = operand(m, layer, 1);
	const struct dmo_model_tensor *out = layer->n_results == 1 ? &m->tensors[layer->results[0]]
								   : NULL;
	struct fb_reader *fb = &t->fb;
	char text[256], shape[96];
	const char *pad;
	int in_t, out_t;

	if (in == NULL || out == NULL)
		return unsupported(t, layer, "not one input and one output tensor");
	in_t = layer->operands[0];
	out_t = layer->results[0];
	if (in->producer == DMO_MODEL_CONSTANT)
		return unsupported(t, layer, "input '%s' is a constant, not an activation in the arena",
				   in->name);
	if (is_layout_code(code)) {
		char why[160];

		if (!in->known_dtype || !out->known_dtype)
			return unsupported(t, layer, "%s input to %s output: no dmo kernel",
					   in->type_name, out->type_name);
		if (layout_spec(m, layer, code, options_type, fb, options, text, sizeof text, why,
				sizeof why) != 0)
			return unsupported(t, layer, "%s", why);
		if (fb_check(t, "operator options") != 0)
			return -1;
		return dmo_model_layer_spec_runnable(m, l, text, in_t, out_t, t->source, t->err,
						     t->err_len);
	}
	if (!in->known_dtype || in->dtype == DMO_I32 || in->dtype != out->dtype)
		return unsupported(t, layer, "%s input to %s output: no dmo kernel",
				   in->type_name, out->type_name);
	switch (code) {
	case OP_CONV_2D:
	case OP_DEPTHWISE_CONV_2D: {
		int dw = code == OP_DEPTHWISE_CONV_2D;
		int32_t sw, sh, dil_w, dil_h;

		if (options_type != (dw ? OPT_DWCONV : OPT_CONV) || w == NULL || in->rank != 4 ||
		    w->rank != 4 || out->rank != 4)
			return fail(t, "operator %zu (%s): not a 4-D input, filter and output with its options",
				    l + 1, layer->op_name);
		pad = pad_of(fb_i8(fb, options, dw ? DW_PADDING : CONV_PADDING, 0));
		sw = fb_i32(fb, options, dw ? DW_STRIDE_W : CONV_STRIDE_W, 0);
		sh = fb_i32(fb, options, dw ? DW_STRIDE_H : CONV_STRIDE_H, 0);
		dil_w = fb_i32(fb, options, dw ? DW_DIL_W : CONV_DIL_W, 1);
		dil_h = fb_i32(fb, options, dw ? DW_DIL_H : CONV_DIL_H, 1);
		layer->act = act_of(fb_i8(fb, options, dw ? DW_ACT : CONV_ACT, 0));
		if (pad == NULL || sw <= 0 || sh <= 0 || dil_w <= 0 || dil_h <= 0)
			return fail(t, "operator %zu (%s): bad padding, stride or dilation", l + 1,
				    layer->op_name);
		if (dw) {
			if (w->shape[3] != out->shape[3] || out->shape[3] % in->shape[3] != 0)
				return fail(t, "operator %zu (%s): %lld output channels from %lld input channels",
					    l + 1, layer->op_name, (long long)out->shape[3],
					    (long long)in->shape[3]);
			snprintf(text, sizeof text,
				 "dwconv2d:in=%lldx%lldx%lldx%lld,k=%lldx%lld,stride=%dx%d,dil=%dx%d,pad=%s,mult=%lld,dtype=%s",
				 (long long)in->shape[0], (long long)in->shape[1],
				 (long long)in->shape[2], (long long)in->shape[3],
				 (long long)w->shape[1], (long long)w->shape[2], sh, sw, dil_h, dil_w,
				 pad, (long long)(out->shape[3] / in->shape[3]),
				 dmo_dtype_name(in->dtype));
		} else {
			if (w->shape[3] != in->shape[3])
				return unsupported(t, layer,
					"grouped convolution (%lld input channels, filter has %lld)",
					(long long)in->shape[3], (long long)w->shape[3]);
			snprintf(text, sizeof text,
				 "conv2d:in=%lldx%lldx%lldx%lld,k=%lldx%lld,stride=%dx%d,dil=%dx%d,pad=%s,out_c=%lld,dtype=%s",
				 (long long)in->shape[0], (long long)in->shape[1],
				 (long long)in->shape[2], (long long)in->shape[3],
				 (long long)w->shape[1], (long long)w->shape[2], sh, sw, dil_h, dil_w,
				 pad, (long long)w->shape[0], dmo_dtype_name(in->dtype));
		}
		break;
	}
	case OP_AVERAGE_POOL_2D:
	case OP_MAX_POOL_2D: {
		int32_t sw, sh, fw, fh;

		if (options_type != OPT_POOL || in->rank != 4 || out->rank != 4)
			return fail(t, "operator %zu (%s): not a 4-D input and output with pool options",
				    l + 1, layer->op_name);
		pad = pad_of(fb_i8(fb, options, POOL_PADDING, 0));
		sw = fb_i32(fb, options, POOL_STRIDE_W, 0);
		sh = fb_i32(fb, options, POOL_STRIDE_H, 0);
		fw = fb_i32(fb, options, POOL_FILTER_W, 0);
		fh = fb_i32(fb, options, POOL_FILTER_H, 0);
		layer->act = act_of(fb_i8(fb, options, POOL_ACT, 0));
		if (pad == NULL || sw <= 0 || sh <= 0 || fw <= 0 || fh <= 0)
			return fail(t, "operator %zu (%s): bad padding, stride or filter size", l + 1,
				    layer->op_name);
		snprintf(text, sizeof text, "%s:in=%lldx%lldx%lldx%lld,k=%dx%d,stride=%dx%d,pad=%s,dtype=%s",
			 code == OP_MAX_POOL_2D ? "maxpool" : "avgpool", (long long)in->shape[0],
			 (long long)in->shape[1], (long long)in->shape[2], (long long)in->shape[3],
			 fh, fw, sh, sw, pad, dmo_dtype_name(in->dtype));
		break;
	}
	case OP_FULLY_CONNECTED: {
		if (w == NULL || w->rank != 2 || w->shape[1] <= 0 || in->elems % (uint64_t)w->shape[1])
			return fail(t, "operator %zu (%s): weights are not units x K with K dividing the input",
				    l + 1, layer->op_name);
		if (options_type == OPT_FC) {
			layer->act = act_of(fb_i8(fb, options, FC_ACT, 0));
			if (fb_i8(fb, options, FC_WEIGHTS_FORMAT, 0) != 0)
				return unsupported(t, layer, "shuffled weights format");
		}
		snprintf(text, sizeof text, "fc:in=%llux%lld,units=%lld,dtype=%s",
			 (unsigned long long)(in->elems / (uint64_t)w->shape[1]),
			 (long long)w->shape[1], (long long)w->shape[0], dmo_dtype_name(in->dtype));
		break;
	}
	case OP_ADD:
	case OP_MUL: {
		const struct dmo_model_tensor *other = w;

		if (options_type == (code == OP_ADD ? OPT_ADD : OPT_MUL))
			layer->act = act_of(fb_i8(fb, options, ADDMUL_ACT, 0));
		if (other == NULL || other->elems != in->elems || out->elems != in->elems ||
		    other->dtype != in->dtype)
			return unsupported(t, layer, "broadcasting operands");
		dmo_model_flat_shape(in, shape, sizeof shape);
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s", code == OP_ADD ? "add" : "mul",
			 shape, dmo_dtype_name(in->dtype));
		break;
	}
	default: /* RELU, RELU6 */
		dmo_model_flat_shape(in, shape, sizeof shape);
		snprintf(text, sizeof text, "%s:in=%s,dtype=%s", code == OP_RELU ? "relu" : "relu6",
			 shape, dmo_dtype_name(in->dtype));
		break;
	}
	if (fb_check(t, "operator options") != 0)
		return -1;
	return dmo_model_layer_spec(m, l, text, in_t, out_t, t->source, t->err, t->err_len);
}

static int supported_code(uint32_t code)
{
	return code == OP_ADD || code == OP_AVERAGE_POOL_2D || code == OP_CONV_2D ||
	       code == OP_DEPTHWISE_CONV_2D || code == OP_FULLY_CONNECTED ||
	       code == OP_MAX_POOL_2D || code == OP_MUL || code == OP_RELU || code == OP_RELU6 ||
	       is_layout_code(code);
}

static int read_operator(struct tfl *t, const struct fb_table *op, size_t l, uint32_t n_tensors)
{
	struct dmo_model_layer *layer = &t->model->layers[l];
	uint32_t code_index = fb_u32(&t->fb, op, OPERATOR_OPCODE_INDEX, 0);
	struct fb_vector ins = fb_vector_field(&t->fb, op, OPERATOR_INPUTS, 4, "Operator.inputs");
	struct fb_vector outs = fb_vector_field(&t->fb, op, OPERATOR_OUTPUTS, 4,
						"Operator.outputs");
	uint8_t options_type = fb_u8(&t->fb, op, OPERATOR_OPTIONS_TYPE, 0);
	struct fb_table options = fb_table_field(&t->fb, op, OPERATOR_OPTIONS,
						 "Operator.builtin_options");
	char name[96], lower[96];
	size_t i;

	layer->row = (int)l;
	if (fb_check(t, "operators") != 0)
		return -1;
	if (code_index >= t->n_opcodes)
		return fail(t, "operator %zu uses operator code %u of %u", l + 1, code_index,
			    t->n_opcodes);
	op_name(t, code_index, name, sizeof name);
	for (i = 0; name[i] && i < sizeof lower - 1; i++)
		lower[i] = isalnum((unsigned char)name[i]) ? (char)tolower((unsigned char)name[i]) : '_';
	lower[i] = '\0';
	layer->op_name = strdup(name);
	layer->name = malloc(strlen(lower) + 16);
	if (layer->op_name == NULL || layer->name == NULL)
		return fail(t, "out of memory");
	/* Numbered from 1, as the layer is everywhere (docs/cli.md). */
	sprintf(layer->name, "%zu_%s", l + 1, lower);
	if (read_index_list(t, &ins, n_tensors, &layer->operands, &layer->n_operands,
			    "operator input", 1) != 0 ||
	    read_index_list(t, &outs, n_tensors, &layer->results, &layer->n_results,
			    "operator output", 0) != 0)
		return -1;
	/* A layer is a kernel that writes a buffer (as model_onnx.c says). */
	if (layer->n_results == 0)
		return fail(t, "operator %zu (%s) has no output", l + 1, name);
	if (!supported_code(t->opcodes[code_index]))
		return unsupported(t, layer, "op %s has no dmo model", name);
	return derive_spec(t, l, t->opcodes[code_index], options_type, &options);
}

static int read_subgraph(struct tfl *t, const struct fb_table *g)
{
	struct dmo_model *m = t->model;
	struct fb_vector tensors = fb_vector_field(&t->fb, g, SUBGRAPH_TENSORS, 4,
						   "SubGraph.tensors");
	struct fb_vector inputs = fb_vector_field(&t->fb, g, SUBGRAPH_INPUTS, 4, "SubGraph.inputs");
	struct fb_vector outputs = fb_vector_field(&t->fb, g, SUBGRAPH_OUTPUTS, 4,
						   "SubGraph.outputs");
	struct fb_vector ops = fb_vector_field(&t->fb, g, SUBGRAPH_OPERATORS, 4,
					       "SubGraph.operators");
	int *list = NULL;
	size_t n;

	if (fb_check(t, "subgraph") != 0)
		return -1;
	if (ops.len == 0)
		return fail(t, "the subgraph has no operators");
	m->tensors = calloc(tensors.len + 1, sizeof *m->tensors);
	m->layers = calloc(ops.len, sizeof *m->layers);
	if (m->tensors == NULL || m->layers == NULL)
		return fail(t, "out of memory");
	for (uint32_t i = 0; i < tensors.len; i++) {
		struct fb_table tensor = fb_vec_table(&t->fb, &tensors, i, "Tensor");

		m->n_tensors = i + 1;
		if (read_tensor(t, &tensor, i, &m->tensors[i]) != 0)
			return -1;
	}
	for (size_t s = 0; s < t->n_shapes; s++) {
		size_t k;
		for (k = 0; k < m->n_tensors; k++)
			if (dmo_model_shape_names(&t->shapes[s], m->tensors[k].name))
				break;
		if (k == m->n_tensors)
			return fail(t, "--shape %s: the model has no tensor of that name",
				    t->shapes[s].tensor);
	}
	if (read_index_list(t, &inputs, tensors.len, &list, &n, "subgraph input", 0) != 0)
		return free(list), -1;
	for (size_t i = 0; i < n; i++)
		m->tensors[list[i]].graph_input = m->tensors[list[i]].producer != DMO_MODEL_CONSTANT;
	free(list);
	if (read_index_list(t, &outputs, tensors.len, &list, &n, "subgraph output", 0) != 0)
		return free(list), -1;
	for (size_t i = 0; i < n; i++)
		m->tensors[list[i]].graph_output = 1;
	free(list);
	for (uint32_t i = 0; i < ops.len; i++) {
		struct fb_table op = fb_vec_table(&t->fb, &ops, i, "Operator");

		m->n_layers = i + 1;
		if (read_operator(t, &op, i, tensors.len) != 0)
			return -1;
	}
	return dmo_model_link(m, t->source, t->err, t->err_len);
}

int dmo_model_parse_tflite(const unsigned char *data, size_t len, const char *source,
			   const struct dmo_model_shape *shapes, size_t n_shapes,
			   struct dmo_model *model, char *err, size_t err_len)
{
	struct tfl t = { .source = source, .model = model, .err = err, .err_len = err_len,
			 .shapes = shapes, .n_shapes = n_shapes };
	struct fb_table root;
	struct fb_vector subgraphs;
	uint32_t version;
	int rc = -1;

	*model = (struct dmo_model){ .format = DMO_FORMAT_TFLITE };
	fb_init(&t.fb, data, len);
	root = fb_root(&t.fb);
	version = fb_u32(&t.fb, &root, MODEL_VERSION, 0);
	subgraphs = fb_vector_field(&t.fb, &root, MODEL_SUBGRAPHS, 4, "Model.subgraphs");
	t.buffers = fb_vector_field(&t.fb, &root, MODEL_BUFFERS, 4, "Model.buffers");
	if (fb_check(&t, "model") != 0)
		goto out;
	if (version != 3) {
		fail(&t, "TFLite schema version %u; dmo reads version 3", version);
		goto out;
	}
	if (subgraphs.len != 1) {
		char names[256] = "", name[64];

		for (uint32_t i = 0; i < subgraphs.len && i < 8; i++) {
			struct fb_table g = fb_vec_table(&t.fb, &subgraphs, i, "SubGraph");

			if (!fb_string_field(&t.fb, &g, SUBGRAPH_NAME, name, sizeof name,
					     "SubGraph.name"))
				snprintf(name, sizeof name, "#%u", i);
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
				 i ? ", " : "", name);
		}
		fail(&t, "%u subgraphs (%s): dmo plans models of one subgraph (no control flow)",
		     subgraphs.len, names);
		goto out;
	}
	if (read_opcodes(&t, &root) != 0)
		goto out;
	{
		struct fb_table g = fb_vec_table(&t.fb, &subgraphs, 0, "SubGraph");

		if (fb_check(&t, "subgraph") == 0)
			rc = read_subgraph(&t, &g);
	}
out:
	free(t.opcodes);
	free(t.customs);
	if (rc != 0)
		dmo_model_free(model);
	return rc;
}
