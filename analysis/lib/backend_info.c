/* backend_info.c - the backend.csv reader (backend_info.h).  Columns are
 * found by name in the header, so later columns may be appended. */
#include "backend_info.h"

#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"

/* Every column up to COL_CPU must be there; later ones are optional
 * (backend.csv files from before they existed). */
enum { COL_NAME, COL_BACKEND, COL_VERSION, COL_ISA_CAP, COL_ISA, COL_IMPL, COL_CPU,
       COL_NATIVE_ISA, COL_HOST_ISA, COL_SCRATCH, N_COLS };
enum { N_REQUIRED = COL_CPU + 1 };
static const char *const col_names[N_COLS] = { "name", "backend", "version", "isa_cap", "isa",
					       "implementation", "cpu", "native_isa", "host_isa",
					       "scratch_bytes" };

struct info_reader {
	struct dmo_backend_info_table *table;
	struct dmo_backend_info row;
	int where[64]; /* header field -> COL_*, or -1 */
	int field, fields, seen;
	size_t line;
	char *err;
	size_t err_len;
	int failed;
};

/* FIELD counts from 1: the field at fault, or the one a row or the parser
 * stopped before. */
static void info_fail(struct info_reader *rd, int field, const char *what)
{
	if (!rd->failed)
		snprintf(rd->err, rd->err_len, "line %zu, field %d: %s", rd->line, field, what);
	rd->failed = 1;
}

static char *row_field(struct dmo_backend_info *r, int col, size_t *cap)
{
	char *const fields[N_COLS] = { r->name, r->backend, r->version, r->isa_cap, r->isa,
				       r->implementation, r->cpu, r->native_isa, r->host_isa,
				       r->scratch_bytes };
	const size_t caps[N_COLS] = { sizeof r->name, sizeof r->backend, sizeof r->version,
				      sizeof r->isa_cap, sizeof r->isa, sizeof r->implementation,
				      sizeof r->cpu, sizeof r->native_isa, sizeof r->host_isa,
				      sizeof r->scratch_bytes };
	*cap = caps[col];
	return fields[col];
}

static void on_info_field(void *text, size_t len, void *data)
{
	struct info_reader *rd = data;
	int f = rd->field++;

	if (rd->failed)
		return;
	if (f >= (int)(sizeof rd->where / sizeof rd->where[0])) {
		info_fail(rd, f + 1, "too many fields");
		return;
	}
	if (rd->line == 1) {
		rd->where[f] = -1;
		for (int c = 0; c < N_COLS; c++)
			if (len == strlen(col_names[c]) && memcmp(text, col_names[c], len) == 0) {
				rd->where[f] = c;
				rd->seen |= 1 << c;
			}
		return;
	}
	if (f >= rd->fields) {
		info_fail(rd, f + 1, "more fields than the header");
		return;
	}
	if (rd->where[f] >= 0) {
		size_t cap;
		char *dst = row_field(&rd->row, rd->where[f], &cap);

		if (len >= cap || memchr(text, '\0', len) != NULL) {
			info_fail(rd, f + 1, "too long or holds a NUL byte");
			return;
		}
		memcpy(dst, text, len);
		dst[len] = '\0';
	}
}

static void on_info_row(int terminator, void *data)
{
	struct info_reader *rd = data;
	struct dmo_backend_info_table *t = rd->table;
	(void)terminator;

	if (!rd->failed && rd->line == 1) {
		rd->fields = rd->field;
		if ((rd->seen & ((1 << N_REQUIRED) - 1)) != (1 << N_REQUIRED) - 1)
			info_fail(rd, rd->field + 1, "the header lacks a column of backend.csv");
	} else if (!rd->failed && rd->field != rd->fields) {
		info_fail(rd, rd->field + 1, "fewer fields than the header");
	} else if (!rd->failed) {
		struct dmo_backend_info *rows = realloc(t->rows, (t->count + 1) * sizeof *rows);
		if (rows == NULL)
			info_fail(rd, rd->field, "out of memory");
		else {
			t->rows = rows;
			t->rows[t->count++] = rd->row;
		}
	}
	memset(&rd->row, 0, sizeof rd->row);
	rd->field = 0;
	rd->line++;
}

int dmo_backend_info_read(const char *dir, struct dmo_backend_info_table *table, char *err,
			  size_t err_len)
{
	struct info_reader rd = { .table = table, .line = 1, .err = err, .err_len = err_len };
	struct csv_parser parser;
	char path[4096], buf[16384], detail[512];
	size_t n;
	FILE *in;

	table->rows = NULL;
	table->count = 0;
	snprintf(path, sizeof path, "%s/%s", dir, DMO_BACKEND_INFO_CSV);
	in = fopen(path, "rb");
	if (in == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_info_field, on_info_row, &rd) != n && !rd.failed)
			info_fail(&rd, rd.field + 1, csv_strerror(csv_error(&parser)));
	if (!rd.failed && csv_fini(&parser, on_info_field, on_info_row, &rd) != 0)
		info_fail(&rd, rd.field + 1, csv_strerror(csv_error(&parser)));
	if (!rd.failed && rd.line == 1)
		info_fail(&rd, 1, "empty file, no header");
	csv_free(&parser);
	fclose(in);
	if (rd.failed) {
		snprintf(detail, sizeof detail, "%s", err);
		snprintf(err, err_len, "%s: %s", path, detail);
		dmo_backend_info_free(table);
		return -1;
	}
	return 0;
}

const struct dmo_backend_info *dmo_backend_info_find(const struct dmo_backend_info_table *table,
						     const char *name)
{
	for (size_t i = 0; i < table->count; i++)
		if (strcmp(table->rows[i].name, name) == 0)
			return &table->rows[i];
	return NULL;
}

void dmo_backend_info_free(struct dmo_backend_info_table *table)
{
	free(table->rows);
	table->rows = NULL;
	table->count = 0;
}
