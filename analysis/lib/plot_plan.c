/* plot_plan.c - the figure of a planned model (`dmo plot --plan`,
 * plots/plan.gp): the bytes live at each layer as steps, with and without
 * overlaps, over the peaks, the peak layer marked; below it the arena map
 * of each plan, every tensor a box of its live layers and its bytes,
 * coloured by role and labelled where the label fits, and each layer's
 * diagonal share drawn as the strip its input and output hold together.
 * Its numbers come from plan_view.h, as any other view of the plan's. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "plan_view.h"
#include "plot.h"
#include "plot_gnuplot.h"

/* Text sizes at font scale 1, pixels: a character and a line of plan.gp's
 * tensor labels, for the estimate of which label fits its box. */
#define LABEL_CHAR_PX 5.6
#define LABEL_LINE_PX 11.0
#define PANELS 3
#define MAX_KEYS 16

/* Where everything lies, fractions of the canvas from its bottom left:
 * the panels span [left, right] across (the whole width: one legend for
 * all panels stands in rows under the title, so no key covers data and
 * none takes a margin); the legend's top and rows; each panel's
 * caption line, top and bottom. */
struct layout {
	double left, right, legend_left, legend, legend_bottom;
	int rows; /* the legend's, filled column by column */
	double column; /* the legend's column width */
	double caption[PANELS], top[PANELS], bottom[PANELS];
	double ystep[PANELS]; /* bytes between y ticks: a tick label a line and a half apart */
};

/* The smallest of 1, 2, 2.5, 5 times a power of ten that is at least
 * SPAN / TICKS. */
static double tick_step(double span, int ticks)
{
	static const double nice[] = { 1, 2, 2.5, 5, 10 };
	double want = span / (ticks < 1 ? 1 : ticks), power = 1;

	while (power * 10 <= want)
		power *= 10;
	for (size_t i = 0; i < sizeof nice / sizeof nice[0]; i++)
		if (nice[i] * power >= want)
			return nice[i] * power;
	return 10 * power;
}

/* Lay the figure out on GP's canvas for the title (wrapped and handed to
 * gnuplot here) and the legend's N_KEYS entries, the longest LONGEST
 * characters.  Returns 0, or
 * -1 with ERR when the canvas leaves the panels no room at this font
 * scale. */
