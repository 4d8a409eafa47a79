/* infer_model.c - a model read from a .tflite file as a dmo_net
 * (infer_model.h): one step per operator, one tensor per tensor. */
#include "infer_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	enum dmo_net_op op;
} tflite_ops[] = {
	{ "CONV_2D", DMO_NET_CONV2D },         { "DEPTHWISE_CONV_2D", DMO_NET_DWCONV2D },
	{ "FULLY_CONNECTED", DMO_NET_FC },     { "MAX_POOL_2D", DMO_NET_MAXPOOL },
	{ "AVERAGE_POOL_2D", DMO_NET_AVGPOOL }, { "ADD", DMO_NET_ADD },
	{ "MUL", DMO_NET_MUL },                { "RELU", DMO_NET_RELU },
	{ "RELU6", DMO_NET_RELU6 },            { "SOFTMAX", DMO_NET_SOFTMAX },
	{ "LOGISTIC", DMO_NET_LOGISTIC },      { "MEAN", DMO_NET_MEAN },
	{ "RESHAPE", DMO_NET_RESHAPE },        { "SQUEEZE", DMO_NET_RESHAPE },
	{ "PAD", DMO_NET_PAD },                { "TRANSPOSE", DMO_NET_TRANSPOSE },
	{ "CONCATENATION", DMO_NET_CONCAT },   { "QUANTIZE", DMO_NET_QUANTIZE },
	{ "DEQUANTIZE", DMO_NET_DEQUANTIZE },
};

static int tensor_of(const struct dmo_model_tensor *mt, struct dmo_net_tensor *t, char *err,
		     size_t err_len)
{
	static const enum dmo_net_dtype types[DMO_DTYPE_COUNT] = {
		[DMO_F32] = DMO_NET_F32, [DMO_I8] = DMO_NET_I8, [DMO_I16] = DMO_NET_I16,
		[DMO_I32] = DMO_NET_I32, [DMO_U8] = DMO_NET_U8,
	};

	*t = (struct dmo_net_tensor){ .name = mt->name, .rank = mt->rank, .data = mt->data,
				      .n_quant = mt->quant.count, .scale = mt->quant.scale,
				      .zero_point = mt->quant.zero_point, .quant_axis = mt->quant.axis,
				      .graph_input = mt->graph_input && !mt->data,
				      .graph_output = mt->graph_output };
	if (!mt->known_dtype) {
		snprintf(err, err_len, "tensor '%s': element type %s is not supported", mt->name,
			 mt->type_name ? mt->type_name : "?");
		return -1;
	}
	t->dtype = types[mt->dtype];
	if (mt->rank > DMO_NET_MAX_RANK) {
		snprintf(err, err_len, "tensor '%s': rank %d (at most %d)", mt->name, mt->rank,
			 DMO_NET_MAX_RANK);
		return -1;
	}
	for (int i = 0; i < mt->rank; i++) {
		if (mt->shape[i] < 1 || mt->shape[i] > INT32_MAX) {
			snprintf(err, err_len, "tensor '%s': dimension %d is %lld", mt->name, i,
				 (long long)mt->shape[i]);
			return -1;
		}
		t->dims[i] = (int)mt->shape[i];
	}
	if (mt->data && mt->data_len < mt->bytes) {
		snprintf(err, err_len, "tensor '%s': constant holds %zu of its %llu bytes", mt->name,
			 mt->data_len, (unsigned long long)mt->bytes);
		return -1;
	}
	return 0;
}

