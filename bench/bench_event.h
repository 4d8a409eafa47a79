/* bench_event.h - the synthetic events the tape benchmarks store (event I
 * has time I, a scattered offset, size 4 and one of the four kinds), and
 * the walk that consumes them. */
#ifndef DMO_BENCH_EVENT_H
#define DMO_BENCH_EVENT_H

#include <stdint.h>

#include "event.h"

/* Written in place field by field: every loop makes its events with this
 * one code, so the compiler's choices in building a struct do not differ
 * between the structures compared. */
static inline void make_event(struct dmo_event *e, uint64_t i)
{
	e->time = i;
	e->offset = (uint32_t)(i * 2654435761u);
	e->size = 4;
	e->flags = (uint8_t)(i & 3);
	e->tid = 0;
}

/* The consumer of a reverse walk, as the analysis's suffix minimum: the
 * lowest offset of events N-1 down to 0. */
static inline uint32_t min_offset_backwards(const struct dmo_event *e, uint64_t n)
{
	uint32_t lo = UINT32_MAX;

	while (n--)
		if (e[n].offset < lo)
			lo = e[n].offset;
	return lo;
}

#endif
