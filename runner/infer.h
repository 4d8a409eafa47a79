/* infer.h - a whole model run with its real weights through the reference
 * kernels (libdmokernels), every activation tensor at its offset inside one
 * arena: what `dmo infer` and a real-weight `dmo plan --verify` execute.
 *
 * The model is a dmo_net, TFLite's own view of a graph: tensors (shape,
 * element type, quantisation, constant bytes) and steps in execution order,
 * each a builtin operator with its operands in TFLite's order and its
 * options.  A model-file reader fills one; the engine derives every kernel
 * parameter from the tensors' float scales and zero points exactly as
 * TensorFlow Lite Micro's Prepare does (docs/kernels.md), so the arena ends
 * up holding TFLite's bytes. */
#ifndef DMO_INFER_H
#define DMO_INFER_H

#include <stddef.h>
#include <stdint.h>

#define DMO_NET_MAX_RANK 6
#define DMO_NET_MAX_INPUTS 17 /* com.microsoft QLinearConcat of 5 inputs (QLinearConv: 9) */
/* An optional operand left out (a conv without bias). */
#define DMO_NET_ABSENT (-1)

enum dmo_net_dtype { DMO_NET_F32, DMO_NET_I8, DMO_NET_U8, DMO_NET_I16, DMO_NET_I32 };

enum dmo_net_op {
	DMO_NET_CONV2D,     /* in, filter [oc][kh][kw][ic], bias? */
	DMO_NET_DWCONV2D,   /* in, filter [1][kh][kw][oc], bias? */
	DMO_NET_FC,         /* in, filter [units][k], bias? */
	DMO_NET_MAXPOOL,    /* in */
	DMO_NET_AVGPOOL,    /* in */
	DMO_NET_ADD,        /* a, b (same shape) */
	DMO_NET_MUL,        /* a, b (same shape) */
	DMO_NET_RELU,       /* in */
	DMO_NET_RELU6,      /* in */
	DMO_NET_SOFTMAX,    /* in (rows along the last axis) */
	DMO_NET_LOGISTIC,   /* in */
	DMO_NET_MEAN,       /* in NHWC, axes {1, 2} (int32 constant) */
	DMO_NET_RESHAPE,    /* in (, shape) */
	DMO_NET_PAD,        /* in, paddings [rank][2] (int32 constant) */
	DMO_NET_TRANSPOSE,  /* in, perm (int32 constant) */
	DMO_NET_CONCAT,     /* in... along AXIS */
	DMO_NET_QUANTIZE,   /* in (f32 or int8) -> int8 */
	DMO_NET_DEQUANTIZE, /* in int8 -> f32 */
	DMO_NET_TANH,       /* in (f32) */
	/* ONNX's (f32): a, b broadcasting (NumPy's rule) */
	DMO_NET_SUB,
	DMO_NET_DIV,
	DMO_NET_HARDSIGMOID, /* in; alpha, beta */
	DMO_NET_HARDSWISH,   /* in */
	DMO_NET_CLIP,        /* in; clip_lo, clip_hi */
	DMO_NET_BATCHNORM,   /* in N x C x ..., scale [C], shift [C] */
	/* ONNX's Resize and Upsample, nearest: in (any type), each output
	 * dim an integer multiple of the input's (the reader checked the
	 * coordinate mapping is floor(o / s)); roi, scales, sizes unread */
	DMO_NET_RESIZE,
	/* ONNX's ConvTranspose (f32, NCHW, group 1, no padding or dilation) */
	DMO_NET_CONVT,       /* in, filter [ic][oc][kh][kw], bias? */
	/* ONNX's shape arithmetic (Shape, Cast, Slice, ... of int32/int64
	 * tensors) whose values no kernel reads: shape inference resolved
	 * them into the op specs, as ONNX Runtime folds them; no kernel runs,
	 * the output gets zero bytes (defined, the same in every arena). */
	DMO_NET_SHAPE_ONLY,
	/* ONNX's unary f32 ops of one table (dk_onnx_unary UNARY; alpha,
	 * gamma, exponent), and PRelu: x, slope broadcasting */
	DMO_NET_UNARY,
	DMO_NET_PRELU,
	/* ONNX's Max and Min of two operands (f32, broadcasting) */
	DMO_NET_MAX,
	DMO_NET_MIN,
	/* ONNX's Slice with steps 1 and Gather of consecutive indices: in (any
	 * type); the elements removed before and after along each axis in
	 * pad_before, pad_after */
	DMO_NET_SLICE,
	/* ONNX's MatMul of two f32 activations: A [..., M, K], B [..., K, N]
	 * of the same batch dims (dk_matmul_f32) */
	DMO_NET_MATMUL,
	/* ONNX's Pow of f32 X by an f32 exponent tensor Y (broadcasting) */
	DMO_NET_POW,
	/* ONNX Runtime's QOperator ops (com.microsoft, uint8 or int8, every
	 * operand quantised by one scale and zero point; kernels_qlinear.c):
	 * QLinearAdd and QLinearMul of a, b broadcasting to a;
	 * QLinearGlobalAveragePool of in N x C x spatial... */
	DMO_NET_QLINEARADD,
	DMO_NET_QLINEARMUL,
	DMO_NET_QLINEARMEAN,
	/* QLinearAveragePool of in N x C x H x W (the step's window) */
	DMO_NET_QLINEARAVGPOOL,
	/* QLinearConcat of in... along AXIS, each input its own quantisation */
	DMO_NET_QLINEARCONCAT,
	/* ONNX's Gather of constant indices (gather_*): in (any type) as
	 * outer x axis x inner, the axis's elements picked by the indices */
	DMO_NET_GATHER,
	DMO_NET_OP_COUNT
};

