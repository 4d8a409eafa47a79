/* name_index.h - names to numbers in expected constant time: the model
 * readers look up every tensor or layer name a file mentions, and a
 * linear search made reading a long chain quadratic. */
#ifndef DMO_NAME_INDEX_H
#define DMO_NAME_INDEX_H

#include <stddef.h>

struct dmo_name_index {
	struct dmo_name_slot {
		const char *name; /* the caller's; NULL: an empty slot */
		size_t len;
		int value;
	} *slots;
	size_t n_slots, count; /* n_slots: 0 or a power of two above 2 * count */
};

/* The value NAME[LEN] was added with, or -1. */
int dmo_name_index_find(const struct dmo_name_index *index, const char *name, size_t len);

/* Add NAME (NUL-terminated, not in INDEX yet, kept by the caller for the
 * index's life) with VALUE >= 0.  0, or -1 when memory runs out. */
int dmo_name_index_add(struct dmo_name_index *index, const char *name, int value);

void dmo_name_index_free(struct dmo_name_index *index);

#endif
