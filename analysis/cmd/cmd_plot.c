/* cmd_plot.c - `dmo plot DIR`: a figure of one layer of a run directory
 * (access pattern, minR/maxW bounds, or threads); `dmo plot --plan MODEL`:
 * a model's arena with and without overlaps.  Rendered by analysis/lib
 * plot.c through gnuplot. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "layer_list.h"
#include "nearest.h"
#include "model_table.h"
#include "plan.h"
#include "plot.h"
#include "profile.h"
#include "rundir.h"
#include "trace.h"
#include "trace_format.h"

enum { OPT_PLAN = CMD_LONG_ONLY, OPT_OS };

static const struct cmd_option options[] = {
	{ "layer", required_argument, 'l', "N|NAME|LIST|all",
	  "layer number or name in DIR/layers.csv (default: the\n"
	  "first layer with an event file); `all`, or a list of\n"
	  "numbers, ranges and names with * and ? (3,7-9,conv*,\n"
	  "as dmo profile takes): each of those layers with an\n"
	  "event file, in one call" },
	{ "kind", required_argument, 'k', "KIND",
	  "pattern, bounds or threads (default pattern)" },
	{ "format", required_argument, 'f', "FMT", "png (1200x800) or svg (default png)" },
	{ "out", required_argument, 'o', "FILE",
	  "where to write it (default DIR/layer-NNNN-KIND.FMT;\n"
	  "with --plan, MODEL-plan.FMT in the current directory)" },
	{ "plan", required_argument, OPT_PLAN, "MODEL",
	  "draw MODEL's arena plan instead of a run's layer" },
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "with --plan, the O_s source as in dmo plan" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "plot",
	.synopsis = "DIR [--layer N|NAME|LIST|all] [--kind pattern|bounds|threads] [--format png|svg] "
		    "[--out FILE]\n"
		    "--plan MODEL [--os SOURCE] [--format png|svg] [--out FILE]",
	.description =
	"Draw one layer of a `dmo profile --trace=full` run directory, or each\n"
	"layer --layer all or a list asks for:\n"
	"  pattern  time against byte offset, one colour per access kind; the input\n"
	"           is drawn overlapping the output by the exact safe overlap O_s\n"
	"  bounds   the minR(i)/maxW(i) step curves, the step that sets O_s and,\n"
	"           for a layer with an op spec, the analytic linear bound\n"
	"  threads  the access pattern with one colour per thread\n"
	"\n"
	"Traces longer than 10000 events are drawn as min/max envelopes per time\n"
	"bin; the figure's subtitle says so.  An incomplete layer (the program\n"
	"ended inside it) is drawn and marked as such, with no O_s.\n"
	"\n"
	"With --plan, draw the tensor arena of a model over its layers, without\n"
	"and with diagonal overlaps side by side, as `dmo plan MODEL --os SOURCE`\n"
	"plans it.\n",
	.tables = { options },
	.notes = "Environment: DMO_PLOTS_DIR (gnuplot templates).\n",
	.finding = "drawn, but bad rows of layers.csv were skipped, or layers of a\n"
		   "--layer list had no event file (named on stderr)",
};

/* `dmo plot --plan MODEL`. */
static int plot_plan(const char *model_name, const char *source, enum dmo_plot_format format,
		     const char *out_file)
{
	struct dmo_model model;
	struct dmo_plan plan;
	char out[PATH_MAX], err[1024];
	const char *base = strrchr(model_name, '/');
	int rc;

	if (dmo_plan_model(model_name, NULL, 0, source, DMO_PLAN_TIME_LIMIT, NULL, &model, &plan, err,
			   sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		return 2;
	}
	if (out_file == NULL) {
		base = base ? base + 1 : model_name;
		snprintf(out, sizeof out, "%.*s-plan.%s", (int)strcspn(base, "."), base,
			 format == DMO_PLOT_SVG ? "svg" : "png");
		out_file = out;
	}
	rc = dmo_plot_plan(&plan, model_name, format, out_file, err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "dmo plot: %s\n", err);
	else
		printf("%s\n", out_file);
	dmo_plan_free(&plan);
	dmo_model_free(&model);
	return rc != 0 ? 2 : 0;
}

static void event_file(const char *dir, const struct dmo_layer_row *row, char *path, size_t len)
{
	snprintf(path, len, "%s/" DMO_TRACE_FILE_FORMAT, dir, row->layer);
}

static int all_digits(const char *s)
{
	if (*s == '\0')
		return 0;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return 0;
	return 1;
}

/* The row LAYER names (number or name), or with LAYER NULL the first row
 * whose event file exists; NULL when there is none. */
static const struct dmo_layer_row *pick_layer(const char *dir, const struct dmo_layer_table *t,
					      const char *layer)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < t->count; i++) {
		const struct dmo_layer_row *row = &t->rows[i];
		if (layer == NULL) {
			event_file(dir, row, path, sizeof path);
			if (access(path, R_OK) == 0)
				return row;
		} else if (all_digits(layer) ? row->layer == strtoul(layer, NULL, 10)
					     : strcmp(row->name, layer) == 0) {
			return row;
		}
	}
	return NULL;
}

