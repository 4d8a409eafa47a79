/* plot_bounds.c - the bounds figure of a layer (plots/bounds.gp): the
 * paper's minR(i)/maxW(i) step curves, the step that sets O_s, and the
 * analytic linear bound of the layer's op spec.  Long curves are decimated
 * per step bin, keeping the step that sets O_s. */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "analytic.h"
#include "curves.h"
#include "opspec.h"
#include "plot_kinds.h"
#include "trace.h"

/* Curve points kept per step bin (first, last and the one with the
 * smallest minR - maxW), so the step that sets O_s is always drawn. */
struct bounds_prep {
	FILE *file;
	uint64_t steps, bin, rows;
	int have_bin;
	struct dmo_curve_point first, last, tight;
	int64_t best;                   /* smallest minR - maxW so far */
	struct dmo_curve_point critical;
	int have_critical;
};

static void bounds_row(struct bounds_prep *b, const struct dmo_curve_point *q)
{
	fprintf(b->file, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", q->step, q->min_read,
		q->max_write);
	b->rows++;
}

static void bounds_flush(struct bounds_prep *b)
{
	if (!b->have_bin)
		return;
	bounds_row(b, &b->first);
	if (b->tight.step != b->first.step && b->tight.step != b->last.step)
		bounds_row(b, &b->tight);
	if (b->last.step != b->first.step)
		bounds_row(b, &b->last);
}

static int64_t gap_of(const struct dmo_curve_point *q)
{
	return (int64_t)q->min_read - (int64_t)q->max_write;
}

static int bounds_sink(void *ctx, const struct dmo_curve_point *q)
{
	struct bounds_prep *b = ctx;
	uint64_t bin = b->steps > DMO_PLOT_RAW_MAX ? (q->step - 1) * DMO_PLOT_BINS / b->steps
						   : q->step;

	if (!b->have_critical || gap_of(q) < b->best) {
		b->best = gap_of(q);
		b->critical = *q;
		b->have_critical = 1;
	}
	if (!b->have_bin || bin != b->bin) {
		bounds_flush(b);
		b->bin = bin;
		b->first = b->tight = *q;
		b->have_bin = 1;
	} else if (gap_of(q) < gap_of(&b->tight)) {
		b->tight = *q;
	}
	b->last = *q;
	return ferror(b->file) ? -1 : 0;
}

/* The analytic bound of the layer's op spec, when it describes these
 * buffers and is the linear one: minR(i) >= es * (rho * i - L).  Returns 1
 * when it applies (the closed forms of formulas.md section 4 draw no line). */
static int analytic_of(const struct dmo_layer_row *row, struct dmo_geom *g,
		       struct dmo_analytic_result *an)
{
	struct dmo_opspec spec;
	char err[256];

	return row->op[0] && dmo_opspec_parse(row->op, &spec, err, sizeof err) == 0 &&
	       dmo_geom_from_spec(&spec, g) == 0 && dmo_geom_out_bytes(g) == row->out_bytes &&
	       dmo_geom_in_bytes(g) == row->in_bytes && dmo_analytic_geom(g, an) == 0 &&
	       an->linear;
}

/* DIR/curves.csv (step,min_read,max_write); B holds what was kept. */
static int write_curves(const char *event_file, const char *dir, struct bounds_prep *b,
			struct dmo_curve_summary *summary, char *err, size_t err_len)
{
	char path[PATH_MAX];
	int rc;

	snprintf(path, sizeof path, "%s/curves.csv", dir);
	b->file = fopen(path, "w");
	if (b->file == NULL) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		return -1;
	}
	fputs("step,min_read,max_write\n", b->file);
	rc = dmo_trace_curves(event_file, dir, bounds_sink, b, summary, err, err_len);
	if (rc == 0)
		bounds_flush(b);
	if ((ferror(b->file) | fclose(b->file)) && rc == 0) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		rc = -1;
	}
	return rc;
}

int plot_bounds_figure(const struct plot_kind *kind, const struct dmo_plot_request *req,
		       const struct plot_scan *s, struct plot_gp *gp,
		       struct dmo_plot_result *res, char *err, size_t err_len)
{
	struct bounds_prep b = { .steps = s->red.counts[DMO_COUNT_OUT_WRITES] };
	struct dmo_curve_summary summary;
	struct dmo_geom g;
	struct dmo_analytic_result an;
	char detail[200];
	int have_analytic = analytic_of(req->row, &g, &an);

	if (write_curves(req->event_file, gp->dir, &b, &summary, err, err_len) != 0)
		return -1;
	if (b.rows == 0) {
		snprintf(err, err_len, "layer %u has no output write: no step to plot",
			 req->row->layer);
		return -1;
	}
	res->decimated = b.steps > DMO_PLOT_RAW_MAX;
	res->points = b.rows;
	snprintf(detail, sizeof detail, "%" PRIu64 " step%s%s%s", b.steps, b.steps == 1 ? "" : "s",
		 res->decimated ? "" : ", every step drawn",
		 req->row->op[0] && !have_analytic ? ", no analytic bound (op spec unusable)" : "");
	if (res->decimated)
		snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
			 ", decimated 1:%" PRIu64 " (first, last, tightest step of %u bins)",
			 b.steps / b.rows, DMO_PLOT_BINS);
	plot_layer_header(gp, kind, req, s, detail);
	plot_gp_uint(gp, "steps", b.steps);
	/* The curve's critical step only sets O_s when a read follows a write
	 * (summary.critical_step != 0). */
	plot_gp_uint(gp, "have_critical",
		     (uint64_t)(summary.critical_step != 0 && dmo_layer_os_known(req->row)));
	plot_gp_uint(gp, "crit_step", b.critical.step);
	plot_gp_uint(gp, "crit_minr", b.critical.min_read);
	plot_gp_uint(gp, "crit_maxw", b.critical.max_write);
	plot_gp_uint(gp, "have_analytic", (uint64_t)have_analytic);
	if (have_analytic) {
		plot_gp_uint(gp, "es", g.elem_size);
		plot_gp_add(gp, "rho=%.17g;lag=%.17g;", an.rho, an.lag);
		plot_gp_uint(gp, "analytic_os", an.os);
	}
	return plot_gp_run(gp, kind->template_name, err, err_len);
}
