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
#include "kernels.h"
#include "locate.h"
#include "layer_list.h"
#include "nearest.h"
#include "model_table.h"
#include "plan.h"
#include "plan_view.h"
#include "plot.h"
#include "profile.h"
#include "rundir.h"
#include "sweep.h"
#include "trace.h"
#include "trace_format.h"

enum { OPT_PLAN = CMD_LONG_ONLY, OPT_SWEEP, OPT_OS, OPT_SIZE, OPT_FONT_SCALE, OPT_FORCE };

static const struct cmd_option options[] = {
	{ "layer", required_argument, 'l', "N|NAME|LIST|all",
	  "layer number or name in DIR/layers.csv (default: the\n"
	  "first layer with an event file); `all`, or a list of\n"
	  "numbers, ranges and names with * and ? (3,7-9,conv*,\n"
	  "as dmo profile takes): each of those layers with an\n"
	  "event file, in one call" },
	{ "kind", required_argument, 'k', "KIND",
	  "pattern, bounds or threads (default pattern)" },
	{ "format", required_argument, 'f', "LIST",
	  "png, svg, pdf or several, comma-separated (default\n"
	  "png): each format's file is written" },
	{ "size", required_argument, OPT_SIZE, "WxH",
	  "canvas in pixels (default 1200x800; a plan 1200x1000);\n"
	  "a PDF is W/100 x H/100 inches" },
	{ "font-scale", required_argument, OPT_FONT_SCALE, "F",
	  "scale every font and line by F (0.25 to 8; default 1),\n"
	  "e.g. 1.6 for a figure printed at a column's width" },
	{ "out", required_argument, 'o', "FILE",
	  "where to write it: FILE less its .png/.svg/.pdf, and\n"
	  "each format's extension (default DIR/layer-NNNN-KIND;\n"
	  "with --plan, NAME-plan-SOURCE in the current directory,\n"
	  "NAME the model's file name less its extension, or its\n"
	  "folder's name for a generic one such as model.onnx)" },
	{ "force", no_argument, OPT_FORCE, NULL,
	  "overwrite a figure file that another command drew (or\n"
	  "that dmo did not draw); without it that is refused" },
	{ "plan", required_argument, OPT_PLAN, "MODEL",
	  "draw MODEL's arena plan instead of a run's layer" },
	{ "sweep", required_argument, OPT_SWEEP, "DIR",
	  "redraw the residual figure of a dmo sweep folder\n"
	  "(OUT/sweep-KEY; default DIR/sweep.FMT)" },
	{ "os", required_argument, OPT_OS, "SOURCE",
	  "with --plan, the O_s source as in dmo plan" },
	{ NULL, 0, 0, NULL, NULL },
};

static const struct cmd_spec command = {
	.name = "plot",
	.synopsis = "DIR [--layer N|NAME|LIST|all] [--kind pattern|bounds|threads] [FIGURE OPTIONS]\n"
		    "--plan MODEL [--os SOURCE] [FIGURE OPTIONS]\n"
		    "--sweep DIR [FIGURE OPTIONS]",
	.description =
	"Draw one layer of a `dmo profile --trace=full` run directory, or each\n"
	"layer --layer all or a list asks for:\n"
	"  pattern  time against byte offset, one colour per access kind; the input\n"
	"           is drawn overlapping the output by the exact safe overlap O_s\n"
	"  bounds   the minR(i)/maxW(i) step curves, the step that sets O_s and,\n"
	"           for a layer with an op spec, the analytic linear bound\n"
	"  threads  the access pattern with one colour per thread\n"
	"The pattern and threads figures ring the two accesses that set O_s and,\n"
	"when DIR holds the layer's code locations (layer-NNNN-where.csv, as\n"
	"dmo annotate reads them), label each ring with its source line.\n"
	"\n"
	"Traces longer than 10000 events are drawn as min/max envelopes per time\n"
	"bin; the figure's subtitle says so.  An incomplete layer (the program\n"
	"ended inside it) is drawn and marked as such, with no O_s.\n"
	"\n"
	"With --plan, draw a model's plan as `dmo plan MODEL --os SOURCE` makes\n"
	"it: the bytes live at each layer with and without overlaps, the peaks\n"
	"and the peak layer, and the arena map of both plans with each layer's\n"
	"diagonal share.\n"
	"\n"
	"With --sweep, redraw a `dmo sweep` directory's figure (formula - exact\n"
	"per configuration, in bytes and in % of OB), e.g. as PDF.\n"
	"\n"
	"FIGURE OPTIONS: --format, --size, --font-scale, --out and --force.  Each\n"
	"figure written is recorded in .dmo-figures beside it with the command\n"
	"that drew it: a file of that name that another command drew, or that dmo\n"
	"did not draw, is refused unless --force.  The paths written are printed,\n"
	"one a line.\n",
	.tables = { options },
	.notes = "Environment: DMO_PLOTS_DIR (gnuplot templates).\n",
	.finding = "drawn, but bad rows of layers.csv were skipped, or layers of a\n"
		   "--layer list had no event file (named on stderr)",
};

