/* cmd_formula.c - `dmo formula [--csv] SPEC...|--model MODEL`: the
 * algorithmic (exact) and analytic (lower bound) O_s of op specs, or of
 * every layer of a model that has one, without running any kernel. */
#include <assert.h>
#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algorithmic.h"
#include "analytic.h"
#include "cmd.h"
#include "locate.h"
#include "model_report.h"
#include "model_table.h"
#include "json.h"
#include "opspec.h"

static const struct cmd_option options[] = {
	{ "model", required_argument, 'm', "MODEL", "the op specs of a model's layers" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "formula",
	.synopsis = "[--csv|--json] SPEC...\n[--csv|--json] --model MODEL",
	.description =
	"For each op spec (e.g. dwconv2d:in=112x112x96,k=3x3,stride=2,pad=same),\n"
	"print the output bytes, the exact safe overlap O_s of the reference\n"
	"kernel (algorithmic: its loop nest replayed on offsets), the analytic\n"
	"lower bound, and the penalty: exact - analytic, in bytes and in percent\n"
	"of the output bytes.  All sizes in bytes.\n"
	"\n"
	"With --model, the specs are those dmo derives for the layers of MODEL (a\n"
	"built-in table name, a table file, a .tflite or .onnx file); layers\n"
	"without one are listed on stderr as planned without overlap.\n",
	.tables = { options },
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON,
};

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

static void print_csv(FILE *out, const struct row *rows, int n)
{
	fputs("spec,out_bytes,algorithmic_os,analytic_os,penalty_bytes,penalty_pct\n", out);
	for (int i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		csv_fwrite(out, r->spec, strlen(r->spec));
		fprintf(out, ",%llu,%llu,%llu,%llu,%.4f\n", (unsigned long long)r->exact.out_bytes,
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

/* Check every spec before printing anything: 0, or 2 with a message. */
static int formula_rows(struct row *rows, char **specs, int n)
{
	for (int i = 0; i < n; i++) {
		struct dmo_opspec spec;
		char err[256];
		rows[i].spec = specs[i];
		if (dmo_opspec_parse(rows[i].spec, &spec, err, sizeof err) != 0) {
			fprintf(stderr, "dmo formula: invalid spec '%s': %s\n", rows[i].spec, err);
			return 2;
		}
		/* Both methods refuse only non-positive shapes, which the
		 * parser refused already. */
		int refused = dmo_algorithmic(&spec, &rows[i].exact) != 0;
		refused |= dmo_analytic(&spec, &rows[i].bound) != 0;
		assert(!refused);
		(void)refused;
	}
	return 0;
}

int cmd_formula(int argc, char **argv)
{
	struct dmo_model model = { 0 };
	const char *model_name = NULL;
	char **specs;
	struct cmd_output output = { CMD_TEXT, 0 };
	struct cmd_table table;
	char err[256];
	int c, n, rc;

	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		if (!cmd_output_option(&command, c, &output) && c == 'm')
			model_name = optarg;
	n = argc - optind;
	specs = argv + optind;
	if ((n < 1) == (model_name == NULL))
		return cmd_misuse(&command, "give op specs or --model, %s",
				  model_name == NULL ? "none given" : "not both");
	if (model_name != NULL) {
		char err[1024];

		if (dmo_load_model(model_name, NULL, 0, &model, err, sizeof err) != 0) {
			fprintf(stderr, "dmo formula: %s\n", err);
			return 2;
		}
		dmo_model_print_unsupported(stderr, &model);
		specs = calloc(model.n_layers + 1, sizeof *specs);
		n = 0;
		for (size_t l = 0; specs != NULL && l < model.n_layers; l++)
			if (model.layers[l].supported)
				specs[n++] = model.layers[l].spec;
	}
	struct row *rows = calloc((size_t)n + 1, sizeof *rows);
	if (!rows || !specs) {
		fprintf(stderr, "dmo formula: out of memory\n");
		return 2;
	}
	rc = formula_rows(rows, specs, n);
	if (rc == 0 && output.format == CMD_TEXT)
		print_table(rows, n);
	else if (rc == 0 && cmd_table_open(&table, output.format) == NULL)
		rc = 2;
	else if (rc == 0) {
		print_csv(table.stream, rows, n);
		if (cmd_table_close(&table, err, sizeof err) != 0) {
			fprintf(stderr, "dmo formula: %s\n", err);
			rc = 2;
		}
	}
	free(rows);
	if (model_name != NULL) {
		free(specs);
		dmo_model_free(&model);
	}
	return rc ? rc : fflush(stdout) == 0 ? 0 : 2;
}
