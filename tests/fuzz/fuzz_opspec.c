/* fuzz_opspec.c - libFuzzer target for the op-spec parser: any byte string
 * must be parsed or rejected without a crash, an accepted spec must respect
 * the documented limits, and its canonical text must parse back to it. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "opspec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct dmo_opspec s, again;
	char err[128], canon[256];

	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	if (dmo_opspec_parse(text, &s, err, sizeof err) == 0) {
		assert(s.out_h > 0 && s.out_w > 0 && s.out_c > 0);
		assert(dmo_opspec_in_bytes(&s) <= (4ull << 30));
		assert(dmo_opspec_out_bytes(&s) <= (4ull << 30));
		int n = dmo_opspec_format(&s, canon, sizeof canon);
		assert(n > 0 && (size_t)n < sizeof canon);
		assert(dmo_opspec_parse(canon, &again, err, sizeof err) == 0);
		assert(memcmp(&s, &again, sizeof s) == 0);
	} else {
		assert(memchr(err, '\0', sizeof err) != NULL && err[0] != '\0');
	}
	free(text);
	return 0;
}
