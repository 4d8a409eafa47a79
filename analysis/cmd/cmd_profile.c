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
	"PROGRAM's stdin, stdout and stderr are its own: the per-layer table goes\n"
	"to stderr after PROGRAM ends, as Valgrind's messages do (-q: no table).\n"
	"SIGINT, SIGTERM and SIGHUP are passed to PROGRAM; dmo waits for it and\n"
	"writes layers.csv either way.  A second run into DIR fails while one runs.\n"
	"Exits with PROGRAM's exit status (128+N when signal N killed it), or 2\n"
	"when PROGRAM never ran, or ran with status 0 but dmo could not record it\n"
	"whole (a damaged tool-layers.bin, a full disk).  A layer run by several\n"
	"threads gets status ok:threads=N and two values: os_bytes for the\n"
	"interleaving valgrind ran, os_any_bytes for every interleaving\n"
	"(docs/threads.md).\n"
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

	while ((c = getopt_long(argc, argv, "+o:t:qh", options, NULL)) != -1) {
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
