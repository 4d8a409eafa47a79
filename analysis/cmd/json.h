/* json.h - --json for every command: the command writes its table as CSV
 * (through libcsv, as always), and this one writer turns it into a JSON
 * array of objects, one a row, keyed by the header's names.  So a command's
 * CSV and JSON cannot disagree, and no command writes JSON by hand. */
#ifndef DMO_CMD_JSON_H
#define DMO_CMD_JSON_H

#include <stdio.h>

#include "options.h"

/* Where a command writes its table in FORMAT. */
struct cmd_table {
	enum cmd_format format;
	FILE *stream;  /* stdout, or a memory stream for JSON */
	char *csv;     /* the memory stream's buffer */
	size_t len;
};

/* The stream to write the table to: stdout for text and CSV, a memory
 * stream that cmd_table_close turns into JSON for JSON.  NULL when out of
 * memory, after saying so as "dmo CMD: " unless CMD is NULL. */
FILE *cmd_table_open(struct cmd_table *t, enum cmd_format format, const char *cmd);

/* The table written: for JSON, print it on stdout as JSON.  Returns 0, or
 * -1 with ERR (malformed CSV, out of memory). */
int cmd_table_close(struct cmd_table *t, char *err, size_t err_len);

/* The CSV file PATH (one a command wrote: analysis.csv, layers.csv) on
 * stdout in FORMAT, CSV as it is.  Returns 0, or -1 with ERR. */
int cmd_table_file(enum cmd_format format, const char *path, char *err, size_t err_len);

/* CSV (LEN bytes, a header line first) as a JSON array on OUT.  A field
 * that is a JSON number is written as one, an empty field as null, any
 * other as a string.  Returns 0, or -1 with ERR. */
int cmd_csv_to_json(const char *csv, size_t len, FILE *out, char *err, size_t err_len);

#endif
