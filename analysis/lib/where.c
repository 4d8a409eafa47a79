/* where.c - reading layer-NNNN-where.csv (where.h) through libcsv.  The
 * tool wrote it, but the reader believes nothing unchecked: the header
 * must be the format's, every row whole, every number a number, and the
 * pair two accesses that can form one (docs/definitions.md). */
#include "where.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "rundir.h"
#include "where_format.h"

static const char *const kind_names[] = DMO_WHERE_KIND_NAMES;

const char *dmo_where_kind_name(unsigned kind)
{
	return kind < 4 ? kind_names[kind] : "?";
}

void dmo_where_path(const char *dir, unsigned layer, char *path, size_t len)
{
	snprintf(path, len, "%s/" DMO_WHERE_FILE_FORMAT, dir, layer);
}

enum { COL_ROLE, COL_IP, COL_KIND, COL_OFFSET, COL_SIZE, COL_COUNTS, COL_FUNCTION = 9,
       COL_FILE, COL_LINE, COL_OBJECT, COL_OBJECT_ADDRESS, COL_INLINED, COL_CALLED_FROM };

struct reader {
	struct dmo_where *w;
	struct dmo_where_row row;
	size_t line, field, cap;
	size_t columns; /* the header's: DMO_WHERE_COLUMNS, or _V1 in an old file */
	int failed;
	char *err;
	size_t err_len;
};

static void fail(struct reader *rd, const char *what)
{
	if (rd->failed)
		return;
	snprintf(rd->err, rd->err_len, "line %zu, field %zu: %s", rd->line, rd->field + 1, what);
	rd->failed = 1;
}

/* A whole unsigned number of BASE in TEXT, or -1. */
static int number(const char *text, int base, uint64_t *value)
{
	char *end;
	if (*text == '\0' || *text == '-' || *text == '+' || *text == ' ')
		return -1;
	errno = 0;
	*value = strtoull(text, &end, base);
	return errno != 0 || *end != '\0' ? -1 : 0;
}

static char *copy_text(struct reader *rd, const char *text)
{
	char *s = strdup(text);
	if (s == NULL)
		fail(rd, "out of memory");
	return s;
}

static void header_field(struct reader *rd, const char *text)
{
	char header[] = DMO_WHERE_HEADER;
	char *name = strtok(header, ",");
	for (size_t k = 0; name != NULL && k < rd->field; k++)
		name = strtok(NULL, ",");
	if (name == NULL || strcmp(name, text) != 0)
		fail(rd, "not the header of a where file (" DMO_WHERE_HEADER ")");
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct reader *rd = ctx;
	const char *text = data ? data : "";
	struct dmo_where_row *r = &rd->row;
	uint64_t v = 0;
	int pair;
	(void)len;
	if (rd->failed)
		return;
	if (rd->line == 1) {
		header_field(rd, text);
		rd->field++;
		return;
	}
	pair = r->role != DMO_WHERE_SITE;
	switch (rd->field) {
	case COL_ROLE:
		if (strcmp(text, DMO_WHERE_ROLE_SITE) == 0)
			r->role = DMO_WHERE_SITE;
		else if (strcmp(text, DMO_WHERE_ROLE_FIRST) == 0)
			r->role = DMO_WHERE_FIRST;
		else if (strcmp(text, DMO_WHERE_ROLE_SECOND) == 0)
			r->role = DMO_WHERE_SECOND;
		else
			fail(rd, "role must be site, first or second");
		break;
	case COL_IP:
		if (strncmp(text, "0x", 2) != 0 || number(text + 2, 16, &r->ip) != 0)
			fail(rd, "ip must be a hexadecimal address 0x...");
		break;
	case COL_KIND:
		r->kind = 4;
		for (unsigned k = 0; k < 4; k++)
			if (strcmp(text, kind_names[k]) == 0)
				r->kind = k;
		if (pair ? r->kind == 4 : *text != '\0')
			fail(rd, pair ? "kind must be in-read, in-write, out-read or out-write"
				      : "a site row has no kind");
		break;
	case COL_OFFSET:
	case COL_SIZE:
		if (pair ? number(text, 10, &v) != 0 || v > UINT32_MAX ||
				   (rd->field == COL_SIZE && v == 0)
			 : *text != '\0')
			fail(rd, pair ? "offset and size must be numbers (size at least 1)"
				      : "a site row has no offset or size");
		*(rd->field == COL_OFFSET ? &r->offset : &r->size) = v;
		break;
	case COL_FUNCTION:
		r->function = copy_text(rd, text);
		break;
	case COL_FILE:
		r->file = copy_text(rd, text);
		break;
	case COL_LINE:
		if (*text != '\0' && (number(text, 10, &v) != 0 || v == 0 || v > UINT32_MAX))
			fail(rd, "line must be empty or a number from 1");
		r->line = (unsigned)v;
		break;
	case COL_OBJECT:
		r->object = copy_text(rd, text);
		break;
	case COL_OBJECT_ADDRESS:
		r->in_object = *text != '\0';
		if (r->in_object && (strncmp(text, "0x", 2) != 0 ||
				     number(text + 2, 16, &r->object_address) != 0))
			fail(rd, "object_address must be empty or a hexadecimal address 0x...");
		break;
	case COL_INLINED:
		r->inlined_into = copy_text(rd, text);
		break;
	case COL_CALLED_FROM:
		if (!pair && *text != '\0')
			fail(rd, "a site row has no called_from");
		r->called_from = copy_text(rd, text);
		break;
	default:
		if (rd->field >= rd->columns) {
			fail(rd, "too many fields");
		} else if (pair ? *text != '\0' : number(text, 10, &v) != 0) {
			fail(rd, pair ? "a pair row has no counts" : "counts must be numbers");
		} else {
			r->counts[rd->field - COL_COUNTS] = v;
		}
	}
	rd->field++;
}

