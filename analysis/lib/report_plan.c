/* report_plan.c - `dmo report MODEL`: a plan's page.  The summary is
 * plan_summary.c's fields (the same as `dmo plan --summary`), the table
 * the plan's per-layer rows (`dmo plan --csv`), the figures live bytes per
 * layer and the arena map, one SVG rect per planned tensor. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opspec.h"
#include "plan_summary.h"
#include "report_html.h"

static const char *const summary_labels[DMO_PLAN_SUMMARY_FIELDS] = {
	"model", "kernels", "kernels' version", "O_s from", "arena", "alignment (bytes)",
	"scratch buffers", "peak without overlaps (TFLite Micro's greedy rule)",
	"peak of dmo's plan without overlaps", "peak with overlaps",
	"with overlaps, greedy by size", "with overlaps, greedy in reverse order",
	"lower bound", "bound layer", "status", "saving (bytes)",
	"saving by placement", "saving by overlap",
};

static void summary(FILE *out, const struct dmo_report_plan *r)
{
	struct dmo_plan_field fields[DMO_PLAN_SUMMARY_FIELDS];
	const struct dmo_plan *p = r->plan;
	char text[64];

	dmo_plan_summary_fields(r->model_name, r->os_name, r->kernels, p, r->no_overlap, fields);
	fputs("<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">\n", out);
	for (size_t i = 0; i < DMO_PLAN_SUMMARY_FIELDS; i++)
		dmo_html_summary_row(out, summary_labels[i], fields[i].key, fields[i].value);
	snprintf(text, sizeof text, "%.1f %%",
		 p->peak_plain ? 100.0 * (double)(p->peak_plain - p->peak_dmo) / (double)p->peak_plain
			       : 0.0);
	dmo_html_summary_row(out, "saving (% of the peak without overlaps)", "saving_pct", text);
	snprintf(text, sizeof text, "%zu", p->n_layers);
	dmo_html_summary_row(out, "layers", "layers", text);
	snprintf(text, sizeof text, "%zu", p->n_tensors);
	dmo_html_summary_row(out, "tensors planned (scratch included)", "tensors", text);
	fputs("</table>\n", out);
}

/* Live bytes per layer with and without overlaps, both peaks, the layer
 * that sets the bound. */
static void live_figure(FILE *out, const struct dmo_report_plan *r)
{
	const struct dmo_plan *p = r->plan;
	size_t n = p->n_layers;
	double *x = calloc(n, sizeof *x), *plain = calloc(n, sizeof *plain),
	       *dmo = calloc(n, sizeof *dmo);
	double ends[2] = { 0.5, (double)n + 0.5 }, peak_plain[2], peak_dmo[2], top = 0;
	char mark[64];

	if (x == NULL || plain == NULL || dmo == NULL)
		goto out;
	for (size_t l = 0; l < n; l++) {
		const struct dmo_plan_layer *pl = &p->layers[l];
		x[l] = (double)l + 0.5; /* layer l + 1's step, centred on it */
		plain[l] = (double)pl->live_bytes;
		dmo[l] = (double)(pl->live_bytes - (pl->diagonal ? pl->overlap : 0));
		top = fmax(top, plain[l]);
	}
	peak_plain[0] = peak_plain[1] = (double)p->peak_plain;
	peak_dmo[0] = peak_dmo[1] = (double)p->peak_dmo;
	top = fmax(top, (double)p->peak_plain);
	snprintf(mark, sizeof mark, "bound: layer %d", p->bound_layer + 1);
	/* The peaks first, dashed: a live curve that reaches one stays seen. */
	struct dmo_svg_series s[] = {
		{ "arena peak without overlaps", "#b60", ends, peak_plain, NULL, 2, DMO_SVG_LINE,
		  NULL, 1 },
		{ "arena peak with overlaps", "#090", ends, peak_dmo, NULL, 2, DMO_SVG_LINE, NULL, 1 },
		{ "live bytes without overlaps", "#888", x, plain, NULL, n, DMO_SVG_STEPS, NULL, 0 },
		{ "live bytes with overlaps (less each layer's shared bytes)", "#06c", x, dmo, NULL, n,
		  DMO_SVG_STEPS, NULL, 0 },
	};
	struct dmo_svg_chart c = { "live", "Live bytes per layer", "layer", "bytes", 0.5,
				   (double)n + 0.5, 0, top * 1.05, (double)p->bound_layer + 1, mark };
	fputs("<h2>Live bytes per layer</h2>\n", out);
	dmo_svg_chart(out, &c, s, sizeof s / sizeof s[0]);
out:
	free(x);
	free(plain);
	free(dmo);
}

