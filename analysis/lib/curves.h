/* curves.h - from a layer's event file to its per-step minR(i)/maxW(i)
 * curves and, independently of the tool, its exact O_s.
 *
 * Step i ends with the i-th W(O) event.  maxW(i) is the largest output end
 * (exclusive) written up to it; minR(i) the smallest input offset accessed
 * after it, a suffix minimum found by walking the events backwards on a
 * tape, so a trace of any length needs bounded RAM. */
#ifndef DMO_CURVES_H
#define DMO_CURVES_H

#include <stddef.h>
#include <stdint.h>

#include "os_reducer.h"

struct dmo_curve_point {
	uint64_t step;      /* 1-based */
	uint64_t time;      /* guest instructions at the step's write */
	uint64_t min_read;  /* in_bytes when no input access follows */
	uint64_t max_write;
};

typedef int (*dmo_curve_sink)(void *ctx, const struct dmo_curve_point *p);

struct dmo_curve_summary {
	struct dmo_reducer exact; /* every event folded in order: exact O_s */
	unsigned threads;         /* thread ids seen (255 lumps the ids from it up) */
	uint64_t any_os;          /* O_s for every interleaving (formulas.md 1b) */
	uint64_t split_os;        /* O_s for any split over threads (formulas.md 1c) */
	uint64_t events, steps;
	int incomplete;           /* the event file was never finished */
	/* The paper's form OB + min_i (minR(i) - maxW(i)), clamped, and the
	 * step that sets it (0 when no input access follows a write). */
	uint64_t curve_os;
	uint64_t critical_step;
};

/* Read EVENT_FILE, call SINK (may be NULL) for every step in order, fill
 * *SUMMARY.  SPILL_DIR holds the tape's spill file.  Returns 0, or -1 with
 * a message in ERR (or SINK's non-zero value). */
int dmo_trace_curves(const char *event_file, const char *spill_dir, dmo_curve_sink sink,
		     void *ctx, struct dmo_curve_summary *summary, char *err, size_t err_len);

#endif
