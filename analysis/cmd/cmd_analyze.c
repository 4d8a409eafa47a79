/* cmd_analyze.c - `dmo analyze DIR`: cross-check the tool's exact O_s
 * against the event files, the algorithmic and the analytic methods. */
#include <stdio.h>
#include <stdlib.h>

#include "analyze.h"
#include "backend_info.h"
#include "cmd.h"
#include "json.h"
#include "profile.h"
#include "progress.h"
#include "rundir.h"

static const struct cmd_spec command = {
	.name = "analyze",
	.synopsis = "[--csv|--json] DIR",
	.description =
	"For each layer of the run directory DIR (from dmo profile or dmo run):\n"
	"recompute the exact O_s and the minR/maxW curves from its event file\n"
	"(when profiled with --trace=full; curves go to DIR/layer-NNNN-curves.csv),\n"
	"and for layers with an op spec, the algorithmic and analytic O_s.\n"
	"Prints a table with totals and writes DIR/analysis.csv.\n"
	"\n"
	"The exact O_s is the truth for the kernel that ran.  The algorithmic and\n"
	"analytic values describe the reference loop order: for the reference\n"
	"kernels (DIR/backend.csv says ref) they must agree with it (MISMATCH,\n"
	"UNSAFE otherwise); for any other kernel the verdict says what they would\n"
	"mean for it (ref-formula-unsafe, ref-formula-safe, ref-bound-unsafe) and\n"
	"does not fail.  Verdicts: docs/backends.md.\n",
	.outputs = CMD_HAS_CSV | CMD_HAS_JSON | CMD_HAS_QUIET,
	.finding = "a verdict failed (a mismatch, an unsafe analytic value, the trace\n"
		   "against the tool), or some layers were bad and skipped, each named\n"
		   "on stderr, the others analysed",
};

int cmd_analyze(int argc, char **argv)
{
	struct dmo_layer_table table;
	struct dmo_backend_info_table backends;
	struct dmo_layer_analysis *layers;
	char path[4096], err[1024];
	const char *dir;
	size_t kept = 0, skipped = 0;
	struct cmd_output output = { CMD_TEXT, 0 };
	struct dmo_progress steps;
	int c, failed, read_rc, as_csv;
	FILE *table_out = stdout;

	while ((c = cmd_getopt(&command, argc, argv)) != -1)
		cmd_output_option(&command, c, &output);
	as_csv = output.format != CMD_TEXT;
	if (optind != argc - 1)
		return cmd_misuse(&command, optind == argc ? "no run directory given"
						      : "one run directory expected");
	dir = argv[optind];
	if (dmo_rundir_exists(dir, err, sizeof err) != 0) {
		fprintf(stderr, "dmo analyze: %s\n", err);
		return 2;
	}
	if (dmo_rundir_recover(dir, err, sizeof err) != 0)
		fprintf(stderr, "dmo analyze: %s\n", err);
	snprintf(path, sizeof path, "%s/%s", dir, DMO_LAYERS_CSV);
	read_rc = dmo_layers_csv_read(path, &table, err, sizeof err);
	if (read_rc < 0) {
		fprintf(stderr, "dmo analyze: %s\n", err);
		return 2;
	}
	/* Nothing to analyse is no success: say why the run may hold none. */
	if (table.count == 0 && read_rc == 0) {
		fprintf(stderr, "dmo analyze: %s holds no layer: its program never called "
			"dmo_layer_begin, is not linked with libdmo-harness, or ended before its "
			"first layer\n", dir);
		dmo_layer_table_free(&table);
		return 2;
	}
	if (dmo_backend_info_read(dir, &backends, err, sizeof err) != 0) {
		fprintf(stderr, "dmo analyze: %s\n", err);
		dmo_layer_table_free(&table);
		return 2;
	}
	if (read_rc > 0) {
		fprintf(stderr, "dmo analyze: %s\n", err);
		skipped++;
	}
	layers = calloc(table.count ? table.count : 1, sizeof *layers);
	if (layers == NULL) {
		fprintf(stderr, "dmo analyze: out of memory\n");
		dmo_layer_table_free(&table);
		dmo_backend_info_free(&backends);
		return 2;
	}
	/* One bad layer (a damaged or foreign event file) is reported and
	 * left out; the others are analysed. */
	dmo_progress_start(&steps, command.name, table.count, dmo_progress_wanted(output.quiet));
	for (size_t i = 0; i < table.count; i++) {
		const struct dmo_backend_info *info =
			dmo_backend_info_find(&backends, table.rows[i].name);
		int analysed = dmo_analyze_layer(dir, &table.rows[i], info ? info->backend : NULL,
						 &layers[kept], err, sizeof err) == 0;

		dmo_progress_step(&steps, "layer %u %s", table.rows[i].layer, table.rows[i].name);
		if (analysed) {
			kept++;
			continue;
		}
		fprintf(stderr, "dmo analyze: layer %u: %s; skipped\n", table.rows[i].layer, err);
		skipped++;
	}
	/* --csv: the table goes nowhere, the file it writes to stdout. */
	if (as_csv && (table_out = fopen("/dev/null", "w")) == NULL)
		table_out = stdout;
	failed = dmo_analysis_report(dir, layers, kept, table_out, err, sizeof err);
	if (table_out != stdout)
		fclose(table_out);
	snprintf(path, sizeof path, "%s/" DMO_ANALYSIS_CSV, dir);
	if (as_csv && failed >= 0 && cmd_table_file(output.format, path, err, sizeof err) != 0)
		failed = -1;
	if (failed < 0)
		fprintf(stderr, "dmo analyze: %s\n", err);
	else if (failed > 0)
		fprintf(stderr, "dmo analyze: %d of %zu layer%s failed %s verdict\n", failed, kept,
			kept == 1 ? "" : "s", failed == 1 ? "its" : "their");
	if (skipped > 0 && failed >= 0)
		failed += (int)skipped;
	free(layers);
	dmo_layer_table_free(&table);
	dmo_backend_info_free(&backends);
	return failed < 0 ? 2 : failed > 0 ? 1 : 0;
}
