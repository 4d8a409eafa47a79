/* fuzz_layers_csv.c - libFuzzer target for the layers.csv reader: a run
 * directory may be edited by hand, so any bytes must be read or rejected
 * with a message, and an accepted table must survive a write and re-read. */
#include <assert.h>
#include <stdint.h>

#include "layers_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_layer_table table;
	char err[1024] = "";

	int rc = dmo_layers_csv_read(fuzz_file("layers.csv", data, size), &table, err, sizeof err);
	if (rc >= 0) {
		/* Rows skipped (rc 1) are named in ERR; the rest are sound. */
		assert(rc == 0 || err[0] != '\0');
		check_layer_table(&table);
		dmo_layer_table_free(&table);
	} else {
		assert(err[0] != '\0' && table.rows == NULL && table.count == 0);
	}
	return 0;
}
