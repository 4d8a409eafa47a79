/* os_reducer.c - online exact O_s: the cold parts (see os_reducer.h; the
 * per-event fold is inline there, since the tool runs it for every access). */
#include "os_reducer.h"
#include "event.h"

void dmo_reducer_init(struct dmo_reducer *r, uint64_t in_bytes,
		      uint64_t out_bytes)
{
	struct dmo_reducer zero = { 0 };
	*r = zero;
	r->in_bytes = in_bytes;
	r->out_bytes = out_bytes;
}

uint64_t dmo_reducer_os(const struct dmo_reducer *r)
{
	uint64_t limit = r->in_bytes < r->out_bytes ? r->in_bytes : r->out_bytes;
	if (!r->have_bound || r->min_bound >= (int64_t)limit)
		return limit;
	return r->min_bound < 0 ? 0 : (uint64_t)r->min_bound;
}
