/* fs.h - the file-system helpers the analysis needs besides libc: making a
 * path with its parents (run directories, compare's and sweep's output),
 * removing a flat folder dmo made (the plot's data folder, sweep's batch
 * run folders), removing a result a command could not finish, writing a
 * result so that nothing planted in its place is followed and no reader
 * sees half of it, making a temporary folder (the plot's data, profile's
 * FIFO), and finding the program `dmo profile` is to run. */
#ifndef DMO_FS_H
#define DMO_FS_H

#include <stddef.h>
#include <stdio.h>

/* mkdir -p PATH.  Returns 0, or -1 with errno. */
int dmo_make_dirs(const char *path);

/* Remove folder DIR and the files in it (it has no subfolders), dot
 * files included; a link is removed itself, never followed (DIR too).
 * Best effort: what cannot go stays.  Only for folders dmo made. */
void dmo_remove_dir(const char *dir);

/* Every file dmo writes goes through struct dmo_out: PATH is refused when
 * something other than a regular file stands there (a symbolic link, a
 * FIFO, a device, a folder), the bytes go to a new temporary file beside
 * it (created with O_EXCL | O_NOFOLLOW, named PATH.XXXXXXXX.tmp) and
 * dmo_out_commit renames that over PATH.  A reader never sees half a file,
 * a link planted in a folder is never written through, and a failed write
 * leaves PATH as it was. */
#define DMO_FS_TEMP_SUFFIX ".tmp"
struct dmo_out {
	FILE *stream;
	char path[4096];
	char tmp[4096 + 24];
};

/* 0 when PATH does not exist or is a regular file; else -1 with ERR
 * naming it (what it is). */
int dmo_refuse_non_regular(const char *path, char *err, size_t err_len);

/* Start writing PATH.  Returns OUT->stream, or NULL with ERR. */
FILE *dmo_out_open(struct dmo_out *out, const char *path, char *err, size_t err_len);

/* Close OUT and rename it into place.  0, or -1 with ERR (the temporary
 * is removed, PATH untouched). */
int dmo_out_commit(struct dmo_out *out, char *err, size_t err_len);

/* Close OUT, keep its first LENGTH bytes (the whole rows before one that
 * could not be written) and rename them into place.  0, or -1 with ERR. */
int dmo_out_commit_cut(struct dmo_out *out, long length, char *err, size_t err_len);

/* Close OUT and remove the temporary; PATH untouched.  No-op if closed. */
void dmo_out_abandon(struct dmo_out *out);

/* Copy file FROM (written by a helper such as gnuplot in dmo's private
 * folder) to PATH through struct dmo_out. */
int dmo_out_copy(const char *from, const char *path, char *err, size_t err_len);

/* Create a fresh folder $TMPDIR/NAME.XXXXXX (/tmp without TMPDIR) and put
 * its path in DIR.  Returns 0, or -1 with a message in ERR. */
int dmo_make_temp_dir(char *dir, size_t dir_len, const char *name, char *err, size_t err_len);

/* Write LEN bytes of DATA to PATH whole, through struct dmo_out (above).
 * Returns 0, or -1 with ERR (nothing left behind). */
int dmo_write_file(const char *path, const void *data, size_t len, char *err, size_t err_len);
/* Whether PROGRAM can be run as execvp would run it: a path (a name with
 * a '/') to an executable file, or a name found so in $PATH.  Returns 0,
 * or -1 with the reason and the next step in ERR. */
int dmo_program_runnable(const char *program, char *err, size_t err_len);

/* Compare files A and B byte for byte.  Returns 1 when they hold the same
 * bytes; 0 when not, with the first offset that differs in *AT and the
 * two bytes there in DIFFER (EOF past a file's end); -1 with ERR when one
 * cannot be read. */
int dmo_same_bytes(const char *a, const char *b, long *at, int differ[2], char *err,
		   size_t err_len);

#endif
