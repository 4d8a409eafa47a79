/* opspec.h - the op-spec language: `OP:key=value,...` parsed into a resolved
 * layer description with TensorFlow output shapes.
 *
 * One grammar serves the harness, the analysis and the model layer tables
 * (docs/opspec.md).  Depends on libc only. */
#ifndef DMO_OPSPEC_H
#define DMO_OPSPEC_H

#include <stddef.h>
#include <stdint.h>

/* Most window steps (multiply-adds, compared or summed elements) one op
 * may take.  Every kernel, the algorithmic method and a native run loop
 * over them: 2^40 keeps their counts far inside 64 bits and any accepted
 * spec or model finite in time (a real model's largest layer takes below
 * 2^33). */
#define DMO_MAX_WINDOW_STEPS ((uint64_t)1 << 40)

enum dmo_op {
	DMO_OP_RELU,
	DMO_OP_RELU6,
	DMO_OP_ADD,
	DMO_OP_MUL,
	DMO_OP_CONV2D,
	DMO_OP_DWCONV2D,
	DMO_OP_MAXPOOL,
	DMO_OP_AVGPOOL,
	DMO_OP_FC,
	/* Ops that move or rescale elements (docs/kernels.md, "Loop orders"). */
	DMO_OP_RESHAPE,
	DMO_OP_SOFTMAX,
	DMO_OP_LOGISTIC,
	DMO_OP_MEAN,
	DMO_OP_QUANTIZE,
	DMO_OP_DEQUANTIZE,
	DMO_OP_PAD,
	DMO_OP_CONCAT,
	DMO_OP_TRANSPOSE,
	DMO_OP_TANH,
	/* ONNX's element-wise ops (f32, flat order; docs/kernels.md). */
	DMO_OP_SUB,
	DMO_OP_DIV,
	DMO_OP_HARDSIGMOID,
	DMO_OP_HARDSWISH,
	DMO_OP_CLIP,
	DMO_OP_BATCHNORM,
	/* ONNX's Resize, nearest, by integer scales (NCHW; docs/kernels.md). */
	DMO_OP_RESIZE,
	/* ONNX's ConvTranspose (f32, NCHW, image at a time; docs/kernels.md). */
	DMO_OP_CONVT,
	/* ONNX's unary f32 ops of one table, PRelu, LogSoftmax and the
	 * reductions (kernels_onnx_ew.c, kernels_rows.c; docs/kernels.md). */
	DMO_OP_LEAKYRELU,
	DMO_OP_ELU,
	DMO_OP_SELU,
	DMO_OP_EXP,
	DMO_OP_LOG,
	DMO_OP_SQRT,
	DMO_OP_NEG,
	DMO_OP_ABS,
	DMO_OP_RECIPROCAL,
	DMO_OP_SOFTPLUS,
	DMO_OP_ERF,
	DMO_OP_FLOOR,
	DMO_OP_CEIL,
	DMO_OP_POW,
	DMO_OP_PRELU,
	DMO_OP_LOGSOFTMAX,
	DMO_OP_REDUCEMAX,
	DMO_OP_REDUCEMIN,
	DMO_OP_REDUCESUM,
	DMO_OP_MAX,
	DMO_OP_MIN,
	/* ONNX's Slice with steps 1 (any type, flat order; docs/kernels.md). */
	DMO_OP_SLICE,
	/* ONNX's MatMul of two activations (f32; docs/kernels.md): in's
	 * rows times a second operand of in_h matrices K x units. */
	DMO_OP_MATMUL,
	/* ONNX's Mean's last pass, x times 1/n (the unary table), and Pow by
	 * an exponent tensor (the broadcasting binary kernel; docs/kernels.md). */
	DMO_OP_SCALE,
	DMO_OP_POWT,
	/* ONNX Runtime's QOperator ops (com.microsoft QLinearAdd, QLinearMul,
	 * QLinearGlobalAveragePool; u8 or i8, its arithmetic;
	 * kernels_qlinear.c): add's, mul's and mean's loop orders. */
	DMO_OP_QLINEARADD,
	DMO_OP_QLINEARMUL,
	DMO_OP_QLINEARMEAN,
	/* ONNX Runtime's QLinearAveragePool (NCHW, u8 or i8): the whole
	 * input dequantized before the first window (kernels_qlinear.c). */
	DMO_OP_QLINEARAVGPOOL,
	DMO_OP_GATHER,
	DMO_OP_COUNT
};

