/* relay.c - test target: layers whose work worker threads do one after
 * another, each created once the one before has exited and been joined,
 * so Valgrind gives every worker the ThreadId of the one before
 * (tests/threads_reuse.sh shows it).  They are still WORKERS threads: the
 * tool must count them so (dmo-tool/dmo_threads.h), as it cannot see the
 * joins that order them here.
 *   relay LAYERS   LAYERS layers, relay-1, relay-2, ..., each over 64
 *                  floats of its own: worker k (0..3) copies in[i] + 1 to
 *                  out[i] for i in 16k..16k+15, in order, so each worker
 *                  reads 16 input and writes 16 output floats
 * The O_s are derived by hand in tests/threads_reuse.sh. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "dmo/harness.h"

enum { N = 64, WORKERS = 4, SHARE = N / WORKERS };

struct share {
	const float *in;
	float *out;
};

/* One access an element: no vector code, no memcpy. */
__attribute__((noinline, optimize("no-tree-vectorize", "no-unroll-loops"))) static void *
worker(void *arg)
{
	struct share *s = arg;
	for (int i = 0; i < SHARE; i++)
		s->out[i] = s->in[i] + 1.0f;
	return NULL;
}

static int relay(const char *name)
{
	float *in = calloc(N, sizeof *in), *out = calloc(N, sizeof *out);
	int rc;
	if (in == NULL || out == NULL)
		exit(1);
	rc = dmo_layer_begin(name, NULL, in, N * sizeof *in, out, N * sizeof *out);
	for (int k = 0; k < WORKERS; k++) {
		struct share s = { in + k * SHARE, out + k * SHARE };
		pthread_t t;
		if (pthread_create(&t, NULL, worker, &s) != 0 || pthread_join(t, NULL) != 0)
			exit(1);
	}
	rc |= dmo_layer_end();
	free(in);
	free(out);
	return rc;
}

int main(int argc, char **argv)
{
	int layers = argc > 1 ? atoi(argv[1]) : 1;
	char name[32];
	for (int l = 1; l <= layers; l++) {
		snprintf(name, sizeof name, "relay-%d", l);
		if (relay(name) != 0)
			return 1;
	}
	return 0;
}
