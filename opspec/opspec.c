/* opspec.c - parser and formatter for the op-spec language `OP:key=value,...`
 * (docs/opspec.md).  Every spec read anywhere in dmo passes through here, so
 * it is strict: each malformed spec is rejected with exactly one message
 * naming the offending key or value, and the nearest right name when the
 * wrong one looks like a slip.  Its tables are the grammar: `dmo ops` prints
 * them and tests/opspec_docs.sh checks docs/opspec.md against them. */
#include "errbuf.h"
#include "nearest.h"
#include "opspec.h"

#include <ctype.h>
#include <inttypes.h>
#include <math.h> /* isfinite, a macro */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Largest buffer a spec may describe: beyond it a layer cannot be a
 * micro-controller kernel, and sizes stop fitting the tool's counters. */
#define MAX_BUFFER_BYTES ((uint64_t)4 << 30)
#define MAX_VALUE 0x7fffffff

enum key {
	KEY_IN, KEY_K, KEY_STRIDE, KEY_DIL, KEY_PAD, KEY_MULT, KEY_OUT_C,
	KEY_UNITS, KEY_DTYPE, KEY_OUT_DTYPE, KEY_BEFORE, KEY_AFTER, KEY_AT, KEY_PERM,
	KEY_LAYOUT, KEY_SCALE, KEY_AXIS, KEY_GROUP, KEY_TRANS_A, KEY_OUT_PAD,
	KEY_COUNT_PAD, KEY_MODE, KEY_VALUE, KEY_STEP, KEY_INDICES, KEY_COUNT
};

#define BIT(k) (1u << (k))

static const char *const key_names[KEY_COUNT] = {
	"in", "k", "stride", "dil", "pad", "mult", "out_c", "units", "dtype", "out_dtype",
	"before", "after", "at", "perm", "layout", "scale", "axis", "group", "trans_a", "out_pad",
	"count_pad", "mode", "value", "step", "indices"
};

static const char *const layout_names[] = { "nhwc", "nchw" };
static const char *const pad_mode_names[] = { "constant", "reflect", "edge" };

/* Each key's value format, default and meaning, as `dmo ops` prints them;
 * the format is also what a bad value's message expects.  `in` is read
 * as NxK or K by fc (fc_in_format). */
static const struct dmo_opspec_key key_info[KEY_COUNT] = {
	[KEY_IN] = { "in", "HxWxC or NxHxWxC, positive integers", "required",
		     "the input's shape, NHWC (N = 1 when not given)" },
	[KEY_K] = { "k", "KHxKW or K, positive integers", "required",
		    "the window: filter or pooling size" },
	[KEY_STRIDE] = { "stride", "SHxSW or S, positive integers", "1",
			 "the window's step" },
	[KEY_DIL] = { "dil", "SHxSW or S, positive integers", "1",
		      "the dilation: the distance between a filter's taps" },
	[KEY_PAD] = { "pad", "same, valid, PHxPW or TxLxBxR", "valid",
		      "same (TensorFlow's SAME: an odd row/column at the bottom/right), "
		      "valid (none), PH rows above and below and PW columns on each side, "
		      "or T rows above, L columns left, B rows below, R columns right" },
	[KEY_MULT] = { "mult", "a positive integer", "1",
		       "the depth multiplier: out_c = in's C x mult" },
	[KEY_OUT_C] = { "out_c", "a positive integer", "required",
			"conv2d: the output channels; concat: the channels of the whole output" },
	[KEY_UNITS] = { "units", "a positive integer", "required",
			"the output units (fc's output is NxUNITS; matmul's NxHxWxUNITS)" },
	[KEY_DTYPE] = { "dtype", "f32, i8, i16, i32 or u8", "f32 (dequantize: i8)",
			"the element type of the input (and of the output, unless out_dtype)" },
	[KEY_OUT_DTYPE] = { "out_dtype", "f32, i8, i16, i32 or u8", "i8 (dequantize: f32)",
			    "the output's element type" },
	[KEY_BEFORE] = { "before", "HxW, HxWxC or NxHxWxC, integers >= 0", "0",
			 "elements added (slice: removed) before the input along each axis" },
	[KEY_AFTER] = { "after", "HxW, HxWxC or NxHxWxC, integers >= 0", "0",
			"elements added (slice: removed) after the input along each axis" },
	[KEY_AT] = { "at", "an integer >= 0", "0",
		     "the output channel where this input starts (the others' channels "
		     "before and after it)" },
	[KEY_PERM] = { "perm", "AxBxC or AxBxCxD (or A,B,C[,D]), a permutation of in's axes",
		       "required",
		       "output axis i is input axis perm[i]; over HxWxC the batch stays first" },
	[KEY_LAYOUT] = { "layout", "nhwc or nchw", "nhwc",
			 "the buffers' memory order (nchw: ONNX's, the NCHW kernels' loop order); "
			 "in, k and the output keep their meaning" },
	[KEY_SCALE] = { "scale", "SHxSW or S, positive integers", "required",
			"resize: the output has SH times in's rows and SW times its columns" },
	[KEY_AXIS] = { "axis", "0, 1, 2 or 3", "3",
		       "the NHWC axis a softmax normalises (3: rows of C; another: ONNX Runtime's "
		       "order, the whole input read first)" },
	[KEY_GROUP] = { "group", "a positive integer dividing in's C and out_c", "1",
			"conv2d and convt, layout=nchw: groups of C/group input planes, each read by "
			"(conv2d) or writing (convt) out_c/group output planes (ONNX's group)" },
	[KEY_TRANS_A] = { "trans_a", "0 or 1", "0",
			  "fc: 1 when the input NxK is stored transposed, K rows of N (ONNX's Gemm "
			  "transA)" },
	[KEY_OUT_PAD] = { "out_pad", "AHxAW or A, integers >= 0, below the stride", "0",
			  "convt: rows/columns added at the output's bottom/right (ONNX's output_padding)" },
	[KEY_COUNT_PAD] = { "count_pad", "0 or 1", "0",
			    "avgpool, layout=nchw: 1 divides by the whole window, padding included "
			    "(ONNX's count_include_pad); 0 by the taps inside the image" },
	[KEY_MODE] = { "mode", "constant, reflect or edge", "constant",
		       "pad: the border holds value (constant), the input mirrored about its edge "
		       "element (reflect) or its edge element repeated (edge), ONNX's Pad modes" },
	[KEY_VALUE] = { "value", "a number (integer types: an integer of dtype's range)", "0",
			"pad, mode=constant: the border's value" },
	[KEY_STEP] = { "step", "HxW, HxWxC or NxHxWxC, non-zero integers", "1",
		       "slice: every step-th element of the kept box along each axis, from its "
		       "first (step > 0) or backward from its last (step < 0), ONNX's Slice steps" },
	[KEY_INDICES] = { "indices", "AxBx..., 1 to 32 integers >= 0 below in's W", "required",
			  "gather: output column w copies input column indices[w] (ONNX's Gather)" },
};

static const char *const fc_in_format = "NxK or K, positive integers";

