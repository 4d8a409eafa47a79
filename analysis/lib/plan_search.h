/* plan_search.h - the exact placement search of `dmo plan`: the lowest
 * arena peak over every placement of a plan's tensors that keeps its
 * invariant (docs/plan.md, "The search"), or the best one found within a
 * time limit. */
#ifndef DMO_PLAN_SEARCH_H
#define DMO_PLAN_SEARCH_H

#include <stdint.h>

#include "plan.h"

struct dmo_plan_search_result {
	int exact;           /* the search ran to the end: its answer is optimal */
	int improved;        /* OFFSETS hold a plan below INCUMBENT */
	uint64_t peak;       /* the improved plan's peak, else INCUMBENT */
	uint64_t states;     /* search states kept, summed over the steps */
};

/* Search placements of PLAN's tensors (sizes, live ranges, diagonal pairs
 * with their O_s; offsets are not read) for a peak below INCUMBENT, the
 * peak of a plan already in hand.  When one exists and the search finishes
 * within TIME_LIMIT seconds, the lowest is found, written to OFFSETS
 * (n_tensors) and the result is exact; when none exists the incumbent is
 * optimal (exact, not improved).  Past the time limit, or past its memory
 * budget, the search keeps only its most promising states: a plan it then
 * finds may improve on the incumbent but proves nothing (exact = 0).
 * WATCH (or NULL) is told as each tensor is placed.  Returns 0, -1 when out
 * of memory, or -2 when the plan it found is inconsistent (a cycle of
 * constraints: an internal error). */
int dmo_plan_search(const struct dmo_plan *plan, uint64_t incumbent, double time_limit,
		    const struct dmo_plan_watch *watch, uint64_t *offsets,
		    struct dmo_plan_search_result *result);

/* Monotonic seconds, for the time limit and the planning time. */
double dmo_plan_seconds(void);

#endif
