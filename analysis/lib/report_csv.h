/* report_csv.h - a CSV file dmo wrote (a sweep's results.csv and
 * summary.csv, a layer's curves) read whole into cells for `dmo report`,
 * so that the page shows the file's own values. */
#ifndef DMO_REPORT_CSV_H
#define DMO_REPORT_CSV_H

#include <stddef.h>

/* The largest file read: a sweep of a million configurations fits. */
#define DMO_REPORT_CSV_MAX (256u << 20)

struct dmo_csv_table {
	size_t n_rows, n_cols;  /* rows after the header; the header's columns */
	char **cells;           /* (n_rows + 1) * n_cols, row 0 the header;
				 * a short row's missing cells are "" */
};

/* Read PATH (a regular file, at most DMO_REPORT_CSV_MAX bytes).  Returns 0,
 * or -1 with ERR naming the file (and line). */
int dmo_csv_table_read(const char *path, struct dmo_csv_table *t, char *err, size_t err_len);

/* The column named NAME, or -1. */
int dmo_csv_column(const struct dmo_csv_table *t, const char *name);

/* Row ROW's (from 0, after the header) cell of column COL ("" for -1). */
const char *dmo_csv_cell(const struct dmo_csv_table *t, size_t row, int col);

void dmo_csv_table_free(struct dmo_csv_table *t);

#endif
