/* rundir.c - tool-layers.bin in, layers.csv out and back in (rundir.h).
 * Every CSV byte goes through libcsv; every record read is validated,
 * because a run directory may be truncated or edited by hand. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "rundir.h"
#include "summary.h"

static const char *const columns[] = {
	"layer", "name", "op", "in_bytes", "out_bytes", "in_reads", "in_writes",
	"out_reads", "out_writes", "steps", "instructions", "os_bytes", "status",
};
enum { N_COLUMNS = sizeof columns / sizeof columns[0] };

void dmo_layer_table_free(struct dmo_layer_table *table)
{
	free(table->rows);
	table->rows = NULL;
	table->count = 0;
}

static int push_row(struct dmo_layer_table *table, const struct dmo_layer_row *row)
{
	struct dmo_layer_row *grown = realloc(table->rows, (table->count + 1) * sizeof *grown);
	if (grown == NULL)
		return -1;
	table->rows = grown;
	table->rows[table->count++] = *row;
	return 0;
}

static int terminated(const char *text, size_t cap)
{
	return memchr(text, '\0', cap) != NULL;
}

int dmo_summary_read(const char *dir, struct dmo_layer_table *table, char *err,
		     size_t err_len)
{
	char path[4096];
	struct dmo_layer_summary rec;
	FILE *in;
	size_t n, index = 0;

	table->rows = NULL;
	table->count = 0;
	snprintf(path, sizeof path, "%s/%s", dir, DMO_SUMMARY_FILE);
	in = fopen(path, "rb");
	if (in == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	while ((n = fread(&rec, 1, sizeof rec, in)) == sizeof rec) {
		struct dmo_layer_row row = { 0 };
		index++;
		if (rec.magic != DMO_SUMMARY_MAGIC || rec.version != DMO_SUMMARY_VERSION ||
		    rec.status > DMO_STATUS_ERROR || !terminated(rec.name, sizeof rec.name) ||
		    !terminated(rec.spec, sizeof rec.spec) ||
		    !terminated(rec.reason, sizeof rec.reason)) {
			snprintf(err, err_len, "%s: record %zu is malformed", path, index);
			fclose(in);
			dmo_layer_table_free(table);
			return -1;
		}
		row.layer = rec.layer;
		snprintf(row.name, sizeof row.name, "%s", rec.name);
		snprintf(row.op, sizeof row.op, "%s", rec.spec);
		row.in_bytes = rec.in_bytes;
		row.out_bytes = rec.out_bytes;
		memcpy(row.counts, rec.counts, sizeof row.counts);
		row.steps = rec.steps;
		row.instructions = rec.instructions;
		row.os_bytes = rec.os_bytes;
		if (rec.status == DMO_STATUS_ERROR)
			snprintf(row.status, sizeof row.status, "error:%s", rec.reason);
		else
			snprintf(row.status, sizeof row.status, "%s",
				 rec.status == DMO_STATUS_OK ? "ok" : "incomplete");
		if (push_row(table, &row) < 0) {
			snprintf(err, err_len, "out of memory");
			fclose(in);
			dmo_layer_table_free(table);
			return -1;
		}
	}
	fclose(in);
	if (n != 0) {
		snprintf(err, err_len, "%s: ends in a partial record (%zu bytes)", path, n);
		dmo_layer_table_free(table);
		return -1;
	}
	return 0;
}

static void put_field(FILE *out, const char *text, int last)
{
	csv_fwrite(out, text, strlen(text));
	fputc(last ? '\n' : ',', out);
}

/* Numbers never need quoting; text fields always go through csv_fwrite. */
static void put_number(FILE *out, uint64_t value)
{
	fprintf(out, "%" PRIu64 ",", value);
}

