/* cmd_profile.c - `dmo profile`: run any program under the dmo tool and
 * print its per-layer table. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "profile.h"

static const char usage[] =
	"usage: dmo profile [--out DIR] [--trace=summary|full] -- PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM under valgrind --tool=dmo.  Every layer it marks with\n"
	"dmo_layer_begin/dmo_layer_end is recorded in DIR/layers.csv; with\n"
	"--trace=full each layer's events go to DIR/layer-NNNN.events too.\n"
	"Exits with PROGRAM's exit status.\n"
	"\n"
	"  -o, --out DIR      run directory (default: dmo-run)\n"
	"  -t, --trace MODE   summary (counts and exact O_s) or full (every event)\n"
	"  -m, --max-mem SIZE RAM a full trace may hold before it goes to disk\n"
	"                     (K, M, G suffixes; default 64M)\n"
	"  -h, --help         this text\n";

int cmd_profile(int argc, char **argv)
{
	static const struct option options[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "trace", required_argument, NULL, 't' },
		{ "max-mem", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct dmo_profile_options opts = { .out_dir = "dmo-run" };
	struct dmo_layer_table table;
	char err[1024];
	int c, status;

	optind = 0; /* 0, not 1: glibc then fully resets, as dmo demo runs several commands */
	while ((c = getopt_long(argc, argv, "+o:t:m:h", options, NULL)) != -1) {
		switch (c) {
		case 'o':
			opts.out_dir = optarg;
			break;
		case 't':
			if (strcmp(optarg, "full") == 0)
				opts.full_trace = 1;
			else if (strcmp(optarg, "summary") != 0) {
				fprintf(stderr, "dmo profile: --trace must be summary or full, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'm':
			opts.max_mem = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return 0;
		default:
			fputs(usage, stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "dmo profile: no program given\n%s", usage);
		return 2;
	}
	opts.argv = argv + optind;
	if (dmo_profile_run(&opts, &status, &table, err, sizeof err) != 0) {
		/* What the tool recorded is shown even when layers.csv failed. */
		if (table.count > 0)
			dmo_layers_print(stdout, &table);
		fprintf(stderr, "dmo profile: %s\n", err);
		dmo_layer_table_free(&table);
		return 2;
	}
	dmo_layers_print(stdout, &table);
	printf("run directory: %s (%s)\n", opts.out_dir, DMO_LAYERS_CSV);
	dmo_layer_table_free(&table);
	return status;
}