static int step_of(const struct dmo_model *model, size_t i, struct dmo_net_step *s, char *err,
		   size_t err_len)
{
	const struct dmo_model_layer *l = &model->layers[i];
	size_t k;

	for (k = 0; k < sizeof tflite_ops / sizeof tflite_ops[0]; k++)
		if (l->op_name && !strcmp(l->op_name, tflite_ops[k].name))
			break;
	if (k == sizeof tflite_ops / sizeof tflite_ops[0]) {
		snprintf(err, err_len, "layer %zu '%s': operator %s has no dmo kernel", i + 1, l->name,
			 l->op_name ? l->op_name : "?");
		return -1;
	}
	if (l->n_operands > DMO_NET_MAX_INPUTS || l->n_results != 1) {
		snprintf(err, err_len, "layer %zu '%s': %zu operands and %zu results", i + 1, l->name,
			 l->n_operands, l->n_results);
		return -1;
	}
	if (l->act != DMO_ACT_NONE && l->act != DMO_ACT_RELU && l->act != DMO_ACT_RELU6 &&
	    l->act != DMO_ACT_RELU_N1_TO_1) {
		snprintf(err, err_len, "layer %zu '%s': fused activation %s is not supported", i + 1,
			 l->name, dmo_act_name(l->act));
		return -1;
	}
	*s = (struct dmo_net_step){ .name = l->name, .op = tflite_ops[k].op,
				    .n_inputs = (int)l->n_operands, .output = l->results[0],
				    .act = (enum dmo_net_act)l->act, .beta = 1.0f, .axis = -1 };
	for (size_t j = 0; j < l->n_operands; j++)
		s->inputs[j] = l->operands[j];
	/* The options the reader resolved into the op spec. */
	if (l->supported) {
		s->padding_same = l->op.pad == DMO_PAD_SAME;
		s->stride_h = l->op.stride_h;
		s->stride_w = l->op.stride_w;
		s->dil_h = l->op.dil_h;
		s->dil_w = l->op.dil_w;
		s->filter_h = l->op.k_h;
		s->filter_w = l->op.k_w;
		s->mult = l->op.mult;
		if (l->op.pad == DMO_PAD_EXPLICIT) {
			snprintf(err, err_len, "layer %zu '%s': explicit padding", i + 1, l->name);
			return -1;
		}
	} else if (s->op <= DMO_NET_RELU6) {
		snprintf(err, err_len, "layer %zu '%s': %s without its options (%s)", i + 1, l->name,
			 l->op_name, l->why ? l->why : "no op spec");
		return -1;
	}
	return 0;
}

int dmo_net_from_model(const struct dmo_model *model, struct dmo_net *net, char *err,
		       size_t err_len)
{
	*net = (struct dmo_net){ 0 };
	if (model->format != DMO_FORMAT_TFLITE) {
		snprintf(err, err_len, "dmo infer runs .tflite models (this one is a %s: %s)",
			 dmo_model_format_name(model->format),
			 model->format == DMO_FORMAT_TABLE ? "a layer table has no weights"
							    : "ONNX is NCHW, dmo's kernels NHWC");
		return -1;
	}
	net->tensors = calloc(model->n_tensors ? model->n_tensors : 1, sizeof *net->tensors);
	net->steps = calloc(model->n_layers ? model->n_layers : 1, sizeof *net->steps);
	if (!net->tensors || !net->steps) {
		dmo_net_free(net);
		snprintf(err, err_len, "out of memory");
		return -2;
	}
	net->n_tensors = model->n_tensors;
	net->n_steps = model->n_layers;
	for (size_t t = 0; t < model->n_tensors; t++)
		if (tensor_of(&model->tensors[t], &net->tensors[t], err, err_len))
			goto fail;
	for (size_t i = 0; i < model->n_layers; i++)
		if (step_of(model, i, &net->steps[i], err, err_len))
			goto fail;
	return 0;
fail:
	dmo_net_free(net);
	return -1;
}

int dmo_net_runs(const struct dmo_model *model, struct dmo_net *net, char *why, size_t why_len)
{
	int rc = dmo_net_from_model(model, net, why, why_len);

	if (rc != 0)
		return rc == -2 ? -1 : 0;
	if (dmo_net_check(net, why, why_len) != 0) {
		dmo_net_free(net);
		return 0;
	}
	return 1;
}

void dmo_net_free(struct dmo_net *net)
{
	free(net->tensors);
	free(net->steps);
	*net = (struct dmo_net){ 0 };
}