int dmo_layers_csv_write(const char *path, const struct dmo_layer_table *table,
			 char *err, size_t err_len)
{
	FILE *out = fopen(path, "w");
	if (out == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	for (int c = 0; c < N_COLUMNS; c++)
		fprintf(out, "%s%c", columns[c], c == N_COLUMNS - 1 ? '\n' : ',');
	for (size_t i = 0; i < table->count; i++) {
		const struct dmo_layer_row *r = &table->rows[i];
		put_number(out, r->layer);
		put_field(out, r->name, 0);
		put_field(out, r->op, 0);
		put_number(out, r->in_bytes);
		put_number(out, r->out_bytes);
		for (int k = 0; k < 4; k++)
			put_number(out, r->counts[k]);
		put_number(out, r->steps);
		put_number(out, r->instructions);
		put_number(out, r->os_bytes);
		put_field(out, r->status, 1);
	}
	if (fclose(out) != 0) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

/* ---- reading layers.csv back ---- */

struct csv_reader {
	struct dmo_layer_table *table;
	struct dmo_layer_row row;
	int field;
	size_t line;
	char *err;
	size_t err_len;
	int failed;
};

static int fail(struct csv_reader *rd, const char *what)
{
	if (!rd->failed)
		snprintf(rd->err, rd->err_len, "line %zu, column %d (%s): %s", rd->line,
			 rd->field + 1, rd->field < N_COLUMNS ? columns[rd->field] : "extra", what);
	rd->failed = 1;
	return -1;
}

static int parse_u64(struct csv_reader *rd, const char *text, size_t len, uint64_t *value)
{
	char buf[32], *end;
	if (len == 0 || len >= sizeof buf || text[0] == '-' || text[0] == '+')
		return fail(rd, "not a non-negative integer");
	memcpy(buf, text, len);
	buf[len] = '\0';
	errno = 0;
	*value = strtoull(buf, &end, 10);
	if (errno != 0 || *end != '\0')
		return fail(rd, "not a non-negative integer");
	return 0;
}

static int copy_field(struct csv_reader *rd, char *dst, size_t cap, const char *text, size_t len)
{
	if (len >= cap || memchr(text, '\0', len) != NULL)
		return fail(rd, "too long or holds a NUL byte");
	memcpy(dst, text, len);
	dst[len] = '\0';
	return 0;
}

static void on_field(void *text, size_t len, void *data)
{
	struct csv_reader *rd = data;
	struct dmo_layer_row *r = &rd->row;
	uint64_t value = 0;
	int c = rd->field;

	if (rd->failed)
		return;
	if (rd->line == 1) {
		if (c >= N_COLUMNS || len != strlen(columns[c]) || memcmp(text, columns[c], len) != 0)
			fail(rd, "header does not match the layers.csv columns");
	} else if (c >= N_COLUMNS) {
		fail(rd, "too many fields");
	} else if (c == 1) {
		copy_field(rd, r->name, sizeof r->name, text, len);
	} else if (c == 2) {
		copy_field(rd, r->op, sizeof r->op, text, len);
	} else if (c == 12) {
		if (copy_field(rd, r->status, sizeof r->status, text, len) == 0 &&
		    strcmp(r->status, "ok") != 0 && strcmp(r->status, "incomplete") != 0 &&
		    strncmp(r->status, "error:", 6) != 0)
			fail(rd, "status is not ok, incomplete or error:<reason>");
	} else if (parse_u64(rd, text, len, &value) == 0) {
		if (c == 0) {
			if (value > UINT32_MAX)
				fail(rd, "layer number too large");
			r->layer = (unsigned)value;
		} else if (c <= 4) {
			*(c == 3 ? &r->in_bytes : &r->out_bytes) = value;
		} else if (c <= 8) {
			r->counts[c - 5] = value;
		} else {
			*(c == 9 ? &r->steps : c == 10 ? &r->instructions : &r->os_bytes) = value;
		}
	}
	rd->field++;
}

static void on_row_end(int terminator, void *data)
{
	struct csv_reader *rd = data;
	(void)terminator;
	if (!rd->failed && rd->field != N_COLUMNS)
		fail(rd, "too few fields");
	if (!rd->failed && rd->line > 1 && push_row(rd->table, &rd->row) < 0)
		fail(rd, "out of memory");
	memset(&rd->row, 0, sizeof rd->row);
	rd->field = 0;
	rd->line++;
}

int dmo_layers_csv_read(const char *path, struct dmo_layer_table *table, char *err,
			size_t err_len)
{
	struct csv_parser parser;
	struct csv_reader rd = { .table = table, .line = 1, .err = err, .err_len = err_len };
	char buf[65536];
	size_t n;
	FILE *in = fopen(path, "rb");

	table->rows = NULL;
	table->count = 0;
	if (in == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	csv_init(&parser, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL);
	while (!rd.failed && (n = fread(buf, 1, sizeof buf, in)) > 0)
		if (csv_parse(&parser, buf, n, on_field, on_row_end, &rd) != n && !rd.failed) {
			snprintf(err, err_len, "line %zu: %s", rd.line,
				 csv_strerror(csv_error(&parser)));
			rd.failed = 1;
		}
	if (!rd.failed && csv_fini(&parser, on_field, on_row_end, &rd) != 0) {
		snprintf(err, err_len, "line %zu: %s", rd.line, csv_strerror(csv_error(&parser)));
		rd.failed = 1;
	}
	if (!rd.failed && rd.line == 1) {
		snprintf(err, err_len, "empty file, no header");
		rd.failed = 1;
	}
	csv_free(&parser);
	fclose(in);
	if (rd.failed) {
		char detail[512];
		snprintf(detail, sizeof detail, "%s", err);
		snprintf(err, err_len, "%s: %s", path, detail);
		dmo_layer_table_free(table);
		return -1;
	}
	return 0;
}

int dmo_layer_os_known(const struct dmo_layer_row *row)
{
	return strcmp(row->status, "incomplete") != 0;
}

void dmo_layers_print(FILE *out, const struct dmo_layer_table *table)
{
	fprintf(out, "%5s  %-20s %-10s %12s %12s %12s %12s %7s  %s\n", "layer", "name", "op",
		"in_bytes", "out_bytes", "events", "O_s bytes", "O_s %", "status");
	for (size_t i = 0; i < table->count; i++) {
		const struct dmo_layer_row *r = &table->rows[i];
		char op[16];
		uint64_t events = r->counts[0] + r->counts[1] + r->counts[2] + r->counts[3];
		size_t op_len = strcspn(r->op, ":");
		char os_bytes[24] = "-", os_pct[16] = "-";

		snprintf(op, sizeof op, "%.*s", (int)(op_len < 15 ? op_len : 15), r->op);
		if (dmo_layer_os_known(r)) { /* layers.csv keeps it either way */
			snprintf(os_bytes, sizeof os_bytes, "%" PRIu64, r->os_bytes);
			snprintf(os_pct, sizeof os_pct, "%.2f%%",
				 r->out_bytes ? 100.0 * (double)r->os_bytes / (double)r->out_bytes
					      : 0.0);
		}
		fprintf(out, "%5u  %-20.20s %-10s %12" PRIu64 " %12" PRIu64 " %12" PRIu64
			" %12s %7s  %s\n",
			r->layer, r->name, op[0] ? op : "-", r->in_bytes, r->out_bytes, events,
			os_bytes, os_pct, r->status);
	}
}
