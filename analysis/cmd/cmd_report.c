/* cmd_report.c - `dmo report`: one self-contained HTML page of a plan, a
 * run directory or a sweep (analysis/lib/report_html.h, docs/report.md). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "errbuf.h"
#include "fs.h"
#include "kernels.h"
#include "locate.h"
#include "measure.h"
#include "model_table.h"
#include "plan.h"
#include "plan_summary.h"
#include "plan_view.h"
#include "profile_options.h"
#include "report_html.h"
#include "rundir.h"
#include "sweep.h"

enum { OPT_OS = CMD_LONG_ONLY, OPT_KERNELS };

static const struct cmd_option options[] = {
	{ "output", required_argument, 'o', "FILE",
	  "write the page to FILE (default: DIR/report.html for a\n"
	  "folder, NAME-report.html here for a model NAME.EXT, or\n"
	  "FOLDER-NAME-report.html when NAME is model)" },
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "a model's per-layer O_s, as dmo plan --os: algorithmic\n"
	  "(default), analytic or measured:DIR" },
	{ "kernels", required_argument, OPT_KERNELS, "NAME",
	  "plan a model for these kernels, as dmo plan --kernels:\n"
	  "ref (default), a backend or TFLM, their O_s measured\n"
	  "first unless --os measured:DIR ran them" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "report",
	.synopsis = "[OPTIONS] DIR|MODEL",
	.description =
	"Write one self-contained HTML page (inline SVG and a little JavaScript;\n"
	"it loads nothing, from the network or from files) that a browser opens:\n"
	"- MODEL (as dmo plan takes it): the plan's summary (kernels, peaks with\n"
	"  and without overlaps, bound, status, saving split into placement and\n"
	"  overlap, as dmo plan --summary writes it), live bytes per layer, the\n"
	"  arena map (hover a tensor for its name, index, live range and shared\n"
	"  bytes) and the per-layer table of dmo plan --csv;\n"
	"- a run directory (its layers.csv): the layers' status and O_s, O_s per\n"
	"  layer, each layer's access pattern where the run kept its events\n"
	"  (--trace=full) and its minR/maxW bounds where dmo analyze wrote its\n"
	"  curves, and the per-layer table (the plan of a model it ran, from its\n"
	"  O_s: dmo report --os measured:DIR MODEL);\n"
	"- a sweep folder (sweep-KEY, or a folder holding one): its summary.csv,\n"
	"  the residual formula - exact per configuration (bytes and % of OB,\n"
	"  UNSAFE points in red) and the worst configurations.\n"
	"Tables sort by a click on their header.  The page says which dmo and\n"
	"which kernels made it (docs/report.md).\n",
	.tables = { options, cmd_shape_options },
	.notes = "The plan is made as dmo plan makes it (bytes, no alignment, a 10 s\n"
		 "search), so the page's numbers equal dmo plan --summary's and --csv's.\n",
	.outputs = CMD_HAS_QUIET,
};

/* Default page names: in a folder, DIR/report.html; for a model, its
 * file's name without .tflite, .onnx or .csv (a shipped name such as
 * mobilenet_v2_1.0_224 keeps its dots), with its folder's name in front
 * when the file's says nothing (model.onnx). */
static void default_output(const char *operand, int folder, char *path, size_t len)
{
	static const char *const extensions[] = { ".tflite", ".onnx", ".csv" };
	const char *base = strrchr(operand, '/') ? strrchr(operand, '/') + 1 : operand;
	size_t stem = strlen(base);
	char parent[256] = "";

	if (folder) {
		snprintf(path, len, "%s/report.html", operand);
		return;
	}
	for (size_t i = 0; i < sizeof extensions / sizeof extensions[0]; i++) {
		size_t n = strlen(extensions[i]);
		if (stem > n && strcmp(base + stem - n, extensions[i]) == 0)
			stem -= n;
	}
	if (stem == 5 && strncmp(base, "model", 5) == 0 && base != operand) {
		size_t end = (size_t)(base - 1 - operand), start = end;
		while (start > 0 && operand[start - 1] != '/')
			start--;
		snprintf(parent, sizeof parent, "%.*s-", (int)(end - start), operand + start);
	}
	snprintf(path, len, "%s%.*s-report.html", parent, (int)stem, base);
}