static int lay_out(struct plot_gp *gp, const struct dmo_plan *plan, const char *title,
		   int n_keys, size_t longest, struct layout *lay, char *err, size_t err_len)
{
	double ch = PLOT_CHAR_PX * gp->font_scale, line = PLOT_LINE_PX * gp->font_scale;
	double w = gp->width, h = gp->height, share[PANELS] = { 0.26, 0.37, 0.37 };
	double room, y;
	int title_lines = plot_gp_title(gp, title), cols;

	/* The y label and tick labels ("999.9 kB") left, half a tick label
	 * right. */
	lay->left = (2.2 * line + 9 * ch) / w;
	lay->right = 1 - 3 * ch / w;
	/* The legend spans the canvas, left of the panels too. */
	lay->legend_left = 1.5 * ch / w;
	lay->column = ((double)longest + 8) * ch / w;
	cols = (int)((lay->right - lay->legend_left) / lay->column);
	cols = cols < 1 ? 1 : cols > n_keys ? n_keys : cols;
	lay->rows = (n_keys + cols - 1) / cols;
	y = h - (title_lines + 0.8) * line;
	lay->legend = y / h;
	y -= (lay->rows * 1.3 + 1.0) * line;
	lay->legend_bottom = y / h;
	/* Each panel's caption and its tick labels below; the x label. */
	room = y - PANELS * (1.5 * line + 1.8 * line) - 1.6 * line;
	if (room < 90) {
		snprintf(err, err_len, "a %ux%u canvas leaves the plan's panels no room at font "
			 "scale %g: give a larger --size or a smaller --font-scale", gp->width,
			 gp->height, gp->font_scale);
		return -1;
	}
	for (int p = 0; p < PANELS; p++) {
		lay->caption[p] = (y - 0.8 * line) / h;
		y -= 1.5 * line;
		lay->top[p] = y / h;
		/* The live bytes reach 1.08 times the greedy peak (headroom),
		 * the arena 1.02 times. */
		lay->ystep[p] = tick_step((p == 0 ? 1.08 : 1.02) * (double)plan->peak_plain,
					  (int)(room * share[p] / (1.5 * line)));
		y -= room * share[p];
		lay->bottom[p] = y / h;
		y -= 1.8 * line;
	}
	return 0;
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

/* A placed label: its centre and half its width and height, pixels. */
struct label_box {
	double x, y, half_w, half_h;
};

struct label_files {
	FILE *across, *up; /* labels written horizontally, and turned by 90 degrees */
	unsigned n_across, n_up;
	struct label_box *placed; /* every label placed so far (one per tensor at most) */
	size_t n_placed;
};

/* Does a label at BOX cross one placed before?  (In the overlap plan the
 * boxes of a diagonal pair overlap, and so may their centres.) */
static int crosses(const struct label_files *out, const struct label_box *box)
{
	for (size_t i = 0; i < out->n_placed; i++) {
		const struct label_box *o = &out->placed[i];
		if (fabs(o->x - box->x) < o->half_w + box->half_w &&
		    fabs(o->y - box->y) < o->half_h + box->half_h)
			return 1;
	}
	return 0;
}

/* Label the box of model tensor T (its centre X, Y in layers and bytes,
 * at PX, PY pixels; W x H pixels) with the first of its name, the name's
 * last '/' part and "#T" that fits, across or else upwards, and crosses
 * no label placed before; none when none does. */
static void label_box(const struct plot_gp *gp, struct label_files *out, const char *name,
		      int t, double x, double y, double px, double py, double w, double h)
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
		struct label_box across = { px, py, len / 2, line / 2 }, up = { px, py, line / 2,
										 len / 2 };
		if (len <= w && line <= h && !crosses(out, &across)) {
			fprintf(out->across, "%.6g,%.17g,%s\n", x, y, candidates[c]);
			out->n_across++;
			out->placed[out->n_placed++] = across;
			return;
		}
		if (len <= h && line <= w && !crosses(out, &up)) {
			fprintf(out->up, "%.6g,%.17g,%s\n", x, y, candidates[c]);
			out->n_up++;
			out->placed[out->n_placed++] = up;
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
		  data_file(gp->dir, "labels-plain-up.csv", err, err_len), 0, 0,
		  calloc(plan->n_tensors, sizeof(struct label_box)), 0 },
		{ data_file(gp->dir, "labels-dmo.csv", err, err_len),
		  data_file(gp->dir, "labels-dmo-up.csv", err, err_len), 0, 0,
		  calloc(plan->n_tensors, sizeof(struct label_box)), 0 },
	};
	double px_layer = (lay->right - lay->left) * gp->width / (double)plan->n_layers;
	double top = plan->peak_plain ? (double)plan->peak_plain * 1.02 : 1;
	char name[512];
	int rc = 0;

	if (panel[0].placed == NULL || panel[1].placed == NULL)
		snprintf(err, err_len, "out of memory");
	if (boxes && shared && panel[0].across && panel[0].up && panel[1].across && panel[1].up &&
	    panel[0].placed && panel[1].placed) {
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
				double y = (double)lo[p] + (double)tt->bytes / 2;
				label_box(gp, &panel[p], name, tt->model_tensor, (first + last) / 2.0, y,
					  (first + last) / 2.0 * px_layer, y / top * h_px,
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
		rc |= panel[p].placed == NULL ? -1 : 0;
		free(panel[p].placed);
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
	char title[2048], key[4][64], var[16];
	size_t peak, longest = 0;
	int rc = -1;

	if (gp == NULL || use == NULL) {
		if (use == NULL)
			snprintf(err, err_len, "out of memory");
		goto out;
	}
	dmo_plan_use(plan, use);
	peak = dmo_plan_peak_layer(plan, use);
	snprintf(title, sizeof title,
		 "%s: arena over %zu layer%s (%s), O_s %s for %s kernels\n"
		 "peak without overlaps %" PRIu64 " B (greedy by size), %" PRIu64
		 " B (dmo's placement); with overlaps %" PRIu64 " B (%.1f %% less); bound %" PRIu64
		 " B, %s", info->model_name, plan->n_layers, plan->n_layers == 1 ? "" : "s",
		 dmo_plan_arena_kind(plan), info->os_source, info->kernels, plan->peak_plain,
		 info->peak_no_overlap, plan->peak_dmo,
		 plan->peak_plain ? 100.0 * (double)(plan->peak_plain - plan->peak_dmo) /
					    (double)plan->peak_plain : 0.0,
		 plan->bound_dmo, dmo_plan_status_name(plan->status));
	/* The legend's entries as plan.gp draws them, for the layout. */
	snprintf(key[0], sizeof key[0], "greedy peak %" PRIu64 " B", plan->peak_plain);
	snprintf(key[1], sizeof key[1], "dmo placement peak %" PRIu64 " B", info->peak_no_overlap);
	snprintf(key[2], sizeof key[2], "overlap peak %" PRIu64 " B", plan->peak_dmo);
	snprintf(key[3], sizeof key[3], "peak layer %zu", peak + 1);
	int noov = info->peak_no_overlap < plan->peak_plain;
	const char *keys[MAX_KEYS] = {
		"live, no overlaps", "live, with overlaps", key[0], key[2], key[3], "model input",
		"activation", "model output", "scratch buffer", "a layer's diagonal share",
		"labels: name or #tensor", key[1],
	};
	for (int k = 0; k < 11 + noov; k++)
		longest = strlen(keys[k]) > longest ? strlen(keys[k]) : longest;
	if (lay_out(gp, plan, title, 11 + noov, longest, &lay, err, err_len) != 0 ||
	    write_use(plan, use, gp->dir, err, err_len) != 0 ||
	    write_arena(model, plan, gp, &lay, counts, err, err_len) != 0)
		goto out;
	for (int k = 0; k < 4; k++) {
		snprintf(var, sizeof var, "key%d", k + 1);
		plot_gp_string(gp, var, key[k]);
	}
	plot_gp_uint(gp, "layers", plan->n_layers);
	plot_gp_uint(gp, "xstep", layer_step(plan->n_layers));
	plot_gp_uint(gp, "peakplain", plan->peak_plain);
	plot_gp_uint(gp, "peaknoov", info->peak_no_overlap);
	plot_gp_uint(gp, "peakdmo", plan->peak_dmo);
	plot_gp_uint(gp, "peaklayer", peak + 1);
	plot_gp_uint(gp, "peaklive", use[peak].live_dmo);
	plot_gp_uint(gp, "nshared", counts[0]);
	plot_gp_uint(gp, "nplain", counts[1]);
	plot_gp_uint(gp, "nplainup", counts[2]);
	plot_gp_uint(gp, "ndmo", counts[3]);
	plot_gp_uint(gp, "ndmoup", counts[4]);
	plot_gp_double(gp, "lm", lay.left);
	plot_gp_double(gp, "rm", lay.right);
	plot_gp_double(gp, "legend", lay.legend);
	plot_gp_double(gp, "legendleft", lay.legend_left);
	plot_gp_double(gp, "legendbottom", lay.legend_bottom);
	plot_gp_uint(gp, "rows", (uint64_t)lay.rows);
	plot_gp_double(gp, "colw", lay.column);
	for (int p = 0; p < PANELS; p++) {
		snprintf(var, sizeof var, "c%d", p + 1);
		plot_gp_double(gp, var, lay.caption[p]);
		snprintf(var, sizeof var, "b%d", p + 1);
		plot_gp_double(gp, var, lay.bottom[p]);
		snprintf(var, sizeof var, "ystep%d", p + 1);
		plot_gp_double(gp, var, lay.ystep[p]);
		snprintf(var, sizeof var, "t%d", p + 1);
		plot_gp_double(gp, var, lay.top[p]);
	}
	rc = plot_gp_run(gp, "plan.gp", err, err_len);
out:
	free(use);
	plot_gp_close(gp);
	return rc;
}
