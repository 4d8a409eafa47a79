/* input_file.h - for targets whose reader takes a path: the input is written
 * to a file in one temporary directory per process (under $TMPDIR, else
 * /tmp; a tmpfs there makes the fuzzer several times faster), removed at
 * exit.  The harness's own I/O failing is no finding, so it aborts. */
#ifndef DMO_FUZZ_INPUT_FILE_H
#define DMO_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FUZZ_FILES = 4, FUZZ_PATH = 512 };

static char fuzz_dir_path[FUZZ_PATH];
static char fuzz_paths[FUZZ_FILES][FUZZ_PATH]; /* files made, for the clean-up */

static void fuzz_dir_remove(void)
{
	for (int i = 0; i < FUZZ_FILES && fuzz_paths[i][0]; i++)
		unlink(fuzz_paths[i]);
	rmdir(fuzz_dir_path);
}

/* The directory, made on first use. */
static const char *fuzz_dir(void)
{
	if (fuzz_dir_path[0] == '\0') {
		const char *tmp = getenv("TMPDIR");
		int n = snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/dmo-fuzz.XXXXXX",
				 tmp && tmp[0] ? tmp : "/tmp");
		if (n < 0 || n >= FUZZ_PATH - 64 || mkdtemp(fuzz_dir_path) == NULL)
			abort();
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir_path;
}

/* Write SIZE bytes to fuzz_dir()/LEAF (under 64 bytes), replacing it;
 * returns its path. */
static const char *fuzz_file(const char *leaf, const void *data, size_t size)
{
	char path[FUZZ_PATH];
	FILE *f;
	int i, n = snprintf(path, sizeof path, "%s/%s", fuzz_dir(), leaf);

	if (n < 0 || n >= FUZZ_PATH)
		abort();
	for (i = 0; i < FUZZ_FILES && fuzz_paths[i][0] && strcmp(fuzz_paths[i], path) != 0; i++)
		;
	if (i == FUZZ_FILES)
		abort();
	memcpy(fuzz_paths[i], path, (size_t)n + 1);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return fuzz_paths[i];
}

#endif
