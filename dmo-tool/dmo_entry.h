/* dmo_entry.h - an entry point of its own for each probe (dmo_where.h):
 * two instructions that put the probe in the helper's second argument
 * register and jump to the helper.  The check in the translated code then
 * calls the entry with the accessed address alone.  VEX sets up a guarded
 * call's arguments before it tests the guard, so every check, the misses
 * included, paid for the probe's constant and its move; now only a hit
 * pays, in the entry (bench/README.md).  amd64 only, as the tool is. */
#ifndef DMO_ENTRY_H
#define DMO_ENTRY_H

#include "pub_tool_basics.h"

/* Code that calls HELPER (a function of the access's address and PROBE)
 * with PROBE as its second argument, for the life of the run.  Without
 * memory for it Valgrind stops, as on any failed allocation. */
void *dmo_entry_make(void *helper, const void *probe);

#endif
