/* slab_pool.h - big blocks a destroyed tape gave back, kept for the next
 * tape of the same process.  Both worlds need it: Valgrind unmaps a freed
 * 1 MiB block, and the analysis library's huge-page slabs bypass malloc,
 * so without it every new tape (one per layer) faults all its slabs in
 * again.  A free list threaded through the blocks themselves, up to
 * MAX_BYTES; a block is taken only by a request of its own length.
 * Freestanding, and not thread-safe: the libc side locks around it. */
#ifndef DMO_SLAB_POOL_H
#define DMO_SLAB_POOL_H

#include <stddef.h>

struct dmo_pooled_block {
	struct dmo_pooled_block *next;
	size_t len;
};

struct dmo_slab_pool {
	struct dmo_pooled_block *head;
	size_t bytes, max_bytes;
};

/* A kept block of LEN bytes, or NULL. */
static inline void *dmo_slab_pool_take(struct dmo_slab_pool *pool, size_t len)
{
	struct dmo_pooled_block **link, *b;

	for (link = &pool->head; (b = *link); link = &b->next)
		if (b->len == len) {
			*link = b->next;
			pool->bytes -= len;
			return b;
		}
	return NULL;
}

/* Keep block P of LEN bytes (at least a dmo_pooled_block): 1, or 0 when
 * that would pass MAX_BYTES and the caller frees it. */
static inline int dmo_slab_pool_give(struct dmo_slab_pool *pool, void *p, size_t len)
{
	struct dmo_pooled_block *b = p;

	if (pool->bytes + len > pool->max_bytes)
		return 0;
	b->len = len;
	b->next = pool->head;
	pool->head = b;
	pool->bytes += len;
	return 1;
}

#endif