/* The bytes each tensor shares with a neighbour on the diagonal. */
static uint64_t *shared_bytes(const struct dmo_plan *p)
{
	uint64_t *shared = calloc(p->n_tensors + 1, sizeof *shared);

	if (shared == NULL)
		return NULL;
	for (size_t l = 0; l < p->n_layers; l++) {
		const struct dmo_plan_layer *pl = &p->layers[l];
		if (pl->diagonal && pl->overlap > 0) {
			shared[pl->in] += pl->overlap;
			shared[pl->out] += pl->overlap;
		}
	}
	return shared;
}

static const char *tensor_colour(const struct dmo_plan_tensor *t, uint64_t shared)
{
	if (t->model_tensor < 0)
		return "#bbb";  /* a kernel's scratch buffer */
	if (t->producer < 0)
		return "#9ab";  /* a model input or state */
	if (t->output)
		return "#7b7";  /* a model output */
	return shared ? "#e94" : "#7ac"; /* shares bytes on a diagonal, or not */
}

/* Pixels per layer and of the arena's height. */
enum { MAP_LEFT = 70, MAP_TOP = 24, MAP_H = 360, MAP_BOTTOM = 40 };

static void map_axes(FILE *out, const struct dmo_plan *p, double w, double width, double scale)
{
	char label[32];
	size_t every = w >= 24 ? 1 : (size_t)ceil(24 / w);
	double step = dmo_svg_tick_step((double)p->peak_dmo), y;

	fprintf(out, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"#fff\" "
		"stroke=\"#888\"/>\n", MAP_LEFT, MAP_TOP, width, MAP_H);
	for (double at = 0; at <= (double)p->peak_dmo; at += step) {
		dmo_si(at, label, sizeof label);
		y = MAP_TOP + MAP_H - at * scale;
		fprintf(out, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#888\"/>"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n", MAP_LEFT - 3,
			MAP_LEFT, y, y, MAP_LEFT - 5, y + 4, label);
	}
	for (size_t l = 0; l < p->n_layers; l += every)
		fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%zu</text>\n",
			MAP_LEFT + ((double)l + 0.5) * w, MAP_TOP + MAP_H + 14, l + 1);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">layer</text>\n",
		MAP_LEFT + width / 2, MAP_TOP + MAP_H + 32);
	fprintf(out, "<text transform=\"translate(14 %d) rotate(-90)\" text-anchor=\"middle\">"
		"offset in the arena (bytes)</text>\n", MAP_TOP + MAP_H / 2);
	fprintf(out, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%d\" y2=\"%d\" stroke=\"#d00\" "
		"stroke-dasharray=\"4 3\"/>\n", MAP_LEFT + ((double)p->bound_layer + 0.5) * w,
		MAP_LEFT + ((double)p->bound_layer + 0.5) * w, MAP_TOP, MAP_TOP + MAP_H);
}

