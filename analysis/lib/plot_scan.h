/* plot_scan.h - the first pass over a layer's event file, before any figure
 * is drawn: the exact O_s as run and for any interleaving, the two events
 * that set it, the time span and the event count.  Internal to
 * libdmo-plot. */
#ifndef DMO_PLOT_SCAN_H
#define DMO_PLOT_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "os_reducer.h"
#include "event.h"

struct plot_scan {
	struct dmo_reducer red;
	/* The same events per thread: the O_s safe for every interleaving,
	 * the value the figures shade (docs/formulas.md 1b). */
	struct dmo_thread_acc slots[DMO_TID_LUMPED + 1];
	struct dmo_any_reducer any;
	uint64_t events, t_min, t_max;
	/* The events that currently hold the reducer's running extremes, and
	 * the pair (E1 before E2) that gave its smallest bound. */
	struct dmo_event wo_setter, wi_setter;
	struct dmo_event pair[2];
	int have_pair;
};

/* Scan EVENT_FILE of a layer with IN_BYTES/OUT_BYTES buffers.  Returns 0,
 * or -1 with ERR (also for a file without events: nothing to draw). */
int plot_scan_file(const char *event_file, uint64_t in_bytes, uint64_t out_bytes,
		   struct plot_scan *s, char *err, size_t err_len);

/* Feed every event of PATH, in order, to FN. */
typedef void (*plot_event_fn)(void *ctx, const struct dmo_event *e);
int plot_each_event(const char *path, plot_event_fn fn, void *ctx, char *err, size_t err_len);

#endif
