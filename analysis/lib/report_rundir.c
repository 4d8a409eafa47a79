/* report_rundir.c - `dmo report DIR` of a run directory: its layers.csv
 * (read by the library's own reader) as summary, figure and table, and per
 * layer its access pattern from the event file (--trace=full) and its
 * minR/maxW bounds from the layer-NNNN-curves.csv that dmo analyze wrote. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kernels.h"
#include "report_csv.h"
#include "report_html.h"
#include "rundir.h"
#include "trace.h"

/* Points drawn per curve: a longer curve is sampled evenly (both curves
 * are monotone in the step, so the shape survives). */
#define CURVE_POINTS 800

/* Slices of a layer's events in its access pattern: each slice draws the
 * span of offsets its input reads touched, and its output writes'. */
#define PATTERN_SLICES 400

static void summary(FILE *out, const char *dir, const struct dmo_layer_table *t)
{
	size_t ok = 0, incomplete = 0;
	uint64_t in = 0, outb = 0, os = 0;
	char text[512];

	for (size_t i = 0; i < t->count; i++) {
		const struct dmo_layer_row *r = &t->rows[i];
		ok += dmo_layer_ok(r) != 0;
		incomplete += strcmp(r->status, "incomplete") == 0;
		in += r->in_bytes;
		outb += r->out_bytes;
		os += dmo_layer_ok(r) ? dmo_layer_safe_os(r) : 0;
	}
	fputs("<h2>Summary</h2>\n<table class=\"summary\" id=\"summary\">\n", out);
	dmo_html_summary_row(out, "run directory", "dir", dir);
	snprintf(text, sizeof text, "%zu", t->count);
	dmo_html_summary_row(out, "layers", "layers", text);
	snprintf(text, sizeof text, "%zu ok, %zu incomplete, %zu failed", ok, incomplete,
		 t->count - ok - incomplete);
	dmo_html_summary_row(out, "status", "status", text);
	snprintf(text, sizeof text, "%llu", (unsigned long long)in);
	dmo_html_summary_row(out, "input bytes, all layers", "in_bytes", text);
	snprintf(text, sizeof text, "%llu", (unsigned long long)outb);
	dmo_html_summary_row(out, "output bytes, all layers", "out_bytes", text);
	snprintf(text, sizeof text, "%llu", (unsigned long long)os);
	dmo_html_summary_row(out, "safe O_s, the layers that ran ok", "safe_os_bytes", text);
	dmo_layers_rule_text(t, text, sizeof text);
	dmo_html_summary_row(out, "O_s taken", "rule", text);
	fputs("</table>\n", out);
}

/* Safe O_s and OB of every layer, as steps. */
static void os_figure(FILE *out, const struct dmo_layer_table *t)
{
	size_t n = t->count;
	double *x = calloc(n + 1, sizeof *x), *os = calloc(n + 1, sizeof *os),
	       *ob = calloc(n + 1, sizeof *ob), top = 1;

	if (x != NULL && os != NULL && ob != NULL) {
		for (size_t i = 0; i < n; i++) {
			x[i] = (double)t->rows[i].layer - 0.5; /* the step centred on its layer */
			os[i] = (double)dmo_layer_safe_os(&t->rows[i]);
			ob[i] = (double)t->rows[i].out_bytes;
			top = fmax(top, ob[i]);
		}
		struct dmo_svg_series s[] = {
			{ "OB, the output's bytes", "#888", x, ob, NULL, n, DMO_SVG_STEPS, NULL, 0 },
			{ "safe O_s", "#06c", x, os, NULL, n, DMO_SVG_STEPS, NULL, 0 },
		};
		struct dmo_svg_chart c = { "os", "Safe overlap per layer", "layer", "bytes",
					   n ? x[0] : 0.5, n ? x[n - 1] + 1 : 1.5, 0, top * 1.05, NAN,
					   NULL };
		fputs("<h2>O_s per layer</h2>\n", out);
		dmo_svg_chart(out, &c, s, 2);
	}
	free(x);
	free(os);
	free(ob);
}

