/* hulls.c - test target: accesses the tool checks once per block as a
 * hull (dmo-tool/dmo_hull.h), for tests/tool_hulls.sh, which checks that
 * a run with hulls writes the run directory a run without them
 * (--dmo-hulls=no) writes, byte for byte, and that the accesses a hull
 * had taken for misses are all seen once they touch a buffer.  VEX
 * unrolls each loop below twice into one block, so each array's two
 * accesses there are one hull.  Each case is one or more layers:
 *   swap     sum2 (a[i] + b[i] into out) as two layers: first a is the
 *            input and b a weights array, then the other way round, so
 *            b's hull, a miss all through the first layer, touches the
 *            input in the second
 *   stack    a sum into an accumulator array on the stack, copied to the
 *            output, as a depthwise convolution keeps its sums
 *   edge     reads of a weights array that ends 16 bytes below the input:
 *            its hull stops short of the input, but within the slack the
 *            checks give a buffer's range (dmo_layers.h)
 * Run as `hulls NAME...`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmo/harness.h"

enum { N = 1024, ACC = 64 };

#define KERNEL __attribute__((noinline, optimize("no-tree-vectorize", "no-unroll-loops"))) static

/* N floats of zero: the values change no access. */
static float *buffer(size_t n)
{
	float *p = calloc(n, sizeof *p);
	if (p == NULL)
		exit(1);
	return p;
}

KERNEL void sum2(const float *a, const float *b, float *out, int n)
{
	for (int i = 0; i < n; i++)
		out[i] = a[i] + b[i];
}

KERNEL void stack_sum(const float *in, float *out, int n)
{
	float acc[ACC];
	for (int c = 0; c < ACC; c++)
		acc[c] = 0;
	for (int i = 0; i < n; i += ACC)
		for (int c = 0; c < ACC; c++)
			acc[c] += in[i + c];
	memcpy(out, acc, sizeof acc);
}

KERNEL float sum1(const float *a, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++)
		s += a[i];
	return s;
}

static int run(const char *name)
{
	float *in = buffer(N), *out = buffer(N), *weights = buffer(N);
	int rc = 0;
	if (strcmp(name, "swap") == 0) {
		rc |= dmo_layer_begin("swap_a", NULL, in, N * 4, out, N * 4);
		sum2(in, weights, out, N);
		rc |= dmo_layer_end();
		rc |= dmo_layer_begin("swap_b", NULL, in, N * 4, out, N * 4);
		sum2(weights, in, out, N);
		rc |= dmo_layer_end();
	} else if (strcmp(name, "stack") == 0) {
		rc |= dmo_layer_begin("stack", NULL, in, N * 4, out, ACC * 4);
		stack_sum(in, out, N);
		rc |= dmo_layer_end();
	} else if (strcmp(name, "edge") == 0) {
		/* One allocation: the weights are its first N - 4 floats, the
		 * input starts 16 bytes after their end. */
		float *both = buffer(2 * N);
		rc |= dmo_layer_begin("edge", NULL, both + N, N * 4, out, N * 4);
		out[0] = sum1(both, N - 4) + sum1(both + N, N);
		rc |= dmo_layer_end();
		free(both);
	} else {
		fprintf(stderr, "hulls: unknown case %s\n", name);
		return 2;
	}
	free(in);
	free(out);
	free(weights);
	return rc != 0;
}

/* The cases named, in order, until one fails. */
int main(int argc, char **argv)
{
	int rc = 0;
	while (--argc > 0 && rc == 0)
		rc = run(*++argv);
	return rc != 0;
}
