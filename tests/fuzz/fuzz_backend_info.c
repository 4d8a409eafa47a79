/* fuzz_backend_info.c - libFuzzer target for the backend.csv reader: a run
 * directory may be edited by hand, so any bytes must be read or rejected
 * with a message, and every accepted field must be a terminated string. */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "backend_info.h"
#include "input_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_backend_info_table table;
	char err[1024] = "";

	fuzz_file(DMO_BACKEND_INFO_CSV, data, size);
	if (dmo_backend_info_read(fuzz_dir(), &table, err, sizeof err) == 0) {
		for (size_t i = 0; i < table.count; i++) {
			const struct dmo_backend_info *r = &table.rows[i];

			assert(memchr(r->name, '\0', sizeof r->name) != NULL);
			assert(memchr(r->backend, '\0', sizeof r->backend) != NULL);
			assert(memchr(r->cpu, '\0', sizeof r->cpu) != NULL);
			assert(dmo_backend_info_find(&table, r->name) != NULL);
		}
		dmo_backend_info_free(&table);
	} else {
		assert(err[0] != '\0' && table.rows == NULL && table.count == 0);
	}
	return 0;
}
