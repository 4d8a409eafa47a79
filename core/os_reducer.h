/* os_reducer.h - the exact safe overlap O_s of SPEC.md, computed online in
 * O(1) memory from a layer's events in program order.
 *
 * The one copy of the rule: the Valgrind tool folds events into it as they
 * happen, and the analysis folds the stored trace into it to check the tool.
 * Freestanding: no libc. */
#ifndef DMO_OS_REDUCER_H
#define DMO_OS_REDUCER_H

#include <stdint.h>

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

/* Fold one access, already clipped to its buffer: OFFSET and SIZE are in
 * bytes from the start of the buffer named by FLAGS (see event.h). */
void dmo_reducer_add(struct dmo_reducer *r, unsigned flags, uint64_t offset,
		     uint64_t size);

/* O_s in bytes: the tightest forbidding pair so far, clamped to
 * [0, min(in_bytes, out_bytes)]. */
uint64_t dmo_reducer_os(const struct dmo_reducer *r);

/* Clip the access [addr, addr+size) to the buffer [base, base+len).  Returns
 * 0 when they share no byte, else 1 with *offset and *clipped set. */
int dmo_clip(uint64_t addr, uint64_t size, uint64_t base, uint64_t len,
	     uint64_t *offset, uint64_t *clipped);

#endif
