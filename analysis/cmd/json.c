/* json.c - the CSV-to-JSON writer of json.h, on libcsv's parser. */
#include "json.h"

#include <csv.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"

struct converter {
	FILE *out;
	char **names;        /* the header's column names */
	size_t n_names, cap;
	size_t field, row;   /* position in the current row; rows after the header */
	int failed;
	char *err;
	size_t err_len;
};

/* Whether TEXT is a number by JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][+-]?[0-9]+)?.  "007", "nan" or "1." stay strings. */
static int json_number(const char *p)
{
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return 0;
	if (*p == '.') {
		if (!(*++p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return 0;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0';
}

static void json_string(FILE *out, const char *text)
{
	fputc('"', out);
	for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
	}
	fputc('"', out);
}

static void on_field(void *data, size_t len, void *arg)
{
	struct converter *c = arg;
	const char *text = data ? data : "";

	(void)len; /* CSV_APPEND_NULL ends each field */
	if (c->failed)
		return;
	if (c->row == 0) { /* the header */
		if (c->n_names == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 16;
			char **grown = realloc(c->names, cap * sizeof *grown);
			if (grown == NULL) {
				c->failed = dmo_errf(c->err, c->err_len, "out of memory");
				return;
			}
			c->names = grown;
			c->cap = cap;
		}
		if ((c->names[c->n_names++] = strdup(text)) == NULL)
			c->failed = dmo_errf(c->err, c->err_len, "out of memory");
		return;
	}
	if (c->field >= c->n_names) {
		c->failed = dmo_errf(c->err, c->err_len, "row %zu has more fields than the header's %zu",
				     c->row + 1, c->n_names);
		return;
	}
	fprintf(c->out, "%s", c->field ? ", " : c->row > 1 ? ",\n  {" : "\n  {");
	json_string(c->out, c->names[c->field++]);
	fputs(": ", c->out);
	if (*text == '\0')
		fputs("null", c->out);
	else if (json_number(text))
		fputs(text, c->out);
	else
		json_string(c->out, text);
}

static void on_row(int end, void *arg)
{
	struct converter *c = arg;

	(void)end;
	if (c->failed)
		return;
	if (c->row > 0 && c->field != c->n_names) {
		c->failed = dmo_errf(c->err, c->err_len, "row %zu has %zu fields, the header %zu",
				     c->row + 1, c->field, c->n_names);
		return;
	}
	if (c->row > 0)
		fputc('}', c->out);
	c->row++;
	c->field = 0;
}

int cmd_csv_to_json(const char *csv, size_t len, FILE *out, char *err, size_t err_len)
{
	struct converter c = { .out = out, .err = err, .err_len = err_len };
	struct csv_parser parser;

	if (csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		return dmo_errf(err, err_len, "out of memory");
	fputc('[', out);
	if (csv_parse(&parser, csv, len, on_field, on_row, &c) != len && !c.failed)
		c.failed = dmo_errf(err, err_len, "malformed CSV: %s",
				    csv_strerror(csv_error(&parser)));
	if (!c.failed && csv_fini(&parser, on_field, on_row, &c) != 0)
		c.failed = dmo_errf(err, err_len, "malformed CSV: %s",
				    csv_strerror(csv_error(&parser)));
	csv_free(&parser);
	if (!c.failed)
		fprintf(out, "%s]\n", c.row > 1 ? "\n" : "");
	for (size_t i = 0; i < c.n_names; i++)
		free(c.names[i]);
	free(c.names);
	return c.failed ? -1 : 0;
}

FILE *cmd_table_open(struct cmd_table *t, enum cmd_format format, const char *cmd)
{
	*t = (struct cmd_table){ .format = format, .stream = stdout };
	if (format == CMD_JSON && (t->stream = open_memstream(&t->csv, &t->len)) == NULL && cmd)
		fprintf(stderr, "dmo %s: out of memory\n", cmd);
	return t->stream;
}

int cmd_table_close(struct cmd_table *t, char *err, size_t err_len)
{
	int rc = 0;

	if (t->format != CMD_JSON)
		return 0;
	/* When glibc's fclose cannot trim a memory stream's buffer it frees it,
	 * sets csv to NULL and still returns 0. */
	if ((ferror(t->stream) | fclose(t->stream)) != 0 || t->csv == NULL)
		rc = dmo_errf(err, err_len, "out of memory");
	else
		rc = cmd_csv_to_json(t->csv, t->len, stdout, err, err_len);
	free(t->csv);
	t->csv = NULL;
	return rc;
}

int cmd_table_file(enum cmd_format format, const char *path, char *err, size_t err_len)
{
	struct cmd_table table;
	char buf[8192];
	size_t n;
	FILE *in = fopen(path, "r"), *out;
	int rc = 0;

	if (in == NULL)
		return dmo_errf(err, err_len, "cannot read %s: %s", path, strerror(errno));
	if ((out = cmd_table_open(&table, format == CMD_TEXT ? CMD_CSV : format, NULL)) == NULL) {
		fclose(in);
		return dmo_errf(err, err_len, "out of memory");
	}
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (fwrite(buf, 1, n, out) != n)
			break;
	if (ferror(in) || ferror(out))
		rc = dmo_errf(err, err_len, "cannot copy %s", path);
	fclose(in);
	if (cmd_table_close(&table, err, err_len) != 0)
		rc = -1;
	return rc;
}
