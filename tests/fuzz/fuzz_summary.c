/* fuzz_summary.c - libFuzzer target for the tool-layers.bin reader: the
 * file may be truncated by a killed run or damaged, so any bytes must be
 * read, with damaged records and a partial tail skipped and named, and the
 * table of whole records must survive the layers.csv round trip dmo
 * profile puts it through. */
#include <assert.h>
#include <stdint.h>

#include "layers_check.h"
#include "summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_layer_table table;
	char err[1024] = "";

	fuzz_file(DMO_SUMMARY_FILE, data, size);
	int rc = dmo_summary_read(fuzz_dir(), &table, err, sizeof err);
	if (rc >= 0) {
		/* Whole records only; damaged ones and a partial tail are
		 * skipped (rc 1) and named in ERR. */
		assert(table.count <= size / sizeof(struct dmo_layer_summary));
		assert(rc == 1 || (size % sizeof(struct dmo_layer_summary) == 0 &&
				   table.count == size / sizeof(struct dmo_layer_summary)));
		assert(rc == 0 || err[0] != '\0');
		check_layer_table(&table);
		dmo_layer_table_free(&table);
	} else {
		assert(err[0] != '\0' && table.rows == NULL && table.count == 0);
	}
	return 0;
}