/* What each op does, for `dmo ops`. */
static const char *const op_meanings[DMO_OP_COUNT] = {
	"max(x, 0), element by element",
	"min(max(x, 0), 6), element by element",
	"x + y, element by element (the profiled input is x)",
	"x * y, element by element (the profiled input is x)",
	"2-D convolution, NHWC, filters out_c x KH x KW x C",
	"depthwise 2-D convolution: out_c = C x mult",
	"max pooling over each window",
	"average pooling over each window (taps inside the image; count_pad=1: the whole window)",
	"fully connected: NxK times KxUNITS",
	"the same elements, another shape (a copy)",
	"softmax over C",
	"1 / (1 + exp(-x)), element by element",
	"the mean over H and W: output Nx1x1xC",
	"float or integer to out_dtype (default f32 to i8)",
	"i8, u8 or i32 to out_dtype (default i8 to f32)",
	"padding by before/after elements along each axis (zeros, value, reflect or edge)",
	"one input of a concatenation along C, placed at channel `at` of out_c",
	"the axes permuted by perm",
	"tanh(x), element by element (f32)",
	"x - y, element by element (f32; the profiled input is x)",
	"x / y, element by element (f32; the profiled input is x)",
	"max(0, min(1, alpha x + beta)), element by element (f32)",
	"x max(0, min(1, x / 6 + 1/2)), element by element (f32)",
	"min(max(x, lo), hi), element by element (f32)",
	"x scale[c] + shift[c] over in=NxCx1xI: channel c of N images of I elements (f32)",
	"nearest upsample, NCHW: out[n][c][y][x] = in[n][c][y / SH][x / SW] (any type)",
	"transposed 2-D convolution (ONNX's ConvTranspose, f32, layout=nchw): output "
	"(H-1) stride + (k-1) dil + 1 + out_pad - pads, filters C x out_c/group x KH x KW",
	"x >= 0 ? x : alpha x, element by element (f32; an op spec alone: alpha 0.01)",
	"x >= 0 ? x : alpha (exp(x) - 1), element by element (f32; alpha 1)",
	"gamma (x > 0 ? x : alpha (exp(x) - 1)), element by element (f32; ONNX's alpha, gamma)",
	"exp(x), element by element (f32)",
	"log(x), element by element (f32)",
	"sqrt(x), element by element (f32)",
	"-x, element by element (f32)",
	"|x|, element by element (f32)",
	"1 / x, element by element (f32)",
	"log(1 + exp(x)), element by element (f32)",
	"erf(x), element by element (f32)",
	"floor(x), element by element (f32)",
	"ceil(x), element by element (f32)",
	"x ^ exponent, element by element (f32; an op spec alone: exponent 2)",
	"x > 0 ? x : x * slope, element by element (f32; the profiled input is x)",
	"log of softmax over the axis (rows of C by default; f32)",
	"the maximum over H and W: output Nx1x1xC (f32)",
	"the minimum over H and W: output Nx1x1xC (f32)",
	"the sum over H and W: output Nx1x1xC (f32)",
	"max(x, y), element by element (f32; the profiled input is x)",
	"min(x, y), element by element (f32; the profiled input is x)",
	"the elements left when before/after elements are removed along each axis (any type)",
	"in's rows of C times matrices C x units, one per N x H (f32; the profiled input is "
	"in, the matrices a second operand)",
	"x alpha, element by element (f32; ONNX's Mean of n: alpha 1/n; an op spec alone: 1/2)",
	"x ^ y, element by element (f32; the profiled input is x, y the exponent)",
	"x + y, element by element, as ONNX Runtime's QLinearAdd (u8 or i8; the profiled input is x)",
	"x * y, element by element, as ONNX Runtime's QLinearMul (u8 or i8; the profiled input is x)",
	"the mean over H and W as ONNX Runtime's QLinearGlobalAveragePool: output Nx1x1xC (u8 or i8)",
	"average pooling as ONNX Runtime's QLinearAveragePool: the whole input read first (NCHW, u8 "
	"or i8)",
	"out[n][h][w][c] = in[n][h][indices[w]][c] (any type; ONNX's Gather of constant indices)",
};

/* Spellings other tools use for a dtype or a padding, and dmo's word. */
static const struct {
	const char *foreign, *ours;
} foreign_words[] = {
	{ "float32", "f32" }, { "float", "f32" }, { "fp32", "f32" },
	{ "int8", "i8" }, { "int16", "i16" }, { "int32", "i32" }, { "uint8", "u8" },
	{ "qint8", "i8" }, { "quint8", "u8" }, { "SAME_UPPER", "same" },
};

static const char *const op_names[DMO_OP_COUNT] = {
	"relu", "relu6", "add", "mul", "conv2d", "dwconv2d", "maxpool",
	"avgpool", "fc", "reshape", "softmax", "logistic", "mean", "quantize",
	"dequantize", "pad", "concat", "transpose", "tanh", "sub", "div",
	"hardsigmoid", "hardswish", "clip", "batchnorm", "resize",
	"convt", "leakyrelu", "elu", "selu", "exp", "log", "sqrt", "neg", "abs",
	"reciprocal", "softplus", "erf", "floor", "ceil", "pow", "prelu", "logsoftmax",
	"reducemax", "reducemin", "reducesum", "max", "min", "slice",
	"matmul", "scale", "powt", "qlinearadd", "qlinearmul", "qlinearmean", "qlinearavgpool",
	"gather"
};

static const char *const dtype_names[DMO_DTYPE_COUNT] = {
	"f32", "i8", "i16", "i32", "u8"
};

static const size_t dtype_sizes[DMO_DTYPE_COUNT] = { 4, 1, 2, 4, 1 };

#define ELEMENTWISE_KEYS (BIT(KEY_IN) | BIT(KEY_DTYPE))
#define WINDOW_KEYS (BIT(KEY_IN) | BIT(KEY_K) | BIT(KEY_STRIDE) | BIT(KEY_PAD) | BIT(KEY_DTYPE) | \
		     BIT(KEY_LAYOUT))

/* Which keys each op accepts, and which of those it cannot do without.
 * Average pooling takes no dilation (TensorFlow's pools have none); max
 * pooling takes ONNX's MaxPool dilations in NCHW. */
static const struct {
	unsigned allowed, required;
} op_keys[DMO_OP_COUNT] = {
	[DMO_OP_RELU] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_RELU6] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_ADD] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_MUL] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_CONV2D] = { WINDOW_KEYS | BIT(KEY_DIL) | BIT(KEY_OUT_C) | BIT(KEY_GROUP),
			    BIT(KEY_IN) | BIT(KEY_K) | BIT(KEY_OUT_C) },
	[DMO_OP_DWCONV2D] = { WINDOW_KEYS | BIT(KEY_DIL) | BIT(KEY_MULT),
			      BIT(KEY_IN) | BIT(KEY_K) },
	[DMO_OP_MAXPOOL] = { WINDOW_KEYS | BIT(KEY_DIL), BIT(KEY_IN) | BIT(KEY_K) },
	[DMO_OP_AVGPOOL] = { WINDOW_KEYS | BIT(KEY_DIL) | BIT(KEY_COUNT_PAD), BIT(KEY_IN) | BIT(KEY_K) },
	[DMO_OP_FC] = { BIT(KEY_IN) | BIT(KEY_UNITS) | BIT(KEY_DTYPE) | BIT(KEY_TRANS_A),
			BIT(KEY_IN) | BIT(KEY_UNITS) },
	[DMO_OP_RESHAPE] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SOFTMAX] = { ELEMENTWISE_KEYS | BIT(KEY_AXIS), BIT(KEY_IN) },
	[DMO_OP_LOGISTIC] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_MEAN] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_QUANTIZE] = { ELEMENTWISE_KEYS | BIT(KEY_OUT_DTYPE), BIT(KEY_IN) },
	[DMO_OP_DEQUANTIZE] = { ELEMENTWISE_KEYS | BIT(KEY_OUT_DTYPE), BIT(KEY_IN) },
	[DMO_OP_PAD] = { ELEMENTWISE_KEYS | BIT(KEY_BEFORE) | BIT(KEY_AFTER) | BIT(KEY_MODE) | BIT(KEY_VALUE),
			 BIT(KEY_IN) },
	[DMO_OP_CONCAT] = { ELEMENTWISE_KEYS | BIT(KEY_OUT_C) | BIT(KEY_AT),
			    BIT(KEY_IN) | BIT(KEY_OUT_C) },
	[DMO_OP_TRANSPOSE] = { ELEMENTWISE_KEYS | BIT(KEY_PERM), BIT(KEY_IN) | BIT(KEY_PERM) },
	[DMO_OP_TANH] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SUB] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_DIV] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_HARDSIGMOID] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_HARDSWISH] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_CLIP] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_BATCHNORM] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_RESIZE] = { ELEMENTWISE_KEYS | BIT(KEY_SCALE), BIT(KEY_IN) | BIT(KEY_SCALE) },
	[DMO_OP_CONVT] = { WINDOW_KEYS | BIT(KEY_DIL) | BIT(KEY_OUT_C) | BIT(KEY_OUT_PAD) | BIT(KEY_GROUP),
			   BIT(KEY_IN) | BIT(KEY_K) | BIT(KEY_OUT_C) },
	[DMO_OP_LEAKYRELU] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_ELU] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SELU] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_EXP] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_LOG] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SQRT] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_NEG] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_ABS] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_RECIPROCAL] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SOFTPLUS] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_ERF] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_FLOOR] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_CEIL] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_POW] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_PRELU] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_LOGSOFTMAX] = { ELEMENTWISE_KEYS | BIT(KEY_AXIS), BIT(KEY_IN) },
	[DMO_OP_REDUCEMAX] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_REDUCEMIN] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_REDUCESUM] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_MAX] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_MIN] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_SLICE] = { ELEMENTWISE_KEYS | BIT(KEY_BEFORE) | BIT(KEY_AFTER) | BIT(KEY_STEP), BIT(KEY_IN) },
	[DMO_OP_MATMUL] = { ELEMENTWISE_KEYS | BIT(KEY_UNITS), BIT(KEY_IN) | BIT(KEY_UNITS) },
	[DMO_OP_SCALE] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_POWT] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_QLINEARADD] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_QLINEARMUL] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_QLINEARMEAN] = { ELEMENTWISE_KEYS, BIT(KEY_IN) },
	[DMO_OP_QLINEARAVGPOOL] = { WINDOW_KEYS, BIT(KEY_IN) | BIT(KEY_K) },
	[DMO_OP_GATHER] = { ELEMENTWISE_KEYS | BIT(KEY_INDICES), BIT(KEY_IN) | BIT(KEY_INDICES) },
};