static void map_tensor(FILE *out, const struct dmo_report_plan *r, size_t t, uint64_t shared,
		       double w, double scale)
{
	const struct dmo_plan_tensor *pt = &r->plan->tensors[t];
	double x = MAP_LEFT + pt->first * w, width = (pt->last - pt->first + 1) * w,
	       h = fmax(1, (double)pt->bytes * scale),
	       y = MAP_TOP + MAP_H - (double)(pt->offset_dmo + pt->bytes) * scale;
	char name[256], tip[512];

	dmo_plan_tensor_name(r->model, r->plan, t, name, sizeof name);
	snprintf(tip, sizeof tip, "%s\ntensor %d (planned %zu), layers %d-%d%s\n%llu bytes at offset "
		 "%llu\nshares %llu bytes on a diagonal", name, pt->model_tensor, t, pt->first + 1,
		 pt->last + 1, pt->output ? " (model output)" : "", (unsigned long long)pt->bytes,
		 (unsigned long long)pt->offset_dmo, (unsigned long long)shared);
	fprintf(out, "<rect class=\"tensor\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
		"fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\" data-tensor=\"%zu\" "
		"data-index=\"%d\" data-first=\"%d\" data-last=\"%d\" data-bytes=\"%llu\" "
		"data-offset=\"%llu\" data-shared=\"%llu\" data-name=\"", x, y, width, h,
		tensor_colour(pt, shared), t, pt->model_tensor, pt->first + 1, pt->last + 1,
		(unsigned long long)pt->bytes, (unsigned long long)pt->offset_dmo,
		(unsigned long long)shared);
	dmo_html_text(out, name);
	fputs("\" data-tip=\"", out);
	dmo_html_text(out, tip);
	fputs("\"><title>", out);
	dmo_html_text(out, tip);
	fputs("</title></rect>\n", out);
	/* A label only where it fits (about 6 pixels a character). */
	if (h >= 13 && width >= 6.0 * (double)strlen(name) + 6) {
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" pointer-events=\"none\">", x + 3,
			y + h / 2 + 4);
		dmo_html_text(out, name);
		fputs("</text>\n", out);
	}
}

/* Each diagonal layer's shared bytes: the input starts X bytes before the
 * end of the output, so [offset_in, offset_in + X) is both, in that
 * layer's column only. */
static void map_shares(FILE *out, const struct dmo_plan *p, double w, double scale)
{
	for (size_t l = 0; l < p->n_layers; l++) {
		const struct dmo_plan_layer *pl = &p->layers[l];
		if (!pl->diagonal || pl->overlap == 0)
			continue;
		uint64_t at = p->tensors[pl->in].offset_dmo;
		fprintf(out, "<rect class=\"share\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\" fill=\"url(#hatch)\" stroke=\"#c00\" pointer-events=\"none\" "
			"data-layer=\"%zu\" data-bytes=\"%llu\"/>\n", MAP_LEFT + (double)l * w,
			MAP_TOP + MAP_H - (double)(at + pl->overlap) * scale, w,
			fmax(1, (double)pl->overlap * scale), l + 1,
			(unsigned long long)pl->overlap);
	}
}

static void arena_map(FILE *out, const struct dmo_report_plan *r)
{
	const struct dmo_plan *p = r->plan;
	double w = fmax(10, fmin(80, 900.0 / (double)p->n_layers)), width = w * (double)p->n_layers,
	       scale = p->peak_dmo ? (double)MAP_H / (double)p->peak_dmo : 0;
	uint64_t *shared = shared_bytes(p);

	if (shared == NULL)
		return;
	fputs("<h2>Arena map (with overlaps)</h2>\n<p>One box per planned tensor: its live range "
	      "across, its bytes up.  Blue: an activation; orange: one that shares bytes with its "
	      "layer's input or output (the hatched part, in that layer's column); green: a model "
	      "output; grey-blue: a model input; grey: a kernel's scratch buffer.  The dashed line "
	      "is the layer that sets the lower bound.  Hover for the tensor's name, index, live "
	      "range and shared bytes.</p>\n<div class=\"scroll\">\n", out);
	fprintf(out, "<svg id=\"arena\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" "
		"height=\"%d\">\n<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" "
		"patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><line x1=\"0\" y1=\"0\" x2=\"0\" "
		"y2=\"6\" stroke=\"#c00\" stroke-width=\"2\"/></pattern></defs>\n", MAP_LEFT + width + 20,
		MAP_TOP + MAP_H + MAP_BOTTOM);
	map_axes(out, p, w, width, scale);
	for (size_t t = 0; t < p->n_tensors; t++)
		map_tensor(out, r, t, shared[t], w, scale);
	map_shares(out, p, w, scale);
	fputs("</svg>\n</div>\n", out);
	free(shared);
}

