/* replay.c - main() for a fuzz harness built without libFuzzer: runs
 * LLVMFuzzerTestOneInput once on each file named on the command line, so
 * `make check` replays the seeds and past crashes with a plain compiler.
 * A broken contract aborts in the harness's assert(). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Run the harness on the file at PATH, held in an allocation of exactly
 * its size, as libFuzzer passes inputs. */
static int replay(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data = NULL;
	long size = -1;

	if (f != NULL && fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (data = malloc(size ? (size_t)size : 1)) != NULL &&
	    fread(data, 1, (size_t)size, f) == (size_t)size) {
		fclose(f);
		LLVMFuzzerTestOneInput(data, (size_t)size);
		free(data);
		return 0;
	}
	perror(path);
	free(data);
	if (f != NULL)
		fclose(f);
	return -1;
}

int main(int argc, char **argv)
{
	int status = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		if (replay(argv[i]) != 0)
			status = 1;
		else
			printf("ok: %s\n", argv[i]);
	}
	return status;
}
