/* cmd_profile.c - `dmo profile`: run any program under the dmo tool and
 * print its per-layer table. */
#include <stdio.h>

#include "cmd.h"
#include "fs.h"
#include "profile.h"
#include "profile_options.h"

static const struct cmd_spec command = {
	.name = "profile",
	.synopsis = "[OPTIONS] -- PROGRAM [ARGS...]",
	.description =
	"Run PROGRAM under valgrind --tool=dmo.  Every layer it marks with\n"
	"dmo_layer_begin/dmo_layer_end is recorded in DIR/layers.csv; with\n"
	"--trace=full each layer's events go to DIR/layer-NNNN.events too.\n"
	"PROGRAM's stdin, stdout and stderr are its own: the per-layer table goes\n"
	"to stderr after PROGRAM ends, as Valgrind's messages do (-q: no table).\n"
	"SIGINT, SIGTERM and SIGHUP are passed to PROGRAM; dmo waits for it and\n"
	"writes layers.csv either way.  A second run into DIR fails while one runs.\n"
	"A layer run by several threads gets status ok:threads=N and two values:\n"
	"os_bytes for the interleaving valgrind ran, os_any_bytes for every\n"
	"interleaving (docs/threads.md).\n",
	.tables = { cmd_profile_options },
	.exit_status =
	"  PROGRAM's exit status (128+N when signal N killed it), or 2 when\n"
	"  PROGRAM never ran (misuse, a missing or non-executable PROGRAM), or ran\n"
	"  with status 0 but dmo could not record it whole (a damaged\n"
	"  tool-layers.bin, a full disk) or it marked no layer at all.\n",
	.stop_at_operand = 1,
};

int cmd_profile(int argc, char **argv)
{
	struct dmo_profile_options opts = { .out_dir = "dmo-run", .who = "dmo profile" };
	char err[256];
	int c;

	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		if (dmo_profile_option(&opts, c, optarg, err, sizeof err) < 0)
			return cmd_misuse(&command, "%s", err);
	if (optind >= argc)
		return cmd_misuse(&command, "no program given");
	opts.argv = argv + optind;
	/* Said by dmo, before any run directory is touched, rather than by
	 * Valgrind after it: status 2, the program never ran. */
	if (dmo_program_runnable(opts.argv[0], err, sizeof err) != 0) {
		fprintf(stderr, "dmo profile: %s\n", err);
		return 2;
	}
	return dmo_profile_command(&opts, "dmo profile");
}
