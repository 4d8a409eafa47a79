/* onnx_shapes.h - ONNX shape inference for the operators dmo's ONNX reader
 * meets in exported CNNs, so that a graph without value_info still has a
 * shape for every tensor (onnx_shapes.c; rules in docs/models.md).  Also the
 * node attribute readers the ONNX reader shares with it. */
#ifndef DMO_ONNX_SHAPES_H
#define DMO_ONNX_SHAPES_H

#include <stddef.h>
#include <stdint.h>

#include "model_table.h"
#include "onnx.pb-c.h"

/* Most values of a small int64 tensor (shapes, axes, pads, starts) whose
 * contents inference follows: a Shape's output, a Reshape's target. */
#define DMO_ONNX_MAX_INTS (2 * DMO_MODEL_MAX_RANK)

/* What inference knows of one tensor: its element type
 * (TensorProto.DataType), its shape when RANK >= 0, and when N_INTS >= 0
 * the values of a small integer tensor (in the file's order), when
 * N_FLOATS >= 0 those of a small float constant (Resize's scales). */
struct dmo_onnx_value {
	int32_t elem_type;
	int rank;
	int64_t dims[DMO_MODEL_MAX_RANK];
	int n_ints;
	int64_t ints[DMO_ONNX_MAX_INTS];
	int n_floats;
	float floats[DMO_ONNX_MAX_INTS];
};

/* The outputs OUT[N_OUT] of node N (operator set OPSET of the default
 * domain) from its inputs IN[N_IN] (absent optional inputs have rank -1
 * and elem_type 0).  Returns 0 with every output's type and shape set,
 * 1 when dmo has no shape rule for the operator, -1 with WHY when the
 * shape cannot be known (an input without a shape, a shape that is not a
 * constant, attributes that contradict the inputs). */
int dmo_onnx_infer_shapes(const Onnx__NodeProto *n, int64_t opset,
			  const struct dmo_onnx_value *in, size_t n_in,
			  struct dmo_onnx_value *out, size_t n_out, char *why, size_t why_len);

/* NumPy's (multidirectional) broadcast of shape A (RANK_A dims) with
 * shape B into OUT, which may be A: returns the rank, or -1 when a pair of
 * dimensions differs and neither is 1 (then BAD holds that pair: A's, B's). */
int dmo_onnx_broadcast(int rank_a, const int64_t *a, int rank_b, const int64_t *b,
		       int64_t *out, int64_t bad[2]);

/* The same for the com.microsoft operators dmo maps (QLinearAdd,
 * QLinearMul: A and B broadcast; QLinearGlobalAveragePool: its spatial
 * axes 1, by channels_last; QLinearAveragePool, NCHW: AveragePool's;
 * QGemm: Gemm's; QLinearConcat: Concat's); 1 for the domain's others. */
int dmo_onnx_infer_qoperator_shapes(const Onnx__NodeProto *n, const struct dmo_onnx_value *in,
				    size_t n_in, struct dmo_onnx_value *out, size_t n_out,
				    char *why, size_t why_len);

/* Attribute NAME of node N, or NULL. */
const Onnx__AttributeProto *dmo_onnx_attr(const Onnx__NodeProto *n, const char *name);
/* Integer attribute NAME, DEF when absent. */
int64_t dmo_onnx_attr_int(const Onnx__NodeProto *n, const char *name, int64_t def);
/* INTS[COUNT] of attribute NAME, DEF for each when absent; -1 when present
 * with another count. */
int dmo_onnx_attr_ints(const Onnx__NodeProto *n, const char *name, int64_t *ints, size_t count,
		       int64_t def);

/* One spatial axis of a ConvTranspose as ONNX Runtime resolves it
 * (conv_transpose_attributes.h): OUT = (in - 1) STRIDE + (k - 1) DIL + 1
 * + OUT_PAD - PAD_HEAD - PAD_TAIL, the pads from pads, auto_pad SAME_UPPER
 * or SAME_LOWER (OUT = in x stride) or output_shape (OUT given; when it
 * exceeds the size without pads, OUT_PAD grows to reach it). */
struct dmo_onnx_convt_axis {
	int64_t stride, dil, pad_head, pad_tail, out_pad, out;
};
/* The NS axes AXES[NS] of ConvTranspose node N over spatial input sizes
 * IN[NS] and kernel sizes K[NS]: 0, or -1 with WHY (attributes not of NS
 * axes, an unknown auto_pad, an empty output). */
int dmo_onnx_convt_axes(const Onnx__NodeProto *n, int ns, const int64_t *in, const int64_t *k,
			struct dmo_onnx_convt_axis *axes, const char **why);

/* ONNX's Slice node N (operator set OPSET) of V: for each of V's axes
 * the first element START, the STEP and the elements DIMS it keeps, from
 * the attributes (before opset 10) or the constant inputs LISTS[N_LISTS]
 * (starts, ends, axes, steps: the node's inputs from the second on),
 * clamped as ONNX says.  0, or -1 with WHY. */
int dmo_onnx_slice_axes(const Onnx__NodeProto *n, int64_t opset, const struct dmo_onnx_value *v,
			const struct dmo_onnx_value *lists, size_t n_lists, int64_t *start, int64_t *step,
			int64_t *dims, char *why, size_t why_len);

#endif