enum dmo_dtype { DMO_F32, DMO_I8, DMO_I16, DMO_I32, DMO_U8, DMO_DTYPE_COUNT };

enum dmo_pad { DMO_PAD_SAME, DMO_PAD_VALID, DMO_PAD_EXPLICIT };

/* The memory order of a windowed op's buffers (conv2d, dwconv2d, pools):
 * NHWC, TFLite's and dmo's default, or NCHW, ONNX's, run by the NCHW
 * kernels in ONNX Runtime's plane-by-plane order (docs/kernels.md).  The
 * spec's sizes mean the same in both. */
enum dmo_layout { DMO_LAYOUT_NHWC, DMO_LAYOUT_NCHW };

/* The most indices a gather op spec holds. */
#define DMO_GATHER_MAX 32

/* ONNX's Pad modes (the pad op's `mode`). */
enum dmo_pad_mode { DMO_PAD_CONSTANT, DMO_PAD_REFLECT, DMO_PAD_EDGE };

/* A parsed and resolved op.  Shapes are NHWC (as sizes: LAYOUT says the
 * buffers' memory order); an fc input NxK is stored as
 * batch=N, in_h=in_w=1, in_c=K, and its output as batch=N, out_h=out_w=1,
 * out_c=units.  Element-wise ops have out shape == in shape and k=1x1.
 * The output is out_n x out_h x out_w x out_c elements of out_dtype; out_n
 * is batch and out_dtype is dtype except for pad/transpose (out_n) and
 * quantize/dequantize (out_dtype); slice's output is in's less before and
 * after along each axis, every |step|-th element of it. */
struct dmo_opspec {
	enum dmo_op op;
	enum dmo_dtype dtype;
	int batch, in_h, in_w, in_c;
	int k_h, k_w;
	int stride_h, stride_w;
	int dil_h, dil_w;
	enum dmo_pad pad;
	enum dmo_layout layout;
	/* Resolved padding actually applied before the first row/column
	 * (TensorFlow SAME puts the odd row/column at the bottom/right). */
	int pad_top, pad_left, pad_bottom, pad_right;
	int mult;       /* dwconv2d depth multiplier, default 1 */
	int out_h, out_w, out_c;
	int out_n;
	enum dmo_dtype out_dtype;
	/* pad and concat: elements added before/after the input along each
	 * NHWC axis (concat: the other inputs' channels, `at` and the rest);
	 * slice: elements removed. */
	int before[4], after[4];
	/* transpose: output axis i is input axis perm[i] (NHWC, 0 = N). */
	int perm[4];
	/* resize: output row y reads input row y / scale_h, column x
	 * column x / scale_w (integer factors). */
	int scale_h, scale_w;
	/* softmax, logsoftmax: the NHWC axis normalised (3, the last, by
	 * default; another one runs in ONNX Runtime's transposing order). */
	int axis;
	/* conv2d, layout=nchw: groups of in_c / group input planes, each read
	 * by out_c / group output planes (ONNX's Conv group; 1 by default). */
	int group;
	/* fc: 1 when the input is stored transposed, K rows of N (ONNX's
	 * Gemm transA): output row n reads column n. */
	int trans_a;
	/* convt: ONNX's output_padding (rows/columns added at the bottom/
	 * right, below the stride). */
	int out_pad_h, out_pad_w;
	/* avgpool, layout=nchw: 1 when the mean divides by the whole window,
	 * padding included (ONNX's count_include_pad). */
	int count_pad;
	/* pad: what the border holds (ONNX's Pad mode): VALUE (constant), the
	 * input mirrored about its edge element (reflect) or its edge element
	 * repeated (edge). */
	enum dmo_pad_mode pad_mode;
	double pad_value;
	/* gather: output column w copies input column indices[w] (ONNX's
	 * Gather of constant indices along W; at most DMO_GATHER_MAX). */
	int n_indices;
	int indices[DMO_GATHER_MAX];
	/* slice: the kept box walked every step[i]-th element along axis i,
	 * from its first element (step > 0) or backward from its last (step
	 * < 0), ONNX's Slice steps; 1 by default (NHWC axes). */
	int step[4];
};

