/* fuzz_onnx.c - libFuzzer target for the .onnx reader (opspec/model_onnx.c):
 * any bytes are read or rejected with a message naming the file, and what
 * is read is a sound model (model_check.h). */
#include <stdint.h>

#include "model_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_model m;
	char err[1024] = "";
	int rc = dmo_model_parse_onnx(data, size, "fuzz.onnx", NULL, 0, &m, err, sizeof err);

	check_model_result(rc, &m, "fuzz.onnx", err);
	dmo_model_free(&m);
	return 0;
}
