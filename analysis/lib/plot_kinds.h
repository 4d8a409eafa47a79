/* plot_kinds.h - the figure kinds of one layer (`dmo plot --kind`): the
 * table in plot.c names each kind's template and renderer; the renderers
 * write their data files and hand gnuplot its assignments.  Internal to
 * libdmo-plot. */
#ifndef DMO_PLOT_KINDS_H
#define DMO_PLOT_KINDS_H

#include <stddef.h>

#include "plot.h"
#include "plot_gnuplot.h"
#include "plot_scan.h"
#include "plot_series.h"

struct plot_kind;

/* Render KIND of REQ's layer, scanned into S, through GP (data folder
 * open, term and output set).  Returns 0, or -1 with ERR. */
typedef int plot_render_fn(const struct plot_kind *kind, const struct dmo_plot_request *req,
			   const struct plot_scan *s, struct plot_gp *gp,
			   struct dmo_plot_result *res, char *err, size_t err_len);

struct plot_kind {
	const char *name;            /* its --kind word */
	const char *what;            /* the title's first words */
	const char *template_name;   /* in plots/ */
	enum plot_partition series;  /* access figures: how events split into series */
	plot_render_fn *render;
};

/* Time against byte offset, input moved onto the output by O_s (pattern,
 * threads; plot_memory.c, plots/memory.gp). */
plot_render_fn plot_memory_figure;
/* The minR/maxW step curves (plot_bounds.c, plots/bounds.gp). */
plot_render_fn plot_bounds_figure;

/* The O_s the figure draws: from the trace, by the row's safe_os_rule
 * (as run, any split, or every interleaving of the observed split). */
uint64_t plot_safe_os(const struct dmo_layer_row *row, const struct plot_scan *s);

/* The assignments every layer figure shares (plot.c): title (the layer;
 * its O_s, OB, IB and events; DETAIL: how the data were drawn; broken to
 * the canvas by plot_gp_title), ob, ib, os, osrun, osrule (the rule of
 * os, safe_os_rule), known, tlo, thi. */
void plot_layer_header(struct plot_gp *gp, const struct plot_kind *kind,
		       const struct dmo_plot_request *req, const struct plot_scan *s,
		       const char *detail);

#endif
