/* fs.h - the file-system helpers the analysis needs besides libc: making a
 * path with its parents (run directories, compare's and sweep's output)
 * and removing a flat folder (the plot's data folder, sweep's batch run
 * folders), removing a result a command could not finish, and making a
 * temporary folder (the plot's data, profile's FIFO), writing a result
 * file whole or not at all (`dmo plan --emit-tflite`), and finding the
 * program `dmo profile` is to run. */
#ifndef DMO_FS_H
#define DMO_FS_H

#include <stddef.h>

/* mkdir -p PATH.  Returns 0, or -1 with errno. */
int dmo_make_dirs(const char *path);

/* Remove folder DIR and the files in it (it has no subfolders), dot
 * files included.  Best effort: what cannot go stays. */
void dmo_remove_dir(const char *dir);

/* Remove PATH, a result a command could not finish, if it is a regular
 * file: --output /dev/full or a link to a device is left alone. */
void dmo_remove_unfinished(const char *path);

/* Create a fresh folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR) and put
 * its path in DIR.  Returns 0, or -1 with a message in ERR. */
int dmo_make_temp_dir(char *dir, size_t dir_len, const char *name, char *err, size_t err_len);

/* Write LEN bytes of DATA to PATH: into a new temporary file in PATH's
 * folder, renamed over PATH once whole, so a reader never sees half of it
 * and nothing is written through a link.  PATH must be a regular file or
 * not exist (a symbolic link, a folder or a device is refused).  Returns
 * 0, or -1 with ERR (nothing left behind). */
int dmo_write_file(const char *path, const void *data, size_t len, char *err, size_t err_len);
/* Whether PROGRAM can be run as execvp would run it: a path (a name with
 * a '/') to an executable file, or a name found so in $PATH.  Returns 0,
 * or -1 with the reason and the next step in ERR. */
int dmo_program_runnable(const char *program, char *err, size_t err_len);

#endif