/* The per-layer table: `dmo plan --csv`'s columns, one row per tensor. */
static void layer_table(FILE *out, const struct dmo_report_plan *r)
{
	static const char *const headers[] = { "layer", "name", "op", "tensor", "out_bytes",
		"live_from", "live_to", "offset_plain", "offset_dmo", "in_offset_dmo", "os_bytes",
		"diagonal", "overlap_bytes", "live_bytes" };
	static const int numeric[] = { 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	const struct dmo_plan *p = r->plan;
	char name[256];

	fputs("<h2>Per layer</h2>\n<p>One row per planned tensor, as <code>dmo plan --csv</code> "
	      "prints them (layers from 1; a row without a layer is a model input, a layer's "
	      "later result or a scratch buffer).  Click a header to sort.</p>\n", out);
	dmo_html_table_begin(out, "layers", headers, numeric, sizeof headers / sizeof headers[0]);
	for (size_t t = 0; t < p->n_tensors; t++) {
		const struct dmo_plan_tensor *pt = &p->tensors[t];
		int l = dmo_plan_layer_of(r->model, p, t);
		const struct dmo_plan_layer *pl = l >= 0 ? &p->layers[l] : NULL;
		const struct dmo_model_layer *ml = l >= 0 ? &r->model->layers[l] : NULL;

		dmo_plan_tensor_name(r->model, p, t, name, sizeof name);
		fputs("<tr>", out);
		if (pl != NULL)
			dmo_html_cell_u64(out, "layer", (uint64_t)l + 1);
		else
			dmo_html_cell(out, "layer", "");
		dmo_html_cell(out, "name", name);
		dmo_html_cell(out, "op", ml == NULL ? "" : ml->supported ? dmo_op_name(ml->op.op)
									 : ml->op_name);
		fprintf(out, "<td data-col=\"tensor\" data-v=\"%d\">%d</td>", pt->model_tensor,
			pt->model_tensor);
		dmo_html_cell_u64(out, "out_bytes", pt->bytes);
		dmo_html_cell_u64(out, "live_from", (uint64_t)pt->first + 1);
		dmo_html_cell_u64(out, "live_to", (uint64_t)pt->last + 1);
		dmo_html_cell_u64(out, "offset_plain", pt->offset_plain);
		dmo_html_cell_u64(out, "offset_dmo", pt->offset_dmo);
		if (pl != NULL && pl->in >= 0)
			dmo_html_cell_u64(out, "in_offset_dmo", p->tensors[pl->in].offset_dmo);
		else
			dmo_html_cell(out, "in_offset_dmo", "");
		if (pl != NULL) {
			dmo_html_cell_u64(out, "os_bytes", pl->os);
			dmo_html_cell_u64(out, "diagonal", (uint64_t)pl->diagonal);
			dmo_html_cell_u64(out, "overlap_bytes", pl->overlap);
			dmo_html_cell_u64(out, "live_bytes", pl->live_bytes);
		} else {
			for (int i = 0; i < 4; i++)
				dmo_html_cell(out, headers[10 + i], "");
		}
		fputs("</tr>\n", out);
	}
	dmo_html_table_end(out);
}

void dmo_report_plan_page(FILE *out, const struct dmo_report_plan *r)
{
	char title[512];

	snprintf(title, sizeof title, "dmo report: plan of %s (O_s %s)", r->model_name, r->os_name);
	dmo_html_begin(out, title, r->kernels);
	summary(out, r);
	live_figure(out, r);
	arena_map(out, r);
	layer_table(out, r);
	dmo_html_end(out);
}
