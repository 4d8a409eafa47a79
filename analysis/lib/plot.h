/* plot.h - figures of one profiled layer (`dmo plot`): its access pattern,
 * its minR/maxW bounds and its threads; and of a model's arena plan
 * (`dmo plot --plan`).  Rendered by gnuplot from the templates in plots/.
 *
 * The library prepares small CSV data files from the layer's event file in
 * a temporary folder and runs gnuplot on them.  Large traces are decimated
 * to per-time-bin envelopes, so a 10^7-event layer renders in seconds to a
 * small file; the events that set O_s are always drawn exactly. */
#ifndef DMO_PLOT_H
#define DMO_PLOT_H

#include <stddef.h>
#include <stdint.h>

#include "rundir.h"

enum dmo_plot_kind { DMO_PLOT_PATTERN, DMO_PLOT_BOUNDS, DMO_PLOT_THREADS };
enum dmo_plot_format { DMO_PLOT_PNG, DMO_PLOT_SVG };

/* Traces up to this many events are drawn event by event; longer ones as
 * DMO_PLOT_BINS envelopes (min and max offset per time bin and series). */
#define DMO_PLOT_RAW_MAX 10000u
#define DMO_PLOT_BINS 2000u

struct dmo_plot_request {
	const char *event_file;          /* the layer's layer-NNNN.events */
	const struct dmo_layer_row *row; /* its layers.csv row (name, op spec) */
	enum dmo_plot_kind kind;
	enum dmo_plot_format format;
	const char *out_file;
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

/* The arena of a planned model over its layers, without and with diagonal
 * overlaps, side by side (plots/plan.gp).  Returns 0, or -1 with ERR. */
int dmo_plot_plan(const struct dmo_plan *plan, const char *model_name,
		  enum dmo_plot_format format, const char *out_file, char *err, size_t err_len);

/* A formula sweep (plots/sweep.gp): the formula's O_s against the exact
 * one per configuration, unsafe ones marked.  DATA_CSV has the header
 * exact_os,formula_os,unsafe.  Returns 0, or -1 with ERR. */
int dmo_plot_sweep(const char *data_csv, const char *title, const char *subtitle,
		   enum dmo_plot_format format, const char *out_file, char *err, size_t err_len);

#endif
