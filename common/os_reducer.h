/* os_reducer.h - the exact safe overlap O_s of docs/definitions.md, computed online in
 * O(1) memory from a layer's events in program order.
 *
 * The one copy of the rule: the Valgrind tool folds events into it as they
 * happen, and the analysis folds the stored trace into it to check the tool.
 * Freestanding: no libc. */
#ifndef DMO_OS_REDUCER_H
#define DMO_OS_REDUCER_H

#include <stdint.h>

#include "event.h"

struct dmo_reducer {
	uint64_t in_bytes, out_bytes;
	uint64_t counts[4];     /* indexed by dmo_event_kind() */
	uint64_t max_out_write_end;  /* valid when counts[3] > 0 */
	uint64_t min_in_write_start; /* valid when counts[1] > 0 */
	int64_t min_bound;           /* valid when have_bound */
	int have_bound;
};

void dmo_reducer_init(struct dmo_reducer *r, uint64_t in_bytes,
		      uint64_t out_bytes);

/* What folding one event moved (dmo_reducer_add's result), for those who
 * point at the events that set O_s (the figures, plot_scan.c; the tool's
 * code locations, dmo-tool/dmo_where.h) without restating the rule: an
 * event that moves an extreme becomes its holder, and one that lowers the
 * bound forms the new tightest pair with the holder of the extreme it was
 * compared against: W(O)'s for an input-side event, W(I)'s for R(O). */
enum {
	DMO_MOVED_OUT_WRITE_END = 1u << 0,  /* the event holds max_out_write_end */
	DMO_MOVED_IN_WRITE_START = 1u << 1, /* the event holds min_in_write_start */
	DMO_MOVED_BOUND = 1u << 2,          /* the event ends the tightest pair */
};

/* A forbidding pair is E1 before E2 on different buffers: W(O)->R(I),
 * W(O)->W(I) or W(I)->R(O).  Each forbids every X > OB + i - o_end, where i
 * is the start of the input-side range and o_end the end of the output-side
 * one (docs/formulas.md).  For a later input access the tightest earlier
 * W(O) is the one with the largest end; for a later R(O) the tightest
 * earlier W(I) is the one with the smallest start.  So two running
 * extremes suffice.  Returns DMO_MOVED_BOUND when the pair is the
 * tightest yet, else 0. */
static inline unsigned dmo_reducer_forbid(struct dmo_reducer *r, uint64_t in_start,
					  uint64_t out_end)
{
	int64_t bound = (int64_t)r->out_bytes + (int64_t)in_start - (int64_t)out_end;
	if (r->have_bound && bound >= r->min_bound)
		return 0;
	r->min_bound = bound;
	r->have_bound = 1;
	return DMO_MOVED_BOUND;
}

/* Fold one access, already clipped to its buffer: OFFSET and SIZE are in
 * bytes from the start of the buffer named by FLAGS (see event.h).
 * Returns what it moved: DMO_MOVED_*. */
static inline unsigned dmo_reducer_add(struct dmo_reducer *r, unsigned flags, uint64_t offset,
				       uint64_t size)
{
	unsigned moved = 0;
	if (flags & DMO_EV_OUT) {
		if (flags & DMO_EV_WRITE) {
			if (r->counts[3] == 0 || offset + size > r->max_out_write_end) {
				r->max_out_write_end = offset + size;
				moved = DMO_MOVED_OUT_WRITE_END;
			}
		} else if (r->counts[1] > 0) {
			moved = dmo_reducer_forbid(r, r->min_in_write_start, offset + size);
		}
	} else {
		/* Both R(I) and W(I) conflict with an earlier W(O). */
		if (r->counts[3] > 0)
			moved = dmo_reducer_forbid(r, offset, r->max_out_write_end);
		if ((flags & DMO_EV_WRITE) &&
		    (r->counts[1] == 0 || offset < r->min_in_write_start)) {
			r->min_in_write_start = offset;
			moved |= DMO_MOVED_IN_WRITE_START;
		}
	}
	r->counts[dmo_event_kind((uint8_t)flags)]++;
	return moved;
}

/* The definition's clamp (docs/definitions.md): a tightest bound BOUND (when HAVE_BOUND) limited to
 * [0, min(IN_BYTES, OUT_BYTES)]; with no bound, the whole min. */
uint64_t dmo_os_clamp(int have_bound, int64_t bound, uint64_t in_bytes, uint64_t out_bytes);

/* O_s in bytes: the tightest forbidding pair so far, clamped to
 * [0, min(in_bytes, out_bytes)]. */
uint64_t dmo_reducer_os(const struct dmo_reducer *r);

/* ---- Any-interleaving O_s (docs/definitions.md): the value safe for every interleaving
 * of the observed per-thread sequences.  Pairs within one thread count in
 * program order; pairs across threads count in either order, so they
 * depend only on per-thread extremes and are formed once, at the end
 * (docs/formulas.md, section 1b).  O(threads) memory: one slot each. ---- */

/* Event files store the thread id in 8 bits, saturated at this value; the
 * threads it lumps together are one slot whose pairs all count in either
 * order, so the tool, which sees every id, folds them the same way. */
#define DMO_TID_LUMPED 255u

struct dmo_thread_acc {
	uint32_t tid;
	int unordered;             /* lumps several threads: no program order */
	struct dmo_reducer own;    /* this thread's events in program order */
	uint64_t min_in_start;     /* any I access; UINT64_MAX before the first */
	uint64_t max_out_read_end; /* any R(O); 0 before the first */
};