const struct dmo_opspec_key *dmo_opspec_key(int key)
{
	return key >= 0 && key < KEY_COUNT ? &key_info[key] : NULL;
}

unsigned dmo_opspec_op_keys(enum dmo_op op, unsigned *required)
{
	if ((unsigned)op >= DMO_OP_COUNT)
		return 0;
	if (required)
		*required = op_keys[op].required;
	return op_keys[op].allowed;
}

const char *dmo_opspec_value_format(enum dmo_op op, int key)
{
	if (op == DMO_OP_FC && key == KEY_IN)
		return fc_in_format;
	return key >= 0 && key < KEY_COUNT ? key_info[key].format : NULL;
}

int dmo_op_onnx_unary(enum dmo_op op)
{
	return op >= DMO_OP_LEAKYRELU && op <= DMO_OP_POW ? (int)(op - DMO_OP_LEAKYRELU)
	       : op == DMO_OP_SCALE ? (int)(DMO_OP_POW - DMO_OP_LEAKYRELU) + 1 /* DK_SCALE */
				    : -1;
}

int dmo_op_onnx_elementwise(enum dmo_op op)
{
	return (op >= DMO_OP_SUB && op <= DMO_OP_BATCHNORM) || dmo_op_onnx_unary(op) >= 0 ||
	       op == DMO_OP_PRELU || op == DMO_OP_MAX || op == DMO_OP_MIN || op == DMO_OP_POWT ||
	       op == DMO_OP_QLINEARADD || op == DMO_OP_QLINEARMUL;
}

int dmo_op_reduce(enum dmo_op op)
{
	return op == DMO_OP_MEAN || (op >= DMO_OP_REDUCEMAX && op <= DMO_OP_REDUCESUM) ||
	       op == DMO_OP_QLINEARMEAN;
}

int dmo_op_binary(enum dmo_op op)
{
	return op == DMO_OP_ADD || op == DMO_OP_MUL || op == DMO_OP_SUB || op == DMO_OP_DIV ||
	       op == DMO_OP_PRELU || op == DMO_OP_MAX || op == DMO_OP_MIN || op == DMO_OP_POWT ||
	       op == DMO_OP_QLINEARADD || op == DMO_OP_QLINEARMUL;
}

const char *dmo_op_meaning(enum dmo_op op)
{
	return (unsigned)op < DMO_OP_COUNT ? op_meanings[op] : "?";
}

/* "; did you mean 'X'?" for WORD (LEN bytes) among NAMES, or "" when no
 * name is near: a foreign spelling first, then the nearest name. */
static const char *did_you_mean(char *buf, size_t len, const char *word, size_t word_len,
				const char *const *names, size_t count)
{
	const char *near = NULL;

	for (size_t i = 0; i < sizeof foreign_words / sizeof foreign_words[0] && !near; i++)
		if (strlen(foreign_words[i].foreign) == word_len &&
		    strncasecmp(word, foreign_words[i].foreign, word_len) == 0)
			near = foreign_words[i].ours;
	if (!near)
		near = dmo_nearest(word, word_len, names, count);
	if (!near)
		return "";
	snprintf(buf, len, "; did you mean '%s'?", near);
	return buf;
}

const char *dmo_op_name(enum dmo_op op)
{
	return (unsigned)op < DMO_OP_COUNT ? op_names[op] : "?";
}

const char *dmo_dtype_name(enum dmo_dtype dtype)
{
	return (unsigned)dtype < DMO_DTYPE_COUNT ? dtype_names[dtype] : "?";
}

size_t dmo_dtype_size(enum dmo_dtype dtype)
{
	return (unsigned)dtype < DMO_DTYPE_COUNT ? dtype_sizes[dtype] : 0;
}

/* A value is a bounded slice of the spec text, not NUL-terminated. */
struct slice {
	const char *p;
	size_t n;
};

static int slice_is(struct slice s, const char *word)
{
	return strlen(word) == s.n && memcmp(s.p, word, s.n) == 0;
}

/* Parse a positive decimal integer that fills the whole slice.
 * Returns 0, or -1 for an empty/non-digit slice, -2 for overflow. */
static int parse_uint(struct slice s, int *out, int allow_zero)
{
	int64_t v = 0;

	if (s.n == 0)
		return -1;
	for (size_t i = 0; i < s.n; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return -1;
		v = v * 10 + (s.p[i] - '0');
		if (v > MAX_VALUE)
			return -2;
	}
	if (v == 0 && !allow_zero)
		return -1;
	*out = (int)v;
	return 0;
}

/* Parse a finite decimal number (strtod's syntax) that fills the whole
 * slice.  Returns 0 or -1. */
static int parse_number(struct slice s, double *out)
{
	char text[64], *end;

	if (s.n == 0 || s.n >= sizeof text)
		return -1;
	memcpy(text, s.p, s.n);
	text[s.n] = '\0';
	*out = strtod(text, &end);
	return *end == '\0' && isfinite(*out) && !isspace((unsigned char)text[0]) ? 0 : -1;
}

/* Parse `AxBx...` with between MIN and MAX positive components. */
static int parse_dims(struct slice s, int *dims, int min, int max, int *count,
		      int allow_zero)
{
	int n = 0;
	size_t start = 0;

	for (size_t i = 0; i <= s.n; i++) {
		if (i < s.n && s.p[i] != 'x')
			continue;
		if (n == max)
			return -1;
		int rc = parse_uint((struct slice){ s.p + start, i - start },
				    &dims[n++], allow_zero);
		if (rc)
			return rc;
		start = i + 1;
	}
	if (n < min)
		return -1;
	*count = n;
	return 0;
}

/* Parse slice's steps `AxB...`: 2 to 4 non-zero integers, each maybe
 * negative. */
static int parse_steps(struct slice s, int *dims, int *count)
{
	int n = 0;
	size_t start = 0;

	for (size_t i = 0; i <= s.n; i++) {
		if (i < s.n && s.p[i] != 'x')
			continue;
		int negative = i > start && s.p[start] == '-';
		if (n == 4)
			return -1;
		int rc = parse_uint((struct slice){ s.p + start + negative, i - start - negative },
				    &dims[n], 0);
		if (rc)
			return rc;
		dims[n++] *= negative ? -1 : 1;
		start = i + 1;
	}
	if (n < 2)
		return -1;
	*count = n;
	return 0;
}

/* Parse a value for KEY shaped as `S` or `AxB` into A and B. */
static int parse_pair(struct slice s, int *a, int *b, int allow_zero)
{
	int d[2], n;
	int rc = parse_dims(s, d, 1, 2, &n, allow_zero);

	if (rc)
		return rc;
	*a = d[0];
	*b = n == 2 ? d[1] : d[0];
	return 0;
}

