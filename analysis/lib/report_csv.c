/* report_csv.c - a CSV file read whole into cells (report_csv.h). */
#include <csv.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "report_csv.h"
#include "rundir.h"

/* The rows while they are read: every cell in order, and where rows end. */
struct csv_read {
	char **cells;
	size_t n, cap;
	size_t *row_ends;
	size_t rows, row_cap;
	int failed;
};

static int grow(void **array, size_t *cap, size_t need, size_t size)
{
	void *bigger;

	if (need <= *cap)
		return 0;
	bigger = realloc(*array, (need * 2) * size);
	if (bigger == NULL)
		return -1;
	*array = bigger;
	*cap = need * 2;
	return 0;
}

static void on_field(void *data, size_t len, void *ctx)
{
	struct csv_read *r = ctx;
	char *cell;

	if (r->failed || grow((void **)&r->cells, &r->cap, r->n + 1, sizeof *r->cells) != 0 ||
	    (cell = malloc(len + 1)) == NULL) {
		r->failed = 1;
		return;
	}
	memcpy(cell, data, len);
	cell[len] = '\0';
	r->cells[r->n++] = cell;
}

static void on_row_end(int c, void *ctx)
{
	struct csv_read *r = ctx;

	(void)c;
	if (r->failed || grow((void **)&r->row_ends, &r->row_cap, r->rows + 1,
			      sizeof *r->row_ends) != 0) {
		r->failed = 1;
		return;
	}
	r->row_ends[r->rows++] = r->n;
}

/* The rows as a rectangle of the header's width. */
static int square(struct csv_read *r, struct dmo_csv_table *t)
{
	size_t width = r->rows ? r->row_ends[0] : 0, start = 0;

	t->n_cols = width;
	t->n_rows = r->rows ? r->rows - 1 : 0;
	t->cells = calloc((t->n_rows + 1) * (width ? width : 1), sizeof *t->cells);
	if (t->cells == NULL)
		return -1;
	for (size_t row = 0; row < r->rows; row++) {
		for (size_t i = start; i < r->row_ends[row]; i++) {
			if (i - start < width)
				t->cells[row * width + i - start] = r->cells[i];
			else
				free(r->cells[i]);
			r->cells[i] = NULL;
		}
		start = r->row_ends[row];
	}
	for (size_t i = 0; i < (t->n_rows + 1) * width; i++)
		if (t->cells[i] == NULL && (t->cells[i] = strdup("")) == NULL)
			return -1;
	return 0;
}

int dmo_csv_table_read(const char *path, struct dmo_csv_table *t, char *err, size_t err_len)
{
	struct csv_read r = { 0 };
	struct csv_parser parser;
	char buf[65536];
	size_t n, total = 0;
	int rc = 0;
	FILE *f = dmo_rundir_open(path, err, err_len);

	memset(t, 0, sizeof *t);
	if (f == NULL)
		return -1;
	if (csv_init(&parser, CSV_APPEND_NULL) != 0) {
		fclose(f);
		return dmo_errf(err, err_len, "out of memory");
	}
	while (rc == 0 && (n = fread(buf, 1, sizeof buf, f)) > 0) {
		total += n;
		if (total > DMO_REPORT_CSV_MAX)
			rc = dmo_errf(err, err_len, "%s: larger than %u MiB", path,
				      DMO_REPORT_CSV_MAX >> 20);
		else if (csv_parse(&parser, buf, n, on_field, on_row_end, &r) != n)
			rc = dmo_errf(err, err_len, "%s: %s", path, csv_strerror(csv_error(&parser)));
	}
	if (rc == 0 && ferror(f))
		rc = dmo_errf(err, err_len, "cannot read %s: %s", path, strerror(errno));
	if (rc == 0)
		csv_fini(&parser, on_field, on_row_end, &r);
	csv_free(&parser);
	fclose(f);
	if (rc == 0 && (r.failed || square(&r, t) != 0))
		rc = dmo_errf(err, err_len, "%s: out of memory", path);
	for (size_t i = 0; i < r.n; i++)
		free(r.cells[i]);
	free(r.cells);
	free(r.row_ends);
	if (rc != 0)
		dmo_csv_table_free(t);
	return rc;
}

int dmo_csv_column(const struct dmo_csv_table *t, const char *name)
{
	for (size_t c = 0; c < t->n_cols; c++)
		if (strcmp(t->cells[c], name) == 0)
			return (int)c;
	return -1;
}

const char *dmo_csv_cell(const struct dmo_csv_table *t, size_t row, int col)
{
	return col < 0 ? "" : t->cells[(row + 1) * t->n_cols + (size_t)col];
}

void dmo_csv_table_free(struct dmo_csv_table *t)
{
	if (t->cells != NULL)
		for (size_t i = 0; i < (t->n_rows + 1) * t->n_cols; i++)
			free(t->cells[i]);
	free(t->cells);
	memset(t, 0, sizeof *t);
}
