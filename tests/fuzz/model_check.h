/* model_check.h - what every model a file reader (.tflite, .onnx) returns
 * must satisfy, shared by their fuzz targets and tests/model_damage.c: a
 * rejected file gets a message starting with its name and leaves the model
 * empty; an accepted one is an executable graph (each activation read after
 * it is written, written once), every live range inside the model, and
 * every op spec's buffers the size of its tensors. */
#ifndef DMO_FUZZ_MODEL_CHECK_H
#define DMO_FUZZ_MODEL_CHECK_H

#include <assert.h>
#include <string.h>

#include "model_table.h"

static void check_model_result(int rc, const struct dmo_model *m, const char *source,
			       const char *err)
{
	if (rc != 0) {
		assert(strncmp(err, source, strlen(source)) == 0 && err[strlen(source)] == ':');
		assert(m->n_layers == 0 && m->layers == NULL && m->tensors == NULL);
		return;
	}
	assert(m->n_layers > 0);
	for (size_t t = 0; t < m->n_tensors; t++) {
		const struct dmo_model_tensor *tt = &m->tensors[t];

		assert(tt->name != NULL && tt->type_name != NULL);
		assert(tt->rank >= 0 && tt->rank <= DMO_MODEL_MAX_RANK);
		assert(tt->bytes == tt->elems * tt->elem_size);
		if (tt->producer == DMO_MODEL_CONSTANT)
			continue;
		assert(tt->producer < (int)m->n_layers);
		assert(tt->first >= 0 && tt->first <= tt->last && tt->last < (int)m->n_layers);
		if (tt->producer >= 0)
			assert(tt->first == tt->producer);
	}
	for (size_t l = 0; l < m->n_layers; l++) {
		const struct dmo_model_layer *layer = &m->layers[l];

		assert(layer->name != NULL && layer->op_name != NULL && layer->n_results > 0);
		for (size_t k = 0; k < layer->n_results; k++)
			assert(m->tensors[layer->results[k]].producer == (int)l);
		for (size_t k = 0; k < layer->n_act_in; k++) {
			const struct dmo_model_tensor *in = &m->tensors[layer->act_in[k]];

			assert(in->producer < (int)l && in->producer != DMO_MODEL_CONSTANT);
			assert(in->first <= (int)l && (int)l <= in->last);
		}
		if (layer->supported) {
			assert(layer->spec != NULL && layer->n_act_in >= 1);
			assert(dmo_opspec_in_bytes(&layer->op) == m->tensors[layer->act_in[0]].bytes);
			assert(dmo_opspec_out_bytes(&layer->op) == m->tensors[layer->results[0]].bytes);
		} else {
			assert(layer->why != NULL);
		}
	}
}

#endif
