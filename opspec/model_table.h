/* model_table.h - dmo's in-memory model: layers (one kernel each, with its
 * op spec when dmo has one) over tensors (shapes, dtypes, quantisation,
 * constants, producers and consumers).  Three readers fill it: the layer
 * tables of target-harness/models (CSV columns `layer,name,spec,inputs`,
 * this file), TFLite FlatBuffers (model_tflite.c) and ONNX protobuf
 * (model_onnx.c); dmo_model_load tells them apart by content.  Shared by the
 * harness program, the planner and `dmo model`, so that all see the same
 * layers, specs and data-flow edges. */
#ifndef DMO_MODEL_TABLE_H
#define DMO_MODEL_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "opspec.h"

/* Producer index meaning "a model input tensor". */
#define DMO_MODEL_INPUT (-1)
/* Producer index of a constant tensor (weights, bias, shapes). */
#define DMO_MODEL_CONSTANT (-2)
/* Tensor index of an optional operand the file leaves out. */
#define DMO_MODEL_ABSENT (-1)

#define DMO_MODEL_MAX_RANK 8

enum dmo_model_format { DMO_FORMAT_TABLE, DMO_FORMAT_TFLITE, DMO_FORMAT_ONNX };

/* Fused activation of a conv/fc/add/mul/pool (TFLite numbering). */
enum dmo_act { DMO_ACT_NONE, DMO_ACT_RELU, DMO_ACT_RELU_N1_TO_1, DMO_ACT_RELU6,
	       DMO_ACT_TANH, DMO_ACT_OTHER };

/* Quantisation: real = scale * (q - zero_point).  COUNT 0: none; 1:
 * per-tensor; otherwise one pair per index of dimension AXIS. */
struct dmo_model_quant {
	size_t count;
	float *scale;
	int64_t *zero_point;
	int axis;
};

struct dmo_model_tensor {
	char *name;
	const char *type_name;   /* the file's element type, e.g. "int8" */
	int known_dtype;         /* DTYPE is valid (f32, i8, i16, i32, u8) */
	enum dmo_dtype dtype;
	size_t elem_size;        /* bytes per element (0: not a fixed size) */
	int rank;
	int64_t shape[DMO_MODEL_MAX_RANK]; /* as the file stores it (ONNX: NCHW) */
	uint64_t elems, bytes;
	int producer;            /* layer, DMO_MODEL_INPUT or DMO_MODEL_CONSTANT */
	int first, last;         /* live range in layers, inclusive (activations) */
	size_t n_consumers;      /* layers reading it */
	int graph_input, graph_output, variable;
	const unsigned char *data; /* constant's bytes, inside the model's blob */
	size_t data_len;
	struct dmo_model_quant quant;
};

struct dmo_model_layer {
	char *name;
	char *spec;              /* op-spec text (tables: as written), or NULL */
	struct dmo_opspec op;    /* SPEC, parsed; valid when SUPPORTED */
	int supported;           /* dmo has an op spec for this kernel */
	char *op_name;           /* the file's operator (CONV_2D, Conv, ...) */
	char *why;               /* when not SUPPORTED: the reason, for reports */
	enum dmo_act act;        /* fused activation */
	size_t n_inputs;
	int *inputs;             /* producer layers of the activation operands,
				  * or DMO_MODEL_INPUT */
	size_t n_operands;       /* every input tensor, constants included */
	int *operands;           /* tensor indices or DMO_MODEL_ABSENT */
	size_t n_act_in;         /* the activation (arena) operands, in order;
				  * for a supported op the first is the
				  * profiled input, the second add/mul's other */
	int *act_in;
	size_t n_results;
	int *results;            /* output tensor indices */
	int row;                 /* CSV row (header = 1) or operator index */
};

struct dmo_model {
	size_t n_layers;
	struct dmo_model_layer *layers;
	size_t n_tensors;
	struct dmo_model_tensor *tensors;
	enum dmo_model_format format;
	unsigned char *blob;     /* the file's bytes (TFLite constants point here) */
	size_t blob_len;
	void *reader_state;      /* the decoded file, when constants point
				  * into it (ONNX), released by READER_FREE */
	void (*reader_free)(void *);
};

/* A shape given on the command line for a tensor the file leaves dynamic
 * (`--shape NAME=1x224x224x3`). */
struct dmo_model_shape {
	const char *tensor;
	int rank;
	int64_t dims[DMO_MODEL_MAX_RANK];
};

/* Parse `NAME=D1xD2x...` (TEXT must outlive *SHAPE).  Returns 0, or -1
 * with ERR. */
int dmo_model_shape_parse(const char *text, struct dmo_model_shape *shape,
			  char *err, size_t err_len);

/* Does SHAPE name the tensor NAME? */
int dmo_model_shape_names(const struct dmo_model_shape *shape, const char *name);

/* Read the model at PATH into *MODEL (which the caller later releases with
 * dmo_model_free): a TFLite file (identifier TFL3 at byte 4), an ONNX file
 * (a protobuf ModelProto) or a layer table, told apart by content.  SHAPES
 * (N_SHAPES of them) fix dynamic dimensions by tensor name.  Returns 0, or
 * -1 with one message naming the file (and row, operator or tensor) in ERR,
 * *MODEL left empty. */
int dmo_model_load_shaped(const char *path, const struct dmo_model_shape *shapes,
			  size_t n_shapes, struct dmo_model *model, char *err,
			  size_t err_len);

/* Whether T's quantisation (if any) is one a kernel can use: finite
 * positive scales, zero points inside the element type's range (the
 * axis is not checked: real files give a bias of rank 1 axis 3).  0, or -1
 * with WHY. */
