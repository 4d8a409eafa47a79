/* plot_plan.c - the figure of a planned model (`dmo plot --plan`,
 * plots/plan.gp): the bytes live at each layer as steps, with and without
 * overlaps, over the peaks, the peak layer marked; below it the arena map
 * of each plan, every tensor a box of its live layers and its bytes,
 * coloured by role and labelled where the label fits, and each layer's
 * diagonal share drawn as the strip its input and output hold together.
 * Its numbers come from plan_view.h, as any other view of the plan's. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_view.h"
#include "plot.h"
#include "plot_gnuplot.h"

/* The layout, as fractions of the canvas: the panels span [LEFT, RIGHT]
 * across, keys go right of them.  The text sizes (pixels at font scale 1)
 * are those of plots/common.gp's fonts and plan.gp's labels, for the
 * estimate of which label fits its box. */
#define LEFT 0.08
#define RIGHT 0.76
#define LINE_PX 19.0
#define LABEL_CHAR_PX 5.6
#define LABEL_LINE_PX 11.0

/* Where each panel lies (fractions of the height, bottom and top), from
 * the canvas height: the title's three lines above, a caption line and a
 * tick line around each panel, the x label below the last. */
struct layout {
	double bottom[3], top[3];
};

static void lay_out(const struct plot_gp *gp, struct layout *lay)
{
	double line = LINE_PX * gp->font_scale / gp->height;
	double top = 1 - 4.4 * line, bottom = 3 * line;
	double gap = 3.2 * line; /* tick labels of one panel, caption of the next */
	double room = top - bottom - 2 * gap;
	double share[3] = { 0.26, 0.37, 0.37 };

	for (int p = 0; p < 3; p++) {
		lay->top[p] = top;
		lay->bottom[p] = top - room * share[p];
		top = lay->bottom[p] - gap;
	}
}

/* The role colours of plan.gp's key: model input, model output, scratch,
 * and the activations in between in two shades, told apart by tensor
 * index so that neighbours differ. */
static unsigned role_colour(const struct dmo_plan *plan, size_t t)
{
	const struct dmo_plan_tensor *tt = &plan->tensors[t];

	if (tt->model_tensor < 0)
		return 0xd9d9d9;
	if (tt->producer < 0)
		return 0xb2df8a;
	if (tt->output)
		return 0xcab2d6;
	return t % 2 ? 0xa6cee3 : 0xc6dbef;
}

/* Text safe in a CSV cell that gnuplot reads: no comma, quote or control
 * character. */
static void cell_text(char *text)
{
	for (char *c = text; *c; c++)
		if (*c == ',' || *c == '"' || *c == '\'' || (unsigned char)*c < 0x20)
			*c = ' ';
}

struct label_files {
	FILE *across, *up; /* labels written horizontally, and turned by 90 degrees */
	unsigned n_across, n_up;
};

/* Label the box of model tensor T (its centre X, Y; W x H pixels) with
 * the first of its name, the name's last '/' part and "#T" that fits,
 * across or else upwards; none when none fits. */
static void label_box(const struct plot_gp *gp, struct label_files *out, const char *name,
		      int t, double x, double y, double w, double h)
{
	char index[32];
	const char *tail = strrchr(name, '/'), *candidates[3];
	double ch = LABEL_CHAR_PX * gp->font_scale, line = LABEL_LINE_PX * gp->font_scale;

	snprintf(index, sizeof index, "#%d", t);
	candidates[0] = name;
	candidates[1] = tail && tail[1] ? tail + 1 : name;
	candidates[2] = index;
	for (int c = 0; c < 3; c++) {
		double len = ch * (double)strlen(candidates[c]) + 4;
		if (len <= w && line <= h) {
			fprintf(out->across, "%.6g,%.17g,%s\n", x, y, candidates[c]);
			out->n_across++;
			return;
		}
		if (len <= h && line <= w) {
			fprintf(out->up, "%.6g,%.17g,%s\n", x, y, candidates[c]);
			out->n_up++;
			return;
		}
	}
}

static FILE *data_file(const char *dir, const char *name, char *err, size_t err_len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f == NULL)
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
	return f;
}