static int bad_value(char *err, size_t err_len, enum key key, struct slice v,
		     int rc, const char *expect)
{
	static const char *const pad_words[] = { "same", "valid" };
	char hint[96] = "";

	if (rc == -2)
		return dmo_errf(err, err_len, "value of '%s' is too large: '%.*s'",
			    key_names[key], (int)v.n, v.p);
	if (key == KEY_DTYPE || key == KEY_OUT_DTYPE)
		did_you_mean(hint, sizeof hint, v.p, v.n, dtype_names, DMO_DTYPE_COUNT);
	else if (key == KEY_PAD)
		did_you_mean(hint, sizeof hint, v.p, v.n, pad_words, 2);
	else if (key == KEY_LAYOUT)
		did_you_mean(hint, sizeof hint, v.p, v.n, layout_names, 2);
	else if (key == KEY_MODE)
		did_you_mean(hint, sizeof hint, v.p, v.n, pad_mode_names, 3);
	return dmo_errf(err, err_len, "bad value for '%s': '%.*s' (expected %s)%s",
		    key_names[key], (int)v.n, v.p, expect, hint);
}

/* Store D[N] into the NHWC vector OUT[4]: N = 4 is NxHxWxC, 3 HxWxC, 2
 * HxW; the axes not given are 0. */
static void nhwc_vector(int *out, const int *d, int n)
{
	int first = n == 4 ? 0 : 1;

	for (int i = 0; i < 4; i++)
		out[i] = i >= first && i - first < n ? d[i - first] : 0;
}

static int parse_dtype(struct slice v, enum dmo_dtype *dtype)
{
	for (int t = 0; t < DMO_DTYPE_COUNT; t++) {
		if (slice_is(v, dtype_names[t])) {
			*dtype = (enum dmo_dtype)t;
			return 0;
		}
	}
	return -1;
}

static int parse_value(struct dmo_opspec *s, enum key key, struct slice v,
		       char *err, size_t err_len)
{
	int d[4], n, rc = 0;
	const char *expect = dmo_opspec_value_format(s->op, key);

	switch (key) {
	case KEY_IN:
		if (s->op == DMO_OP_FC) {
			rc = parse_dims(v, d, 1, 2, &n, 0);
			if (!rc) {
				s->batch = n == 2 ? d[0] : 1;
				s->in_h = s->in_w = 1;
				s->in_c = d[n - 1];
			}
		} else {
			rc = parse_dims(v, d, 3, 4, &n, 0);
			if (!rc) {
				s->batch = n == 4 ? d[0] : 1;
				s->in_h = d[n - 3];
				s->in_w = d[n - 2];
				s->in_c = d[n - 1];
			}
		}
		break;
	case KEY_K:
		rc = parse_pair(v, &s->k_h, &s->k_w, 0);
		break;
	case KEY_STRIDE:
		rc = parse_pair(v, &s->stride_h, &s->stride_w, 0);
		break;
	case KEY_DIL:
		rc = parse_pair(v, &s->dil_h, &s->dil_w, 0);
		break;
	case KEY_PAD:
		if (slice_is(v, "same")) {
			s->pad = DMO_PAD_SAME;
		} else if (slice_is(v, "valid")) {
			s->pad = DMO_PAD_VALID;
		} else {
			/* PHxPW, or TxLxBxR as ONNX's pads (begins, then
			 * ends). */
			rc = parse_dims(v, d, 2, 4, &n, 1);
			if (!rc && n == 3)
				rc = -1;
			if (!rc) {
				s->pad = DMO_PAD_EXPLICIT;
				s->pad_top = d[0];
				s->pad_left = d[1];
				s->pad_bottom = d[n == 4 ? 2 : 0];
				s->pad_right = d[n == 4 ? 3 : 1];
			}
		}
		break;
	case KEY_MULT:
		rc = parse_uint(v, &s->mult, 0);
		break;
	case KEY_LAYOUT:
		rc = -1;
		for (int l = 0; l < 2 && rc; l++)
			if (slice_is(v, layout_names[l])) {
				s->layout = (enum dmo_layout)l;
				rc = 0;
			}
		break;
	case KEY_OUT_C:
	case KEY_UNITS:
		rc = parse_uint(v, &s->out_c, 0);
		break;
	case KEY_DTYPE:
		rc = parse_dtype(v, &s->dtype);
		break;
	case KEY_OUT_DTYPE:
		rc = parse_dtype(v, &s->out_dtype);
		break;
	case KEY_BEFORE:
	case KEY_AFTER:
		rc = parse_dims(v, d, 2, 4, &n, 1);
		if (!rc)
			nhwc_vector(key == KEY_BEFORE ? s->before : s->after, d, n);
		break;
	case KEY_AT:
		rc = parse_uint(v, &s->before[3], 1);
		break;
	case KEY_PERM:
		rc = parse_dims(v, d, 3, 4, &n, 1);
		for (int i = 0, seen = 0; !rc && i < n; i++) {
			if (d[i] >= n || (seen & (1 << d[i])))
				rc = -1;
			seen |= 1 << (d[i] < n ? d[i] : 0);
		}
		/* Over HxWxC the batch axis stays first. */
		for (int i = 0; !rc && i < 4; i++)
			s->perm[i] = n == 4 ? d[i] : i == 0 ? 0 : d[i - 1] + 1;
		break;
	case KEY_SCALE:
		rc = parse_pair(v, &s->scale_h, &s->scale_w, 0);
		break;
	case KEY_AXIS:
		rc = parse_uint(v, &s->axis, 1);
		if (!rc && s->axis > 3)
			rc = -1;
		break;
	case KEY_OUT_PAD:
		rc = parse_pair(v, &s->out_pad_h, &s->out_pad_w, 1);
		break;
	case KEY_GROUP:
		rc = parse_uint(v, &s->group, 0);
		break;
	case KEY_TRANS_A:
		rc = parse_uint(v, &s->trans_a, 1);
		if (!rc && s->trans_a > 1)
			rc = -1;
		break;
	case KEY_COUNT_PAD:
		rc = parse_uint(v, &s->count_pad, 1);
		if (!rc && s->count_pad > 1)
			rc = -1;
		break;
	case KEY_MODE:
		rc = -1;
		for (int m = 0; m < 3 && rc; m++)
			if (slice_is(v, pad_mode_names[m])) {
				s->pad_mode = (enum dmo_pad_mode)m;
				rc = 0;
			}
		break;
	case KEY_VALUE:
		rc = parse_number(v, &s->pad_value);
		break;
	case KEY_INDICES:
		rc = parse_dims(v, s->indices, 1, DMO_GATHER_MAX, &s->n_indices, 1);
		break;
	case KEY_STEP:
		rc = parse_steps(v, d, &n);
		if (!rc)
			for (int i = 0; i < 4; i++) /* the axes not given: 1 */
				s->step[i] = i < 4 - n ? 1 : d[i - (4 - n)];
		break;
	case KEY_COUNT:
		break;
	}
	return rc ? bad_value(err, err_len, key, v, rc, expect) : 0;
}

/* Resolve one spatial axis following TensorFlow; returns the output size or
 * a negative value when no output row/column remains. */
static int64_t resolve_axis(enum dmo_pad pad, int64_t in, int64_t k,
			    int64_t stride, int64_t dil, int *before,
			    int *after)
{
	int64_t extent = (k - 1) * dil + 1, out;

	switch (pad) {
	case DMO_PAD_SAME: {
		out = (in + stride - 1) / stride;
		int64_t total = (out - 1) * stride + extent - in;
		if (total < 0)
			total = 0;
		*before = (int)(total / 2);
		*after = (int)(total - total / 2);
		return out;
	}
	case DMO_PAD_VALID:
		*before = *after = 0;
		if (in < extent)
			return -1;
		return (in - extent + stride) / stride;
	case DMO_PAD_EXPLICIT:
		if (in + *before + *after < extent)
			return -1;
		return (in + *before + *after - extent) / stride + 1;
	}
	return -1;
}

/* The extent the windows of one axis cover, padding included. */
static int64_t padded_extent(int64_t in, int64_t before, int64_t after, int64_t k, int64_t dil,
			     int64_t out, int64_t stride)
{
	int64_t windows = (out - 1) * stride + (k - 1) * dil + 1, padded = in + before + after;
	return windows > padded ? windows : padded;
}

