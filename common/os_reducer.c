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

uint64_t dmo_os_clamp(int have_bound, int64_t bound, uint64_t in_bytes, uint64_t out_bytes)
{
	uint64_t limit = in_bytes < out_bytes ? in_bytes : out_bytes;
	if (!have_bound || bound >= (int64_t)limit)
		return limit;
	return bound < 0 ? 0 : (uint64_t)bound;
}

uint64_t dmo_reducer_os(const struct dmo_reducer *r)
{
	return dmo_os_clamp(r->have_bound, r->min_bound, r->in_bytes, r->out_bytes);
}
