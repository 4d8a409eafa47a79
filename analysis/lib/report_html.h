/* report_html.h - `dmo report`: one self-contained HTML page (no network,
 * no other file: inline SVG, CSS and a little JavaScript) of a plan, a run
 * directory or a sweep (docs/report.md).  The page's numbers come from the
 * same library calls as the CSV files (plan_summary.h, dmo_plan_build,
 * layers.csv, a sweep's results.csv and summary.csv); every name from the
 * input is HTML-escaped. */
#ifndef DMO_REPORT_HTML_H
#define DMO_REPORT_HTML_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "kernels.h"
#include "model_table.h"
#include "plan.h"

/* ---- the pages --------------------------------------------------------- */

/* What a plan's page shows: PLAN of MODEL (MODEL_NAME as the user named
 * it), its O_s from OS_NAME, for KERNELS; NO_OVERLAP is
 * dmo_plan_peak_no_overlap's. */
struct dmo_report_plan {
	const char *model_name, *os_name;
	const struct dmo_kernels *kernels;
	const struct dmo_model *model;
	const struct dmo_plan *plan;
	uint64_t no_overlap;
};
void dmo_report_plan_page(FILE *out, const struct dmo_report_plan *r);

/* The page of run directory DIR (its layers.csv, and each layer's
 * layer-NNNN-curves.csv that dmo analyze wrote).  Returns 0, or -1 with
 * ERR (no readable layers.csv). */
int dmo_report_rundir_page(FILE *out, const char *dir, char *err, size_t err_len);

/* The page of the sweep in DIR (a sweep-KEY folder: results.csv and
 * summary.csv).  Returns 0, or -1 with ERR. */
int dmo_report_sweep_page(FILE *out, const char *dir, char *err, size_t err_len);

/* ---- the parts every page is made of (report_html.c) ------------------- */

/* TEXT with & < > " ' as entities: safe in text and in quoted attributes. */
void dmo_html_text(FILE *out, const char *text);

/* The page up to <body>'s first heading: the Content-Security-Policy
 * that forbids every load (default-src 'none'), the style, TITLE (escaped)
 * and who made the page: dmo's version and, when K is not NULL, the
 * kernels. */
void dmo_html_begin(FILE *out, const char *title, const struct dmo_kernels *k);

/* The script (sortable tables, the hover box) and the end of the page. */
void dmo_html_end(FILE *out);

/* One summary row: LABEL, VALUE (escaped) in a cell whose data-key is KEY
 * (the CSV column it equals). */
void dmo_html_summary_row(FILE *out, const char *label, const char *key, const char *value);

/* A sortable table's start: its id and the column headers, NUMERIC[i]
 * telling how column i sorts. */
void dmo_html_table_begin(FILE *out, const char *id, const char *const *headers,
			  const int *numeric, size_t n);
void dmo_html_table_end(FILE *out);
/* One cell (escaped), tagged data-col=COLUMN. */
void dmo_html_cell(FILE *out, const char *column, const char *value);
void dmo_html_cell_u64(FILE *out, const char *column, uint64_t value);

/* A line chart drawn as SVG.  RANGES: a vertical stroke at each x from y
 * to y2 (the span of offsets a slice of events touched). */
enum dmo_svg_style { DMO_SVG_STEPS, DMO_SVG_LINE, DMO_SVG_POINTS, DMO_SVG_RANGES };

struct dmo_svg_series {
	const char *name, *color;
	const double *x, *y, *y2;
	size_t n;
	enum dmo_svg_style style;
	const unsigned char *alarm; /* POINTS: 1 draws that point as an alarm, or NULL */
	int dashed;                 /* LINE, STEPS: a reference line, drawn dashed */
};

struct dmo_svg_chart {
	const char *id, *title, *xlabel, *ylabel;
	double xmin, xmax, ymin, ymax;
	double mark_x;      /* a vertical marker line at this x, or NAN */
	const char *mark_label;
};

void dmo_svg_chart(FILE *out, const struct dmo_svg_chart *c, const struct dmo_svg_series *s,
		   size_t n);

/* A tick step of 1, 2 or 5 times a power of ten giving about six ticks
 * over SPAN. */
double dmo_svg_tick_step(double span);

/* VALUE with an SI prefix (1.5 k, 12 M), into BUF. */
void dmo_si(double value, char *buf, size_t len);

#endif