/* Window steps of the op: output elements times the elements each reads. */
static int check_steps(const struct dmo_opspec *s, char *err, size_t err_len)
{
	uint64_t steps = (uint64_t)s->out_n * (uint64_t)s->out_h * (uint64_t)s->out_w *
			 (uint64_t)s->out_c, window = 1;

	switch (s->op) {
	case DMO_OP_CONV2D:
	case DMO_OP_CONVT: /* convt: at most in_c / group x KH x KW products an element */
		window = (uint64_t)(s->in_c / s->group);
		/* fall through */
	case DMO_OP_DWCONV2D:
	case DMO_OP_MAXPOOL:
	case DMO_OP_AVGPOOL:
	case DMO_OP_QLINEARAVGPOOL:
		if (__builtin_mul_overflow(window, (uint64_t)s->k_h * (uint64_t)s->k_w, &window))
			window = UINT64_MAX;
		break;
	case DMO_OP_FC:
		window = (uint64_t)s->in_h * (uint64_t)s->in_w * (uint64_t)s->in_c;
		break;
	case DMO_OP_MATMUL:
		window = (uint64_t)s->in_c;
		break;
	default:
		if (dmo_op_reduce(s->op))
			window = (uint64_t)s->in_h * (uint64_t)s->in_w;
		break;
	}
	if (__builtin_mul_overflow(steps, window, &steps) || steps > DMO_MAX_WINDOW_STEPS)
		return dmo_errf(err, err_len, "the op takes more than 2^40 window steps "
			    "(output elements times the %" PRIu64 " input elements each reads): "
			    "check 'k' and 'in'", window);
	return 0;
}

static int check_mul(uint64_t *acc, uint64_t factor)
{
	return __builtin_mul_overflow(*acc, factor, acc) || *acc > MAX_BUFFER_BYTES;
}

/* Output dims of pad, concat and transpose, which move whole elements. */
static int resolve_layout(struct dmo_opspec *s, char *err, size_t err_len)
{
	const int in[4] = { s->batch, s->in_h, s->in_w, s->in_c };
	int64_t out[4];

	if (s->op == DMO_OP_CONCAT) {
		if ((int64_t)s->out_c < (int64_t)s->before[3] + s->in_c)
			return dmo_errf(err, err_len,
				    "bad value for 'out_c': %d is less than in's %d channels plus 'at' %d",
				    s->out_c, s->in_c, s->before[3]);
		s->after[3] = s->out_c - s->before[3] - s->in_c;
	}
	for (int i = 0; i < 4; i++) {
		if (s->op == DMO_OP_TRANSPOSE)
			out[i] = in[s->perm[i]];
		else if (s->op == DMO_OP_SLICE) /* the box's every |step|-th */
			out[i] = ((int64_t)in[i] - s->before[i] - s->after[i] + abs(s->step[i]) - 1) /
				 abs(s->step[i]);
		else
			out[i] = (int64_t)in[i] + s->before[i] + s->after[i];
		if (out[i] < 1)
			return dmo_errf(err, err_len, "'before' and 'after' remove every element of "
				    "axis %d of 'in'", i);
		if (out[i] > MAX_VALUE)
			return dmo_errf(err, err_len, "output of 'in' with these '%s' is too large",
				    s->op == DMO_OP_PAD ? "before'/'after" : "at'/'out_c");
	}
	if (s->op != DMO_OP_TRANSPOSE)
		for (int i = 0; i < 4; i++)
			s->perm[i] = i;
	s->out_n = (int)out[0];
	s->out_h = (int)out[1];
	s->out_w = (int)out[2];
	s->out_c = (int)out[3];
	s->pad_top = s->before[1];
	s->pad_left = s->before[2];
	s->pad_bottom = s->after[1];
	s->pad_right = s->after[2];
	return 0;
}

/* pad's border: a value of dtype's range in constant mode only; reflect
 * mirrors about the edge element, so it adds fewer elements than the
 * axis has beyond it (ONNX's rule). */
static int resolve_pad_border(const struct dmo_opspec *s, char *err, size_t err_len)
{
	static const double lowest[DMO_DTYPE_COUNT] = { 0, -128, -32768, -2147483648.0, 0 };
	static const double highest[DMO_DTYPE_COUNT] = { 0, 127, 32767, 2147483647.0, 255 };
	const int in[4] = { s->batch, s->in_h, s->in_w, s->in_c };

	if (s->pad_value != 0 && s->pad_mode != DMO_PAD_CONSTANT)
		return dmo_errf(err, err_len, "key 'value' needs mode=constant");
	/* In range first, so the cast is defined (libc only: no floor). */
	if (s->dtype != DMO_F32 && (s->pad_value < lowest[s->dtype] || s->pad_value > highest[s->dtype] ||
				    s->pad_value != (double)(int64_t)s->pad_value))
		return dmo_errf(err, err_len, "bad value for 'value': %g is not a %s value",
			    s->pad_value, dmo_dtype_name(s->dtype));
	for (int i = 0; s->pad_mode == DMO_PAD_REFLECT && i < 4; i++)
		if (s->before[i] >= in[i] || s->after[i] >= in[i])
			return dmo_errf(err, err_len, "mode=reflect adds %d and %d elements along axis %d "
				    "of 'in', whose %d elements mirror at most %d on each side",
				    s->before[i], s->after[i], i, in[i], in[i] - 1);
	return 0;
}