/* --layer LAYER names none of T's rows (read from CSV): say which there
 * are, and the nearest name when LAYER looks like a slip of one.  Layers
 * count from 1 (docs/cli.md). */
static void say_no_such_layer(const char *csv, const struct dmo_layer_table *t,
			      const char *layer)
{
	unsigned first = 0, last = 0;
	const char **names = calloc(t->count ? t->count : 1, sizeof *names), *near;
	char range[64];

	for (size_t i = 0; i < t->count; i++) {
		unsigned n = t->rows[i].layer;
		if (n == 0) /* an orphan protocol-error row */
			continue;
		if (names != NULL)
			names[i] = t->rows[i].name;
		if (first == 0 || n < first)
			first = n;
		if (n > last)
			last = n;
	}
	near = names && !all_digits(layer) ? dmo_nearest(layer, strlen(layer), names, t->count)
					   : NULL;
	free(names);
	if (first == last)
		snprintf(range, sizeof range, "layer %u", first);
	else
		snprintf(range, sizeof range, "layers %u to %u", first, last);
	if (first == 0)
		fprintf(stderr, "dmo plot: %s has no layers\n", csv);
	else if (all_digits(layer) && strtoul(layer, NULL, 10) == 0)
		fprintf(stderr, "dmo plot: there is no layer 0: layers count from 1; %s has %s\n",
			csv, range);
	else if (near != NULL)
		fprintf(stderr, "dmo plot: %s has no layer '%s'; did you mean '%s'?\n", csv, layer,
			near);
	else
		fprintf(stderr, "dmo plot: %s has no layer '%s': it has %s (give a number, or a "
			"name of its name column)\n", csv, layer, range);
}

/* Draw ROW's figure as REQ asks (to DIR/layer-NNNN-KIND.FMT without
 * --out); 0, or 2 with a message on stderr. */
static int draw_layer(const char *dir, const struct dmo_layer_row *row,
		      struct dmo_plot_request req)
{
	char events[PATH_MAX], out[PATH_MAX], err[1024];
	struct dmo_plot_result res;
	struct dmo_trace trace;

