/* misuse.c - test target: one protocol misuse, named by argv[1], between
 * two good layers.  The tool must report it, record it, and let the
 * program go on; the good layers must be recorded as ok.
 * The last two cases end the program inside a layer on purpose. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmo/harness.h"

#define N 256

static float in[N], out[N], both[2 * N];

static void good_layer(const char *name)
{
	if (dmo_layer_begin(name, "relu:in=1x1x256", in, sizeof in, out, sizeof out) != 0 ||
	    (out[0] = in[0], dmo_layer_end() != 0)) {
		fprintf(stderr, "misuse: good layer %s was refused\n", name);
		exit(3);
	}
}

/* two-threads: a second thread begins a layer while the main thread's is
 * open.  Threads do not get a layer each: still a nested begin. */
static void *begin_elsewhere(void *rc)
{
	*(int *)rc = dmo_layer_begin("inner", NULL, in, sizeof in, out, sizeof out);
	return NULL;
}

/* Returns the value the harness call returned, which must be negative. */
static int misuse(const char *what)
{
	if (strcmp(what, "end-without-begin") == 0)
		return dmo_layer_end();
	if (strcmp(what, "nested") == 0) {
		int rc;
		dmo_layer_begin("outer", NULL, in, sizeof in, out, sizeof out);
		rc = dmo_layer_begin("inner", NULL, in, sizeof in, out, sizeof out);
		out[1] = in[1];
		if (dmo_layer_end() != 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "two-threads") == 0) {
		pthread_t other;
		int rc = 0;
		dmo_layer_begin("outer", NULL, in, sizeof in, out, sizeof out);
		if (pthread_create(&other, NULL, begin_elsewhere, &rc) != 0)
			exit(3);
		pthread_join(other, NULL);
		out[1] = in[1];
		if (dmo_layer_end() != 0)
			return 0;
		return rc;
	}
	if (strcmp(what, "zero-size") == 0) {
		int rc = dmo_layer_begin("zero", NULL, in, 0, out, sizeof out);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "overlap") == 0) {
		int rc = dmo_layer_begin("overlap", NULL, both, sizeof both / 2 + 64,
					 both + N, sizeof both / 2);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "unmapped") == 0) {
		int rc = dmo_layer_begin("unmapped", NULL, (void *)0x1000, 4096, out, sizeof out);
		dmo_layer_end();
		return rc;
	}
	if (strcmp(what, "exit-mid-layer") == 0) {
		dmo_layer_begin("dying", NULL, in, sizeof in, out, sizeof out);
		out[2] = in[2];
		exit(7);
	}
	if (strcmp(what, "crash-mid-layer") == 0) {
		dmo_layer_begin("crashing", NULL, in, sizeof in, out, sizeof out);
		out[3] = in[3];
		raise(SIGSEGV);
	}
	fprintf(stderr, "misuse: unknown case %s\n", what);
	exit(2);
}

int main(int argc, char **argv)
{
	int rc;
	if (argc != 2)
		return 2;
	good_layer("before");
	rc = misuse(argv[1]);
	good_layer("after");
	printf("misuse %s returned %d\n", argv[1], rc);
	return rc < 0 ? 0 : 4;
}