/* Fused activations, TFLite's numbering. */
enum dmo_net_act { DMO_NET_ACT_NONE, DMO_NET_ACT_RELU, DMO_NET_ACT_RELU_N1_TO_1, DMO_NET_ACT_RELU6 };

struct dmo_net_tensor {
	const char *name;
	enum dmo_net_dtype dtype;
	int rank;
	int dims[DMO_NET_MAX_RANK];
	const void *data;           /* a constant's bytes; NULL: an activation */
	/* real = scale * (q - zero_point).  N_QUANT 0: not quantised; 1: per
	 * tensor; otherwise one pair per index of dimension QUANT_AXIS. */
	size_t n_quant;
	const float *scale;
	const int64_t *zero_point;
	int quant_axis;
	int graph_input, graph_output; /* the model's inputs and outputs */
};

struct dmo_net_step {
	const char *name;
	enum dmo_net_op op;
	int n_inputs;
	int inputs[DMO_NET_MAX_INPUTS]; /* tensor indices or DMO_NET_ABSENT */
	int output;
	/* options (TFLite's): conv, dwconv and pool */
	int padding_same;
	int stride_h, stride_w;
	int dil_h, dil_w;       /* conv, dwconv; 0 reads as 1 */
	int filter_h, filter_w; /* pool */
	int mult;               /* dwconv depth multiplier; 0: oc / ic */
	/* ONNX's layout (conv, dwconv, pool): tensors N x C x H x W, filters
	 * [oc][ic / groups][kh][kw], run by the NCHW kernels (float32). */
	int nchw;
	/* Explicit padding (ONNX's pads) instead of padding_same: rows and
	 * columns of zeros before and after the image. */
	int pad_explicit;
	int pad_top, pad_left, pad_bottom, pad_right;
	enum dmo_net_act act;   /* fused activation (conv, dwconv, fc, pool, add, mul) */
	float beta;             /* softmax; hardsigmoid (alpha x + beta) */
	float alpha;            /* hardsigmoid */
	float clip_lo, clip_hi; /* clip */
	int commuted;           /* ONNX's sub, div: input 1 op input 0 */
	int softmax_row;        /* elements a softmax row holds (0: the last dim's;
				 * an ONNX Softmax before opset 13 is flattened at
				 * its axis) */
	int axis;               /* concat (negative counts from the end) */
	/* ONNX's Pad (pads_given): elements added before and after each axis,
	 * which TFLite gives as a paddings operand instead. */
	int pads_given;
	int pad_before[DMO_NET_MAX_RANK], pad_after[DMO_NET_MAX_RANK];
	/* ONNX's ReduceMean and GlobalAveragePool (mean_reduced > 0): the mean
	 * over the middle of outer x reduced x inner elements (TFLite's mean
	 * takes height and width of NHWC from an axes operand instead). */
	int mean_outer, mean_reduced, mean_inner;
	/* ONNX's LogSoftmax (log_softmax) and a Softmax or LogSoftmax over
	 * another axis than the last (softmax_view[0] > 0): the tensor as the
	 * 4-D softmax_view (the reader's op spec's in), normalised along its
	 * axis softmax_axis (dk_softmax_axis_f32; 3 is rows). */
	int log_softmax;
	int softmax_axis;
	int softmax_view[4];
	/* ONNX's ReduceMax, ReduceMin, ReduceSum and GlobalMaxPool: a mean
	 * step (mean_* its shape) that reduces by dk_reduce REDUCE instead. */
	int reduce;
	/* DMO_NET_UNARY: the dk_onnx_unary function and its attributes
	 * (alpha above: leakyrelu, elu, selu). */
	int unary;
	float gamma, exponent;
	/* quantize: round half to even (ONNX) instead of away from zero. */
	int round_half_even;
	/* ONNX's QLinearConv and QLinearMatMul (N_REAL_SCALES > 0): conv,
	 * dwconv or fc requantised as ONNX Runtime does, by these float
	 * factors in_scale * filter_scale / out_scale (one, or one an output
	 * channel) instead of TFLite's multiplier and shift (dk_quant's
	 * real_scales).  The net owns them. */
	const float *real_scales;
	int n_real_scales;
	/* ONNX's Conv group (nchw conv2d; 0 reads as 1): groups of in_c /
	 * groups input channels, filters [oc][ic / groups][kh][kw]. */
	int groups;
	/* fc: the input is stored transposed (ONNX's Gemm transA), K rows of
	 * the batch. */
	int trans_a;
	/* fc: the bias is one value per output element (ONNX's Gemm with a
	 * matrix C, broadcast and scaled by the reader). */
	int bias_per_output;
	/* ONNX's Transpose (perm_given): the input seen as the 4-D
	 * perm_dims (the reader's op spec's in, its axes merged), output axis
	 * i is axis perm[i] of it; TFLite gives a perm operand instead. */
	int perm_given;
	int perm[4], perm_dims[4];
	/* NCHW avgpool: divide by the whole window (ONNX's count_include_pad). */
	int count_pad;
	/* ONNX's Pad (pads_given): its mode (dk_pad_mode; reflect and edge run
	 * dk_pad_onnx, ONNX Runtime's order) and constant value. */
	int pad_mode;
	double pad_value;
	/* ONNX's Slice: the steps along each axis (0 reads as 1), the kept
	 * box pad_before/pad_after walked as dmo's slice op spec states. */
	int slice_step[DMO_NET_MAX_RANK];
	/* ONNX's Gather (gather_view[1] > 0): the input as outer x axis x
	 * inner and the gather op spec's indices (the model's). */
	int gather_view[3];
	const int *gather_indices;
	int n_gather_indices;
};

