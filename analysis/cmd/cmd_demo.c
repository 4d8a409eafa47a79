/* cmd_demo.c - `dmo demo`: the README's showcase.  It profiles three
 * reference kernels under the real tool (the golden MobileNet v2 layer, a
 * ReLU and a fully connected layer), cross-checks the three methods on
 * them, and draws the golden layer.  It is the same work as `dmo run`,
 * `dmo analyze` and `dmo plot` one after the other. */
#include <stdio.h>
#include <string.h>

#include "cmd.h"

static const struct cmd_option options[] = {
	{ "out", required_argument, 'o', "DIR", "run directory (default: dmo-demo)" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "demo",
	.synopsis = "[--out DIR]",
	.description =
	"Profile the second depthwise convolution of MobileNet v2 (the golden layer\n"
	"of SPEC.md), a ReLU and a fully connected layer under valgrind --tool=dmo,\n"
	"print the per-layer table, compare the exact, algorithmic and analytic O_s,\n"
	"and draw the golden layer's access pattern and minR/maxW bounds.\n",
	.tables = { options },
	.finding = "a step failed (as dmo run, dmo analyze, dmo plot)",
};

static const char *const demo_specs[] = {
	"dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same",
	"relu:in=56x56x96",
	"fc:in=1x1024,units=1000",
};

int cmd_demo(int argc, char **argv)
{
	char *dir = "dmo-demo";
	char *run_argv[8], *analyze_argv[3], *plot_argv[5];
	int c, n = 0, rc;

	optind = 0; /* 0, not 1: glibc then fully resets, as dmo demo runs several commands */
	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		if (c == 'o')
			dir = optarg;
	if (optind != argc)
		return cmd_misuse(&command, "takes no operand, not '%s'", argv[optind]);
	printf("== dmo demo: profiling reference kernels under valgrind --tool=dmo\n");
	run_argv[n++] = "run";
	run_argv[n++] = "--out";
	run_argv[n++] = dir;
	run_argv[n++] = "--trace=full";
	for (size_t i = 0; i < sizeof demo_specs / sizeof demo_specs[0]; i++)
		run_argv[n++] = (char *)demo_specs[i];
	run_argv[n] = NULL;
	rc = cmd_run(n, run_argv);
	if (rc != 0)
		return rc;
	printf("\n== exact (tool), trace (recomputed), algorithmic and analytic O_s\n");
	analyze_argv[0] = "analyze";
	analyze_argv[1] = dir;
	analyze_argv[2] = NULL;
	rc = cmd_analyze(2, analyze_argv);
	if (rc != 0)
		return rc;
	printf("\n== figures of the golden layer (layer 1)\n");
	for (size_t i = 0; i < 2 && rc == 0; i++) {
		/* Fresh each time: getopt_long permutes the vector it parses. */
		plot_argv[0] = "plot";
		plot_argv[1] = i == 0 ? "--kind=pattern" : "--kind=bounds";
		plot_argv[2] = "--layer=1";
		plot_argv[3] = dir;
		plot_argv[4] = NULL;
		rc = cmd_plot(4, plot_argv);
	}
	return rc;
}
