/* plot_record.h - which command drew each figure in a folder: the record
 * file DMO_PLOT_RECORD beside the figures, one line "NAME<TAB>KEY" per
 * figure, so that a figure is overwritten only by a command drawing the
 * same thing (the same KEY), never silently by another one or over a file
 * dmo did not draw.  Internal to libdmo-plot. */
#ifndef DMO_PLOT_RECORD_H
#define DMO_PLOT_RECORD_H

#include <stddef.h>

/* 0 when PATH may be written for KEY: nothing is there, or the record
 * says KEY drew it, or FORCE, or the record does not name it and it is
 * a run folder's layer-* file (the folder holds DMO_LOCK_FILE: a figure
 * drawn before dmo kept records).  Else -1 with ERR saying who drew it (or
 * that dmo did not) and how to go on; also for a link or a folder there. */
int plot_record_check(const char *path, const char *key, int force, char *err, size_t err_len);

/* Record that KEY drew PATH (the record rewritten through struct
 * dmo_out).  Returns 0, or -1 with ERR. */
int plot_record_note(const char *path, const char *key, char *err, size_t err_len);

#endif
