/* name_index.c - an open-addressing hash table of names (name_index.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "name_index.h"

static size_t name_hash(const char *name, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 0x100000001b3ull;
	return (size_t)h;
}

/* The slot holding NAME, or the empty one it would take. */
static struct dmo_name_slot *slot_of(const struct dmo_name_index *index, const char *name,
				     size_t len)
{
	size_t mask = index->n_slots - 1;
	for (size_t k = name_hash(name, len) & mask;; k = (k + 1) & mask) {
		struct dmo_name_slot *s = &index->slots[k];
		if (s->name == NULL || (s->len == len && memcmp(s->name, name, len) == 0))
			return s;
	}
}

int dmo_name_index_find(const struct dmo_name_index *index, const char *name, size_t len)
{
	const struct dmo_name_slot *s;
	if (index->n_slots == 0)
		return -1;
	s = slot_of(index, name, len);
	return s->name ? s->value : -1;
}

int dmo_name_index_add(struct dmo_name_index *index, const char *name, int value)
{
	if (2 * (index->count + 1) > index->n_slots) {
		struct dmo_name_index grown = { NULL, index->n_slots ? 2 * index->n_slots : 64, 0 };
		grown.slots = calloc(grown.n_slots, sizeof *grown.slots);
		if (grown.slots == NULL)
			return -1;
		for (size_t k = 0; k < index->n_slots; k++)
			if (index->slots[k].name != NULL)
				*slot_of(&grown, index->slots[k].name, index->slots[k].len) =
					index->slots[k];
		grown.count = index->count;
		free(index->slots);
		*index = grown;
	}
	size_t len = strlen(name);
	*slot_of(index, name, len) = (struct dmo_name_slot){ name, len, value };
	index->count++;
	return 0;
}

void dmo_name_index_free(struct dmo_name_index *index)
{
	free(index->slots);
	*index = (struct dmo_name_index){ 0 };
}
