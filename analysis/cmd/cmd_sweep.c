/* cmd_sweep.c - `dmo sweep`: check a user formula for O_s against the
 * exact value measured under the tool, over a grid of op specs
 * (analysis/lib/sweep.c; docs/sweep.md). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend_options.h"
#include "cmd.h"
#include "json.h"
#include "profile.h"
#include "progress.h"
#include "sweep.h"

enum { OPT_BATCH = CMD_LONG_ONLY, OPT_CONFIGS, OPT_TIME_LIMIT };

static const struct cmd_option options[] = {
	{ "formula", required_argument, 'f', "EXPR", "the formula as an expression (or @FILE)" },
	{ "formula-lib", required_argument, 'l', "SO",
	  "the formula as a C function in a shared object" },
	{ "backend", required_argument, 'b', "NAME",
	  "kernel library: ref (default) xnnpack onednn openblas\n"
	  "armnn (docs/backends.md); configurations it cannot\n"
	  "run are skipped and counted" },
	{ "isa", required_argument, OPT_ISA, "CAP",
	  "cap the backend's instruction set: sse4, avx, avx2" },
	{ "out", required_argument, 'o', "DIR", "results under DIR (default: dmo-sweep)" },
	{ "jobs", required_argument, 'j', "N", "N Valgrind processes at once (default 1)" },
	{ "batch", required_argument, OPT_BATCH, "N",
	  "configurations per Valgrind process (default 20)" },
	{ "sample", required_argument, 'n', "N", "N configurations drawn from the valid ones" },
	{ "seed", required_argument, 's', "S", "the sample's seed (default 1)" },
	{ "configs", required_argument, OPT_CONFIGS, "A-B",
	  "run only configurations A..B (0-based, as emitted)" },
	{ "time-limit", required_argument, OPT_TIME_LIMIT, "SECONDS",
	  "stop after SECONDS: running batches stop as on\n"
	  "SIGTERM, what ran is kept, exit status 2; the same\n"
	  "command continues" },
	{ "emit-commands", no_argument, 'e', NULL,
	  "print one self-contained command per batch, each\n"
	  "writing OUT/part-A, for GNU parallel or a batch system" },
	{ "collect", no_argument, 'c', NULL,
	  "merge the result directories DIR... into OUT and\n"
	  "summarise" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "sweep",
	.synopsis = "GRID (--formula EXPR | --formula-lib FILE.so) [OPTIONS]\n"
		    "GRID (--formula EXPR | --formula-lib FILE.so) --emit-commands [OPTIONS]\n"
		    "--collect DIR... [--out DIR]",
	.description =
	"Measure the exact safe overlap O_s of every configuration of GRID under\n"
	"the dmo tool and judge a formula against it: safe (formula < exact),\n"
	"tight (=) or UNSAFE (>).  GRID is an op spec with {...} sets, e.g.\n"
	"  dwconv2d:in={8..64:8}x{8..64:8}x{1,3},k={1..5}x{1..5}\n"
	"(a set lists literals and ranges A..B or A..B:STEP).  Configurations that\n"
	"are no valid op spec are skipped and counted.  EXPR is an integer\n"
	"expression over the spec's variables (docs/sweep.md), e.g.\n"
	"  'OB - es * in_c * (k_w - 1)'  or  @FILE to read it from FILE;\n"
	"FILE.so exports dmo_formula (<dmo/formula.h>).\n"
	"\n"
	"Results go to OUT/sweep-KEY/, KEY a hash of grid, sample, formula and\n"
	"backend: running the same command again continues an interrupted sweep.\n",
	.tables = { options },
	.notes = "--csv and --json print the summary as OUT/sweep-KEY/summary.csv's\n"
		 "metric,value rows (written either way).\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.finding = "some configuration unsafe, or a formula error",
};

static int parse_count(const char *text, uint64_t max, uint64_t *out)
{
	char *end;
	if (!text[0] || text[0] == '-')
		return -1;
	errno = 0;
	*out = strtoull(text, &end, 10);
	return *end || errno || *out > max ? -1 : 0;
}

/* The dmo program for emitted commands: $DMO_COMMAND (a build tree's
 * libtool wrapper) or this executable. */
static const char *self_path(char *buf, size_t len)
{
	const char *env = getenv("DMO_COMMAND");
	ssize_t n;

	if (env && env[0])
		return env;
	n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0)
		return "dmo";
	buf[n] = '\0';
	return buf;
}

/* The summary in FORMAT: dmo_sweep_summary's status, or -1 with ERR. */
static int summarise(struct dmo_sweep *s, enum cmd_format format, char *err, size_t err_len)
{
	struct cmd_table table;
	int status;

	if (cmd_table_open(&table, format, NULL) == NULL) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	status = dmo_sweep_summary(s, table.stream, format != CMD_TEXT, err, err_len);
	if (cmd_table_close(&table, err, err_len) != 0)
		status = -1;
	return status;
}