/* One layer's minR(i)/maxW(i) curves, when dmo analyze wrote them. */
static void bounds_figure(FILE *out, const char *dir, const struct dmo_layer_row *r)
{
	char path[4200], id[32], title[400], err[512];
	struct dmo_csv_table t;
	struct stat st;
	int step, min_read, max_write;
	size_t n, every;

	snprintf(path, sizeof path, "%s/layer-%04u-curves.csv", dir, r->layer);
	if (lstat(path, &st) != 0 || dmo_csv_table_read(path, &t, err, sizeof err) != 0)
		return;
	step = dmo_csv_column(&t, "step");
	min_read = dmo_csv_column(&t, "min_read");
	max_write = dmo_csv_column(&t, "max_write");
	every = t.n_rows / CURVE_POINTS + 1;
	n = (t.n_rows + every - 1) / every;
	double *x = calloc(n + 1, sizeof *x), *lo = calloc(n + 1, sizeof *lo),
	       *hi = calloc(n + 1, sizeof *hi), *shifted = calloc(n + 1, sizeof *shifted);
	/* maxW(i) - (OB - O_s) stays below minR(i) and touches it where O_s
	 * is set. */
	double shift = (double)r->out_bytes - (double)dmo_layer_safe_os(r);
	if (step >= 0 && min_read >= 0 && max_write >= 0 && n > 0 && x && lo && hi && shifted) {
		for (size_t i = 0; i < n; i++) {
			size_t row = i * every;
			x[i] = strtod(dmo_csv_cell(&t, row, step), NULL);
			lo[i] = strtod(dmo_csv_cell(&t, row, min_read), NULL);
			hi[i] = strtod(dmo_csv_cell(&t, row, max_write), NULL);
			shifted[i] = hi[i] - shift;
		}
		struct dmo_svg_series s[] = {
			{ "minR(i): smallest input offset read after step i", "#06c", x, lo, NULL, n,
			  DMO_SVG_LINE, NULL, 0 },
			{ "maxW(i): largest output end written by step i", "#c60", x, hi, NULL, n,
			  DMO_SVG_LINE, NULL, 0 },
			{ "maxW(i) - (OB - O_s): touches minR(i) at the step that sets O_s", "#999",
			  x, shifted, NULL, n, DMO_SVG_LINE, NULL, 0 },
		};
		snprintf(id, sizeof id, "bounds-%u", r->layer);
		snprintf(title, sizeof title, "Layer %u %s: bounds (O_s %llu of OB %llu)", r->layer,
			 r->name, (unsigned long long)dmo_layer_safe_os(r),
			 (unsigned long long)r->out_bytes);
		struct dmo_svg_chart c = { id, title, "step i (output writes)", "bytes", 0, x[n - 1],
					   fmin(0, -shift),
					   fmax((double)r->in_bytes, (double)r->out_bytes) * 1.05,
					   NAN, NULL };
		dmo_svg_chart(out, &c, s, 3);
	}
	free(x);
	free(lo);
	free(hi);
	free(shifted);
	dmo_csv_table_free(&t);
}

/* The span of offsets each kind touched in one slice of events. */
struct pattern_slice {
	double low[2], high[2]; /* [0]: input reads, [1]: output writes */
	int seen[2];
};

/* Fold the events of TRACE into SLICES; 0, or -1 on a damaged file. */
static int slice_events(struct dmo_trace *trace, struct pattern_slice *slices)
{
	struct dmo_event events[4096];
	char err[512];
	size_t got;
	uint64_t i = 0;

	while (dmo_trace_read(trace, events, sizeof events / sizeof events[0], &got, err,
			      sizeof err) == 0) {
		if (got == 0)
			return 0;
		for (size_t k = 0; k < got; k++, i++) {
			const struct dmo_event *e = &events[k];
			int kind = e->flags == 0 ? 0 : e->flags == (DMO_EV_WRITE | DMO_EV_OUT) ? 1 : -1;
			struct pattern_slice *s = &slices[i * PATTERN_SLICES / trace->count];
			if (kind < 0)
				continue;
			if (!s->seen[kind] || e->offset < s->low[kind])
				s->low[kind] = e->offset;
			if (!s->seen[kind] || e->offset + e->size > s->high[kind])
				s->high[kind] = (double)e->offset + e->size;
			s->seen[kind] = 1;
		}
	}
	return -1;
}

/* One layer's access pattern, when its event file was kept: per slice of
 * events in order, the input bytes read and the output bytes written. */