	event_file(dir, row, events, sizeof events);
	if (access(events, R_OK) != 0) {
		fprintf(stderr, "dmo plot: layer %u has no event file %s "
			"(profile with --trace=full)\n", row->layer, events);
		return 2;
	}
	/* A FIFO, a damaged file or another layer's file is refused here,
	 * before gnuplot is started. */
	if (dmo_trace_open(events, &trace, err, sizeof err) != 0 ||
	    dmo_trace_matches(&trace, row, err, sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		dmo_trace_close(&trace);
		return 2;
	}
	dmo_trace_close(&trace);
	if (req.out_file == NULL) {
		snprintf(out, sizeof out, "%s/layer-%04u-%s.%s", dir, row->layer,
			 dmo_plot_kind_name(req.kind), req.format == DMO_PLOT_SVG ? "svg" : "png");
		req.out_file = out;
	}
	req.event_file = events;
	req.row = row;
	if (dmo_plot_render(&req, &res, err, sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		return 2;
	}
	printf("%s\n", req.out_file);
	return 0;
}

/* Whether --layer LAYER asks for several layers: `all`, or a list
 * (common/layer_list.h) with more than one number or name. */
static int several_layers(const char *layer)
{
	if (strcmp(layer, "all") == 0)
		return 1;
	for (const char *p = layer; *p; p++)
		if (*p == ',' || *p == '*' || *p == '?')
			return 1;
	return !all_digits(layer) && strspn(layer, "0123456789-") == strlen(layer);
}

/* Draw every layer of T that LAYER (`all` or a list) asks for and that
 * has an event file, each to its own file; a listed layer without one is
 * named.  0 when all were drawn, 1 when some had no event file, 2 when
 * none was drawn or a figure failed. */
static int draw_layers(const char *dir, const struct dmo_layer_table *t, const char *layer,
		       const struct dmo_plot_request *req)
{
	int all = strcmp(layer, "all") == 0, drawn = 0, untraced = 0;
	char path[PATH_MAX];
	size_t bad_at;

	if (!all && dmo_layer_list_check(layer, &bad_at) != 0) {
		fprintf(stderr, "dmo plot: --layer: '%s' at '%s' is not a layer number, range N-M "
			"(from 1, N <= M) or name\n", layer, layer + bad_at);
		return 2;
	}
	for (size_t i = 0; i < t->count; i++) {
		const struct dmo_layer_row *row = &t->rows[i];
		if (!all && !dmo_layer_list_has(layer, row->layer, row->name))
			continue;
		event_file(dir, row, path, sizeof path);
		if (access(path, F_OK) != 0) {
			if (!all)
				fprintf(stderr, "dmo plot: layer %u '%s' has no event file (not traced)\n",
					row->layer, row->name);
			untraced++;
			continue;
		}
		if (draw_layer(dir, row, *req) != 0)
			return 2;
		drawn++;
	}
	if (drawn == 0) {
		fprintf(stderr, "dmo plot: no layer of %s on '%s' has an event file "
			"(profile with --trace=full)\n", dir, layer);
		return 2;
	}
	return untraced > 0 && !all ? 1 : 0;
}

int cmd_plot(int argc, char **argv)
{
	struct dmo_plot_request req = { .kind = DMO_PLOT_PATTERN, .format = DMO_PLOT_PNG };
	struct dmo_layer_table table = { 0 };
	const struct dmo_layer_row *row;
	const char *layer = NULL, *dir, *model = NULL, *source = NULL;
	char csv[PATH_MAX], err[1024];
	int c, rc, read_rc;

	while ((c = cmd_getopt(&command, argc, argv)) != -1) {
		switch (c) {
		case 'l':
			layer = optarg;
			break;
		case 'k':
			if (dmo_plot_kind_parse(optarg, &req.kind) != 0)
				return cmd_misuse(&command, "--kind must be pattern, bounds or "
						  "threads, not '%s'", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "png") == 0)
				req.format = DMO_PLOT_PNG;
			else if (strcmp(optarg, "svg") == 0)
				req.format = DMO_PLOT_SVG;
			else
				return cmd_misuse(&command, "--format must be png or svg, not '%s'",
						  optarg);
			break;
		case 'o':
			req.out_file = optarg;
			break;
		case OPT_PLAN:
			model = optarg;
			break;
		case OPT_OS:
			source = optarg;
			break;
		}
	}
	if (model != NULL) {
		if (optind != argc || layer != NULL || req.kind != DMO_PLOT_PATTERN)
			return cmd_misuse(&command,
					  "--plan takes a model, not a run directory or layer");
		return plot_plan(model, source ? source : "algorithmic", req.format, req.out_file);
	}
	if (source != NULL)
		return cmd_misuse(&command, "--os goes with --plan");
	if (optind != argc - 1)
		return cmd_misuse(&command, optind < argc ? "one run directory expected"
							  : "no run directory given");
	dir = argv[optind];
	if (dmo_rundir_exists(dir, err, sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		return 2;
	}
	if (dmo_rundir_recover(dir, err, sizeof err) != 0)
		fprintf(stderr, "dmo plot: %s\n", err);
	snprintf(csv, sizeof csv, "%s/" DMO_LAYERS_CSV, dir);
	read_rc = dmo_layers_csv_read(csv, &table, err, sizeof err);
	if (read_rc != 0)
		fprintf(stderr, "dmo plot: %s\n", err);
	if (read_rc < 0)
		return 2;
	if (layer != NULL && several_layers(layer)) {
		if (req.out_file != NULL) {
			dmo_layer_table_free(&table);
			return cmd_misuse(&command, "--out names one figure: with --layer '%s' each "
					  "layer's goes to DIR/layer-NNNN-KIND.FMT", layer);
		}
		rc = draw_layers(dir, &table, layer, &req);
		dmo_layer_table_free(&table);
		return rc == 0 && read_rc > 0 ? 1 : rc;
	}
	row = pick_layer(dir, &table, layer);
	if (row == NULL) {
		if (layer != NULL)
			say_no_such_layer(csv, &table, layer);
		else
			fprintf(stderr, "dmo plot: %s holds no layer-NNNN.events file "
				"(profile with --trace=full)\n", dir);
		dmo_layer_table_free(&table);
		return 2;
	}
	rc = draw_layer(dir, row, req);
	dmo_layer_table_free(&table);
	return rc != 0 ? 2 : read_rc > 0 ? 1 : 0;
}
