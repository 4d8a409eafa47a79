/* fs.c - making and removing folders, writing results into them without
 * following what someone else left there, and temporary folders (fs.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <time.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fs.h"

int dmo_make_dirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0777) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(buf, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

/* Entries are removed relative to the folder's own descriptor, and the
 * folder is opened without following a link: a link planted in its place
 * or inside it loses only itself, never what it points to. */
void dmo_remove_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *entry;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((entry = readdir(d)) != NULL)
		if (strcmp(entry->d_name, ".") != 0 && strcmp(entry->d_name, "..") != 0)
			unlinkat(fd, entry->d_name, 0);
	closedir(d);
	rmdir(dir);
}

int dmo_refuse_non_regular(const char *path, char *err, size_t err_len)
{
	struct stat info;

	if (lstat(path, &info) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISREG(info.st_mode))
		return 0;
	snprintf(err, err_len, "%s is %s, not a file dmo wrote; refusing to write or remove it",
		 path, S_ISLNK(info.st_mode) ? "a symbolic link" : S_ISDIR(info.st_mode) ? "a folder"
		 : "not a regular file");
	errno = EEXIST;
	return -1;
}

/* A name no other writer picks: pid, clock and a counter. */
static void temp_name(char *tmp, size_t tmp_len, const char *path, unsigned attempt)
{
	static unsigned counter;
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(tmp, tmp_len, "%s.%08x" DMO_FS_TEMP_SUFFIX, path,
		 (unsigned)((uint32_t)getpid() * 2654435761u ^ (uint32_t)now.tv_nsec ^
			    (++counter + attempt) * 40503u));
}

