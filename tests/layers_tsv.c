/* layers_tsv.c - test helper: a run directory's layers.csv, read with
 * dmo's libcsv reader, printed one layer per line as tab-separated
 * `layer name status os_bytes out_bytes in_reads in_writes out_reads
 * out_writes steps instructions threads os_any_bytes` for the shell tests
 * to pick apart.
 * usage: layers_tsv LAYERS.CSV */
#include <inttypes.h>
#include <stdio.h>

#include "rundir.h"

int main(int argc, char **argv)
{
	struct dmo_layer_table table;
	char err[1024];
	if (argc != 2) {
		fprintf(stderr, "usage: layers_tsv LAYERS.CSV\n");
		return 2;
	}
	if (dmo_layers_csv_read(argv[1], &table, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (size_t i = 0; i < table.count; i++) {
		const struct dmo_layer_row *r = &table.rows[i];
		printf("%u\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		       "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%u\t%" PRIu64 "\n",
		       r->layer, r->name[0] ? r->name : "-", r->status, r->os_bytes, r->out_bytes,
		       r->counts[0], r->counts[1], r->counts[2], r->counts[3], r->steps,
		       r->instructions, r->threads, r->os_any_bytes);
	}
	dmo_layer_table_free(&table);
	return 0;
}
