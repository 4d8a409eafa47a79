/* header_clean.c - a user program as README shows one, compiled by
 * tests/header_clean.sh with -Wall -Wextra -Werror by GCC and Clang: its
 * output buffers are not written before dmo_layer_begin (on the stack and
 * fresh from malloc), which GCC 12 took for a read through the const
 * parameter.  Run natively it also prints dmo_layer_error() for buffers the
 * library refuses, so the test can read the words a user reads. */
#include <dmo/harness.h>
#include <stdio.h>
#include <stdlib.h>

static void twice(const float *in, float *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = 2 * in[i];
}

int main(void)
{
	float in[64];
	float out[64];
	float *heap = malloc(64 * sizeof *heap);
	int rc;

	if (heap == NULL)
		return 1;
	for (int i = 0; i < 64; i++)
		in[i] = (float)i;
	rc = dmo_layer_begin("stack_out", "relu:in=1x1x64", in, sizeof in, out, sizeof out);
	twice(in, out, 64);
	rc |= dmo_layer_end();
	rc |= dmo_layer_begin("heap_out", NULL, in, sizeof in, heap, 64 * sizeof *heap);
	twice(in, heap, 64);
	rc |= dmo_layer_end();
	/* Refused: the output starts inside the input. */
	if (dmo_layer_begin("overlapping", NULL, heap, 32 * sizeof *heap, heap + 16,
			    32 * sizeof *heap) != -DMO_EINVAL)
		rc = 1;
	printf("%s\n", dmo_layer_error());
	dmo_layer_end();
	rc |= out[1] != 2 || heap[1] != 2;
	free(heap);
	return rc;
}