struct dmo_any_reducer {
	/* Every event in the order it ran (os_bytes).  While only one thread
	 * has been seen, that is threads[0].own, and this is not kept. */
	struct dmo_reducer ran;
	struct dmo_thread_acc *threads; /* caller's array of CAPACITY slots */
	uint32_t n_threads, capacity;
	/* The one thread seen so far, whose events take the inline path;
	 * DMO_ANY_NO_TID before the first event and once a second appears. */
	uint32_t only_tid;
	uint32_t current_tid;           /* the tid CURRENT was found for */
	struct dmo_thread_acc *current; /* NULL before the first event */
};

#define DMO_ANY_NO_TID UINT32_MAX

/* THREADS holds CAPACITY >= 1 slots; with fewer slots than threads, the
 * last slot lumps the rest (safe, maybe smaller). 256 slots never lump
 * more than DMO_TID_LUMPED already does. */
void dmo_any_init(struct dmo_any_reducer *a, uint64_t in_bytes, uint64_t out_bytes,
		  struct dmo_thread_acc *threads, uint32_t capacity);

/* One event into a thread's own state: its reducer and extremes.
 * Returns what it moved in the thread's reducer. */
static inline unsigned dmo_any_fold(struct dmo_thread_acc *t, unsigned flags, uint64_t offset,
				    uint64_t size)
{
	if (!(flags & DMO_EV_OUT)) {
		if (offset < t->min_in_start)
			t->min_in_start = offset;
	} else if (!(flags & DMO_EV_WRITE) && offset + size > t->max_out_read_end) {
		t->max_out_read_end = offset + size;
	}
	return dmo_reducer_add(&t->own, flags, offset, size);
}

/* dmo_any_add for the first event and for layers of several threads:
 * finds the thread's slot and keeps `ran`.  Out of line. */
unsigned dmo_any_add_other(struct dmo_any_reducer *a, uint32_t tid, unsigned flags,
			   uint64_t offset, uint64_t size);

/* Fold one access (as dmo_reducer_add) made by thread TID.  While one
 * thread runs the layer this costs dmo_reducer_add, the thread compare and,
 * for an input access or R(O), one extreme.  Returns what it moved in the
 * reducer of the interleaving that ran (dmo_any_ran): DMO_MOVED_*. */
static inline unsigned dmo_any_add(struct dmo_any_reducer *a, uint32_t tid, unsigned flags,
				   uint64_t offset, uint64_t size)
{
	if (tid == a->only_tid)
		return dmo_any_fold(a->threads, flags, offset, size);
	return dmo_any_add_other(a, tid, flags, offset, size);
}

/* The reducer of the interleaving that ran: its counts and O_s are the
 * layer's counts and os_bytes.  Inline: the tool asks it per access. */
static inline const struct dmo_reducer *dmo_any_ran(const struct dmo_any_reducer *a)
{
	return a->n_threads == 1 ? &a->threads[0].own : &a->ran;
}

/* O_s^any in bytes; equals dmo_reducer_os(dmo_any_ran(a)) for one thread. */
uint64_t dmo_any_os(const struct dmo_any_reducer *a);

/* ---- Any-split O_s: the value safe for every assignment of the layer's
 * accesses to threads and every interleaving (docs/formulas.md, section
 * 1c).  With two or more threads any two accesses can run in either
 * order, so no program order is kept: four extremes over all events, O(1)
 * memory.  What a work-stealing pool, which may hand any work to any
 * thread, is guaranteed. ---- */

struct dmo_split_reducer {
	uint64_t in_bytes, out_bytes;
	uint64_t min_in_start;       /* any I access; UINT64_MAX before the first */
	uint64_t min_in_write_start; /* any W(I); UINT64_MAX before the first */
	uint64_t max_out_write_end;  /* any W(O); 0 before the first */
	uint64_t max_out_read_end;   /* any R(O); 0 before the first */
	unsigned kinds_seen;         /* bit k: an event of dmo_event_kind k */
};

void dmo_split_init(struct dmo_split_reducer *r, uint64_t in_bytes, uint64_t out_bytes);

/* Fold one access, as dmo_reducer_add; the order of calls does not matter. */
static inline void dmo_split_add(struct dmo_split_reducer *r, unsigned flags, uint64_t offset,
				 uint64_t size)
{
	r->kinds_seen |= 1u << dmo_event_kind((uint8_t)flags);
	if (!(flags & DMO_EV_OUT)) {
		if (offset < r->min_in_start)
			r->min_in_start = offset;
		if ((flags & DMO_EV_WRITE) && offset < r->min_in_write_start)
			r->min_in_write_start = offset;
	} else if (flags & DMO_EV_WRITE) {
		if (offset + size > r->max_out_write_end)
			r->max_out_write_end = offset + size;
	} else if (offset + size > r->max_out_read_end) {
		r->max_out_read_end = offset + size;
	}
}

/* O_s^split in bytes. */
uint64_t dmo_split_os(const struct dmo_split_reducer *r);

/* O_s^split of the events folded into A: its thread slots already keep
 * the four extremes, so the tool's per-access path pays nothing for it. */
uint64_t dmo_any_split_os(const struct dmo_any_reducer *a);

/* Clip the access [addr, addr+size) to the buffer [base, base+len).  Returns
 * 0 when they share no byte, else 1 with *offset and *clipped set. */
static inline int dmo_clip(uint64_t addr, uint64_t size, uint64_t base, uint64_t len,
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

#endif