struct dmo_net {
	size_t n_tensors;
	struct dmo_net_tensor *tensors;
	size_t n_steps;
	struct dmo_net_step *steps;
	/* Requantise with one rounding (TFLite's TFLITE_SINGLE_ROUNDING build,
	 * and what Arm NN computes) instead of TFLite Micro's default two. */
	int single_rounding;
	/* Constants the model reader rewrote for the kernels (an ONNX Gemm's
	 * weights transposed and scaled), freed with the net. */
	size_t n_owned;
	void **owned;
};

const char *dmo_net_op_name(enum dmo_net_op op);
size_t dmo_net_dtype_size(enum dmo_net_dtype dtype);
/* Bytes of tensor T (elements times element size). */
uint64_t dmo_net_tensor_bytes(const struct dmo_net *net, int t);

/* Whether every step can run (operand count, shapes, types, quantisation
 * TFLite requires, e.g. softmax int8 output scale 1/256).  Returns 0, or -1
 * with ERR naming the first step that cannot and why. */
int dmo_net_check(const struct dmo_net *net, char *err, size_t err_len);

/* Run every step in order.  Activation tensor t lives at ARENA + OFFSETS[t]
 * (constants are read from their DATA); the caller has written the model's
 * inputs there and reads its outputs there afterwards.  Returns 0, or -1
 * with ERR naming the step. */
/* The kernel parameters step I runs with (geometry and the quantisation
 * derived from its tensors, as dmo_net_run computes them), for another
 * kernel library to run the same step.  Per-channel factors point into
 * *MULTS and *SHIFTS, which the caller frees.  Returns 0, or -1 with ERR. */
struct dk_params;
int dmo_net_step_params(const struct dmo_net *net, size_t i, struct dk_params *params,
			int32_t **mults, int **shifts, char *err, size_t err_len);

int dmo_net_run(const struct dmo_net *net, unsigned char *arena, const uint64_t *offsets,
		char *err, size_t err_len);

/* Run step I alone (the steps before it have run): what a profiler
 * wraps in dmo_layer_begin/end, one layer at a time.  Returns 0, or -1 with
 * ERR naming the step. */
int dmo_net_run_step(const struct dmo_net *net, size_t i, unsigned char *arena,
		     const uint64_t *offsets, char *err, size_t err_len);

/* Where the model's input bytes come from: FILE (raw bytes of every input
 * tensor in tensor order, exactly), all zero bytes, or pseudo-random from
 * SEED (the same bytes on every machine; a float input gets values in
 * [-1, 1) rather than random bit patterns). */
struct dmo_net_input {
	const char *file; /* NULL: ZEROS or SEED */
	int zeros;
	uint64_t seed;
};

/* Bytes of all the model's inputs together (what --input FILE holds). */
uint64_t dmo_net_input_bytes(const struct dmo_net *net);

/* Write the model's inputs at their arena offsets.  Returns 0, or -1 with
 * ERR (the file cannot be read, is too short or too long). */
int dmo_net_fill_inputs(const struct dmo_net *net, const struct dmo_net_input *source,
			unsigned char *arena, const uint64_t *offsets, char *err, size_t err_len);

#endif
