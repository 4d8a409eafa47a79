/* relu.c - test target: element-wise ReLU, forwards then backwards, as
 * two layers of one program; then the same buffers read many times outside
 * any layer (which must not count, and makes the tool stop watching them),
 * and ReLU forwards once more.
 * Hand derivation (docs/formulas.md): forwards, element e is read at
 * offset 4e after every write ends at or below 4e, so every bound is
 * OB + 4e - 4e = OB: O_s = OB (in place).  Backwards, the first write ends
 * at OB and element 0 is read later, so O_s = OB + 0 - OB = 0. */
#include <stdlib.h>

#include "dmo/harness.h"

#define N 1024

__attribute__((noinline)) static void relu_forward(const float *in, float *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = in[i] > 0 ? in[i] : 0;
}

__attribute__((noinline)) static void relu_backward(const float *in, float *out, int n)
{
	for (int i = n - 1; i >= 0; i--)
		out[i] = in[i] > 0 ? in[i] : 0;
}

int main(void)
{
	float *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
	if (in == NULL || out == NULL)
		return 1;
	for (int i = 0; i < N; i++)
		in[i] = (float)(i % 7) - 3.0f;
	if (dmo_layer_begin("relu_forward", "relu:in=1x1x1024", in, N * sizeof *in, out,
			    N * sizeof *out) != 0)
		return 1;
	relu_forward(in, out, N);
	if (dmo_layer_end() != 0)
		return 1;
	if (dmo_layer_begin("relu_backward", NULL, in, N * sizeof *in, out, N * sizeof *out) != 0)
		return 1;
	relu_backward(in, out, N);
	if (dmo_layer_end() != 0)
		return 1;
	/* 300 x 1024 reads outside layers: past the tool's idle limit. */
	volatile float sink = 0;
	for (int pass = 0; pass < 300; pass++)
		for (int i = 0; i < N; i++)
			sink += in[i] + out[i];
	if (dmo_layer_begin("relu_again", NULL, in, N * sizeof *in, out, N * sizeof *out) != 0)
		return 1;
	relu_forward(in, out, N);
	if (dmo_layer_end() != 0)
		return 1;
	return sink == 12345.0f; /* keeps the loop; never true */
}