static void pattern_figure(FILE *out, const char *dir, const struct dmo_layer_row *r)
{
	char path[4200], id[32], title[400], err[512];
	struct dmo_trace trace;
	struct stat st;
	struct pattern_slice *slices = calloc(PATTERN_SLICES, sizeof *slices);
	double *x = calloc(2 * PATTERN_SLICES, sizeof *x), *low = calloc(2 * PATTERN_SLICES, sizeof *low),
	       *high = calloc(2 * PATTERN_SLICES, sizeof *high);
	size_t n[2] = { 0, 0 };

	snprintf(path, sizeof path, "%s/" DMO_TRACE_FILE_FORMAT, dir, r->layer);
	if (slices == NULL || x == NULL || low == NULL || high == NULL || lstat(path, &st) != 0 ||
	    dmo_trace_open(path, &trace, err, sizeof err) != 0)
		goto out;
	if (dmo_trace_matches(&trace, r, err, sizeof err) == 0 && trace.count > 0 &&
	    slice_events(&trace, slices) == 0) {
		for (int kind = 0; kind < 2; kind++)
			for (size_t b = 0; b < PATTERN_SLICES; b++) {
				size_t at = (size_t)kind * PATTERN_SLICES + n[kind];
				if (!slices[b].seen[kind])
					continue;
				x[at] = ((double)b + 0.5) * (double)trace.count / PATTERN_SLICES;
				low[at] = slices[b].low[kind];
				high[at] = slices[b].high[kind];
				n[kind]++;
			}
		struct dmo_svg_series s[] = {
			{ "input bytes read", "#06c", x, low, high, n[0], DMO_SVG_RANGES, NULL, 0 },
			{ "output bytes written", "#c60", x + PATTERN_SLICES, low + PATTERN_SLICES,
			  high + PATTERN_SLICES, n[1], DMO_SVG_RANGES, NULL, 0 },
		};
		snprintf(id, sizeof id, "pattern-%u", r->layer);
		snprintf(title, sizeof title, "Layer %u %s: access pattern (%llu events)", r->layer,
			 r->name, (unsigned long long)trace.count);
		struct dmo_svg_chart c = { id, title, "event, in order", "offset in its buffer (bytes)",
					   0, (double)trace.count, 0,
					   fmax((double)r->in_bytes, (double)r->out_bytes) * 1.05, NAN,
					   NULL };
		dmo_svg_chart(out, &c, s, 2);
	}
	dmo_trace_close(&trace);
out:
	free(slices);
	free(x);
	free(low);
	free(high);
}

/* A layer's figures, those its files allow. */
static void layer_figures(FILE *out, const char *dir, const struct dmo_layer_row *r)
{
	fprintf(out, "<details open><summary>Layer %u ", r->layer);
	dmo_html_text(out, r->name);
	fputs("</summary>\n", out);
	pattern_figure(out, dir, r);
	bounds_figure(out, dir, r);
	fputs("</details>\n", out);
}

static void layer_table(FILE *out, const struct dmo_layer_table *t)
{
	static const char *const headers[] = { "layer", "name", "op", "status", "in_bytes",
		"out_bytes", "os_bytes", "safe_os_bytes", "safe_os_rule", "steps", "in_reads",
		"in_writes", "out_reads", "out_writes" };
	static const int numeric[] = { 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1 };

	fputs("<h2>Per layer</h2>\n<p>layers.csv's values.  Click a header to sort.</p>\n", out);
	dmo_html_table_begin(out, "layers", headers, numeric, sizeof headers / sizeof headers[0]);
	for (size_t i = 0; i < t->count; i++) {
		const struct dmo_layer_row *r = &t->rows[i];
		fputs("<tr>", out);
		dmo_html_cell_u64(out, "layer", r->layer);
		dmo_html_cell(out, "name", r->name);
		dmo_html_cell(out, "op", r->op);
		dmo_html_cell(out, "status", r->status);
		dmo_html_cell_u64(out, "in_bytes", r->in_bytes);
		dmo_html_cell_u64(out, "out_bytes", r->out_bytes);
		dmo_html_cell_u64(out, "os_bytes", r->os_bytes);
		dmo_html_cell_u64(out, "safe_os_bytes", r->safe_os_bytes);
		dmo_html_cell(out, "safe_os_rule", dmo_safe_rule_name(r->safe_rule));
		dmo_html_cell_u64(out, "steps", r->steps);
		for (int c = 0; c < 4; c++)
			dmo_html_cell_u64(out, headers[10 + c], r->counts[c]);
		fputs("</tr>\n", out);
	}
	dmo_html_table_end(out);
}

int dmo_report_rundir_page(FILE *out, const char *dir, char *err, size_t err_len)
{
	struct dmo_layer_table t;
	struct dmo_kernels k;
	char path[4200], title[4300];
	int known;

	snprintf(path, sizeof path, "%s/" DMO_LAYERS_CSV, dir);
	if (dmo_layers_csv_read(path, &t, err, err_len) < 0)
		return -1;
	known = dmo_kernels_read(dir, &k, err, err_len) >= 0;
	snprintf(title, sizeof title, "dmo report: run directory %s", dir);
	dmo_html_begin(out, title, known ? &k : NULL);
	summary(out, dir, &t);
	os_figure(out, &t);
	fputs("<h2>Figures per layer</h2>\n<p>The access pattern where the run kept a layer's "
	      "events (<code>--trace=full</code>): per slice of its events in order, the span of "
	      "input offsets read and of output offsets written.  The bounds where <code>dmo "
	      "analyze</code> wrote a layer's curves: O_s = OB + min over i of minR(i) - "
	      "maxW(i).</p>\n", out);
	for (size_t i = 0; i < t.count; i++)
		layer_figures(out, dir, &t.rows[i]);
	layer_table(out, &t);
	dmo_html_end(out);
	dmo_layer_table_free(&t);
	return 0;
}
