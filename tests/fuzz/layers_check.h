/* layers_check.h - what every layer table a reader returns must satisfy,
 * shared by the tool-layers.bin and layers.csv targets: the fields are
 * terminated, the status is one layers.csv accepts, O_s^split <= O_s^any
 * <= O_s, the safe value is among them, and writing the table
 * as layers.csv and reading it back gives the same table. */
#ifndef DMO_FUZZ_LAYERS_CHECK_H
#define DMO_FUZZ_LAYERS_CHECK_H

#include <assert.h>
#include <string.h>

#include "input_file.h"
#include "rundir.h"

static void check_row(const struct dmo_layer_row *r)
{
	assert(memchr(r->name, '\0', sizeof r->name) != NULL);
	assert(memchr(r->op, '\0', sizeof r->op) != NULL);
	assert(memchr(r->status, '\0', sizeof r->status) != NULL);
	assert(strcmp(r->status, "ok") == 0 || strcmp(r->status, "incomplete") == 0 ||
	       strncmp(r->status, "error:", 6) == 0 || strncmp(r->status, "ok:threads=", 11) == 0 ||
	       strncmp(r->status, "ok:alive=", 9) == 0);
	assert(r->os_split_bytes <= r->os_any_bytes && r->os_any_bytes <= r->os_bytes);
	assert(r->safe_os_bytes == r->os_bytes || r->safe_os_bytes == r->os_any_bytes ||
	       r->safe_os_bytes == r->os_split_bytes);
}

static void check_layer_table(const struct dmo_layer_table *table)
{
	struct dmo_layer_table again;
	char err[1024];
	const char *path;

	for (size_t i = 0; i < table->count; i++)
		check_row(&table->rows[i]);
	path = fuzz_file("roundtrip.csv", "", 0);
	int written = dmo_layers_csv_write(path, table, err, sizeof err);
	assert(written == 0);
	if (dmo_layers_csv_read(path, &again, err, sizeof err) != 0) {
		fprintf(stderr, "written table does not read back: %s\n", err);
		abort();
	}
	assert(again.count == table->count);
	for (size_t i = 0; i < table->count; i++) {
		const struct dmo_layer_row *a = &table->rows[i], *b = &again.rows[i];
		assert(a->layer == b->layer && a->in_bytes == b->in_bytes &&
		       a->out_bytes == b->out_bytes && a->steps == b->steps &&
		       a->instructions == b->instructions && a->os_bytes == b->os_bytes &&
		       a->threads == b->threads && a->os_any_bytes == b->os_any_bytes &&
		       a->alive_threads == b->alive_threads &&
		       a->os_split_bytes == b->os_split_bytes &&
		       a->safe_os_bytes == b->safe_os_bytes && a->safe_rule == b->safe_rule);
		assert(memcmp(a->counts, b->counts, sizeof a->counts) == 0);
		assert(strcmp(a->name, b->name) == 0 && strcmp(a->op, b->op) == 0 &&
		       strcmp(a->status, b->status) == 0);
	}
	dmo_layer_table_free(&again);
}

#endif
