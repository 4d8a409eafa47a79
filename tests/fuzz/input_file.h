/* input_file.h - for targets whose reader takes a path: the input is written
 * to a file in one temporary directory per process (under $TMPDIR, else
 * /tmp; a tmpfs there makes the fuzzer several times faster), removed at
 * exit. */
#ifndef DMO_FUZZ_INPUT_FILE_H
#define DMO_FUZZ_INPUT_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { FUZZ_LEAVES = 4, FUZZ_PATH = 4096 };

static char fuzz_dir_path[FUZZ_PATH];
static char fuzz_leaves[FUZZ_LEAVES][64];

static void fuzz_dir_remove(void)
{
	char path[FUZZ_PATH + 64];
	for (int i = 0; i < FUZZ_LEAVES && fuzz_leaves[i][0]; i++) {
		snprintf(path, sizeof path, "%s/%s", fuzz_dir_path, fuzz_leaves[i]);
		unlink(path);
	}
	rmdir(fuzz_dir_path);
}

/* The directory, made on first use.  The harness's own I/O failing is no
 * finding, so it aborts. */
static const char *fuzz_dir(void)
{
	if (fuzz_dir_path[0] == '\0') {
		const char *tmp = getenv("TMPDIR");
		snprintf(fuzz_dir_path, sizeof fuzz_dir_path, "%s/dmo-fuzz.XXXXXX",
			 tmp && tmp[0] ? tmp : "/tmp");
		if (mkdtemp(fuzz_dir_path) == NULL)
			abort();
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir_path;
}

/* Write SIZE bytes to fuzz_dir()/LEAF, replacing it; returns its path,
 * valid until the next call.  LEAF is remembered for the clean-up. */
static const char *fuzz_file(const char *leaf, const void *data, size_t size)
{
	static char path[FUZZ_PATH + 64];
	FILE *f;
	int i;

	for (i = 0; i < FUZZ_LEAVES && fuzz_leaves[i][0] && strcmp(fuzz_leaves[i], leaf) != 0; i++)
		;
	if (i == FUZZ_LEAVES || strlen(leaf) >= sizeof fuzz_leaves[i])
		abort();
	strcpy(fuzz_leaves[i], leaf);
	snprintf(path, sizeof path, "%s/%s", fuzz_dir(), leaf);
	f = fopen(path, "wb");
	if (f == NULL || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		abort();
	return path;
}

#endif
