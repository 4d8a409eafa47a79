/* fuzz_model.c - libFuzzer target for the model layer-table reader: tables
 * are hand-written, so any bytes must be read or rejected with a message
 * naming the row.  An accepted model has valid names, parsed specs and
 * inputs that point only backwards, and the shape check must cope with it. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "model_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_model m;
	char err[512] = "";

	if (dmo_model_parse((const char *)data, size, "fuzz.csv", &m, err, sizeof err) != 0) {
		assert(strncmp(err, "fuzz.csv: row ", 14) == 0);
		assert(m.n_layers == 0 && m.layers == NULL);
		return 0;
	}
	assert(m.n_layers > 0);
	for (size_t i = 0; i < m.n_layers; i++) {
		const struct dmo_model_layer *l = &m.layers[i];
		assert(l->name[0] != '\0' && l->spec != NULL && l->n_inputs >= 1);
		for (size_t k = 0; k < l->n_inputs; k++)
			assert(l->inputs[k] == DMO_MODEL_INPUT ||
			       (l->inputs[k] >= 0 && (size_t)l->inputs[k] < i));
	}
	err[0] = '\0';
	if (dmo_model_check_shapes(&m, err, sizeof err) != 0)
		assert(err[0] != '\0');
	dmo_model_free(&m);
	return 0;
}