/* The O_s SOURCE as part of a file name: "algorithmic", "analytic",
 * "measured:DIR" as "measured-" and DIR's last name; a character unsafe
 * in a file name as '_'. */
static void source_file_name(const char *source, char *buf, size_t len)
{
	const char *dir = strchr(source, ':'), *base;
	char folder[PATH_MAX];
	size_t n;

	if (dir == NULL) {
		snprintf(buf, len, "%s", source);
	} else {
		snprintf(folder, sizeof folder, "%s", dir + 1);
		for (n = strlen(folder); n > 1 && folder[n - 1] == '/'; n--)
			folder[n - 1] = '\0';
		base = strrchr(folder, '/') && strrchr(folder, '/')[1] ? strrchr(folder, '/') + 1
								       : folder;
		snprintf(buf, len, "%.*s-%s", (int)(dir - source), source, base);
	}
	for (char *c = buf; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '.' && *c != '_' && *c != '-')
			*c = '_';
}

/* `dmo plot --plan MODEL`: by default the figure is named by the model
 * and the O_s source, so that two models or two sources never pick one
 * name. */
static int plot_plan(const char *model_name, const char *source, struct dmo_plot_output *out)
{
	struct dmo_model model;
	struct dmo_plan plan;
	struct dmo_kernels kernels;
	struct dmo_plot_plan_info info;
	char path[PATH_MAX], real[PATH_MAX], name[256], file[PATH_MAX], key[2 * PATH_MAX],
		os_name[256], err[1024];
	int rc;

	if (dmo_locate_model(model_name, path, sizeof path, err, sizeof err) != 0 ||
	    dmo_kernels_of_os(source, &kernels, err, sizeof err) < 0 ||
	    dmo_plan_model(model_name, NULL, 0, source, DMO_PLAN_TIME_LIMIT, NULL, &model, &plan, err,
			   sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		return 2;
	}
	dmo_model_display_name(path, name, sizeof name);
	info = (struct dmo_plot_plan_info){ .model_name = name, .kernels = kernels.name,
					    .os_source = source };
	rc = dmo_plan_peak_no_overlap(&model, NULL, DMO_PLAN_TIME_LIMIT, &info.peak_no_overlap,
				      err, sizeof err);
	if (rc == 0 && out->file == NULL) {
		source_file_name(source, os_name, sizeof os_name);
		snprintf(file, sizeof file, "%s-plan-%s", name, os_name);
		out->file = file;
	}
	snprintf(key, sizeof key, "dmo plot --plan %s --os %s",
		 realpath(path, real) ? real : path, source);
	out->key = key;
	if (rc == 0)
		rc = dmo_plot_plan(&model, &plan, &info, out, err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "dmo plot: %s\n", err);
	else
		dmo_plot_output_print(out, stdout);
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
	char events[PATH_MAX], out[PATH_MAX], real[PATH_MAX], key[PATH_MAX + 64], err[1024];
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
	if (req.out.file == NULL) {
		snprintf(out, sizeof out, "%s/layer-%04u-%s", dir, row->layer,
			 dmo_plot_kind_name(req.kind));
		req.out.file = out;
	}
	snprintf(key, sizeof key, "dmo plot %s --layer %u --kind %s",
		 realpath(dir, real) ? real : dir, row->layer, dmo_plot_kind_name(req.kind));
	req.out.key = key;
	req.event_file = events;
	req.row = row;
	if (dmo_plot_render(&req, &res, err, sizeof err) != 0) {
		fprintf(stderr, "dmo plot: %s\n", err);
		return 2;
	}
	dmo_plot_output_print(&req.out, stdout);
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
		fprintf(stderr, "dmo plot: --layer: '%s' at '%s' is not " DMO_LAYER_LIST_ITEM
			"\n", layer, layer + bad_at);
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
	struct dmo_plot_request req = { .kind = DMO_PLOT_PATTERN };
	struct dmo_layer_table table = { 0 };
	const struct dmo_layer_row *row;
	const char *layer = NULL, *dir, *model = NULL, *source = NULL, *sweep = NULL;
	char csv[PATH_MAX], out[PATH_MAX], err[1024], *end;
	int c, rc, read_rc;
	char extra;

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
			if (dmo_plot_formats_parse(optarg, &req.out.formats) != 0)
				return cmd_misuse(&command, "--format takes png, svg, pdf or a "
						  "comma-separated list of them, not '%s'", optarg);
			break;
		case OPT_SIZE:
			if (optarg[strspn(optarg, "0123456789x")] != '\0' ||
			    sscanf(optarg, "%5ux%5u%c", &req.out.width, &req.out.height, &extra) != 2 ||
			    req.out.width < 200 || req.out.width > 10000 ||
			    req.out.height < 150 || req.out.height > 10000)
				return cmd_misuse(&command, "--size takes WIDTHxHEIGHT in pixels, "
						  "200x150 to 10000x10000, not '%s'", optarg);
			break;
		case OPT_FONT_SCALE:
			req.out.font_scale = strtod(optarg, &end);
			if (end == optarg || *end != '\0' ||
			    !(req.out.font_scale >= 0.25 && req.out.font_scale <= 8))
				return cmd_misuse(&command, "--font-scale takes a factor from 0.25 to "
						  "8, not '%s'", optarg);
			break;
		case OPT_FORCE:
			req.out.force = 1;
			break;
		case 'o':
			req.out.file = optarg;
			break;
		case OPT_PLAN:
			model = optarg;
			break;
		case OPT_SWEEP:
			sweep = optarg;
			break;
		case OPT_OS:
			source = optarg;
			break;
		}
	}
	if (sweep != NULL) {
		if (optind != argc || layer != NULL || model != NULL || source != NULL ||
		    req.kind != DMO_PLOT_PATTERN)
			return cmd_misuse(&command, "--sweep takes a sweep directory and figure "
					  "options only");
		if (dmo_sweep_plot(sweep, &req.out, err, sizeof err) != 0) {
			fprintf(stderr, "dmo plot: %s\n", err);
			return 2;
		}
		/* The default name is the sweep folder's sweep.FORMAT. */
		if (req.out.file == NULL) {
			snprintf(out, sizeof out, "%s/sweep", sweep);
			req.out.file = out;
		}
		dmo_plot_output_print(&req.out, stdout);
		return 0;
	}
	if (model != NULL) {
		if (optind != argc || layer != NULL || req.kind != DMO_PLOT_PATTERN)
			return cmd_misuse(&command,
					  "--plan takes a model, not a run directory or layer");
		return plot_plan(model, source ? source : "algorithmic", &req.out);
	}
	if (source != NULL)
		return cmd_misuse(&command, "--os goes with --plan");
	if (optind != argc - 1)
		return cmd_misuse(&command, optind < argc ? "one run directory expected"
							  : "no run directory given");
	dir = argv[optind];
	read_rc = dmo_rundir_layers(dir, "dmo plot", &table);
	if (read_rc < 0)
		return 2;
	snprintf(csv, sizeof csv, "%s/" DMO_LAYERS_CSV, dir);
	if (layer != NULL && several_layers(layer)) {
		if (req.out.file != NULL) {
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
