/* cmd_profile.c - `dmo profile`: run any program under the dmo tool and
 * print its per-layer table. */
#include <stdio.h>

#include "cmd.h"
#include "host_isa.h"
#include "kernels.h"
#include "profile.h"
#include "profile_options.h"

/* After the shared options' codes (profile.h: DMO_OPT_MAX_MEM ...). */
enum { OPT_KERNELS = DMO_OPT_SHARED_END };

static const struct cmd_option options[] = {
	{ "kernels", required_argument, OPT_KERNELS, "NAME",
	  "the kernels PROGRAM runs, recorded in DIR/kernels.csv\n"
	  "(e.g. cmsis-nn-dsp or program:mylib-1.2; default\n"
	  "program:PROGRAM's file name): `dmo plan --os measured:DIR`\n"
	  "plans for those kernels only" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "profile",
	.synopsis = "[OPTIONS] -- PROGRAM [ARGS...]",
	.description =
	"Run PROGRAM under valgrind --tool=dmo.  Every layer it marks with\n"
	"dmo_layer_begin/dmo_layer_end is recorded in DIR/layers.csv; with\n"
	"--trace=full each layer's events go to DIR/layer-NNNN.events too.\n"
	"PROGRAM's stdin, stdout and stderr are its own: the per-layer table goes\n"
	"to stderr after PROGRAM ends, as Valgrind's messages do (-q: no table).\n"
	"SIGINT, SIGTERM and SIGHUP are passed to PROGRAM (--time-limit sends\n"
	"SIGTERM); dmo waits for it and writes layers.csv either way.  A second\n"
	"run into DIR fails while one runs.\n"
	"A layer open while several threads were alive is never plain ok: it gets\n"
	"ok:threads=N (N touched its buffers) or ok:alive=N (one did, N lived),\n"
	"and its safe_os_bytes is os_split_bytes, safe for any split of its work\n"
	"over threads (os_any_bytes, every interleaving of the split observed,\n"
	"with --static-split; docs/threads.md).  DIR/host.csv records the host\n"
	"CPU's widest ISA, which the program may use natively.\n",
	.tables = { cmd_profile_options, options },
	.exit_status =
	"  PROGRAM's exit status (128+N when signal N killed it), or 2 when\n"
	"  PROGRAM never ran (misuse, a missing or non-executable PROGRAM), was\n"
	"  stopped by --time-limit, or ran with status 0 but dmo could not record\n"
	"  it whole (a damaged tool-layers.bin, a full disk) or it marked no layer\n"
	"  at all.\n",
	.stop_at_operand = 1,
};

int cmd_profile(int argc, char **argv)
{
	struct dmo_profile_options opts = { .out_dir = "dmo-run", .who = "dmo profile" };
	struct dmo_kernels kernels;
	char err[1024], note[512];
	int c, status;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (c == OPT_KERNELS) {
			if (dmo_kernels_named(optarg, &kernels, err, sizeof err) != 0)
				return cmd_misuse(&command, "--kernels: %s", err);
			opts.kernels = &kernels;
		} else if (dmo_profile_option(&opts, c, optarg, err, sizeof err) < 0) {
			return cmd_misuse(&command, "%s", err);
		}
	}
	if (optind >= argc)
		return cmd_misuse(&command, "no program given");
	opts.argv = argv + optind;
	status = dmo_profile_command(&opts, "dmo profile");
	if (!opts.quiet && dmo_host_isa_note(note, sizeof note))
		fprintf(stderr, "dmo profile: note: %s\n", note);
	return status;
}