static int resolve(struct dmo_opspec *s, char *err, size_t err_len)
{
	s->out_n = s->batch;
	if (s->op != DMO_OP_QUANTIZE && s->op != DMO_OP_DEQUANTIZE)
		s->out_dtype = s->dtype;
	if (dmo_op_reduce(s->op)) {
		s->out_h = s->out_w = 1;
		s->out_c = s->in_c;
	} else if (dmo_op_onnx_elementwise(s->op) || s->op == DMO_OP_LOGSOFTMAX) {
		s->out_h = s->in_h;
		s->out_w = s->in_w;
		s->out_c = s->in_c;
	} else switch (s->op) {
	case DMO_OP_PAD:
		if (resolve_pad_border(s, err, err_len))
			return -1;
		/* fall through */
	case DMO_OP_CONCAT:
	case DMO_OP_TRANSPOSE:
	case DMO_OP_SLICE:
		if (resolve_layout(s, err, err_len))
			return -1;
		break;
	case DMO_OP_GATHER:
		for (int i = 0; i < s->n_indices; i++)
			if (s->indices[i] >= s->in_w)
				return dmo_errf(err, err_len, "bad value for 'indices': %d is not below in's W %d",
					    s->indices[i], s->in_w);
		s->out_h = s->in_h;
		s->out_w = s->n_indices;
		s->out_c = s->in_c;
		for (int i = 0; i < 4; i++) /* the axes in order, as a slice's */
			s->perm[i] = i;
		break;
	case DMO_OP_MATMUL: /* rows of K to rows of units */
		s->out_h = s->in_h;
		s->out_w = s->in_w;
		break;
	case DMO_OP_RESIZE:
		/* Always NCHW: in keeps its HxWxC meaning, as for conv2d's
		 * layout=nchw. */
		s->layout = DMO_LAYOUT_NCHW;
		if ((int64_t)s->in_h * s->scale_h > MAX_VALUE ||
		    (int64_t)s->in_w * s->scale_w > MAX_VALUE)
			return dmo_errf(err, err_len, "output of 'in' with this 'scale' is too large");
		s->out_h = s->in_h * s->scale_h;
		s->out_w = s->in_w * s->scale_w;
		s->out_c = s->in_c;
		break;
	case DMO_OP_RELU:
	case DMO_OP_RELU6:
	case DMO_OP_ADD:
	case DMO_OP_MUL:
	case DMO_OP_QLINEARADD:
	case DMO_OP_QLINEARMUL:
	case DMO_OP_RESHAPE:
	case DMO_OP_SOFTMAX:
	case DMO_OP_LOGISTIC:
	case DMO_OP_TANH:
	case DMO_OP_QUANTIZE:
	case DMO_OP_DEQUANTIZE:
	case DMO_OP_FC:
		s->out_h = s->op == DMO_OP_FC ? 1 : s->in_h;
		s->out_w = s->op == DMO_OP_FC ? 1 : s->in_w;
		if (s->op != DMO_OP_FC)
			s->out_c = s->in_c;
		break;
	case DMO_OP_CONV2D:
	case DMO_OP_DWCONV2D:
	case DMO_OP_MAXPOOL:
	case DMO_OP_AVGPOOL:
	case DMO_OP_QLINEARAVGPOOL: {
		/* Always NCHW, as resize. */
		if (s->op == DMO_OP_QLINEARAVGPOOL)
			s->layout = DMO_LAYOUT_NCHW;
		/* An explicit pad as wide as the dilated kernel would leave
		 * windows entirely outside the image (avgpool divides by 0). */
		if (s->pad == DMO_PAD_EXPLICIT &&
		    ((int64_t)(s->pad_top > s->pad_bottom ? s->pad_top : s->pad_bottom) >
			     (int64_t)(s->k_h - 1) * s->dil_h ||
		     (int64_t)(s->pad_left > s->pad_right ? s->pad_left : s->pad_right) >
			     (int64_t)(s->k_w - 1) * s->dil_w))
			return dmo_errf(err, err_len,
				    "bad value for 'pad': %dx%dx%dx%d (top, left, bottom, right) must each be "
				    "smaller than the dilated kernel %" PRId64 "x%" PRId64,
				    s->pad_top, s->pad_left, s->pad_bottom, s->pad_right,
				    (int64_t)(s->k_h - 1) * s->dil_h + 1,
				    (int64_t)(s->k_w - 1) * s->dil_w + 1);
		if ((s->op == DMO_OP_MAXPOOL || s->op == DMO_OP_AVGPOOL) && (s->dil_h > 1 || s->dil_w > 1) &&
		    s->layout != DMO_LAYOUT_NCHW)
			return dmo_errf(err, err_len, "key 'dil' of %s needs layout=nchw (the dilated "
				    "pools are NCHW, ONNX's MaxPool and AveragePool)", dmo_op_name(s->op));
		if (s->count_pad && s->layout != DMO_LAYOUT_NCHW)
			return dmo_errf(err, err_len, "key 'count_pad' needs layout=nchw (ONNX's "
				    "count_include_pad, the NCHW average)");
		if (s->group > 1 && s->layout != DMO_LAYOUT_NCHW)
			return dmo_errf(err, err_len, "key 'group' needs layout=nchw (the grouped kernel is NCHW)");
		if (s->in_c % s->group || s->out_c % s->group)
			return dmo_errf(err, err_len,
				    "bad value for 'group': %d must divide in's %d channels and out_c %d",
				    s->group, s->in_c, s->out_c);
		int64_t oh = resolve_axis(s->pad, s->in_h, s->k_h, s->stride_h,
					  s->dil_h, &s->pad_top, &s->pad_bottom);
		int64_t ow = resolve_axis(s->pad, s->in_w, s->k_w, s->stride_w,
					  s->dil_w, &s->pad_left, &s->pad_right);
		if (oh <= 0 || ow <= 0)
			return dmo_errf(err, err_len,
				    "output %s would be empty: key 'k' (with 'dil' and 'pad') exceeds the input",
				    oh <= 0 ? "height" : "width");
		if (oh > MAX_VALUE || ow > MAX_VALUE)
			return dmo_errf(err, err_len, "output of 'in' with this 'pad' is too large");
		/* The padded input every window position lies in: the kernels
		 * index it in int. */
		if (padded_extent(s->in_h, s->pad_top, s->pad_bottom, s->k_h, s->dil_h, oh,
				  s->stride_h) > MAX_VALUE ||
		    padded_extent(s->in_w, s->pad_left, s->pad_right, s->k_w, s->dil_w, ow,
				  s->stride_w) > MAX_VALUE)
			return dmo_errf(err, err_len, "window of 'k' (with 'dil', 'stride' and 'pad') "
				    "spans more than %d elements", MAX_VALUE);
		s->out_h = (int)oh;
		s->out_w = (int)ow;
		if (s->op == DMO_OP_DWCONV2D) {
			if ((int64_t)s->in_c * s->mult > MAX_VALUE)
				return dmo_errf(err, err_len, "value of 'mult' is too large for 'in' channels");
			s->out_c = s->in_c * s->mult;
		} else if (s->op != DMO_OP_CONV2D) {
			s->out_c = s->in_c;
		}
		break;
	}
	case DMO_OP_CONVT: {
		/* ONNX's ConvTranspose: each axis's taps land on in x stride
		 * positions spread by the dilated kernel, output_padding adds
		 * rows/columns at the end and the pads cut some off
		 * (docs/formulas.md 3.8).  SAME is the model reader's to
		 * resolve: ONNX Runtime's split of an odd total is not
		 * TensorFlow's. */
		if (s->pad == DMO_PAD_SAME)
			return dmo_errf(err, err_len, "bad value for 'pad': convt takes valid, PHxPW "
				    "or PTxPLxPBxPR (ONNX's pads)");
		if (s->out_pad_h >= s->stride_h || s->out_pad_w >= s->stride_w)
			return dmo_errf(err, err_len, "bad value for 'out_pad': %dx%d must be below the "
				    "stride %dx%d", s->out_pad_h, s->out_pad_w, s->stride_h, s->stride_w);
		if (s->in_c % s->group || s->out_c % s->group)
			return dmo_errf(err, err_len, "bad value for 'group': %d does not divide in's %d "
				    "channels and out_c %d", s->group, s->in_c, s->out_c);
		int64_t oh = (int64_t)(s->in_h - 1) * s->stride_h + (int64_t)(s->k_h - 1) * s->dil_h + 1 +
			     s->out_pad_h - s->pad_top - s->pad_bottom;
		int64_t ow = (int64_t)(s->in_w - 1) * s->stride_w + (int64_t)(s->k_w - 1) * s->dil_w + 1 +
			     s->out_pad_w - s->pad_left - s->pad_right;
		if (oh <= 0 || ow <= 0)
			return dmo_errf(err, err_len, "output %s would be empty: 'pad' cuts off every %s",
				    oh <= 0 ? "height" : "width", oh <= 0 ? "row" : "column");
		if (oh > MAX_VALUE || ow > MAX_VALUE ||
		    (int64_t)(s->in_h - 1) * s->stride_h + (int64_t)(s->k_h - 1) * s->dil_h + 1 > MAX_VALUE ||
		    (int64_t)(s->in_w - 1) * s->stride_w + (int64_t)(s->k_w - 1) * s->dil_w + 1 > MAX_VALUE)
			return dmo_errf(err, err_len, "output of 'in' with these 'k', 'stride' and 'dil' is too large");
		s->out_h = (int)oh;
		s->out_w = (int)ow;
		/* The kernel's column buffer (kernels_convt.c, as ONNX Runtime's):
		 * out_c / group x KH x KW x H x W floats, larger than the output
		 * when windows overlap; bounded as the buffers are. */
		uint64_t col = sizeof(float);
		if (check_mul(&col, (uint64_t)(s->out_c / s->group)) || check_mul(&col, (uint64_t)s->k_h) ||
		    check_mul(&col, (uint64_t)s->k_w) || check_mul(&col, (uint64_t)s->in_h) ||
		    check_mul(&col, (uint64_t)s->in_w))
			return dmo_errf(err, err_len, "column buffer (out_c / group x k x 'in' rows and "
				    "columns, float32) exceeds 4 GiB");
		break;
	}
	default:
		break;
	}

	uint64_t in = dtype_sizes[s->dtype], out = dtype_sizes[s->out_dtype];
	if (check_mul(&in, (uint64_t)s->batch) || check_mul(&in, (uint64_t)s->in_h) ||
	    check_mul(&in, (uint64_t)s->in_w) || check_mul(&in, (uint64_t)s->in_c))
		return dmo_errf(err, err_len, "input buffer of 'in' exceeds 4 GiB");
	if (check_mul(&out, (uint64_t)s->out_n) || check_mul(&out, (uint64_t)s->out_h) ||
	    check_mul(&out, (uint64_t)s->out_w) || check_mul(&out, (uint64_t)s->out_c))
		return dmo_errf(err, err_len, "output buffer exceeds 4 GiB (check '%s')",
			    s->op == DMO_OP_FC || s->op == DMO_OP_MATMUL ? "units" :
			    s->op == DMO_OP_CONV2D || s->op == DMO_OP_CONVT ? "out_c" :
			    s->op == DMO_OP_DWCONV2D ? "mult" :
			    s->op == DMO_OP_PAD ? "before'/'after" :
			    s->op == DMO_OP_CONCAT ? "out_c" :
			    s->op == DMO_OP_RESIZE ? "scale" : "in");
	return check_steps(s, err, err_len);
}