/* Parse TEXT.  On success fill *SPEC and return 0.  On failure return -1 and
 * write one human-readable message naming the bad key or value into ERR. */
int dmo_opspec_parse(const char *text, struct dmo_opspec *spec, char *err,
		     size_t err_len);

/* Canonical text of a spec (all keys explicit); returns snprintf's value. */
int dmo_opspec_format(const struct dmo_opspec *spec, char *buf, size_t len);

const char *dmo_op_name(enum dmo_op op);
/* Whether OP reads a second operand element by element (add, sub, mul,
 * div, prelu, max, min, powt, qlinearadd, qlinearmul), which the runner
 * feeds with the input's shape. */
int dmo_op_binary(enum dmo_op op);
/* Whether OP is one of ONNX's f32 element-wise ops (sub, div, hardsigmoid,
 * hardswish, clip, batchnorm, prelu, max, min, powt and the unary ones of
 * dmo_op_onnx_unary): flat order, output of the input's shape. */
int dmo_op_onnx_elementwise(enum dmo_op op);
/* Whether OP is one of ONNX's unary f32 ops of one table (leakyrelu ..
 * pow, dk_onnx_unary's order, and scale, appended): its index in that
 * table, or -1. */
int dmo_op_onnx_unary(enum dmo_op op);
/* Whether OP is one of the reductions over in_h x in_w (mean, reducemax,
 * reducemin, reducesum, qlinearmean): output batch x 1 x 1 x in_c. */
int dmo_op_reduce(enum dmo_op op);
/* What OP computes, one line (`dmo ops`). */
const char *dmo_op_meaning(enum dmo_op op);

/* The grammar's keys, as the parser knows them: key K (0, 1, ... until
 * dmo_opspec_key returns NULL) with its value format, its default
 * ("required" when it has none) and its meaning. */
struct dmo_opspec_key {
	const char *name, *format, *default_text, *meaning;
};
const struct dmo_opspec_key *dmo_opspec_key(int key);
/* The keys OP accepts, bit K for key K; *REQUIRED (when not NULL) gets
 * those it cannot do without. */
unsigned dmo_opspec_op_keys(enum dmo_op op, unsigned *required);
/* The format of KEY's value for OP: the key's own, but fc reads `in` as
 * NxK or K. */
const char *dmo_opspec_value_format(enum dmo_op op, int key);
const char *dmo_dtype_name(enum dmo_dtype dtype);
size_t dmo_dtype_size(enum dmo_dtype dtype);

/* Element counts and byte sizes of the profiled input and output buffers.
 * For add/mul and concat the profiled input is the first operand. */
uint64_t dmo_opspec_in_elems(const struct dmo_opspec *spec);
uint64_t dmo_opspec_out_elems(const struct dmo_opspec *spec);
uint64_t dmo_opspec_in_bytes(const struct dmo_opspec *spec);
uint64_t dmo_opspec_out_bytes(const struct dmo_opspec *spec);

/* Whether the reference kernels (libdmokernels) implement SPEC's op for its
 * dtypes: NULL when they do, else the dtypes they have for it (e.g. "f32
 * and i8"), for a message.  The model readers give an op spec only to
 * layers the kernels can run, so that every planned overlap can be run. */
const char *dmo_opspec_kernel_gap(const struct dmo_opspec *spec);

/* Whether SPEC's kernel computes an image at a time (all of an image's
 * input read before any of its output is written): an NCHW conv2d or
 * dwconv2d of i8 or u8, ONNX's QLinearConv in ONNX Runtime's order
 * (docs/kernels.md, "NCHW integer kernels"), and convt, ONNX's
 * ConvTranspose (a GEMM of the whole image, then col2im). */
int dmo_opspec_image_at_a_time(const struct dmo_opspec *spec);

#endif