int dmo_model_quant_check(const struct dmo_model_tensor *t, char *why, size_t why_len);

/* The largest model file dmo reads: 1 GiB, or the environment's
 * DMO_MAX_MODEL_SIZE (bytes, or with a K, M, G or T suffix: powers of
 * 1024).  A larger file is refused before it is read.  Returns 0 with the
 * limit in *BYTES, or -1 with ERR when the variable is not a size. */
#define DMO_MAX_MODEL_BYTES ((uint64_t)1 << 30)
#define DMO_MAX_MODEL_SIZE_ENV "DMO_MAX_MODEL_SIZE"
int dmo_model_size_limit(uint64_t *bytes, char *err, size_t err_len);

/* dmo_model_load_shaped without shapes. */
int dmo_model_load(const char *path, struct dmo_model *model, char *err,
		   size_t err_len);

/* Same from memory (DATA is copied); SOURCE names the model in messages. */
int dmo_model_parse_any(const unsigned char *data, size_t len, const char *source,
			const struct dmo_model_shape *shapes, size_t n_shapes,
			struct dmo_model *model, char *err, size_t err_len);

/* A layer table from memory.  An empty `inputs` field means the previous
 * layer (the model input for the first layer); otherwise it is a
 * `;`-separated list of names of earlier layers.  Tensor 0 is the model
 * input, tensor L+1 the output of layer L. */
int dmo_model_parse(const char *data, size_t len, const char *source,
		    struct dmo_model *model, char *err, size_t err_len);

/* The format readers (model_tflite.c, model_onnx.c): DATA stays owned by
 * the caller and must outlive *MODEL until dmo_model_load hands it over. */
int dmo_model_parse_tflite(const unsigned char *data, size_t len, const char *source,
			   const struct dmo_model_shape *shapes, size_t n_shapes,
			   struct dmo_model *model, char *err, size_t err_len);
int dmo_model_parse_onnx(const unsigned char *data, size_t len, const char *source,
			 const struct dmo_model_shape *shapes, size_t n_shapes,
			 struct dmo_model *model, char *err, size_t err_len);

/* Attribute NAME of the ONNX node behind layer L of an ONNX MODEL (its
 * integer, or its float), DEF when the node has none or MODEL is not
 * ONNX: what a consumer of the model needs beyond the op spec, e.g. Gemm's
 * alpha, beta and transB for `dmo infer`. */
int64_t dmo_model_onnx_int(const struct dmo_model *model, size_t l, const char *name, int64_t def);
double dmo_model_onnx_float(const struct dmo_model *model, size_t l, const char *name, double def);
/* Whether the reader put layer L's two operands in the other order than
 * its ONNX node's (a Sub or Div whose second input is the one of the
 * output's shape: the kernel computes input 0 op input 1 all the same). */
int dmo_model_onnx_commuted(const struct dmo_model *model, size_t l);
/* The input count of layer L's ONNX node (a Mean's n, whose last pass
 * multiplies by 1/n), 0 when MODEL is not ONNX. */
size_t dmo_model_onnx_inputs(const struct dmo_model *model, size_t l);

/* For the readers: after layers[].results/operands and tensors[] are
 * filled (every index a tensor's, or DMO_MODEL_ABSENT for an operand: the
 * readers check them against the file), derive producers, consumers, live
 * ranges, act_in and inputs, and check the graph is executable in file
 * order (every activation read after it is written, each tensor written
 * once).  Returns 0, or -1 with ERR. */
int dmo_model_link(struct dmo_model *model, const char *source, char *err,
		   size_t err_len);

/* For the readers: make TEXT layer L's op spec, checked against its
 * tensors (IN the profiled input, OUT the output: same dtype, same bytes
 * as the spec's buffers).  Returns 0, or -1 with ERR naming the operator. */
int dmo_model_layer_spec(struct dmo_model *model, size_t l, const char *text, int in,
			 int out, const char *source, char *err, size_t err_len);

/* dmo_model_layer_spec for an op spec that parses and that the reference
 * kernels can run (dmo_opspec_kernel_gap); any other leaves layer L
 * unsupported, saying why (the parser's message, or which dtypes the
 * kernels have).  Returns 0, or -1 with ERR. */
int dmo_model_layer_spec_runnable(struct dmo_model *model, size_t l, const char *text, int in,
				  int out, const char *source, char *err, size_t err_len);

/* For the readers: layer L has no dmo op spec, for the reason WHY (printf
 * format); it is planned with O_s = 0.  Returns 0, or -1 with ERR
 * ("SOURCE: out of memory"). */
int dmo_model_layer_unsupported(struct dmo_model_layer *layer, const char *source, char *err,
				size_t err_len, const char *why, ...)
	__attribute__((format(printf, 5, 6)));

/* An element-wise op spec's `in=NxHxWxC` for a tensor of any rank (flat
 * order: the last three dimensions, the others folded into N). */
int dmo_model_flat_shape(const struct dmo_model_tensor *t, char *buf, size_t len);

/* Number of layers without a dmo op spec (planned with O_s = 0). */
size_t dmo_model_unsupported(const struct dmo_model *model);

const char *dmo_act_name(enum dmo_act act);
const char *dmo_model_format_name(enum dmo_model_format format);

/* Check that a table's shapes chain: every producer's output has as many
 * elements as its consumer's input (both operands of add/mul), dtypes agree,
 * add/mul have exactly two inputs and every other op one.  Returns 0 or -1
 * with ERR.  Models read from files pass (their readers check each layer
 * against its tensors). */
int dmo_model_check_shapes(const struct dmo_model *model, char *err,
			   size_t err_len);

void dmo_model_free(struct dmo_model *model);

#endif
