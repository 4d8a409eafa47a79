/* locate.h - where the harness program and the model layer tables are, for
 * the `dmo` subcommands that run or read them (run, plan).
 *
 * A program running from dmo's build tree uses the freshly built
 * dmo-harness and the source tree's tables; an installed one uses
 * $(bindir)/dmo-harness and $(pkgdatadir)/models.  Both paths are compiled
 * in, so the answer never depends on the current directory. */
#ifndef DMO_LOCATE_H
#define DMO_LOCATE_H

#include <stddef.h>

/* The dmo-harness executable: $DMO_HARNESS if set, else as above.
 * Returns 0, or -1 with a message in ERR when it is not executable. */
int dmo_locate_harness(char *path, size_t len, char *err, size_t err_len);

/* The layer table for MODEL: a file path when MODEL contains '/' or ends in
 * ".csv", else NAME.csv in $DMO_MODELS_DIR if set, else in the tables
 * folder as above.  Returns 0, or -1 with a message in ERR (listing the
 * known names) when there is no such table. */
int dmo_locate_model(const char *model, char *path, size_t len, char *err,
		     size_t err_len);

#endif
