/* fs.h - the two folder helpers the analysis needs besides libc: making a
 * path with its parents (run directories, compare's and sweep's output)
 * and removing a flat folder (the plot's data folder, sweep's batch run
 * folders). */
#ifndef DMO_FS_H
#define DMO_FS_H

/* mkdir -p PATH.  Returns 0, or -1 with errno. */
int dmo_make_dirs(const char *path);

/* Remove folder DIR and the files in it (it has no subfolders), dot
 * files included.  Best effort: what cannot go stays. */
void dmo_remove_dir(const char *dir);

#endif