FILE *dmo_out_open(struct dmo_out *out, const char *path, char *err, size_t err_len)
{
	int fd = -1;

	out->stream = NULL;
	if ((size_t)snprintf(out->path, sizeof out->path, "%s", path) >= sizeof out->path) {
		snprintf(err, err_len, "%s: %s", path, strerror(ENAMETOOLONG));
		return NULL;
	}
	if (dmo_refuse_non_regular(path, err, err_len) != 0)
		return NULL;
	/* O_EXCL and O_NOFOLLOW: the temporary is a new file of dmo's,
	 * whatever was planted under a name it might have picked. */
	for (unsigned attempt = 0; fd < 0 && attempt < 100; attempt++) {
		temp_name(out->tmp, sizeof out->tmp, path, attempt);
		fd = open(out->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	if (fd < 0 || (out->stream = fdopen(fd, "w")) == NULL) {
		snprintf(err, err_len, "cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(out->tmp);
		}
		return NULL;
	}
	return out->stream;
}

/* The whole temporary renamed over the path. */
static int place(struct dmo_out *out, char *err, size_t err_len)
{
	/* Checked again: rename would replace a link planted meanwhile (never
	 * write through it), but the user hears of it rather than losing it. */
	if (dmo_refuse_non_regular(out->path, err, err_len) != 0) {
		unlink(out->tmp);
		return -1;
	}
	if (rename(out->tmp, out->path) != 0) {
		snprintf(err, err_len, "cannot write %s: %s", out->path, strerror(errno));
		unlink(out->tmp);
		return -1;
	}
	return 0;
}

int dmo_out_commit_cut(struct dmo_out *out, long length, char *err, size_t err_len)
{
	fclose(out->stream); /* what it could not write is cut off below */
	out->stream = NULL;
	if (truncate(out->tmp, length) != 0) {
		snprintf(err, err_len, "cannot write %s: %s", out->path, strerror(errno));
		unlink(out->tmp);
		return -1;
	}
	return place(out, err, err_len);
}

int dmo_out_commit(struct dmo_out *out, char *err, size_t err_len)
{
	int failed = fflush(out->stream) != 0 || ferror(out->stream);
	int saved = errno;

	failed |= fclose(out->stream) != 0;
	if (!failed)
		saved = errno;
	out->stream = NULL;
	if (failed) {
		snprintf(err, err_len, "cannot write %s: %s", out->path,
			 saved ? strerror(saved) : "write failed");
		unlink(out->tmp);
		return -1;
	}
	return place(out, err, err_len);
}

void dmo_out_abandon(struct dmo_out *out)
{
	if (out->stream == NULL)
		return;
	fclose(out->stream);
	out->stream = NULL;
	unlink(out->tmp);
}

int dmo_out_copy(const char *from, const char *path, char *err, size_t err_len)
{
	struct dmo_out out;
	char buf[65536];
	size_t n;
	FILE *in = fopen(from, "rb");

	if (in == NULL) {
		snprintf(err, err_len, "%s: %s", from, strerror(errno));
		return -1;
	}
	if (dmo_out_open(&out, path, err, err_len) == NULL) {
		fclose(in);
		return -1;
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out.stream) != n)
			break;
	if (ferror(in)) {
		snprintf(err, err_len, "%s: read failed", from);
		fclose(in);
		dmo_out_abandon(&out);
		return -1;
	}
	fclose(in);
	return dmo_out_commit(&out, err, err_len);
}

int dmo_make_temp_dir(char *dir, size_t dir_len, const char *name, char *err, size_t err_len)
{
	const char *tmp = getenv("TMPDIR");

	if (tmp == NULL || *tmp == '\0')
		tmp = "/tmp";
	/* On failure mkdtemp leaves a random name in DIR that never existed:
	 * the message names the parent instead. */
	if ((size_t)snprintf(dir, dir_len, "%s/%s.XXXXXX", tmp, name) >= dir_len) {
		snprintf(err, err_len, "cannot create a temporary folder in %s: %s", tmp,
			 strerror(ENAMETOOLONG));
		return -1;
	}
	if (mkdtemp(dir) == NULL) {
		snprintf(err, err_len, "cannot create a temporary folder in %s: %s", tmp,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int dmo_write_file(const char *path, const void *data, size_t len, char *err, size_t err_len)
{
	struct dmo_out out;

	if (dmo_out_open(&out, path, err, err_len) == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, out.stream) != len) {
		int saved = errno;

		dmo_out_abandon(&out);
		snprintf(err, err_len, "%s: %s", path, strerror(saved ? saved : EIO));
		return -1;
	}
	return dmo_out_commit(&out, err, err_len);
}
/* 0 when PATH is an executable regular file, else the errno-like reason. */
static int executable_file(const char *path)
{
	struct stat info;

	if (stat(path, &info) != 0)
		return errno;
	if (S_ISDIR(info.st_mode))
		return EISDIR;
	if (!S_ISREG(info.st_mode) || access(path, X_OK) != 0)
		return EACCES;
	return 0;
}

int dmo_program_runnable(const char *program, char *err, size_t err_len)
{
	const char *dirs = getenv("PATH");
	char path[PATH_MAX];
	int why;

	if (strchr(program, '/') != NULL) {
		why = executable_file(program);
		if (why == 0)
			return 0;
		snprintf(err, err_len, "cannot run %s: %s%s", program, strerror(why),
			 why == EACCES ? " (not an executable file; chmod +x it, or give its "
					 "interpreter first)" : "");
		return -1;
	}
	/* As execvp: no $PATH searches the usual folders. */
	for (const char *d = dirs ? dirs : "/usr/local/bin:/bin:/usr/bin"; *d != '\0';) {
		size_t len = strcspn(d, ":");

		snprintf(path, sizeof path, "%.*s/%s", (int)(len ? len : 1), len ? d : ".",
			 program);
		if (executable_file(path) == 0)
			return 0;
		d += len + (d[len] == ':');
	}
	snprintf(err, err_len, "cannot run %s: no such program in $PATH (give its path, "
		 "e.g. ./%s)", program, program);
	return -1;
}

int dmo_same_bytes(const char *a, const char *b, long *at, int differ[2], char *err,
		   size_t err_len)
{
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, same = -1;

	*at = 0;
	if (fa != NULL && fb != NULL) {
		while ((ca = getc(fa)) == (cb = getc(fb)) && ca != EOF)
			++*at;
		same = ca == cb;
		differ[0] = ca;
		differ[1] = cb;
	} else {
		snprintf(err, err_len, "cannot read %s: %s", fa ? b : a, strerror(errno));
	}
	if (fa)
		fclose(fa);
	if (fb)
		fclose(fb);
	return same;
}
