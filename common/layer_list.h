/* layer_list.h - the layers a full trace keeps (`--layers LIST`): a comma-
 * separated list of layer numbers (counting from 1), ranges N-M, and
 * layer names, which may hold the wildcards * and ? (docs/cli.md).  The
 * list is matched as text, with no allocation, so the tool and dmo share
 * it.  Freestanding: no libc. */
#ifndef DMO_LAYER_LIST_H
#define DMO_LAYER_LIST_H

#include <stddef.h>
#include <stdint.h>

/* What an item of a list must be, for the messages that refuse one. */
#define DMO_LAYER_LIST_ITEM "a layer number, range N-M (from 1, N <= M) or name"

/* 0 when LIST is well formed, else -1 with *BAD_AT the offset of the item
 * that is not: an empty item, a range whose ends are not numbers from 1
 * with the first no larger, or the number 0. */
int dmo_layer_list_check(const char *list, size_t *bad_at);

/* Whether layer SEQ named NAME is on the well-formed LIST. */
int dmo_layer_list_has(const char *list, uint32_t seq, const char *name);

#endif
