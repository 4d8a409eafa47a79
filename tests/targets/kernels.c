/* kernels.c - test target: kernels whose O_s the tests derive
 * independently (brute force over the trace, and hand derivations in
 * tests/profile_kernels.sh):
 *   dwconv     3x3 depthwise convolution, stride 2, SAME, 9x9x4 -> 5x5x4
 *   accumulate matrix product that adds into its output row by row,
 *              starting over from row 0 for each k
 *   relu_avx   ReLU built with -O3 -mavx2 (see tests/local.mk): 32-byte
 *              accesses and a scalar tail
 *   threads    ReLU split in two contiguous halves over two pthreads
 *   handoff    two threads, one fixed interleaving: thread 1 copies
 *              in[i+8] to out[i] for i < 32 and stops half-way; thread 2
 *              copies in[i] to out[i] for i in 32..63, so writes the end
 *              of the output while thread 1 still has input to read;
 *              then thread 1 finishes (O_s derived in profile_kernels.sh)
 *   fxsave     one FXSAVE of the FPU state into the output: an access
 *              wider than 32 bytes, which the tool checks another way
 * Run as `kernels NAME...`; each becomes one layer. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmo/harness.h"

void relu_avx(const float *in, float *out, int n); /* kernels_avx.c */

static float *buffer(size_t n)
{
	float *p = malloc(n * sizeof *p);
	if (p == NULL)
		exit(1);
	for (size_t i = 0; i < n; i++)
		p[i] = (float)((i * 37) % 11) - 5.0f;
	return p;
}

enum { H = 9, W = 9, C = 4, K = 3, S = 2, OH = 5, OW = 5 };

/* TensorFlow SAME: total pad = (OH-1)*S + K - H = 2, one row on top. */
__attribute__((noinline)) static void dwconv(const float *in, const float *filter, float *out)
{
	for (int oy = 0; oy < OH; oy++)
		for (int ox = 0; ox < OW; ox++)
			for (int c = 0; c < C; c++) {
				float acc = 0;
				for (int fy = 0; fy < K; fy++)
					for (int fx = 0; fx < K; fx++) {
						int y = oy * S - 1 + fy, x = ox * S - 1 + fx;
						if (y >= 0 && y < H && x >= 0 && x < W)
							acc += in[(y * W + x) * C + c] * filter[(fy * K + fx) * C + c];
					}
				out[(oy * OW + ox) * C + c] = acc;
			}
}

enum { M = 8, KD = 6, NC = 8 };

__attribute__((noinline)) static void accumulate(const float *a, const float *b, float *out)
{
	memset(out, 0, M * NC * sizeof *out);
	for (int k = 0; k < KD; k++)
		for (int m = 0; m < M; m++)
			for (int n = 0; n < NC; n++)
				out[m * NC + n] += a[m * KD + k] * b[k * NC + n];
}

struct half {
	const float *in;
	float *out;
	int n;
};

/* Both threads are alive before either works, as a pool's workers are
 * (Valgrind would give a finished thread's id to the next one created,
 * which the tool tells apart anyway: tests/threads_reuse.sh). */
static pthread_barrier_t both_started;

static void *relu_half(void *arg)
{
	struct half *h = arg;
	pthread_barrier_wait(&both_started);
	for (int i = 0; i < h->n; i++)
		h->out[i] = h->in[i] > 0 ? h->in[i] : 0;
	return NULL;
}

enum { HANDOFF_N = 64 };

struct handoff {
	const float *in;
	float *out;
	sem_t go, done;
};

/* Thread 2 of handoff: waits for thread 1 to be half-way. */
static void *handoff_second(void *arg)
{
	struct handoff *h = arg;
	sem_wait(&h->go);
	for (int i = HANDOFF_N / 2; i < HANDOFF_N; i++)
		h->out[i] = h->in[i];
	sem_post(&h->done);
	return NULL;
}

__attribute__((noinline)) static void handoff_first(struct handoff *h, int from, int to)
{
	for (int i = from; i < to; i++)
		h->out[i] = h->in[i + 8];
}

static int handoff(void)
{
	struct handoff h = { buffer(HANDOFF_N), buffer(HANDOFF_N) };
	pthread_t second;
	int rc;
	sem_init(&h.go, 0, 0);
	sem_init(&h.done, 0, 0);
	pthread_create(&second, NULL, handoff_second, &h);
	rc = dmo_layer_begin("handoff", NULL, h.in, HANDOFF_N * 4, h.out, HANDOFF_N * 4);
	handoff_first(&h, 0, HANDOFF_N / 4);
	sem_post(&h.go);
	sem_wait(&h.done);
	handoff_first(&h, HANDOFF_N / 4, HANDOFF_N / 2);
	rc |= dmo_layer_end();
	pthread_join(second, NULL);
	return rc;
}

static int run(const char *name)
{
	int rc = 0;
	if (strcmp(name, "dwconv") == 0) {
		float *in = buffer(H * W * C), *filter = buffer(K * K * C), *out = buffer(OH * OW * C);
		rc |= dmo_layer_begin("dwconv", "dwconv2d:in=9x9x4,k=3x3,stride=2,pad=same", in,
				      H * W * C * 4, out, OH * OW * C * 4);
		dwconv(in, filter, out);
		rc |= dmo_layer_end();
	} else if (strcmp(name, "accumulate") == 0) {
		float *a = buffer(M * KD), *b = buffer(KD * NC), *out = buffer(M * NC);
		rc |= dmo_layer_begin("accumulate", NULL, a, M * KD * 4, out, M * NC * 4);
		accumulate(a, b, out);
		rc |= dmo_layer_end();
	} else if (strcmp(name, "relu_avx") == 0) {
		/* 1000 floats: 125 full 8-lane vectors. */
		float *in = buffer(1003), *out = buffer(1003);
		rc |= dmo_layer_begin("relu_avx", "relu:in=1x1x1003", in, 1003 * 4, out, 1003 * 4);
		relu_avx(in, out, 1003);
		rc |= dmo_layer_end();
	} else if (strcmp(name, "threads") == 0) {
		enum { N = 2000 };
		float *in = buffer(N), *out = buffer(N);
		struct half halves[2] = { { in, out, N / 2 }, { in + N / 2, out + N / 2, N / 2 } };
		pthread_t tids[2];
		pthread_barrier_init(&both_started, NULL, 2);
		rc |= dmo_layer_begin("threads", "relu:in=1x1x2000", in, N * 4, out, N * 4);
		for (int t = 0; t < 2; t++)
			pthread_create(&tids[t], NULL, relu_half, &halves[t]);
		for (int t = 0; t < 2; t++)
			pthread_join(tids[t], NULL);
		rc |= dmo_layer_end();
		pthread_barrier_destroy(&both_started);
	} else if (strcmp(name, "handoff") == 0) {
		rc |= handoff();
	} else if (strcmp(name, "fxsave") == 0) {
		/* malloc's 16-byte alignment is the one FXSAVE needs. */
		float *in = buffer(128), *out = buffer(128);
		rc |= dmo_layer_begin("fxsave", NULL, in, 512, out, 512);
		__asm__ volatile("fxsave64 %0" : "=m"(*(char(*)[512])out));
		rc |= dmo_layer_end();
	} else {
		fprintf(stderr, "kernels: unknown kernel %s\n", name);
		return 2;
	}
	return rc != 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (run(argv[i]) != 0)
			return 1;
	return 0;
}