static int close_data(FILE *f, const char *name, char *err, size_t err_len)
{
	if (f == NULL)
		return -1;
	if (ferror(f) | fclose(f)) {
		snprintf(err, err_len, "cannot write plot data %s", name);
		return -1;
	}
	return 0;
}

/* tensors.csv (x0,x1,plain_lo,plain_hi,dmo_lo,dmo_hi,colour: layers from
 * 1, a box from half a layer before its first to half after its last),
 * shared.csv (x0,x1,lo,hi: each layer's diagonal share in the overlap
 * plan), and the label files of both arena panels (x,y,text).  COUNTS:
 * shared strips, then labels across and up of each panel. */
static int write_arena(const struct dmo_model *model, const struct dmo_plan *plan,
		       const struct plot_gp *gp, const struct layout *lay, unsigned counts[5],
		       char *err, size_t err_len)
{
	FILE *boxes = data_file(gp->dir, "tensors.csv", err, err_len);
	FILE *shared = data_file(gp->dir, "shared.csv", err, err_len);
	struct label_files panel[2] = {
		{ data_file(gp->dir, "labels-plain.csv", err, err_len),
		  data_file(gp->dir, "labels-plain-up.csv", err, err_len), 0, 0 },
		{ data_file(gp->dir, "labels-dmo.csv", err, err_len),
		  data_file(gp->dir, "labels-dmo-up.csv", err, err_len), 0, 0 },
	};
	double px_layer = (RIGHT - LEFT) * gp->width / (double)plan->n_layers;
	double top = plan->peak_plain ? (double)plan->peak_plain * 1.02 : 1;
	char name[512];
	int rc = 0;

	if (boxes && shared && panel[0].across && panel[0].up && panel[1].across && panel[1].up) {
		for (size_t t = 0; t < plan->n_tensors; t++) {
			const struct dmo_plan_tensor *tt = &plan->tensors[t];
			int first = (tt->first < 0 ? 0 : tt->first) + 1, last = tt->last + 1;
			uint64_t lo[2] = { tt->offset_plain, tt->offset_dmo };

			fprintf(boxes, "%.1f,%.1f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%u\n",
				first - 0.5, last + 0.5, lo[0], lo[0] + tt->bytes, lo[1],
				lo[1] + tt->bytes, role_colour(plan, t));
			dmo_plan_tensor_label(model, plan, t, name, sizeof name);
			cell_text(name);
			for (int p = 0; p < 2; p++) {
				double h_px = (lay->top[p + 1] - lay->bottom[p + 1]) * gp->height;
				label_box(gp, &panel[p], name, tt->model_tensor, (first + last) / 2.0,
					  (double)lo[p] + (double)tt->bytes / 2,
					  (last - first + 1) * px_layer - 2,
					  (double)tt->bytes / top * h_px - 2);
			}
		}
		for (size_t l = 0; l < plan->n_layers; l++) {
			const struct dmo_plan_layer *pl = &plan->layers[l];
			if (pl->overlap == 0)
				continue;
			uint64_t lo = plan->tensors[pl->in].offset_dmo;
			fprintf(shared, "%.1f,%.1f,%" PRIu64 ",%" PRIu64 "\n", l + 0.5, l + 1.5, lo,
				lo + pl->overlap);
			counts[0]++;
		}
	}
	counts[1] = panel[0].n_across;
	counts[2] = panel[0].n_up;
	counts[3] = panel[1].n_across;
	counts[4] = panel[1].n_up;
	rc |= close_data(boxes, "tensors.csv", err, err_len);
	rc |= close_data(shared, "shared.csv", err, err_len);
	for (int p = 0; p < 2; p++) {
		rc |= close_data(panel[p].across, "labels", err, err_len);
		rc |= close_data(panel[p].up, "labels", err, err_len);
	}
	return rc;
}

/* use.csv (x,live,live_dmo): each layer's live bytes from half a layer
 * before it, and a last row closing the last layer's step. */
static int write_use(const struct dmo_plan *plan, const struct dmo_plan_use *use,
		     const char *dir, char *err, size_t err_len)
{
	FILE *f = data_file(dir, "use.csv", err, err_len);

	for (size_t l = 0; f != NULL && l <= plan->n_layers; l++) {
		const struct dmo_plan_use *u = &use[l < plan->n_layers ? l : l - 1];
		fprintf(f, "%.1f,%" PRIu64 ",%" PRIu64 "\n", l + 0.5, u->live, u->live_dmo);
	}
	return close_data(f, "use.csv", err, err_len);
}