/* Whether the item at Q (up to the next ',' or the end) is a bare number:
 * the rest of a comma-separated perm. */
static int number_item(const char *q)
{
	size_t digits = strspn(q, "0123456789");
	return digits > 0 && (q[digits] == ',' || q[digits] == '\0');
}

int dmo_opspec_parse(const char *text, struct dmo_opspec *spec, char *err,
		     size_t err_len)
{
	struct dmo_opspec s = {
		.k_h = 1, .k_w = 1, .stride_h = 1, .stride_w = 1,
		.dil_h = 1, .dil_w = 1, .pad = DMO_PAD_VALID, .mult = 1,
		.scale_h = 1, .scale_w = 1, .axis = 3, .group = 1, .step = { 1, 1, 1, 1 },
		.dtype = DMO_F32, .out_dtype = DMO_I8,
	};
	unsigned seen = 0;

	if (!text)
		return dmo_errf(err, err_len, "empty op spec");
	const char *colon = strchr(text, ':');
	size_t oplen = colon ? (size_t)(colon - text) : strlen(text);
	int op = -1;
	for (int i = 0; i < DMO_OP_COUNT; i++)
		if (slice_is((struct slice){ text, oplen }, op_names[i]))
			op = i;
	if (op < 0) {
		char hint[96] = "", list[256] = "";
		size_t used = 0;

		for (int i = 0; i < DMO_OP_COUNT && used < sizeof list; i++)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s",
						 i == 0 ? "" : i == DMO_OP_COUNT - 1 ? " or " : ", ",
						 op_names[i]);
		if (*did_you_mean(hint, sizeof hint, text, oplen, op_names, DMO_OP_COUNT))
			return dmo_errf(err, err_len, "unknown op '%.*s'%s ('dmo ops' lists every op)",
				    (int)(oplen > 40 ? 40 : oplen), text, hint);
		return dmo_errf(err, err_len, "unknown op '%.*s' (expected %s; 'dmo ops' describes them)",
			    (int)(oplen > 40 ? 40 : oplen), text, list);
	}
	s.op = (enum dmo_op)op;
	/* TFLite's usual directions: quantize f32 -> i8, dequantize i8 -> f32. */
	if (s.op == DMO_OP_DEQUANTIZE) {
		s.dtype = DMO_I8;
		s.out_dtype = DMO_F32;
	}

	const char *p = colon ? colon + 1 : text + oplen;
	while (colon) {
		const char *end = strchr(p, ',');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (len == 0)
			return dmo_errf(err, err_len, "empty key=value item (stray ',' or trailing ':')");
		if (!eq)
			return dmo_errf(err, err_len, "expected key=value, got '%.*s'",
				    (int)(len > 40 ? 40 : len), p);
		struct slice name = { p, (size_t)(eq - p) };
		struct slice value = { eq + 1, len - name.n - 1 };
		int key = -1;
		for (int k = 0; k < KEY_COUNT; k++)
			if (slice_is(name, key_names[k]))
				key = k;
		if (key < 0) {
			const char *keys[KEY_COUNT];
			char hint[96];

			/* Suggest only the keys this op takes. */
			for (int k = 0; k < KEY_COUNT; k++)
				keys[k] = op_keys[op].allowed & BIT(k) ? key_names[k] : NULL;
			return dmo_errf(err, err_len, "unknown key '%.*s' for %s%s",
				    (int)(name.n > 40 ? 40 : name.n), name.p, op_names[op],
				    did_you_mean(hint, sizeof hint, name.p, name.n, keys, KEY_COUNT));
		}
		/* perm=0,1,3,2: the items after it that are bare numbers are
		 * its own, as 0x1x3x2. */
		char joined[32];
		if (key == KEY_PERM && end != NULL && number_item(end + 1) &&
		    value.n < sizeof joined) {
			size_t n = value.n;

			memcpy(joined, value.p, n);
			while (end != NULL && number_item(end + 1)) {
				size_t item = strcspn(end + 1, ",");
				if (n + 1 + item >= sizeof joined)
					break;
				joined[n++] = 'x';
				memcpy(joined + n, end + 1, item);
				n += item;
				end = end[1 + item] == ',' ? end + 1 + item : NULL;
			}
			value = (struct slice){ joined, n };
		}
		if (seen & BIT(key))
			return dmo_errf(err, err_len, "duplicate key '%s'", key_names[key]);
		if (!(op_keys[op].allowed & BIT(key)))
			return dmo_errf(err, err_len, "key '%s' does not apply to %s",
				    key_names[key], op_names[op]);
		seen |= BIT(key);
		if (parse_value(&s, (enum key)key, value, err, err_len))
			return -1;
		if (!end)
			break;
		p = end + 1;
	}
	unsigned missing = op_keys[op].required & ~seen;
	if (missing)
		return dmo_errf(err, err_len, "missing required key '%s' for %s",
			    key_names[__builtin_ctz(missing)], op_names[op]);
	if (resolve(&s, err, err_len))
		return -1;
	*spec = s;
	return 0;
}

