/* fuzz_tflite.c - libFuzzer target for the .tflite reader (opspec/model_tflite.c):
 * any bytes are read or rejected with a message naming the file, and what
 * is read is a sound model (model_check.h).  The offline plan
 * (opspec/tflite_plan.c) too: any bytes give a plan or a message; a model
 * that reads gets a plan written in (one offset per tensor), and the copy
 * reads back as the same model carrying exactly that plan. */
#include <stdint.h>
#include <stdlib.h>

#include "model_check.h"
#include "tflite_plan.h"

/* Write an offline plan into the model DATA read as M, read both back. */
static void round_trip(const uint8_t *data, size_t size, const struct dmo_model *m)
{
	int32_t *offsets = calloc(m->n_tensors + 1, sizeof *offsets);
	struct dmo_tflite_plan plan;
	struct dmo_model again;
	unsigned char *out = NULL;
	size_t out_len = 0;
	char err[1024] = "";

	assert(offsets != NULL);
	for (size_t t = 0; t < m->n_tensors; t++)
		offsets[t] = m->tensors[t].producer == DMO_MODEL_CONSTANT ? -1 : (int32_t)(16 * t);
	if (dmo_tflite_plan_write(data, size, offsets, (uint32_t)m->n_tensors, "kernels=ref\n", &out,
				  &out_len, err, sizeof err) != 0) {
		assert(err[0] != '\0' && out == NULL);
		free(offsets);
		return;
	}
	assert(out_len > size && (out_len - size) % 16 == 0 && memcmp(out + out_len - size, data, size) == 0);
	assert(dmo_tflite_plan_read(out, out_len, &plan, err, sizeof err) == 0);
	assert(plan.present && plan.n == m->n_tensors && strcmp(plan.kernels, "kernels=ref\n") == 0);
	assert(memcmp(plan.offsets, offsets, m->n_tensors * sizeof *offsets) == 0);
	assert(dmo_model_parse_tflite(out, out_len, "again.tflite", NULL, 0, &again, err, sizeof err) == 0);
	assert(again.n_tensors == m->n_tensors && again.n_layers == m->n_layers);
	dmo_model_free(&again);
	dmo_tflite_plan_free(&plan);
	free(out);
	free(offsets);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_model m;
	struct dmo_tflite_plan plan;
	char err[1024] = "";
	int rc = dmo_model_parse_tflite(data, size, "fuzz.tflite", NULL, 0, &m, err, sizeof err);

	check_model_result(rc, &m, "fuzz.tflite", err);
	if (dmo_tflite_plan_read(data, size, &plan, err, sizeof err) == 0) {
		assert(!plan.present || plan.offsets != NULL);
		dmo_tflite_plan_free(&plan);
	} else {
		assert(err[0] != '\0' && plan.offsets == NULL);
	}
	if (rc == 0)
		round_trip(data, size, &m);
	dmo_model_free(&m);
	return 0;
}
