/* infer_backend.c - one step of a real-weight net (infer.h) prepared on a
 * backend (backend.h): the step's geometry and quantisation exactly as
 * dmo_net_run derives them for the reference kernels, its constant tensors
 * as weights, its second operand at its arena slot. */
#include "infer_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmokernels.h"

static const char *dtype_name(enum dmo_net_dtype dtype)
{
	switch (dtype) {
	case DMO_NET_F32: return "f32";
	case DMO_NET_I8:  return "i8";
	case DMO_NET_I16: return "i16";
	case DMO_NET_I32: return "i32";
	default:          return "u8";
	}
}

static int backend_op(enum dmo_net_op op)
{
	switch (op) {
	case DMO_NET_CONV2D:
	case DMO_NET_DWCONV2D:
	case DMO_NET_FC:
	case DMO_NET_MAXPOOL:
	case DMO_NET_AVGPOOL:
	case DMO_NET_ADD:
	case DMO_NET_MUL:
	case DMO_NET_RELU:
	case DMO_NET_RELU6:
	case DMO_NET_SOFTMAX:
		return 1;
	default:
		return 0;
	}
}

/* The padding after the image that the output size implies. */
static int pad_after(int in, int k, int stride, int dil, int out, int before)
{
	int after = (out - 1) * stride + (k - 1) * dil + 1 - in - before;

	return after > 0 ? after : 0;
}

static float scale_of(const struct dmo_net_tensor *t)
{
	return t != NULL && t->n_quant ? t->scale[0] : 0.0f;
}

struct dmo_backend_run *dmo_net_backend_prepare(struct dmo_backend_handle *handle,
						const struct dmo_net *net, size_t i,
						unsigned char *arena, const uint64_t *offsets,
						char *err, size_t err_len)
{
	const struct dmo_net_step *s = &net->steps[i];
	const struct dmo_net_tensor *t = net->tensors, *in, *out;
	const struct dmo_net_tensor *second = NULL, *filter = NULL, *bias = NULL;
	struct dk_params p;
	int32_t *mults;
	int *shifts;
	int binary = s->op == DMO_NET_ADD || s->op == DMO_NET_MUL;
	int weighted = s->op == DMO_NET_CONV2D || s->op == DMO_NET_DWCONV2D || s->op == DMO_NET_FC;
	struct dmo_backend_run *run;
	char text[256];

	/* ref would derive its weights from a spec text: its kernels are
	 * dmo_net_run_step's, called directly. */
	if (strcmp(dmo_backend_desc(handle)->name, "ref") == 0) {
		snprintf(err, err_len, "the reference kernels run it directly");
		return NULL;
	}
	if (s->nchw) {
		snprintf(err, err_len, "an NCHW layer (ONNX) runs on dmo's NCHW kernels: backends take NHWC");
		return NULL;
	}
	if (s->n_real_scales) {
		snprintf(err, err_len, "ONNX's QLinear requantisation (float factors) runs on dmo's kernels: "
			 "backends requantise as TFLite");
		return NULL;
	}
	if (s->bias_per_output) {
		snprintf(err, err_len, "ONNX's Gemm with a matrix C runs on dmo's kernels: the backends' "
			 "fc takes a bias per unit");
		return NULL;
	}
	if (!backend_op(s->op)) {
		snprintf(err, err_len, "%s is not a backend op", dmo_net_op_name(s->op));
		return NULL;
	}
	if (dmo_net_step_params(net, i, &p, &mults, &shifts, err, err_len) != 0)
		return NULL;
	in = &t[s->inputs[0]];
	out = &t[s->output];
	if (binary)
		second = &t[s->inputs[1]];
	if (weighted) {
		filter = &t[s->inputs[1]];
		bias = s->n_inputs > 2 && s->inputs[2] >= 0 ? &t[s->inputs[2]] : NULL;
	}
	if (in->data != NULL || (second != NULL && second->data != NULL)) {
		snprintf(err, err_len, "a constant input is not run on a backend");
		free(mults);
		free(shifts);
		return NULL;
	}
	snprintf(text, sizeof text, "%s (%s)", s->name ? s->name : "", dmo_net_op_name(s->op));
	struct dmo_backend_op op = {
		.spec = text, .op = dmo_net_op_name(s->op), .dtype = dtype_name(in->dtype),
		.batch = p.batch, .in_h = p.in_h, .in_w = p.in_w, .in_c = p.in_c,
		.out_h = p.out_h, .out_w = p.out_w, .out_c = p.out_c,
		.k_h = p.k_h, .k_w = p.k_w, .stride_h = p.stride_h, .stride_w = p.stride_w,
		.dil_h = p.dil_h, .dil_w = p.dil_w, .pad_top = p.pad_top, .pad_left = p.pad_left,
		.pad_bottom = pad_after(p.in_h, p.k_h, p.stride_h, p.dil_h, p.out_h, p.pad_top),
		.pad_right = pad_after(p.in_w, p.k_w, p.stride_w, p.dil_w, p.out_w, p.pad_left),
		.mult = p.mult,
		.in_bytes = dmo_net_tensor_bytes(net, s->inputs[0]),
		.out_bytes = dmo_net_tensor_bytes(net, s->output),
		.filter = filter ? filter->data : NULL, .bias = bias ? bias->data : NULL,
		.in2 = second ? arena + offsets[s->inputs[1]] : NULL,
	};
	const float scales[3] = { scale_of(in), scale_of(second), scale_of(out) };
	run = dmo_backend_prepare_op(handle, &op, in->dtype == DMO_NET_F32 ? NULL : &p.q, scales,
				     NULL, err, err_len);
	free(mults);
	free(shifts);
	return run;
}

int dmo_net_run_step_on(struct dmo_backend_handle *handle, const struct dmo_net *net, size_t i,
			unsigned char *arena, const uint64_t *offsets, char *err, size_t err_len)
{
	const struct dmo_net_step *s = &net->steps[i];
	struct dmo_backend_run *run =
		handle != NULL ? dmo_net_backend_prepare(handle, net, i, arena, offsets, err, err_len)
			       : NULL;
	int rc;

	if (run == NULL)
		return dmo_net_run_step(net, i, arena, offsets, err, err_len) == 0 ? 0 : -1;
	rc = dmo_backend_execute(run, arena + offsets[s->inputs[0]], arena + offsets[s->output]);
	dmo_backend_release(run);
	if (rc != 0) {
		snprintf(err, err_len, "step %zu '%s': backend %s failed to run", i,
			 s->name ? s->name : "", dmo_backend_desc(handle)->name);
		return -1;
	}
	return 1;
}
