/* fs.c - making and removing folders (fs.h). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
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
