/* model_damage.c FILE... - the model readers on damaged copies of real
 * model files: every truncation in the first 256 bytes and at 97 points
 * after, and 200 copies with 1 to 8 bytes overwritten (a third of them with
 * a 32-bit word set to a large or negative value, the values that break
 * offsets), from a fixed seed.  Each copy is read or refused with a message
 * naming it, and what is read is sound (tests/fuzz/model_check.h).  Run
 * under Valgrind's memcheck by tests/model_damage.sh, so a read out of
 * bounds fails too.  Prints how many copies were read and refused. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz/model_check.h"

static uint64_t state = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static unsigned long accepted, refused;

static void try(const unsigned char *data, size_t len, const char *what)
{
	struct dmo_model m;
	char err[1024] = "";
	int rc = dmo_model_parse_any(data, len, what, NULL, 0, &m, err, sizeof err);

	check_model_result(rc, &m, what, err);
	if (rc == 0)
		accepted++;
	else
		refused++;
	dmo_model_free(&m);
}

static int damage(const char *path)
{
	FILE *f = fopen(path, "rb");
	unsigned char *data, *copy;
	long size;
	char what[512];

	if (f == NULL || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) != 0) {
		perror(path);
		return 1;
	}
	data = malloc((size_t)size);
	copy = malloc((size_t)size);
	if (data == NULL || copy == NULL || fread(data, 1, (size_t)size, f) != (size_t)size) {
		perror(path);
		return 1;
	}
	fclose(f);
	for (size_t len = 0; len < (size_t)size; len += len < 256 ? 1 : (size_t)size / 97 + 1) {
		/* Exactly LEN bytes allocated: memcheck sees any read past them. */
		unsigned char *cut = malloc(len ? len : 1);

		memcpy(cut, data, len);
		snprintf(what, sizeof what, "%s (truncated to %zu bytes)", path, len);
		try(cut, len, what);
		free(cut);
	}
	for (int i = 0; i < 200; i++) {
		int n = 1 + (int)(next() % 8);

		memcpy(copy, data, (size_t)size);
		for (int k = 0; k < n; k++) {
			size_t at = (size_t)(next() % (uint64_t)size);

			if (i % 3 == 0 && at + 4 <= (size_t)size) {
				uint32_t word = (uint32_t)(next() % 2 ? 0x7ffffff0u + next() % 16
								  : (uint32_t)next());
				memcpy(copy + at, &word, 4);
			} else {
				copy[at] = (unsigned char)next();
			}
		}
		snprintf(what, sizeof what, "%s (corrupted copy %d)", path, i);
		try(copy, (size_t)size, what);
	}
	free(data);
	free(copy);
	return 0;
}

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++)
		rc |= damage(argv[i]);
	printf("%lu damaged copies read, %lu refused with a message naming them\n", accepted,
	       refused);
	return rc;
}
