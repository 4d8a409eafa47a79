/* plot_record.c - the record of who drew each figure of a folder
 * (plot_record.h).  Two commands that pick the same file name (two
 * model.onnx, a --out naming another command's figure) are told apart
 * here, before any drawing. */
#include "plot_record.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fs.h"
#include "plot.h"
#include "rundir.h"

/* The record beside PATH, and PATH's name in it. */
static const char *record_of(const char *path, char *record, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL) {
		snprintf(record, len, "%s", DMO_PLOT_RECORD);
		return path;
	}
	snprintf(record, len, "%.*s/%s", (int)(slash - path), path, DMO_PLOT_RECORD);
	return slash + 1;
}

/* Does the folder of RECORD hold a run folder's marker (DMO_LOCK_FILE)? */
static int in_run_folder(const char *record)
{
	char marker[PATH_MAX + 16];
	const char *slash = strrchr(record, '/');
	struct stat info;

	snprintf(marker, sizeof marker, "%.*s" DMO_LOCK_FILE, slash ? (int)(slash - record + 1) : 0,
		 record);
	return lstat(marker, &info) == 0 && S_ISREG(info.st_mode);
}

/* The whole record file (NULL when there is none: an empty text). */
static char *read_record(const char *record)
{
	FILE *f = fopen(record, "r");
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int c;

	if (f == NULL)
		return NULL;
	mem = open_memstream(&text, &len);
	if (mem != NULL) {
		while ((c = getc(f)) != EOF)
			putc(c, mem);
		fclose(mem);
	}
	fclose(f);
	return text;
}

/* Is LINE the record of NAME? */
static int names(const char *line, const char *name)
{
	size_t n = strlen(name);

	return strncmp(line, name, n) == 0 && line[n] == '\t';
}

/* The line of NAME in TEXT (its start), or NULL. */
static const char *line_of(const char *text, const char *name)
{
	for (const char *line = text; line != NULL && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (names(line, name))
			return line;
	return NULL;
}

int plot_record_check(const char *path, const char *key, int force, char *err, size_t err_len)
{
	char record[PATH_MAX + 16], *text;
	const char *name = record_of(path, record, sizeof record), *line;
	struct stat info;
	int rc = 0;

	if (dmo_refuse_non_regular(path, err, err_len) != 0)
		return -1;
	if (force || stat(path, &info) != 0)
		return 0;
	text = read_record(record);
	line = line_of(text, name);
	if (line == NULL && strncmp(name, "layer-", 6) == 0 && in_run_folder(record)) {
		/* A run folder's files named like dmo's (layer-NNNN-*) are
		 * dmo's, its marker says: figures drawn before the record. */
	} else if (line == NULL) {
		snprintf(err, err_len, "%s exists and dmo did not draw it (no line in %s); give "
			 "--force to overwrite it, or another --out", path, record);
		rc = -1;
	} else {
		const char *was = line + strlen(name) + 1;
		size_t n = strcspn(was, "\n");
		if (strlen(key) != n || strncmp(was, key, n) != 0) {
			snprintf(err, err_len, "%s was drawn by '%.*s'; give --force to overwrite "
				 "it, or another --out", path, (int)n, was);
			rc = -1;
		}
	}
	free(text);
	return rc;
}

int plot_record_note(const char *path, const char *key, char *err, size_t err_len)
{
	char record[PATH_MAX + 16], *text;
	const char *name = record_of(path, record, sizeof record);
	struct dmo_out out;
	FILE *f;

	if (strchr(key, '\n') != NULL || strchr(name, '\n') != NULL || strchr(name, '\t') != NULL) {
		snprintf(err, err_len, "%s: a figure name or key with a line break cannot be "
			 "recorded", path);
		return -1;
	}
	text = read_record(record);
	f = dmo_out_open(&out, record, err, err_len);
	if (f == NULL) {
		free(text);
		return -1;
	}
	/* Every other figure's line as it was, then this one's. */
	for (const char *line = text; line != NULL && *line;) {
		const char *end = strchr(line, '\n');
		size_t n = end ? (size_t)(end - line) + 1 : strlen(line);
		if (!names(line, name)) {
			fwrite(line, 1, n, f);
			if (end == NULL)
				fputc('\n', f);
		}
		line += n;
	}
	fprintf(f, "%s\t%s\n", name, key);
	free(text);
	return dmo_out_commit(&out, err, err_len);
}