/* Ticks on whole layers, at most about 25 of them: every 1, 2, 5, 10, ... */
static unsigned layer_step(size_t n_layers)
{
	unsigned step = 1;

	for (unsigned m = 0; n_layers / step > 25; m++)
		step *= m % 3 == 1 ? 5 : 2;
	return step;
}

int dmo_plot_plan(const struct dmo_model *model, const struct dmo_plan *plan,
		  const struct dmo_plot_plan_info *info, const struct dmo_plot_output *out,
		  char *err, size_t err_len)
{
	struct plot_gp *gp = plot_gp_open(out, 1200, 1000, err, err_len);
	struct dmo_plan_use *use = calloc(plan->n_layers, sizeof *use);
	struct layout lay;
	unsigned counts[5] = { 0 };
	char text[1024], name[256];
	size_t peak;
	int rc = -1;

	if (gp == NULL || use == NULL) {
		if (use == NULL)
			snprintf(err, err_len, "out of memory");
		goto out;
	}
	dmo_plan_use(plan, use);
	peak = dmo_plan_peak_layer(plan, use);
	lay_out(gp, &lay);
	if (write_use(plan, use, gp->dir, err, err_len) != 0 ||
	    write_arena(model, plan, gp, &lay, counts, err, err_len) != 0)
		goto out;
	snprintf(text, sizeof text, "%s: tensor arena over %zu layer%s (%s), O_s %s for %s kernels",
		 info->model_name, plan->n_layers, plan->n_layers == 1 ? "" : "s",
		 dmo_plan_arena_kind(plan), info->os_source, info->kernels);
	plot_gp_string(gp, "title", text);
	snprintf(text, sizeof text,
		 "peak without overlaps %" PRIu64 " B (greedy by size), %" PRIu64
		 " B (dmo's placement); with overlaps %" PRIu64 " B (-%.1f %%), lower bound %" PRIu64
		 " B, %s", plan->peak_plain, info->peak_no_overlap, plan->peak_dmo,
		 plan->peak_plain ? 100.0 * (double)(plan->peak_plain - plan->peak_dmo) /
					    (double)plan->peak_plain : 0.0,
		 plan->bound_dmo, dmo_plan_status_name(plan->status));
	plot_gp_string(gp, "subtitle", text);
	plot_gp_uint(gp, "layers", plan->n_layers);
	plot_gp_uint(gp, "xstep", layer_step(plan->n_layers));
	plot_gp_uint(gp, "peakplain", plan->peak_plain);
	plot_gp_uint(gp, "peaknoov", info->peak_no_overlap);
	plot_gp_uint(gp, "peakdmo", plan->peak_dmo);
	plot_gp_uint(gp, "peaklayer", peak + 1);
	plot_gp_uint(gp, "peaklive", use[peak].live_dmo);
	snprintf(name, sizeof name, "%s", model->layers[peak].name);
	cell_text(name);
	/* The end of a long name: where TFLite names differ. */
	snprintf(text, sizeof text, "peak layer %zu: %s%s", peak + 1, strlen(name) > 24 ? "..." : "",
		 name + (strlen(name) > 24 ? strlen(name) - 24 : 0));
	plot_gp_string(gp, "peaktitle", text);
	plot_gp_uint(gp, "nshared", counts[0]);
	plot_gp_uint(gp, "nplain", counts[1]);
	plot_gp_uint(gp, "nplainup", counts[2]);
	plot_gp_uint(gp, "ndmo", counts[3]);
	plot_gp_uint(gp, "ndmoup", counts[4]);
	plot_gp_double(gp, "lm", LEFT);
	plot_gp_double(gp, "rm", RIGHT);
	for (int p = 0; p < 3; p++) {
		char var[8];
		snprintf(var, sizeof var, "b%d", p + 1);
		plot_gp_double(gp, var, lay.bottom[p]);
		snprintf(var, sizeof var, "t%d", p + 1);
		plot_gp_double(gp, var, lay.top[p]);
	}
	rc = plot_gp_run(gp, "plan.gp", err, err_len);
out:
	free(use);
	plot_gp_close(gp);
	return rc;
}
