/* plot.h - figures of one profiled layer (`dmo plot`): its access pattern,
 * its minR/maxW bounds and its threads; of a model's plan (`dmo plot
 * --plan`); and of a formula sweep's residuals.  Rendered by gnuplot from
 * the templates in plots/, in any of PNG, SVG and PDF, each figure file
 * recorded beside it with what drew it (struct dmo_plot_output).
 *
 * The library prepares small CSV data files from the layer's event file in
 * a temporary folder and runs gnuplot on them.  Large traces are decimated
 * to per-time-bin envelopes, so a 10^7-event layer renders in seconds to a
 * small file; the events that set O_s are always drawn exactly. */
#ifndef DMO_PLOT_H
#define DMO_PLOT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "rundir.h"

enum dmo_plot_kind { DMO_PLOT_PATTERN, DMO_PLOT_BOUNDS, DMO_PLOT_THREADS };
enum dmo_plot_format { DMO_PLOT_PNG, DMO_PLOT_SVG, DMO_PLOT_PDF, DMO_PLOT_N_FORMATS };

/* Where and how a figure is written, in every format asked for.  FILE
 * less a figure extension (.png, .svg, .pdf) is the stem; each format
 * goes to STEM.EXT.  WIDTH x HEIGHT is the canvas in pixels (0: the
 * figure's default), a PDF's at 100 pixels per inch; FONT_SCALE (0: 1)
 * multiplies every font and line width.  KEY says what the figure draws
 * (the command and its input): it is recorded beside the figure in the
 * folder's DMO_PLOT_RECORD, and a file already there that another KEY
 * wrote, or that dmo did not draw, is refused unless FORCE. */
struct dmo_plot_output {
	unsigned formats; /* bits 1 << enum dmo_plot_format; 0: PNG only */
	const char *file;
	unsigned width, height;
	double font_scale;
	int force;
	const char *key;
};

#define DMO_PLOT_RECORD ".dmo-figures"

/* "png", "svg", "pdf" <-> format. */
const char *dmo_plot_format_name(enum dmo_plot_format format);
/* A comma-separated list of format names into *FORMATS (bits).  Returns 0,
 * or -1 for an unknown or empty name. */
int dmo_plot_formats_parse(const char *text, unsigned *formats);
/* The file of FORMAT for OUT: its stem and the format's extension. */
void dmo_plot_output_path(const struct dmo_plot_output *out, enum dmo_plot_format format,
			  char *path, size_t len);
/* Print the path of every format written, one a line. */
void dmo_plot_output_print(const struct dmo_plot_output *out, FILE *stream);

/* Traces up to this many events are drawn event by event; longer ones as
 * DMO_PLOT_BINS envelopes (min and max offset per time bin and series). */
#define DMO_PLOT_RAW_MAX 10000u
#define DMO_PLOT_BINS 2000u

struct dmo_plot_request {
	const char *event_file;          /* the layer's layer-NNNN.events */
	const struct dmo_layer_row *row; /* its layers.csv row (name, op spec) */
	enum dmo_plot_kind kind;
	struct dmo_plot_output out;
};

struct dmo_plot_result {
	uint64_t events;   /* events in the trace */
	uint64_t os;       /* exact O_s recomputed from the trace, bytes, as run */
	uint64_t os_safe;  /* the value shaded: by the row's safe_os_rule */
	unsigned threads;  /* thread ids in the trace */
	uint64_t points;   /* data rows handed to gnuplot */
	int decimated;     /* the figure shows envelopes, not every event/step */
};

/* "pattern", "bounds", "threads" <-> kind; parse returns -1 for others. */
const char *dmo_plot_kind_name(enum dmo_plot_kind kind);
int dmo_plot_kind_parse(const char *name, enum dmo_plot_kind *kind);

/* Render one figure with configure's gnuplot (or `gnuplot` from PATH when
 * configure found none).  Returns 0, or -1 with a message in ERR. */
int dmo_plot_render(const struct dmo_plot_request *req, struct dmo_plot_result *res,
		    char *err, size_t err_len);

struct dmo_plan;
struct dmo_model;

/* What a plan figure names besides the plan: the model as shown
 * (dmo_model_display_name), the kernels its O_s hold for, the O_s source,
 * and the peak of dmo's own placement without overlaps (drawn when the
 * greedy rule's is higher). */
struct dmo_plot_plan_info {
	const char *model_name;
	const char *kernels;
	const char *os_source;
	uint64_t peak_no_overlap;
};

/* A planned model (plots/plan.gp): the bytes live at each layer with and
 * without overlaps as steps over the peaks, the peak layer marked, and the
 * arena map of both plans, tensors labelled where their box holds the
 * name, each layer's diagonal share drawn as the strip its input and
 * output hold together.  Returns 0, or -1 with ERR. */
int dmo_plot_plan(const struct dmo_model *model, const struct dmo_plan *plan,
		  const struct dmo_plot_plan_info *info, const struct dmo_plot_output *out,
		  char *err, size_t err_len);

/* A formula sweep (plots/sweep.gp): the residual formula - exact of every
 * configuration, in bytes and in % of OB, against the configuration (its
 * varying keys as tick labels while they fit), unsafe ones (residual > 0)
 * marked.  DATA_CSV has the header config,label,out_bytes,exact_os,
 * formula_os,unsafe.  Returns 0, or -1 with ERR. */
int dmo_plot_sweep(const char *data_csv, const char *title, const char *subtitle,
		   const struct dmo_plot_output *out, char *err, size_t err_len);

#endif
