/* streams.c - test target: access patterns that take the tool's streams
 * (dmo-tool/dmo_stream.h) through each of their cases, for
 * tests/tool_streams.sh, which checks that a run with streams writes the
 * run directory a run without them (--dmo-streams=no) writes, byte for
 * byte.  Each kernel is one layer:
 *   forward   a sum over the input, then the output filled forwards
 *   backward  the same, backwards
 *   strided   every third input float, every other output float, then
 *             the input backwards by fives
 *   same      one input float read 500 times, one output float written
 *             500 times
 *   uneven    passes of 1 to 40 instructions between reads: the time step
 *             moves below and past 15, far more than 16 times a stream
 *   past_end  a read loop over twice the input's bytes: the stream runs
 *             out of the buffer into memory the layer does not name
 *   rows      a 2-D walk, rows of 40 floats with a jump between rows,
 *             run as two layers over the same buffers
 *   taps      a depthwise convolution's pixel in small: 3 taps of 8
 *             floats, one after the other in the input but with the tap
 *             loop's instructions between (two moves), then one output
 *             write; 148 such pixels, each the run before moved on by
 *             8 floats, so the stream's flush writes kept bytes again
 *   threads2  two threads stream over their halves, yielding to each
 *             other as they go
 * Built -O2 as users build, but with the loops kept one access an
 * iteration (KERNEL below): gcc -O2 otherwise unrolls a sum by four,
 * four instructions taking turns, which no stream follows (each goes the
 * long way, which the other tests cover).
 * Run as `streams NAME...`. */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmo/harness.h"

enum { N = 1200 };

#define KERNEL __attribute__((noinline, optimize("no-tree-vectorize", "no-unroll-loops"))) static

static volatile float sink;
static volatile unsigned spin;

/* N floats of zero: the values change no access. */
static float *buffer(size_t n)
{
	float *p = calloc(n, sizeof *p);
	if (p == NULL)
		exit(1);
	return p;
}

KERNEL void forward(const float *in, float *out, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++)
		s += in[i];
	for (int i = 0; i < n; i++)
		out[i] = s;
}

KERNEL void backward(const float *in, float *out, int n)
{
	float s = 0;
	for (int i = n - 1; i >= 0; i--)
		s += in[i];
	for (int i = n - 1; i >= 0; i--)
		out[i] = s;
}

KERNEL void strided(const float *in, float *out, int n)
{
	float s = 0;
	for (int i = 0; i < n; i += 3)
		s += in[i];
	for (int i = 0; i < n; i += 2)
		out[i] = s;
	for (int i = n - 1; i >= 0; i -= 5)
		s += in[i];
	sink = s;
}

KERNEL void same(const volatile float *in, volatile float *out)
{
	for (int i = 0; i < 500; i++)
		sink = in[7];
	for (int i = 0; i < 500; i++)
		out[3] = (float)i;
}

KERNEL void uneven(const float *in, float *out, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++) {
		s += in[i];
		for (unsigned j = 0; j < (unsigned)(i * 7) % 13; j++)
			spin = spin * 3 + 1;
	}
	out[0] = s;
}

KERNEL void past_end(const float *in, float *out, int n)
{
	float s = 0;
	for (int i = 0; i < 2 * n; i++)
		s += in[i];
	out[n - 1] = s;
}

enum { ROWS = 30, COLS = 40 };

KERNEL void rows(const float *in, float *out)
{
	for (int r = 0; r < ROWS; r++) {
		float s = 0;
		for (int c = 0; c < COLS / 2; c++)
			s += in[r * COLS + c];
		out[r] = s;
	}
}

KERNEL void taps(const float *in, float *out, int n)
{
	for (int p = 0; p + 3 * 8 <= n; p += 8) {
		float s = 0;
		for (int t = 0; t < 3; t++)
			for (int c = 0; c < 8; c++)
				s += in[p + t * 8 + c];
		out[p / 8] = s;
	}
}

struct half {
	const float *in;
	int n;
	float sum;
};

static pthread_barrier_t both_started;

static void *sum_half(void *arg)
{
	struct half *h = arg;
	pthread_barrier_wait(&both_started);
	for (int i = 0; i < h->n; i++) {
		h->sum += h->in[i];
		if (i % 100 == 99)
			sched_yield();
	}
	return NULL;
}

static int threads2(void)
{
	float *in = buffer(N), *out = buffer(N);
	struct half halves[2] = { { in, N / 2, 0 }, { in + N / 2, N / 2, 0 } };
	pthread_t tids[2];
	int rc;
	pthread_barrier_init(&both_started, NULL, 2);
	rc = dmo_layer_begin("threads2", NULL, in, N * 4, out, N * 4);
	for (int t = 0; t < 2; t++)
		pthread_create(&tids[t], NULL, sum_half, &halves[t]);
	for (int t = 0; t < 2; t++)
		pthread_join(tids[t], NULL);
	out[0] = halves[0].sum + halves[1].sum;
	rc |= dmo_layer_end();
	pthread_barrier_destroy(&both_started);
	return rc;
}

static int run(const char *name)
{
	float *in = buffer(2 * N), *out = buffer(N);
	int rc = 0;
	if (strcmp(name, "threads2") == 0)
		return threads2() != 0;
	if (strcmp(name, "rows") == 0) {
		for (int k = 0; k < 2; k++) {
			rc |= dmo_layer_begin("rows", NULL, in, ROWS * COLS * 4, out, ROWS * 4);
			rows(in, out);
			rc |= dmo_layer_end();
		}
		return rc != 0;
	}
	rc |= dmo_layer_begin(name, NULL, in, N * 4, out, N * 4);
	if (strcmp(name, "forward") == 0)
		forward(in, out, N);
	else if (strcmp(name, "backward") == 0)
		backward(in, out, N);
	else if (strcmp(name, "strided") == 0)
		strided(in, out, N);
	else if (strcmp(name, "same") == 0)
		same(in, out);
	else if (strcmp(name, "uneven") == 0)
		uneven(in, out, N);
	else if (strcmp(name, "past_end") == 0)
		past_end(in, out, N);
	else if (strcmp(name, "taps") == 0)
		taps(in, out, N);
	else {
		fprintf(stderr, "streams: unknown kernel %s\n", name);
		return 2;
	}
	return (rc | dmo_layer_end()) != 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (run(argv[i]) != 0)
			return 1;
	return 0;
}
