/* os_reducer.c - online exact O_s (see os_reducer.h and docs/formulas.md).
 *
 * A forbidding pair is E1 before E2 on different buffers: W(O)->R(I),
 * W(O)->W(I) or W(I)->R(O).  Each forbids every X > OB + i - o_end, where i is
 * the start of the input-side range and o_end the end of the output-side one.
 * For a later input access the tightest earlier W(O) is the one with the
 * largest end; for a later R(O) the tightest earlier W(I) is the one with the
 * smallest start.  So two running extremes suffice. */
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

static void forbid(struct dmo_reducer *r, uint64_t in_start, uint64_t out_end)
{
	int64_t bound = (int64_t)r->out_bytes + (int64_t)in_start - (int64_t)out_end;
	if (!r->have_bound || bound < r->min_bound) {
		r->min_bound = bound;
		r->have_bound = 1;
	}
}

void dmo_reducer_add(struct dmo_reducer *r, unsigned flags, uint64_t offset,
		     uint64_t size)
{
	uint64_t end = offset + size;
	unsigned kind = dmo_event_kind((uint8_t)flags);

	if (flags & DMO_EV_OUT) {
		if (flags & DMO_EV_WRITE) {
			if (r->counts[3] == 0 || end > r->max_out_write_end)
				r->max_out_write_end = end;
		} else if (r->counts[1] > 0) {
			forbid(r, r->min_in_write_start, end);
		}
	} else {
		/* Both R(I) and W(I) conflict with an earlier W(O). */
		if (r->counts[3] > 0)
			forbid(r, offset, r->max_out_write_end);
		if ((flags & DMO_EV_WRITE) &&
		    (r->counts[1] == 0 || offset < r->min_in_write_start))
			r->min_in_write_start = offset;
	}
	r->counts[kind]++;
}

uint64_t dmo_reducer_os(const struct dmo_reducer *r)
{
	uint64_t limit = r->in_bytes < r->out_bytes ? r->in_bytes : r->out_bytes;
	if (!r->have_bound || r->min_bound >= (int64_t)limit)
		return limit;
	return r->min_bound < 0 ? 0 : (uint64_t)r->min_bound;
}

int dmo_clip(uint64_t addr, uint64_t size, uint64_t base, uint64_t len,
	     uint64_t *offset, uint64_t *clipped)
{
	uint64_t lo = addr > base ? addr : base;
	uint64_t end = addr + size, buf_end = base + len;
	uint64_t hi = end < buf_end ? end : buf_end;
	if (size == 0 || lo >= hi)
		return 0;
	*offset = lo - base;
	*clipped = hi - lo;
	return 1;
}
