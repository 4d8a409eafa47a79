/* cmd_profile.c - `dmo profile`: run any program under the dmo tool and
 * print its per-layer table. */
#include <getopt.h>
#include <stdio.h>

#include "cmd.h"
#include "profile.h"

static const char usage[] =
	"usage: dmo profile [--out DIR] [--trace=summary|full] [--max-mem SIZE] [--runs K]\n"
	"                   [--vg-opt OPTION]... -- PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM under valgrind --tool=dmo.  Every layer it marks with\n"
	"dmo_layer_begin/dmo_layer_end is recorded in DIR/layers.csv; with\n"
	"--trace=full each layer's events go to DIR/layer-NNNN.events too.\n"
	"Exits with PROGRAM's exit status (2 when dmo itself fails).  A layer\n"
	"run by several threads gets status ok:threads=N and two values:\n"
	"os_bytes for the interleaving valgrind ran, os_any_bytes for every\n"
	"interleaving (docs/threads.md).\n"
	"\n"
	DMO_PROFILE_OPTIONS_HELP
	"  -h, --help         this text\n";

int cmd_profile(int argc, char **argv)
{
	static const struct option options[] = {
		DMO_PROFILE_LONG_OPTIONS,
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dmo_profile_options opts = { .out_dir = "dmo-run" };
	char err[256];
	int c;

	optind = 0; /* 0, not 1: glibc then fully resets, as dmo demo runs several commands */
	while ((c = getopt_long(argc, argv, "+o:t:h", options, NULL)) != -1) {
		int taken = dmo_profile_option(&opts, c, optarg, err, sizeof err);
		if (taken < 0) {
			fprintf(stderr, "dmo profile: %s\n", err);
			return 2;
		}
		if (taken)
			continue;
		return cmd_usage(usage, c == 'h');
	}
	if (optind >= argc) {
		fprintf(stderr, "dmo profile: no program given\n%s", usage);
		return 2;
	}
	opts.argv = argv + optind;
	return dmo_profile_command(&opts, "dmo profile");
}