int dmo_opspec_format(const struct dmo_opspec *s, char *buf, size_t len)
{
	char pad[48];

	if (s->op == DMO_OP_FC) /* trans_a written only when set */
		return snprintf(buf, len, "fc:in=%dx%d,units=%d,dtype=%s%s",
				s->batch, s->in_c, s->out_c,
				dmo_dtype_name(s->dtype), s->trans_a ? ",trans_a=1" : "");
	if (s->op < DMO_OP_CONV2D || (s->op >= DMO_OP_RESHAPE && s->op <= DMO_OP_DEQUANTIZE) ||
	    s->op == DMO_OP_TANH || dmo_op_onnx_elementwise(s->op) || dmo_op_reduce(s->op) ||
	    s->op == DMO_OP_LOGSOFTMAX || dmo_op_binary(s->op)) {
		char axis[16] = "";

		/* A softmax's axis is written when it is not the last, so that
		 * every other spec keeps the text it always had. */
		if ((s->op == DMO_OP_SOFTMAX || s->op == DMO_OP_LOGSOFTMAX) && s->axis != 3)
			snprintf(axis, sizeof axis, ",axis=%d", s->axis);
		return snprintf(buf, len, "%s:in=%dx%dx%dx%d,dtype=%s%s%s%s",
				dmo_op_name(s->op), s->batch, s->in_h, s->in_w,
				s->in_c, dmo_dtype_name(s->dtype),
				s->op == DMO_OP_QUANTIZE || s->op == DMO_OP_DEQUANTIZE ? ",out_dtype=" : "",
				s->op == DMO_OP_QUANTIZE || s->op == DMO_OP_DEQUANTIZE
					? dmo_dtype_name(s->out_dtype) : "", axis);
	}
	if (s->op == DMO_OP_GATHER) {
		int n = snprintf(buf, len, "gather:in=%dx%dx%dx%d,indices=", s->batch, s->in_h, s->in_w,
				 s->in_c);

		for (int i = 0; i < s->n_indices; i++)
			n += snprintf(buf + (n < (int)len ? n : (int)len), n < (int)len ? len - (size_t)n : 0,
				      "%s%d", i ? "x" : "", s->indices[i]);
		return n + snprintf(buf + (n < (int)len ? n : (int)len), n < (int)len ? len - (size_t)n : 0,
				    ",dtype=%s", dmo_dtype_name(s->dtype));
	}
	if (s->op == DMO_OP_MATMUL)
		return snprintf(buf, len, "matmul:in=%dx%dx%dx%d,units=%d,dtype=%s", s->batch,
				s->in_h, s->in_w, s->in_c, s->out_c, dmo_dtype_name(s->dtype));
	if (s->op == DMO_OP_PAD || s->op == DMO_OP_SLICE) {
		char border[48] = "";

		/* mode and value are written when not constant zeros, step
		 * when not 1. */
		if (s->pad_mode != DMO_PAD_CONSTANT)
			snprintf(border, sizeof border, ",mode=%s", pad_mode_names[s->pad_mode]);
		else if (s->pad_value != 0)
			snprintf(border, sizeof border, ",value=%.9g", s->pad_value);
		else if (s->step[0] != 1 || s->step[1] != 1 || s->step[2] != 1 || s->step[3] != 1)
			snprintf(border, sizeof border, ",step=%dx%dx%dx%d", s->step[0], s->step[1],
				 s->step[2], s->step[3]);
		return snprintf(buf, len, "%s:in=%dx%dx%dx%d,before=%dx%dx%dx%d,after=%dx%dx%dx%d,dtype=%s%s",
				dmo_op_name(s->op), s->batch, s->in_h, s->in_w, s->in_c, s->before[0],
				s->before[1], s->before[2], s->before[3], s->after[0],
				s->after[1], s->after[2], s->after[3], dmo_dtype_name(s->dtype), border);
	}
	if (s->op == DMO_OP_CONCAT)
		return snprintf(buf, len, "concat:in=%dx%dx%dx%d,out_c=%d,at=%d,dtype=%s",
				s->batch, s->in_h, s->in_w, s->in_c, s->out_c, s->before[3],
				dmo_dtype_name(s->dtype));
	if (s->op == DMO_OP_RESIZE)
		return snprintf(buf, len, "resize:in=%dx%dx%dx%d,scale=%dx%d,dtype=%s",
				s->batch, s->in_h, s->in_w, s->in_c, s->scale_h, s->scale_w,
				dmo_dtype_name(s->dtype));
	if (s->op == DMO_OP_TRANSPOSE)
		return snprintf(buf, len, "transpose:in=%dx%dx%dx%d,perm=%dx%dx%dx%d,dtype=%s",
				s->batch, s->in_h, s->in_w, s->in_c, s->perm[0], s->perm[1],
				s->perm[2], s->perm[3], dmo_dtype_name(s->dtype));
	if (s->pad == DMO_PAD_EXPLICIT && (s->pad_top != s->pad_bottom || s->pad_left != s->pad_right))
		snprintf(pad, sizeof pad, "%dx%dx%dx%d", s->pad_top, s->pad_left, s->pad_bottom,
			 s->pad_right);
	else if (s->pad == DMO_PAD_EXPLICIT)
		snprintf(pad, sizeof pad, "%dx%d", s->pad_top, s->pad_left);
	else
		snprintf(pad, sizeof pad, "%s", s->pad == DMO_PAD_SAME ? "same" : "valid");
	char extra[96] = "";
	/* group is written when it is not 1, as layout below. */
	if (s->op == DMO_OP_CONV2D && s->group > 1)
		snprintf(extra, sizeof extra, ",dil=%dx%d,out_c=%d,group=%d", s->dil_h,
			 s->dil_w, s->out_c, s->group);
	else if (s->op == DMO_OP_CONV2D)
		snprintf(extra, sizeof extra, ",dil=%dx%d,out_c=%d", s->dil_h,
			 s->dil_w, s->out_c);
	else if (s->op == DMO_OP_CONVT)
		snprintf(extra, sizeof extra, ",dil=%dx%d,out_pad=%dx%d,group=%d,out_c=%d", s->dil_h,
			 s->dil_w, s->out_pad_h, s->out_pad_w, s->group, s->out_c);
	else if (s->op == DMO_OP_DWCONV2D)
		snprintf(extra, sizeof extra, ",dil=%dx%d,mult=%d", s->dil_h,
			 s->dil_w, s->mult);
	else if ((s->op == DMO_OP_MAXPOOL || s->op == DMO_OP_AVGPOOL) && (s->dil_h > 1 || s->dil_w > 1))
		snprintf(extra, sizeof extra, ",dil=%dx%d", s->dil_h, s->dil_w);
	if (s->count_pad) /* written when set */
		snprintf(extra + strlen(extra), sizeof extra - strlen(extra), ",count_pad=1");
	/* layout is written when it is not the default, so that every NHWC
	 * spec keeps the text it always had. */
	return snprintf(buf, len,
			"%s:in=%dx%dx%dx%d,k=%dx%d,stride=%dx%d,pad=%s%s,dtype=%s%s",
			dmo_op_name(s->op), s->batch, s->in_h, s->in_w, s->in_c,
			s->k_h, s->k_w, s->stride_h, s->stride_w, pad, extra,
			dmo_dtype_name(s->dtype), s->layout == DMO_LAYOUT_NCHW ? ",layout=nchw" : "");
}

uint64_t dmo_opspec_in_elems(const struct dmo_opspec *s)
{
	return (uint64_t)s->batch * s->in_h * s->in_w * s->in_c;
}

uint64_t dmo_opspec_out_elems(const struct dmo_opspec *s)
{
	return (uint64_t)s->out_n * s->out_h * s->out_w * s->out_c;
}

uint64_t dmo_opspec_in_bytes(const struct dmo_opspec *s)
{
	return dmo_opspec_in_elems(s) * dmo_dtype_size(s->dtype);
}

uint64_t dmo_opspec_out_bytes(const struct dmo_opspec *s)
{
	return dmo_opspec_out_elems(s) * dmo_dtype_size(s->out_dtype);
}

int dmo_opspec_image_at_a_time(const struct dmo_opspec *spec)
{
	return spec->op == DMO_OP_CONVT ||
	       (spec->layout == DMO_LAYOUT_NCHW && (spec->dtype == DMO_I8 || spec->dtype == DMO_U8) &&
		(spec->op == DMO_OP_CONV2D || spec->op == DMO_OP_DWCONV2D));
}

const char *dmo_opspec_kernel_gap(const struct dmo_opspec *spec)
{
	enum dmo_dtype in = spec->dtype, out = spec->out_dtype;

	if (spec->op >= DMO_OP_QLINEARADD && spec->op <= DMO_OP_QLINEARAVGPOOL)
		return in == DMO_U8 || in == DMO_I8 ? NULL : "u8 and i8";
	if (dmo_op_onnx_elementwise(spec->op) || spec->op == DMO_OP_LOGSOFTMAX ||
	    spec->op == DMO_OP_MATMUL ||
	    (dmo_op_reduce(spec->op) && spec->op != DMO_OP_MEAN) ||
	    (spec->op == DMO_OP_SOFTMAX && spec->axis != 3))
		return in == DMO_F32 ? NULL : "f32";
	switch (spec->op) {
	case DMO_OP_RESHAPE:
	case DMO_OP_PAD:
	case DMO_OP_CONCAT:
	case DMO_OP_TRANSPOSE:
	case DMO_OP_RESIZE:
	case DMO_OP_SLICE:
	case DMO_OP_GATHER:
		return NULL; /* they copy elements of any size */
	case DMO_OP_SOFTMAX:
	case DMO_OP_LOGISTIC:
	case DMO_OP_MEAN:
		return in == DMO_F32 || in == DMO_I8 ? NULL : "f32 and i8";
	case DMO_OP_QUANTIZE:
		return ((in == DMO_F32 || in == DMO_I8) && out == DMO_I8) ||
				       (in == DMO_F32 && out == DMO_U8)
			       ? NULL
			       : "f32 to i8, i8 to i8 and f32 to u8";
	case DMO_OP_DEQUANTIZE:
		return (in == DMO_I8 || in == DMO_U8 || in == DMO_I32) && out == DMO_F32
			       ? NULL
			       : "i8, u8 and i32 to f32";
	case DMO_OP_TANH:
		return in == DMO_F32 ? NULL : "f32";
	case DMO_OP_CONVT:
		return in == DMO_F32 && spec->layout == DMO_LAYOUT_NCHW ? NULL : "f32 in NCHW (layout=nchw)";
	default:
		/* uint8: ONNX's QLinearConv and QLinearMatMul. */
		if (spec->layout == DMO_LAYOUT_NCHW)
			return in == DMO_F32 || ((in == DMO_I8 || in == DMO_U8) &&
						 (spec->op == DMO_OP_CONV2D || spec->op == DMO_OP_DWCONV2D))
				       ? NULL
				       : "f32 in NCHW, and i8 and u8 for conv2d and dwconv2d";
		return in == DMO_F32 || in == DMO_I8 || in == DMO_I16 ||
				       (in == DMO_U8 && spec->op == DMO_OP_FC)
			       ? NULL
			       : "f32, i8 and i16 (u8 for fc)";
	}
}
