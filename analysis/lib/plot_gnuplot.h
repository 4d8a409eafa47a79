/* plot_gnuplot.h - how every dmo figure reaches gnuplot: a temporary folder
 * for the figure's data files, a `-e` program of assignments the template
 * reads, and one gnuplot run on a template from plots/.  Internal to
 * libdmo-plot. */
#ifndef DMO_PLOT_GNUPLOT_H
#define DMO_PLOT_GNUPLOT_H

#include <stddef.h>
#include <stdint.h>

#include "plot.h"

struct plot_gp {
	char dir[1024];    /* the figure's data folder (short: its files' paths fit PATH_MAX) */
	struct dmo_plot_output out; /* where the figure goes, copied there from dir/figure.EXT */
	unsigned width, height; /* the canvas, pixels */
	double font_scale;
	char text[65536];  /* the assignments handed to gnuplot with -e */
	size_t used;
};

/* A data folder under $TMPDIR and the assignments every template reads:
 * datadir, plotsdir, width, height (OUT's, or WIDTH x HEIGHT when it has
 * none) and fontscale; term and outfile are set for each format when it
 * is drawn.  Every output file is checked first (plot_record_check).
 * Returns NULL with a message in ERR. */
struct plot_gp *plot_gp_open(const struct dmo_plot_output *out, unsigned width, unsigned height,
			     char *err, size_t err_len);

/* Append printf-style text (an assignment ending in ';'). */
void plot_gp_add(struct plot_gp *gp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* NAME="VALUE"; VALUE may come from the profiled program (a layer name):
 * double quotes and backslashes are escaped, control characters become
 * spaces. */
void plot_gp_string(struct plot_gp *gp, const char *name, const char *value);
void plot_gp_uint(struct plot_gp *gp, const char *name, uint64_t value);
/* title="TEXT" broken at spaces into lines that fit GP's canvas at its
 * font scale (TEXT's own line breaks kept), and titlelines=their count,
 * which it returns.  Every figure's title goes through it. */
int plot_gp_title(struct plot_gp *gp, const char *text);
/* Text sizes at font scale 1, pixels: a character (an average one of
 * the sans font at plots/common.gp's size) and a line. */
#define PLOT_CHAR_PX 7.0
#define PLOT_LINE_PX 17.0
void plot_gp_double(struct plot_gp *gp, const char *name, double value);

/* Render TEMPLATE (a file of plots/) with the assignments, once per
 * format.  gnuplot's stderr goes to the data folder; its first line is
 * the error in ERR.  gnuplot writes the figures into the data folder,
 * and once all are drawn dmo copies each to its output file through
 * struct dmo_out (fs.h) and records it (plot_record_note): gnuplot
 * itself never opens a path in the user's folder, so never follows a
 * link there. */
int plot_gp_run(struct plot_gp *gp, const char *template_name, char *err, size_t err_len);

/* Remove the data folder and free GP (NULL is ignored). */
void plot_gp_close(struct plot_gp *gp);

#endif
