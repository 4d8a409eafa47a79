/* onnx_window1d.h - a 1-D ONNX window op (Conv, MaxPool, AveragePool,
 * ConvTranspose over N x C x L tensors) seen as the 2-D one over
 * N x C x 1 x L, whose bytes are the same (docs/formulas.md 3.11). */
#ifndef DMO_ONNX_WINDOW1D_H
#define DMO_ONNX_WINDOW1D_H

#include "model_table.h"
#include "onnx.pb-c.h"

#define DMO_WINDOW1D_MAX_ATTRS 16

/* The 2-D view: a copy of the node whose spatial attributes have a leading
 * axis of one row (kernel_shape, strides, dilations 1; pads, output_padding
 * 0; output_shape 1), and views of the input, output and weights with
 * H = 1 inserted. */
struct dmo_window1d {
	Onnx__NodeProto node;
	Onnx__AttributeProto *list[DMO_WINDOW1D_MAX_ATTRS];
	Onnx__AttributeProto attrs[DMO_WINDOW1D_MAX_ATTRS];
	int64_t ints[DMO_WINDOW1D_MAX_ATTRS][4];
	struct dmo_model_tensor in, out, w;
};

/* Fill *V from node N over 3-D IN and OUT (W, the weights, may be NULL
 * or 3-D).  Returns 0, or -1 when a tensor is not 3-D or the node has
 * more attributes than the view holds. */
int dmo_window1d_view(const Onnx__NodeProto *n, const struct dmo_model_tensor *in,
		      const struct dmo_model_tensor *out, const struct dmo_model_tensor *w,
		      struct dmo_window1d *v);

#endif
