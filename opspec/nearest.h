/* nearest.h - "did you mean": the known name closest to a misspelt one,
 * for the messages of the op-spec parser and the dmo command line.
 * libc only. */
#ifndef DMO_NEAREST_H
#define DMO_NEAREST_H

#include <stddef.h>

/* The name among NAMES[0..COUNT) (NULL entries skipped) nearest to the
 * first LEN bytes of WORD, ignoring case: fewest single-character edits
 * (insert, delete, replace, swap two neighbours), and close enough to be
 * a slip (at most a third of the longer word's length, at least 1); or
 * NULL when none is. */
const char *dmo_nearest(const char *word, size_t len, const char *const *names, size_t count);

#endif
