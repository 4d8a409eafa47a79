/* plot_series.h - the drawn series of an access figure (pattern, threads):
 * one CSV file per access kind or per thread and buffer, holding every
 * event, or for a long trace min/max envelopes per time bin (the
 * decimation; DMO_PLOT_RAW_MAX, DMO_PLOT_BINS).  Internal to libdmo-plot. */
#ifndef DMO_PLOT_SERIES_H
#define DMO_PLOT_SERIES_H

#include <stddef.h>
#include <stdint.h>

#include "plot_scan.h"

/* What one series holds: the events of one access kind (stems ri wi ro
 * wo), or those of one thread on one buffer (stems t<tid>-in, t<tid>-out). */
enum plot_partition { PLOT_BY_KIND, PLOT_BY_THREAD };

/* The thread ids in a trace: the tool saturates them at 255. */
#define PLOT_MAX_THREADS 256

struct plot_series_list {
	/* Stems of the files written, space-separated, input-side series
	 * apart from output-side ones: the templates draw the input first,
	 * under the output (plots/memory.gp). */
	char in_stems[PLOT_MAX_THREADS * 8];
	char out_stems[PLOT_MAX_THREADS * 9];
	char threads[PLOT_MAX_THREADS * 4]; /* PLOT_BY_THREAD: the thread ids present */
	uint64_t rows;                      /* data rows written */
	int decimated;                      /* envelopes, not events */
};

/* Write DIR/<stem>.csv (time,offset,end) for the events of EVENT_FILE,
 * scanned into S; input offsets are drawn at offset + IN_SHIFT.  Returns
 * 0, or -1 with ERR. */
int plot_series_write(const char *event_file, const char *dir, enum plot_partition how,
		      uint64_t in_shift, const struct plot_scan *s, struct plot_series_list *list,
		      char *err, size_t err_len);

#endif
