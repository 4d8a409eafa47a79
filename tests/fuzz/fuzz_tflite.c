/* fuzz_tflite.c - libFuzzer target for the .tflite reader (opspec/model_tflite.c):
 * any bytes are read or rejected with a message naming the file, and what
 * is read is a sound model (model_check.h). */
#include <stdint.h>

#include "model_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_model m;
	char err[1024] = "";
	int rc = dmo_model_parse_tflite(data, size, "fuzz.tflite", NULL, 0, &m, err, sizeof err);

	check_model_result(rc, &m, "fuzz.tflite", err);
	dmo_model_free(&m);
	return 0;
}