static void free_row(struct dmo_where_row *r)
{
	free(r->function);
	free(r->file);
	free(r->object);
	free(r->inlined_into);
	free(r->called_from);
}

static void on_row_end(int terminator, void *ctx)
{
	struct reader *rd = ctx;
	struct dmo_where *w = rd->w;
	(void)terminator;
	if (!rd->failed && rd->line == 1 && rd->field == DMO_WHERE_COLUMNS_V1)
		rd->columns = DMO_WHERE_COLUMNS_V1;
	if (!rd->failed && rd->field != rd->columns)
		fail(rd, rd->line == 1 ? "not the header of a where file (" DMO_WHERE_HEADER ")"
				       : "too few fields");
	if (!rd->failed && rd->line > 1) {
		if (rd->row.role == DMO_WHERE_FIRST && w->count != 0)
			fail(rd, "the pair's first row must come first");
		if (rd->row.role == DMO_WHERE_SECOND && (w->count != 1 || w->rows[0].role !=
							 DMO_WHERE_FIRST))
			fail(rd, "the pair's second row must follow its first");
	}
	if (!rd->failed && rd->line > 1 && rd->row.called_from == NULL)
		rd->row.called_from = copy_text(rd, ""); /* an old file's row */
	if (!rd->failed && rd->line > 1 && w->count == rd->cap) {
		size_t cap = rd->cap ? 2 * rd->cap : 64;
		struct dmo_where_row *rows = realloc(w->rows, cap * sizeof *rows);
		if (rows == NULL)
			fail(rd, "out of memory");
		else {
			w->rows = rows;
			rd->cap = cap;
		}
	}
	if (!rd->failed && rd->line > 1)
		w->rows[w->count++] = rd->row;
	else
		free_row(&rd->row);
	memset(&rd->row, 0, sizeof rd->row);
	rd->field = 0;
	rd->line++;
}

/* The pair's two accesses form a forbidding pair: W(O) before an input
 * access, or W(I) before R(O) (docs/definitions.md). */
static int pair_ok(const struct dmo_where_row *first, const struct dmo_where_row *second)
{
	if (first->kind == DMO_COUNT_OUT_WRITES)
		return second->kind == DMO_COUNT_IN_READS || second->kind == DMO_COUNT_IN_WRITES;
	return first->kind == DMO_COUNT_IN_WRITES && second->kind == DMO_COUNT_OUT_READS;
}

int dmo_where_read(const char *path, struct dmo_where *w, char *err, size_t err_len)
{
	struct reader rd = { .w = w, .line = 1, .columns = DMO_WHERE_COLUMNS, .err = err,
			     .err_len = err_len };
	struct csv_parser parser;
	char buf[65536];
	size_t n;
	FILE *in;

	memset(w, 0, sizeof *w);
	in = dmo_rundir_open(path, err, err_len);
	if (in == NULL)
		return -1;
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_field, on_row_end, &rd) != n && !rd.failed)
			fail(&rd, csv_strerror(csv_error(&parser)));
	if (!rd.failed && csv_fini(&parser, on_field, on_row_end, &rd) != 0)
		fail(&rd, csv_strerror(csv_error(&parser)));
	if (!rd.failed && rd.line == 1)
		fail(&rd, "empty file, no header");
	csv_free(&parser);
	fclose(in);
	if (!rd.failed && w->count > 0 && w->rows[0].role == DMO_WHERE_FIRST) {
		if (w->count < 2 || w->rows[1].role != DMO_WHERE_SECOND ||
		    !pair_ok(&w->rows[0], &w->rows[1])) {
			rd.line = 2;
			rd.field = COL_KIND;
			fail(&rd, "the pair rows are no forbidding pair (first, then second)");
		} else {
			w->pair[0] = &w->rows[0];
			w->pair[1] = &w->rows[1];
		}
	}
	if (rd.failed) {
		char detail[512];
		snprintf(detail, sizeof detail, "%s", err);
		snprintf(err, err_len, "%s: %s", path, detail);
		free_row(&rd.row);
		dmo_where_free(w);
		return -1;
	}
	return 0;
}

void dmo_where_free(struct dmo_where *w)
{
	for (size_t i = 0; i < w->count; i++)
		free_row(&w->rows[i]);
	free(w->rows);
	memset(w, 0, sizeof *w);
}
