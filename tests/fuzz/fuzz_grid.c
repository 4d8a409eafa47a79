/* fuzz_grid.c - libFuzzer target for the op-spec grid parser: any byte
 * string is parsed or rejected with a "column N: " message inside the text,
 * and an accepted grid renders every configuration (the first, the last and
 * a few between are checked) as text without braces that fits its buffer. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), err[256], spec[1024];
	struct dmo_grid *grid;

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dmo_grid_parse(text, &grid, err, sizeof err) == 0) {
		uint64_t n = dmo_grid_count(grid);
		assert(n >= 1 && n <= DMO_GRID_MAX_CONFIGS);
		for (uint64_t k = 0; k < 8; k++) {
			uint64_t i = k < 4 ? k : n - 1 - (k - 4) * (n / 4);
			if (i >= n)
				continue;
			int len = dmo_grid_spec(grid, i, spec, sizeof spec);
			if (len >= 0) {
				assert((size_t)len == strlen(spec) && (size_t)len < sizeof spec);
				assert(!strchr(spec, '{') && !strchr(spec, '}'));
			}
		}
		assert(dmo_grid_spec(grid, n, spec, sizeof spec) == -1);
		dmo_grid_free(grid);
	} else {
		unsigned long column = 0;
		assert(memchr(err, '\0', sizeof err) != NULL);
		assert(strncmp(err, "column ", 7) == 0);
		column = strtoul(err + 7, NULL, 10);
		assert(column >= 1 && column <= strlen(text) + 1);
	}
	free(text);
	return 0;
}
