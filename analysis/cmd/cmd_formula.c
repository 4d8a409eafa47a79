/* cmd_formula.c - `dmo formula [--csv] SPEC...`: the algorithmic (exact)
 * and analytic (lower bound) O_s of op specs, without running any kernel. */
#include <csv.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithmic.h"
#include "analytic.h"
#include "cmd.h"
#include "opspec.h"

static const char usage[] =
	"usage: dmo formula [--csv] SPEC...\n"
	"\n"
	"For each op spec (e.g. dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same),\n"
	"print the output bytes, the exact safe overlap O_s of the reference\n"
	"kernel (algorithmic: its loop nest replayed on offsets), the analytic\n"
	"lower bound, and the penalty: exact - analytic, in bytes and in percent\n"
	"of the output bytes.  All sizes in bytes.\n"
	"\n"
	"  --csv   one CSV row per spec, with a header line\n"
	"  --help  show this text\n";

struct row {
	const char *spec;
	struct dmo_algo_result exact;
	struct dmo_analytic_result bound;
};

static double percent(const struct row *r)
{
	return r->exact.out_bytes ? 100.0 * (double)(r->exact.os - r->bound.os) /
					    (double)r->exact.out_bytes : 0.0;
}

static void print_csv(const struct row *rows, int n)
{
	puts("spec,out_bytes,algorithmic_os,analytic_os,penalty_bytes,penalty_pct");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		csv_fwrite(stdout, r->spec, strlen(r->spec));
		printf(",%llu,%llu,%llu,%llu,%.4f\n", (unsigned long long)r->exact.out_bytes,
		       (unsigned long long)r->exact.os, (unsigned long long)r->bound.os,
		       (unsigned long long)(r->exact.os - r->bound.os), percent(r));
	}
}

static void print_table(const struct row *rows, int n)
{
	int w = 4;
	for (int i = 0; i < n; i++)
		if ((int)strlen(rows[i].spec) > w)
			w = (int)strlen(rows[i].spec);
	printf("%-*s  %12s  %12s  %12s  %10s  %8s\n", w, "spec", "out_bytes",
	       "algorithmic", "analytic", "penalty", "penalty%");
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		printf("%-*s  %12llu  %12llu  %12llu  %10llu  %7.3f%%\n", w, r->spec,
		       (unsigned long long)r->exact.out_bytes,
		       (unsigned long long)r->exact.os, (unsigned long long)r->bound.os,
		       (unsigned long long)(r->exact.os - r->bound.os), percent(r));
	}
}

int cmd_formula(int argc, char **argv)
{
	static const struct option options[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c, csv = 0;

	optind = 0; /* 0, not 1: glibc then fully resets, as dmo demo runs several commands */
	while ((c = getopt_long(argc, argv, "ch", options, NULL)) != -1) {
		if (c == 'c') {
			csv = 1;
		} else {
			return cmd_usage(usage, c == 'h');
		}
	}
	int n = argc - optind;
	if (n < 1)
		return cmd_usage(usage, 0);
	struct row *rows = calloc((size_t)n, sizeof *rows);
	if (!rows) {
		perror("dmo formula");
		return 1;
	}
	/* Check every spec before printing anything. */
	for (int i = 0; i < n; i++) {
		struct dmo_opspec spec;
		char err[256];
		rows[i].spec = argv[optind + i];
		if (dmo_opspec_parse(rows[i].spec, &spec, err, sizeof err) != 0) {
			fprintf(stderr, "dmo formula: invalid spec '%s': %s\n", rows[i].spec, err);
			free(rows);
			return 2;
		}
		if (dmo_algorithmic(&spec, &rows[i].exact) != 0 ||
		    dmo_analytic(&spec, &rows[i].bound) != 0) {
			fprintf(stderr, "dmo formula: invalid spec '%s': inconsistent shape\n",
				rows[i].spec);
			free(rows);
			return 2;
		}
	}
	if (csv)
		print_csv(rows, n);
	else
		print_table(rows, n);
	free(rows);
	return fflush(stdout) == 0 ? 0 : 1;
}
