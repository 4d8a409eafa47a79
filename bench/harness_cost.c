/* harness_cost.c - what the layer markers cost a program that runs without
 * the tool (no $DMO_FIFO): ns per dmo_layer_begin + dmo_layer_end pair,
 * timed over 10^7 pairs through the shared libdmo-harness, as a deployment
 * links it.  The bar is < 100 ns for each call.  Usage: harness_cost [N] */
#include <stdio.h>
#include <stdlib.h>

#include "bench_clock.h"
#include "dmo/harness.h"
#include "wire.h"

int main(int argc, char **argv)
{
	static float in[256], out[256];
	long n = argc > 1 ? atol(argv[1]) : 10000000;
	int rc = 0;

	if (n <= 0) {
		fprintf(stderr, "usage: harness_cost [N > 0]\n");
		return 2;
	}
	/* The tool, if present, would make these real layers: measure only
	 * the no-tool path the bar is about. */
	if (getenv(DMO_FIFO_ENV) != NULL) {
		fprintf(stderr, "harness_cost: unset DMO_FIFO (measures the no-tool path)\n");
		return 2;
	}
	double t0 = bench_now();
	for (long i = 0; i < n; i++) {
		rc |= dmo_layer_begin("bench", NULL, in, sizeof in, out, sizeof out);
		rc |= dmo_layer_end();
	}
	double t = bench_now() - t0;
	if (rc != 0) {
		fprintf(stderr, "harness_cost: a call failed (%d)\n", rc);
		return 1;
	}
	double pair = t / n * 1e9;
	printf("harness_cost: %ld begin+end pairs in %.3f s: %.1f ns per pair, "
	       "%.1f ns per call (bar < 100 ns per call): %s\n",
	       n, t, pair, pair / 2, pair / 2 < 100 ? "PASS" : "FAIL");
	return 0;
}