int cmd_sweep(int argc, char **argv)
{
	struct dmo_sweep_options o = { .backend = "ref", .out_dir = "dmo-sweep", .jobs = 1,
				       .batch = 20, .seed = 1 };
	struct cmd_output output = { CMD_TEXT, 0 };
	int c, emit = 0, collect = 0, seed_given = 0, rc;
	uint64_t v;
	char err[2048], self[PATH_MAX];
	double time_limit = 0; /* none */

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		switch (c) {
		case 'f':
			o.formula = optarg;
			break;
		case 'l':
			o.formula_lib = optarg;
			break;
		case 'b':
			o.backend = optarg;
			break;
		case OPT_ISA:
			o.isa = optarg;
			break;
		case 'o':
			o.out_dir = optarg;
			break;
		case 'j':
		case OPT_BATCH:
			if (parse_count(optarg, 4096, &v) || v == 0)
				return cmd_misuse(&command, "--%s must be 1..4096, not '%s'",
						  c == 'j' ? "jobs" : "batch", optarg);
			*(c == 'j' ? &o.jobs : &o.batch) = (int)v;
			break;
		case 'n':
			if (parse_count(optarg, UINT64_MAX, &o.sample) || o.sample == 0)
				return cmd_misuse(&command,
						  "--sample must be a positive count, not '%s'", optarg);
			break;
		case 's':
			if (parse_count(optarg, UINT64_MAX, &o.seed))
				return cmd_misuse(&command, "--seed must be a number, not '%s'", optarg);
			seed_given = 1;
			break;
		case OPT_CONFIGS: {
			char *dash = strchr(optarg, '-');
			if (!dash || (*dash = '\0', parse_count(optarg, UINT64_MAX, &o.first)) ||
			    parse_count(dash + 1, UINT64_MAX, &o.last))
				return cmd_misuse(&command, "--configs takes A-B, two indices");
			o.have_range = 1;
			break;
		}
		case OPT_TIME_LIMIT:
			if (dmo_time_limit_parse(optarg, &time_limit, err, sizeof err) != 0)
				return cmd_misuse(&command, "%s", err);
			break;
		case 'e':
			emit = 1;
			break;
		case 'c':
			collect = 1;
			break;
		}
	}
	if (collect) {
		if (optind >= argc || emit || o.formula || o.formula_lib || o.isa)
			return cmd_misuse(&command,
					  "--collect takes result directories and --out only");
		struct dmo_sweep *s = dmo_sweep_collect(argv + optind, argc - optind, o.out_dir,
							err, sizeof err);
		if (!s) {
			fprintf(stderr, "dmo sweep: %s\n", err);
			return 2;
		}
		rc = summarise(s, output.format, err, sizeof err);
		dmo_sweep_close(s);
		if (rc < 0) {
			fprintf(stderr, "dmo sweep: %s\n", err);
			return 2;
		}
		return rc;
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, "give one GRID");
	if (!o.formula == !o.formula_lib)
		return cmd_misuse(&command, "give one of --formula and --formula-lib");
	if (seed_given && !o.sample)
		return cmd_misuse(&command, "--seed goes with --sample");
	if (!o.sample)
		o.seed = 0; /* not part of a whole grid's key */
	if (dmo_backend_options_check("dmo sweep", &o.backend, o.isa, 1) != 0)
		return 2;
	o.grid = argv[optind];
	struct dmo_sweep *s = dmo_sweep_open(&o, err, sizeof err);
	if (!s) {
		fprintf(stderr, "dmo sweep: %s\n", err);
		return 2;
	}
	if (emit) {
		rc = dmo_sweep_emit(s, self_path(self, sizeof self), stdout, err, sizeof err);
		if (rc)
			fprintf(stderr, "dmo sweep: %s\n", err);
		dmo_sweep_close(s);
		return rc ? 2 : 0;
	}
	rc = dmo_sweep_run_for(s, dmo_progress_wanted(output.quiet), time_limit, err, sizeof err);
	if (rc < 0) {
		fprintf(stderr, "dmo sweep: %s\n", err);
		dmo_sweep_close(s);
		return 2;
	}
	if (o.have_range) { /* one emitted command: --collect summarises */
		dmo_sweep_close(s);
		return rc ? 2 : 0;
	}
	int status = summarise(s, output.format, err, sizeof err);
	if (status < 0)
		fprintf(stderr, "dmo sweep: %s\n", err);
	dmo_sweep_close(s);
	return status < 0 || rc ? 2 : status;
}
