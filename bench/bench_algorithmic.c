/* bench_algorithmic.c - steps per second of the algorithmic method (one step
 * = one output element) on the golden layer and MobileNet-size layers; the
 * method must sustain >= 50 M steps/s.  Usage: bench_algorithmic [SPEC...] */
#include <stdio.h>

#include "algorithmic.h"
#include "bench_clock.h"

static const char *const layers[] = {
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same,dtype=f32", /* golden */
	"conv2d:in=224x224x3,k=3,stride=2,pad=same,out_c=32",
	"dwconv2d:in=112x112x32,k=3,stride=1,pad=same",
	"conv2d:in=112x112x32,k=1,out_c=16",
	"conv2d:in=56x56x24,k=1,out_c=144",
	"dwconv2d:in=56x56x144,k=3,stride=1,pad=same",
	"dwconv2d:in=14x14x384,k=3,stride=1,pad=same,dtype=i8",
	"conv2d:in=7x7x320,k=1,out_c=1280",
	"avgpool:in=7x7x1280,k=7,stride=1,pad=valid",
	"fc:in=1x1280,units=1000",
	"add:in=56x56x24",
};

static int bench(const char *text)
{
	struct dmo_opspec s;
	struct dmo_algo_result r;
	char err[256];

	if (dmo_opspec_parse(text, &s, err, sizeof err)) {
		fprintf(stderr, "bench_algorithmic: %s\n", err);
		return 1;
	}
	/* Repeat until 0.3 s have passed so that small layers time well. */
	uint64_t steps = 0;
	double t0 = bench_now(), t;
	do {
		dmo_algorithmic(&s, &r);
		steps += r.steps;
	} while ((t = bench_now() - t0) < 0.3);
	printf("%-62s %10llu steps  O_s %10llu  %8.1f M steps/s\n", text,
	       (unsigned long long)r.steps, (unsigned long long)r.os, steps / t / 1e6);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;
	if (argc > 1)
		for (int i = 1; i < argc; i++)
			rc |= bench(argv[i]);
	else
		for (size_t i = 0; i < sizeof layers / sizeof layers[0]; i++)
			rc |= bench(layers[i]);
	return rc;
}
