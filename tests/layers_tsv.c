/* layers_tsv.c - test helper: a run directory's layers.csv, read with
 * dmo's libcsv reader, printed one layer per line as tab-separated
 * `layer name status os_bytes out_bytes in_reads in_writes out_reads
 * out_writes steps instructions threads os_any_bytes alive_threads
 * os_split_bytes safe_os_bytes safe_os_rule pid` after a header line
 * of those names, for the shell tests to pick apart by name (by_name in
 * tests/lib.sh).
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
	switch (dmo_layers_csv_read(argv[1], &table, err, sizeof err)) {
	case 0:
		break;
	case 1: /* rows skipped: the others are printed */
		fprintf(stderr, "%s\n", err);
		break;
	default:
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	printf("layer\tname\tstatus\tos_bytes\tout_bytes\tin_reads\tin_writes\tout_reads\t"
	       "out_writes\tsteps\tinstructions\tthreads\tos_any_bytes\talive_threads\t"
	       "os_split_bytes\tsafe_os_bytes\tsafe_os_rule\tpid\n");
	for (size_t i = 0; i < table.count; i++) {
		const struct dmo_layer_row *r = &table.rows[i];
		printf("%u\t%s\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
		       "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%u\t%" PRIu64 "\t%u\t%" PRIu64
		       "\t%" PRIu64 "\t%s\t%u\n",
		       r->layer, r->name[0] ? r->name : "-", r->status, r->os_bytes, r->out_bytes,
		       r->counts[0], r->counts[1], r->counts[2], r->counts[3], r->steps,
		       r->instructions, r->threads, r->os_any_bytes, r->alive_threads,
		       r->os_split_bytes, r->safe_os_bytes, dmo_safe_rule_name(r->safe_rule), r->pid);
	}
	dmo_layer_table_free(&table);
	return 0;
}