/* A plan of MODEL, made as dmo plan makes it, as a page on OUT. */
static int plan_page(FILE *out, const char *model_name, const struct cmd_shapes *shapes,
		     const char *os_name, const char *kernels_name, char *err, size_t err_len)
{
	struct dmo_kernels kernels, want;
	struct dmo_model model = { 0 };
	struct dmo_plan plan = { 0 };
	char tmp_dir[PATH_MAX] = "", measured[PATH_MAX + 16], label[256];
	uint64_t *os = NULL, no_overlap = 0;
	int rc = 0, unknown;

	if (kernels_name != NULL && dmo_kernels_named(kernels_name, &want, err, err_len) != 0)
		return -1;
	/* Other kernels' O_s are measured, as dmo plan --kernels does. */
	if (os_name == NULL && kernels_name != NULL && want.kind != DMO_KERNELS_REF) {
		rc = dmo_make_temp_dir(tmp_dir, sizeof tmp_dir, "dmo-report", err, err_len);
		if (rc == 0)
			rc = dmo_measure_model("dmo report", model_name, &want, tmp_dir, err, err_len);
		snprintf(measured, sizeof measured, "measured:%s", tmp_dir);
		os_name = measured;
		/* dmo plan's words, so that the summaries agree. */
		snprintf(label, sizeof label, "measured on %s kernels by dmo run (a temporary run "
			 "directory)", want.name);
	}
	if (os_name == NULL)
		os_name = "algorithmic";
	if (rc == 0) {
		unknown = dmo_kernels_of_os(os_name, &kernels, err, err_len);
		rc = unknown < 0 ? -1 : kernels_name != NULL ?
			dmo_kernels_check_run(&kernels, unknown, &want, "--kernels", err, err_len) : 0;
	}
	if (rc == 0)
		rc = dmo_load_model(model_name, shapes->list, shapes->n, &model, err, err_len);
	os = rc == 0 ? calloc(model.n_layers + 1, sizeof *os) : NULL;
	if (rc == 0 && os == NULL)
		rc = dmo_errf(err, err_len, "out of memory");
	if (rc == 0)
		rc = dmo_plan_os_named(&model, os_name, os, err, err_len);
	if (rc == 0)
		rc = dmo_plan_build(&model, os, DMO_PLAN_TIME_LIMIT, NULL, &plan, err, err_len);
	if (rc == 0)
		rc = dmo_plan_peak_no_overlap(&model, NULL, DMO_PLAN_TIME_LIMIT, &no_overlap, err,
					      err_len);
	if (rc == 0) {
		struct dmo_report_plan r = { model_name, tmp_dir[0] ? label : os_name, &kernels,
					     &model, &plan, no_overlap };
		dmo_report_plan_page(out, &r);
	}
	dmo_plan_free(&plan);
	dmo_model_free(&model);
	free(os);
	if (tmp_dir[0])
		dmo_remove_dir(tmp_dir);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct cmd_shapes shapes = { .n = 0 };
	struct cmd_output output = { CMD_TEXT, 0 };
	const char *out_path = NULL, *os_name = NULL, *kernels_name = NULL, *operand;
	char err[1024], path[PATH_MAX + 32], sweep[PATH_MAX + 64];
	struct stat st;
	struct dmo_out out;
	int c, rc, folder, is_sweep = 0;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		if (cmd_output_option(&command, c, &output))
			continue;
		if (cmd_shape_option(&shapes, c, optarg, err, sizeof err) < 0)
			return cmd_misuse(&command, "%s", err);
		if (c == 'o')
			out_path = optarg;
		else if (c == OPT_OS)
			os_name = optarg;
		else if (c == OPT_KERNELS)
			kernels_name = optarg;
	}
	if (optind != argc - 1)
		return cmd_misuse(&command, "give exactly one DIR or MODEL");
	operand = argv[optind];
	folder = stat(operand, &st) == 0 && S_ISDIR(st.st_mode);
	if (folder) {
		char layers[PATH_MAX + 32];
		snprintf(layers, sizeof layers, "%s/" DMO_LAYERS_CSV, operand);
		is_sweep = dmo_sweep_find_dir(operand, sweep, sizeof sweep, err, sizeof err) == 0;
		if (!is_sweep && stat(layers, &st) != 0) {
			fprintf(stderr, "dmo report: %s: a folder with neither layers.csv (a run "
				"directory) nor results.csv (a sweep)\n", operand);
			return 2;
		}
		if (os_name || kernels_name || shapes.n)
			return cmd_misuse(&command, "--os, --kernels and --shape are for a MODEL, "
					  "not a folder");
	}
	if (out_path == NULL)
		default_output(operand, folder, path, sizeof path);
	else
		snprintf(path, sizeof path, "%s", out_path);
	if (dmo_out_open(&out, path, err, sizeof err) == NULL) {
		fprintf(stderr, "dmo report: %s\n", err);
		return 2;
	}
	if (is_sweep)
		rc = dmo_report_sweep_page(out.stream, sweep, err, sizeof err);
	else if (folder)
		rc = dmo_report_rundir_page(out.stream, operand, err, sizeof err);
	else
		rc = plan_page(out.stream, operand, &shapes, os_name, kernels_name, err, sizeof err);
	if (rc != 0) {
		dmo_out_abandon(&out);
		fprintf(stderr, "dmo report: %s\n", err);
		return 2;
	}
	if (dmo_out_commit(&out, err, sizeof err) != 0) {
		fprintf(stderr, "dmo report: %s\n", err);
		return 2;
	}
	if (!output.quiet)
		printf("wrote %s\n", path);
	return 0;
}
