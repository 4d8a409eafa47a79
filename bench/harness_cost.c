/* harness_cost.c - what the layer markers cost a program that runs without
 * the tool (no $DMO_FIFO): ns per dmo_layer_begin + dmo_layer_end pair,
 * timed over 10^7 pairs through the shared libdmo-harness, as a deployment
 * links it, without an op spec, with one, and with two in turn.  The bar is < 100 ns for each call.  Usage: harness_cost [N] */
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
	/* Without a spec, with one, and with two in turn: begin checks a
	 * spec with the op-spec parser, but not again when it is the one it
	 * passed last with the same buffers; two in turn are parsed each time. */
	static const char *const specs[][2] = {
		{ NULL, NULL },
		{ "relu:in=1x1x256", "relu:in=1x1x256" },
		{ "relu:in=1x1x256", "relu6:in=1x16x16,dtype=f32" },
	};
	static const char *const what[] = { "no spec", "one spec", "two specs in turn" };
	for (int k = 0; k < 3; k++) {
		double t0 = bench_now();
		for (long i = 0; i < n; i++) {
			rc |= dmo_layer_begin("bench", specs[k][i & 1], in, sizeof in, out, sizeof out);
			rc |= dmo_layer_end();
		}
		double t = bench_now() - t0;
		if (rc != 0) {
			fprintf(stderr, "harness_cost: a call failed: %s\n", dmo_layer_error());
			return 1;
		}
		double pair = t / n * 1e9;
		printf("harness_cost: %s: %ld begin+end pairs in %.3f s: %.1f ns per pair, "
		       "%.1f ns per call (bar < 100 ns per call): %s\n",
		       what[k], n, t, pair, pair / 2,
		       pair / 2 < 100 ? "PASS" : "FAIL");
	}
	return 0;
}
