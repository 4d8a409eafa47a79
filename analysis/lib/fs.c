/* fs.c - making and removing folders, and unfinished results (fs.h). */
#include <dirent.h>
#include <errno.h>
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

void dmo_remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	char path[PATH_MAX];

	if (d != NULL) {
		while ((entry = readdir(d)) != NULL) {
			if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

void dmo_remove_unfinished(const char *path)
{
	struct stat st;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		unlink(path);
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
	char tmp[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;
	size_t done = 0;
	int fd, saved, bad;

	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, err_len, "%s: not a regular file (%s): refused", path,
			 S_ISLNK(st.st_mode) ? "a symbolic link" : S_ISDIR(st.st_mode) ? "a folder"
											 : "a device or pipe");
		return -1;
	}
	/* The temporary file beside PATH, so that rename never crosses file
	 * systems; mkstemp creates it new (O_EXCL), never through a link. */
	if (slash == NULL)
		snprintf(tmp, sizeof tmp, ".dmo-write.XXXXXX");
	else
		snprintf(tmp, sizeof tmp, "%.*s/.dmo-write.XXXXXX", (int)(slash - path), path);
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, err_len, "%s: cannot create a file in its folder: %s", path,
			 strerror(errno));
		return -1;
	}
	while (done < len) {
		ssize_t n = write(fd, (const char *)data + done, len - done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	bad = done < len || fchmod(fd, 0644) != 0;
	saved = bad ? errno : 0;
	if (close(fd) != 0 && !bad) {
		bad = 1;
		saved = errno;
	}
	if (!bad && rename(tmp, path) != 0) {
		bad = 1;
		saved = errno;
	}
	if (bad) {
		unlink(tmp);
		snprintf(err, err_len, "%s: %s", path, strerror(saved ? saved : EIO));
		return -1;
	}
	return 0;
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
