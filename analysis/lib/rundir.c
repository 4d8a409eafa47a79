/* rundir.c - tool-layers.bin in, layers.csv out and back in (rundir.h).
 * Every CSV byte goes through libcsv; every record read is validated,
 * because a run directory may be truncated or edited by hand. */
#include <csv.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h" /* DMO_BACKEND_INFO_CSV */
#include "event.h"
#include "fs.h"
#include "host_isa.h" /* DMO_HOST_CSV */
#include "kernels.h"
#include "rundir.h"
#include "summary.h"
#include "textcol.h"
#include "trace_format.h"
#include "where_format.h"

static const char *const columns[] = {
	"layer", "name", "op", "in_bytes", "out_bytes", "in_reads", "in_writes",
	"out_reads", "out_writes", "steps", "instructions", "os_bytes", "status",
	"threads", "os_any_bytes",
	"alive_threads", "os_split_bytes", "safe_os_bytes", "safe_os_rule",
	"pid", /* only in a run where more than one process recorded layers */
};
/* Columns are found by name; files written before threads were counted
 * lack the last six (N_REQUIRED), files from before threads alive were
 * counted the last four. */
enum { N_COLUMNS = sizeof columns / sizeof columns[0], N_REQUIRED = 13,
       COL_INSTRUCTIONS = 10, COL_OS = 11, COL_STATUS = 12, COL_THREADS = 13, COL_OS_ANY = 14,
       COL_ALIVE = 15, COL_OS_SPLIT = 16, COL_SAFE = 17, COL_RULE = 18, COL_PID = 19, MAX_FIELDS = 64 };

static const char *const rule_names[] = {
	[DMO_SAFE_AS_RUN] = "as-run", [DMO_SAFE_ANY_SPLIT] = "any-split",
	[DMO_SAFE_STATIC_SPLIT] = "static-split", [DMO_SAFE_OBSERVED] = "observed-split",
};
enum { N_RULES = sizeof rule_names / sizeof rule_names[0] };

const char *dmo_safe_rule_name(enum dmo_safe_rule rule)
{
	return rule_names[rule];
}

void dmo_layer_set_safe(struct dmo_layer_row *row, int static_split)
{
	row->safe_rule = row->alive_threads <= 1 ? DMO_SAFE_AS_RUN
			 : static_split		 ? DMO_SAFE_STATIC_SPLIT
						 : DMO_SAFE_ANY_SPLIT;
	row->safe_os_bytes = row->safe_rule == DMO_SAFE_AS_RUN	       ? row->os_bytes
			     : row->safe_rule == DMO_SAFE_STATIC_SPLIT ? row->os_any_bytes
								       : row->os_split_bytes;
}

/* What RULE says the safe value is; a file's safe_os_bytes must match. */
static uint64_t value_of_rule(const struct dmo_layer_row *r, enum dmo_safe_rule rule)
{
	return rule == DMO_SAFE_AS_RUN ? r->os_bytes
	       : rule == DMO_SAFE_ANY_SPLIT ? r->os_split_bytes : r->os_any_bytes;
}

void dmo_layer_set_thread_status(struct dmo_layer_row *row)
{
	if (!dmo_layer_ok(row))
		return;
	if (row->threads > 1)
		snprintf(row->status, sizeof row->status, "ok:threads=%u", row->threads);
	else if (row->alive_threads > 1)
		snprintf(row->status, sizeof row->status, "ok:alive=%u", row->alive_threads);
	else
		snprintf(row->status, sizeof row->status, "ok");
}

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

/* Values no run can produce, whichever file they come from. */
static int out_of_range(const struct dmo_layer_row *r)
{
	return r->os_bytes > (r->in_bytes < r->out_bytes ? r->in_bytes : r->out_bytes);
}

static int terminated(const char *text, size_t cap)
{
	return memchr(text, '\0', cap) != NULL;
}

/* Open PATH for reading only if it is a regular file: a FIFO or a device
 * named like a run directory's file would hang or mislead a reader. */
FILE *dmo_rundir_open(const char *path, char *err, size_t err_len)
{
	struct stat info;
	FILE *in;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (fd < 0) {
		int saved = errno; /* ENOENT tells callers "no such file" */
		snprintf(err, err_len, "%s: %s", path, strerror(saved));
		errno = saved;
		return NULL;
	}
	if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
		snprintf(err, err_len, "%s: not a regular file", path);
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	in = fdopen(fd, "rb");
	if (in == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		close(fd);
	}
	return in;
}

/* The thread part of a tool record, checked: the listed threads are at
 * most those counted, and O_s^split <= O_s^any <= O_s (each a minimum over
 * a superset of the next one's pairs). */
static int take_threads(struct dmo_layer_row *row, const struct dmo_layer_summary *rec)
{
	if (rec->listed_threads > DMO_SUMMARY_THREADS || rec->listed_threads > rec->threads ||
	    rec->os_any_bytes > rec->os_bytes || rec->os_split_bytes > rec->os_any_bytes)
		return -1;
	row->threads = rec->threads;
	row->alive_threads = rec->alive_threads;
	row->os_any_bytes = rec->os_any_bytes;
	row->os_split_bytes = rec->os_split_bytes;
	row->listed_threads = rec->listed_threads;
	memcpy(row->thread_counts, rec->thread_counts,
	       rec->listed_threads * sizeof rec->thread_counts[0]);
	return 0;
}

int dmo_summary_read(const char *dir, struct dmo_layer_table *table, char *err,
		     size_t err_len)
{
	char path[4096];
	struct dmo_layer_summary rec;
	FILE *in;
	size_t n, index = 0, skipped = 0;

	table->rows = NULL;
	table->count = 0;
	snprintf(path, sizeof path, "%s/%s", dir, DMO_SUMMARY_FILE);
	in = dmo_rundir_open(path, err, err_len);
	if (in == NULL)
		return errno == ENOENT ? 0 : -1;
	while ((n = fread(&rec, 1, sizeof rec, in)) == sizeof rec) {
		struct dmo_layer_row row = { 0 };
		index++;
		/* Records have a fixed size: a damaged one is skipped and the
		 * reader stays in step with the next. */
		if (rec.magic != DMO_SUMMARY_MAGIC || rec.version != DMO_SUMMARY_VERSION ||
		    rec.status > DMO_STATUS_ERROR || !terminated(rec.name, sizeof rec.name) ||
		    !terminated(rec.spec, sizeof rec.spec) ||
		    !terminated(rec.reason, sizeof rec.reason)) {
			if (skipped++ == 0)
				snprintf(err, err_len, "%s: record %zu is malformed; skipped", path,
					 index);
			continue;
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
		if (take_threads(&row, &rec) != 0) {
			if (skipped++ == 0)
				snprintf(err, err_len, "%s: record %zu has bad thread counts; skipped",
					 path, index);
			continue;
		}
		if (rec.status == DMO_STATUS_ERROR)
			snprintf(row.status, sizeof row.status, "error:%s", rec.reason);
		else
			snprintf(row.status, sizeof row.status, "%s",
				 rec.status == DMO_STATUS_OK ? "ok" : "incomplete");
		dmo_layer_set_thread_status(&row);
		dmo_layer_set_safe(&row, 0);
		if (out_of_range(&row)) {
			if (skipped++ == 0)
				snprintf(err, err_len, "%s: record %zu: os_bytes %" PRIu64
					 " is larger than min(in_bytes, out_bytes); skipped", path,
					 index, row.os_bytes);
			continue;
		}
		if (push_row(table, &row) < 0) {
			snprintf(err, err_len, "out of memory");
			fclose(in);
			dmo_layer_table_free(table);
			return -1;
		}
	}
	fclose(in);
	if (n != 0) {
		/* A run killed or out of disk while the tool wrote a record:
		 * the whole records before it are the run's result. */
		if (skipped == 0)
			snprintf(err, err_len, "%s: ends in a partial record (%zu bytes), dropped",
				 path, n);
		return 1;
	}
	return skipped ? 1 : 0;
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

/* Written to a temporary file beside PATH and renamed over it, so a reader
 * never sees half a file.  Each row is flushed on its own; when one cannot
 * be written (a full disk), the file is cut back to the rows before it,
 * which are kept, and the error names the layer. */
int dmo_layers_csv_write(const char *path, const struct dmo_layer_table *table,
			 char *err, size_t err_len)
{
	struct dmo_out written;
	long whole = 0;
	size_t done = 0;
	int failed;
	FILE *out = dmo_out_open(&written, path, err, err_len);
	int n_columns = dmo_layers_by_process(table) ? N_COLUMNS : COL_PID;

	if (out == NULL)
		return -1;
	for (int c = 0; c < n_columns; c++)
		fprintf(out, "%s%c", columns[c], c == n_columns - 1 ? '\n' : ',');
	failed = fflush(out) != 0;
	for (; !failed && done < table->count; done++) {
		const struct dmo_layer_row *r = &table->rows[done];
		whole = ftell(out);
		put_number(out, r->layer);
		put_field(out, r->name, 0);
		put_field(out, r->op, 0);
		put_number(out, r->in_bytes);
		put_number(out, r->out_bytes);
		for (int k = 0; k < DMO_COUNT_KINDS; k++)
			put_number(out, r->counts[k]);
		put_number(out, r->steps);
		if (r->instructions == DMO_NOT_COUNTED)
			fputc(',', out); /* the tool did not count (--dmo-count=no) */
		else
			put_number(out, r->instructions);
		put_number(out, r->os_bytes);
		put_field(out, r->status, 0);
		put_number(out, r->threads);
		put_number(out, r->os_any_bytes);
		put_number(out, r->alive_threads);
		put_number(out, r->os_split_bytes);
		put_number(out, r->safe_os_bytes);
		put_field(out, dmo_safe_rule_name(r->safe_rule), n_columns == COL_PID);
		if (n_columns > COL_PID)
			fprintf(out, "%u\n", r->pid);
		failed = fflush(out) != 0 || ferror(out);
	}
	if (!failed)
		failed = fsync(fileno(out)) != 0;
	if (!failed)
		return dmo_out_commit(&written, err, err_len);
	int saved = errno;
	if (whole > 0 && dmo_out_commit_cut(&written, whole, err, err_len) == 0) {
		done--; /* the loop counted the row that failed */
		snprintf(err, err_len, "%s: %s at layer %u; it holds the %zu layer%s before it",
			 path, strerror(saved), table->rows[done].layer, done, done == 1 ? "" : "s");
		return -1;
	}
	dmo_out_abandon(&written);
	snprintf(err, err_len, "%s: %s; no layers.csv written", path, strerror(saved));
	return -1;
}

int dmo_threads_csv_write(const char *path, const struct dmo_layer_table *table, char *err,
			  size_t err_len)
{
	struct dmo_out written;
	FILE *out = dmo_out_open(&written, path, err, err_len);
	if (out == NULL)
		return -1;
	fputs("layer,tid,lumped,in_reads,in_writes,out_reads,out_writes\n", out);
	for (size_t i = 0; i < table->count; i++) {
		const struct dmo_layer_row *r = &table->rows[i];
		for (unsigned t = 0; t < r->listed_threads; t++) {
			const struct dmo_thread_counts *c = &r->thread_counts[t];
			put_number(out, r->layer);
			put_number(out, c->tid);
			put_number(out, c->lumped);
			for (int k = 0; k < DMO_COUNT_KINDS; k++)
				fprintf(out, "%" PRIu64 "%c", c->counts[k], k == 3 ? '\n' : ',');
		}
	}
	return dmo_out_commit(&written, err, err_len);
}

/* ---- reading layers.csv back ---- */

struct csv_reader {
	struct dmo_layer_table *table;
	struct dmo_layer_row row;
	int field;
	int n_fields;          /* of the header */
	int column[MAX_FIELDS]; /* field -> index into columns[], -1: unknown */
	int have_os_any, have_alive;
	size_t line;
	char *err;
	size_t err_len;
	int failed;      /* the file is unusable (header, CSV syntax) */
	int row_failed;  /* this row is bad: it is skipped, the others kept */
	size_t skipped;
};

/* The first problem is the one reported, with its line and column. */
static int fail(struct csv_reader *rd, const char *what)
{
	if (!rd->failed && !rd->row_failed && rd->skipped == 0)
		snprintf(rd->err, rd->err_len, "line %zu, column %d (%s): %s", rd->line,
			 rd->field + 1,
			 rd->line > 1 && rd->field < rd->n_fields && rd->column[rd->field] >= 0
				 ? columns[rd->column[rd->field]] : "extra", what);
	if (rd->line == 1)
		rd->failed = 1;
	else
		rd->row_failed = 1;
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

/* A header field: which column it is.  Unknown names are allowed (a
 * later dmo may append columns) and their values ignored. */
static void on_header_field(struct csv_reader *rd, const char *text, size_t len)
{
	int c = rd->field, id = -1;
	if (c >= MAX_FIELDS) {
		fail(rd, "too many columns");
		return;
	}
	for (int k = 0; k < N_COLUMNS; k++)
		if (len == strlen(columns[k]) && memcmp(text, columns[k], len) == 0)
			id = k;
	for (int k = 0; k < c && id >= 0; k++)
		if (rd->column[k] == id)
			fail(rd, "column named twice");
	rd->column[c] = id;
	rd->n_fields = c + 1;
}

/* ok:PREFIX=N with N a positive number of at most 9 digits. */
static int ok_count(const char *status, const char *prefix)
{
	const char *n = status + strlen(prefix);
	return strncmp(status, prefix, strlen(prefix)) == 0 && n[0] >= '1' && n[0] <= '9' &&
	       strspn(n, "0123456789") == strlen(n) && strlen(n) <= 9;
}

static int status_valid(const char *status)
{
	if (strcmp(status, "ok") == 0 || strcmp(status, "incomplete") == 0 ||
	    strncmp(status, "error:", 6) == 0)
		return 1;
	return ok_count(status, "ok:threads=") || ok_count(status, "ok:alive=");
}

static void take_rule(struct csv_reader *rd, const char *text, size_t len)
{
	for (int k = 0; k < N_RULES; k++)
		if (len == strlen(rule_names[k]) && memcmp(text, rule_names[k], len) == 0) {
			rd->row.safe_rule = (enum dmo_safe_rule)k;
			return;
		}
	fail(rd, "safe_os_rule is not as-run, any-split, static-split or observed-split");
}

static void on_field(void *text, size_t len, void *data)
{
	struct csv_reader *rd = data;
	struct dmo_layer_row *r = &rd->row;
	uint64_t value = 0;
	int c;

	if (rd->failed)
		return;
	if (rd->row_failed) {
		rd->field++;
		return;
	}
	if (rd->line == 1) {
		on_header_field(rd, text, len);
		rd->field++;
		return;
	}
	if (rd->field >= rd->n_fields) {
		fail(rd, "too many fields");
		return;
	}
	c = rd->column[rd->field];
	if (c < 0) {
		/* a column this dmo does not know */
	} else if (c == 1) {
		copy_field(rd, r->name, sizeof r->name, text, len);
	} else if (c == 2) {
		copy_field(rd, r->op, sizeof r->op, text, len);
	} else if (c == COL_STATUS) {
		if (copy_field(rd, r->status, sizeof r->status, text, len) == 0 &&
		    !status_valid(r->status))
			fail(rd, "status is not ok, ok:threads=N, ok:alive=N, incomplete or "
				 "error:<reason>");
	} else if (c == COL_RULE) {
		take_rule(rd, text, len);
	} else if (c == COL_INSTRUCTIONS && len == 0) {
		r->instructions = DMO_NOT_COUNTED;
	} else if (parse_u64(rd, text, len, &value) == 0) {
		if (c == 0 || c == COL_THREADS || c == COL_ALIVE || c == COL_PID) {
			if (value > UINT32_MAX)
				fail(rd, "number too large");
			*(c == 0 ? &r->layer : c == COL_THREADS ? &r->threads :
			  c == COL_ALIVE ? &r->alive_threads : &r->pid) = (unsigned)value;
		} else if (c <= 4) {
			*(c == 3 ? &r->in_bytes : &r->out_bytes) = value;
		} else if (c <= 8) {
			r->counts[c - 5] = value;
		} else if (c >= COL_OS_ANY) {
			*(c == COL_OS_ANY ? &r->os_any_bytes : c == COL_OS_SPLIT ? &r->os_split_bytes
									 : &r->safe_os_bytes) = value;
		} else {
			*(c == 9 ? &r->steps : c == COL_INSTRUCTIONS ? &r->instructions :
			  &r->os_bytes) = value;
		}
	}
	rd->field++;
}

/* After the header: every required column present. */
static void check_header(struct csv_reader *rd)
{
	int seen[N_COLUMNS] = { 0 };
	for (int f = 0; f < rd->n_fields; f++)
		if (rd->column[f] >= 0)
			seen[rd->column[f]] = 1;
	for (int k = 0; k < N_REQUIRED; k++)
		if (!seen[k]) {
			snprintf(rd->err, rd->err_len, "line 1: no column '%s'", columns[k]);
			rd->failed = 1;
			return;
		}
	if (seen[COL_THREADS] != seen[COL_OS_ANY]) {
		snprintf(rd->err, rd->err_len, "line 1: 'threads' and 'os_any_bytes' go together");
		rd->failed = 1;
	}
	for (int k = COL_ALIVE + 1; k <= COL_RULE; k++)
		if (seen[k] != seen[COL_ALIVE] || (seen[k] && !seen[COL_OS_ANY])) {
			snprintf(rd->err, rd->err_len, "line 1: 'alive_threads', 'os_split_bytes', "
				 "'safe_os_bytes' and 'safe_os_rule' go together, with 'os_any_bytes'");
			rd->failed = 1;
		}
	rd->have_os_any = seen[COL_OS_ANY];
	rd->have_alive = seen[COL_ALIVE];
}

/* The field of this file's header that holds column COL (for messages). */
static int field_of(const struct csv_reader *rd, int col)
{
	for (int f = 0; f < rd->n_fields; f++)
		if (rd->column[f] == col)
			return f;
	return 0;
}

/* A row of a file from before threads were counted: its one O_s is all
 * there is (threads 0 says it is not known).  From before threads alive
 * were counted: os_any_bytes, as dmo used then, says so by its rule. */
static int check_row(struct csv_reader *rd)
{
	struct dmo_layer_row *r = &rd->row;
	if (!rd->have_os_any)
		r->os_any_bytes = r->os_bytes;
	if (r->os_any_bytes > r->os_bytes) {
		rd->field = field_of(rd, COL_OS_ANY);
		return fail(rd, "os_any_bytes exceeds os_bytes");
	}
	if (!rd->have_alive) {
		r->os_split_bytes = r->os_any_bytes;
		r->safe_rule = r->threads > 1 ? DMO_SAFE_OBSERVED : DMO_SAFE_AS_RUN;
		r->safe_os_bytes = r->os_any_bytes;
		return 0;
	}
	if (r->os_split_bytes > r->os_any_bytes) {
		rd->field = field_of(rd, COL_OS_SPLIT);
		return fail(rd, "os_split_bytes exceeds os_any_bytes");
	}
	if (r->safe_os_bytes != value_of_rule(r, r->safe_rule)) {
		rd->field = field_of(rd, COL_SAFE);
		return fail(rd, "safe_os_bytes is not the value its safe_os_rule names");
	}
	return 0;
}

static void on_row_end(int terminator, void *data)
{
	struct csv_reader *rd = data;
	const struct dmo_layer_row *r = &rd->row;
	(void)terminator;
	if (!rd->failed && rd->line == 1)
		check_header(rd);
	else if (!rd->failed && !rd->row_failed && rd->field != rd->n_fields)
		fail(rd, "too few fields");
	/* Values no run can produce: a hand-edited or damaged row. */
	if (!rd->failed && !rd->row_failed && rd->line > 1 && out_of_range(r)) {
		rd->field = field_of(rd, COL_OS);
		fail(rd, "os_bytes is larger than min(in_bytes, out_bytes)");
	}
	if (!rd->failed && !rd->row_failed && rd->line > 1 && check_row(rd) == 0 &&
	    push_row(rd->table, &rd->row) < 0) {
		fail(rd, "out of memory");
		rd->failed = 1;
	}
	if (rd->row_failed)
		rd->skipped++;
	rd->row_failed = 0;
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
	FILE *in = dmo_rundir_open(path, err, err_len);

	table->rows = NULL;
	table->count = 0;
	if (in == NULL)
		return -1;
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
	if (rd.skipped > 0) {
		char detail[512];
		snprintf(detail, sizeof detail, "%s", err);
		snprintf(err, err_len, "%s: %s; %zu bad row%s skipped", path, detail, rd.skipped,
			 rd.skipped == 1 ? "" : "s");
		return 1;
	}
	return 0;
}

/* LEAF minus a trailing SUFFIX into BUF; 0 when it has none. */
static int strip(const char *leaf, const char *suffix, char *buf, size_t cap)
{
	size_t len = strlen(leaf), n = strlen(suffix);
	if (len <= n || len - n >= cap || strcmp(leaf + len - n, suffix) != 0)
		return 0;
	memcpy(buf, leaf, len - n);
	buf[len - n] = '\0';
	return 1;
}

int dmo_rundir_owns(const char *leaf)
{
	static const char *const fixed[] = { DMO_SUMMARY_FILE, DMO_LAYERS_CSV, DMO_ANALYSIS_CSV,
					     DMO_THREADS_CSV, "runs.csv" /* --runs */,
					     DMO_BACKEND_INFO_CSV, DMO_KERNELS_CSV,
					     DMO_HOST_CSV, DMO_RUNTIME_INFO_FILE };
	static const char *const per_layer[] = { DMO_TRACE_FILE_SUFFIX, ".csv", "-curves.csv",
						 DMO_WHERE_FILE_SUFFIX };
	char name[256], stem[256];
	const char *p;
	size_t digits;

	snprintf(name, sizeof name, "%s", leaf);
	/* A temporary of fs.h: NAME.XXXXXXXX.tmp. */
	if (strip(leaf, DMO_FS_TEMP_SUFFIX, stem, sizeof stem)) {
		size_t len = strlen(stem);
		if (len > 9 && stem[len - 9] == '.' &&
		    strspn(stem + len - 8, "0123456789abcdef") == 8)
			stem[len - 9] = '\0';
		snprintf(name, sizeof name, "%s", stem);
	}
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
		if (strcmp(name, fixed[i]) == 0)
			return 1;
	if (strncmp(name, DMO_LAYER_FILE_PREFIX, strlen(DMO_LAYER_FILE_PREFIX)) != 0)
		return 0;
	p = name + strlen(DMO_LAYER_FILE_PREFIX);
	digits = strspn(p, "0123456789");
	if (digits < 4)
		return 0;
	p += digits;
	for (size_t i = 0; i < sizeof per_layer / sizeof per_layer[0]; i++)
		if (strcmp(p, per_layer[i]) == 0)
			return 1;
	/* Figures: -KIND.png or -KIND.svg, KIND a lowercase word. */
	if (*p++ != '-' || (!strip(p, ".png", stem, sizeof stem) && !strip(p, ".svg", stem, sizeof stem)))
		return 0;
	return stem[0] != '\0' && strspn(stem, "abcdefghijklmnopqrstuvwxyz") == strlen(stem);
}

int dmo_layer_ok(const struct dmo_layer_row *row)
{
	return strcmp(row->status, "ok") == 0 || strncmp(row->status, "ok:", 3) == 0;
}

uint64_t dmo_layer_safe_os(const struct dmo_layer_row *row)
{
	return row->safe_os_bytes;
}

int dmo_layer_os_known(const struct dmo_layer_row *row)
{
	return strcmp(row->status, "incomplete") != 0;
}

/* The line under a layer open while several threads were alive: its
 * threads, every value, and which one is safe and why. */
static void print_threads(FILE *out, const struct dmo_layer_row *r)
{
	fprintf(out, "       %u thread%s touched I/O, %u alive", r->threads,
		r->threads == 1 ? "" : "s", r->alive_threads);
	for (unsigned t = 0; t < r->listed_threads; t++) {
		const struct dmo_thread_counts *c = &r->thread_counts[t];
		fprintf(out, "%stid %u%s: %" PRIu64 " events", t ? ", " : " (",
			c->tid, c->lumped ? "+" : "",
			c->counts[0] + c->counts[1] + c->counts[2] + c->counts[3]);
	}
	fprintf(out, "%s; O_s %" PRIu64 " as run, %" PRIu64 " for any interleaving of this "
		"split, %" PRIu64 " for any split; safe: %" PRIu64 " (%s)\n",
		r->listed_threads ? (r->listed_threads < r->threads ? ", ...)" : ")") : "",
		r->os_bytes, r->os_any_bytes, r->os_split_bytes, r->safe_os_bytes,
		dmo_safe_rule_name(r->safe_rule));
}

/* The op of R's spec ("conv2d" of "conv2d:in=..."), or "-". */
static void op_of(const struct dmo_layer_row *r, char *op, size_t len)
{
	size_t op_len = strcspn(r->op, ":");

	if (op_len == 0)
		snprintf(op, len, "-");
	else
		snprintf(op, len, "%.*s", (int)op_len, r->op);
}

int dmo_layers_by_process(const struct dmo_layer_table *table)
{
	for (size_t i = 0; i < table->count; i++)
		if (table->rows[i].pid != 0)
			return 1;
	return 0;
}

void dmo_layers_print(FILE *out, const struct dmo_layer_table *table)
{
	struct dmo_text_column name, op_column;
	char op[32];
	int by_process = dmo_layers_by_process(table);

	dmo_text_column_init(&name, "name", DMO_TEXT_NAME_CAP);
	dmo_text_column_init(&op_column, "op", sizeof op - 1);
	for (size_t i = 0; i < table->count; i++) {
		op_of(&table->rows[i], op, sizeof op);
		dmo_text_column_see(&name, table->rows[i].name);
		dmo_text_column_see(&op_column, op);
	}
	if (by_process)
		fprintf(out, "%7s  ", "pid");
	fprintf(out, "%5s  ", "layer");
	dmo_text_cell(out, &name, "name", " ");
	dmo_text_cell(out, &op_column, "op", "");
	fprintf(out, " %12s %12s %12s %12s %7s  %s\n", "in_bytes", "out_bytes", "events",
		"O_s bytes", "O_s %", "status");
	for (size_t i = 0; i < table->count; i++) {
		const struct dmo_layer_row *r = &table->rows[i];
		uint64_t events = r->counts[0] + r->counts[1] + r->counts[2] + r->counts[3];
		char os_bytes[24] = "-", os_pct[16] = "-";

		op_of(r, op, sizeof op);
		/* layers.csv keeps it either way; a layer refused before any
		 * access has none to show. */
		if (dmo_layer_os_known(r) && (events > 0 || strncmp(r->status, "error:", 6) != 0)) {
			uint64_t safe = dmo_layer_safe_os(r);
			snprintf(os_bytes, sizeof os_bytes, "%" PRIu64, safe);
			snprintf(os_pct, sizeof os_pct, "%.2f%%",
				 r->out_bytes ? 100.0 * (double)safe / (double)r->out_bytes : 0.0);
		}
		if (by_process)
			fprintf(out, "%7u  ", r->pid);
		fprintf(out, "%5u  ", r->layer);
		dmo_text_cell(out, &name, r->name, " ");
		dmo_text_cell(out, &op_column, op, "");
		fprintf(out, " %12" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12s %7s  %s\n",
			r->in_bytes, r->out_bytes, events, os_bytes, os_pct, r->status);
		if (r->threads > 1 || r->alive_threads > 1)
			print_threads(out, r);
	}
}

void dmo_layers_rule_text(const struct dmo_layer_table *table, char *text, size_t len)
{
	size_t counts[N_RULES] = { 0 };
	int used = snprintf(text, len, "safe_os_bytes (");
	for (size_t i = 0; i < table->count; i++)
		counts[table->rows[i].safe_rule]++;
	for (int k = 0; k < N_RULES && used >= 0 && (size_t)used < len; k++)
		if (counts[k] > 0)
			used += snprintf(text + used, len - (size_t)used, "%s%zu %s",
					 text[used - 1] == '(' ? "" : ", ", counts[k], rule_names[k]);
	if (used >= 0 && (size_t)used < len)
		snprintf(text + used, len - (size_t)used, "%s)", table->count ? "" : "no layers");
}

void dmo_layers_warn_threads(FILE *out, const char *who, const struct dmo_layer_table *table)
{
	size_t counts[DMO_SAFE_OBSERVED + 1] = { 0 }, multi;
	for (size_t i = 0; i < table->count; i++)
		counts[table->rows[i].safe_rule]++;
	multi = table->count - counts[DMO_SAFE_AS_RUN];
	if (multi == 0)
		return;
	fprintf(out, "%s: warning: %zu layer%s ran while several threads were alive: ", who,
		multi, multi == 1 ? "" : "s");
	if (counts[DMO_SAFE_ANY_SPLIT] > 0)
		fprintf(out, "%zu safe for any split of the work (os_split_bytes; a pool may "
			"give any work to any thread)%s", counts[DMO_SAFE_ANY_SPLIT],
			counts[DMO_SAFE_STATIC_SPLIT] + counts[DMO_SAFE_OBSERVED] ? ", " : "\n");
	if (counts[DMO_SAFE_STATIC_SPLIT] > 0)
		fprintf(out, "%zu safe for every interleaving of the observed split, declared "
			"static (os_any_bytes)%s", counts[DMO_SAFE_STATIC_SPLIT],
			counts[DMO_SAFE_OBSERVED] ? ", " : "\n");
	if (counts[DMO_SAFE_OBSERVED] > 0)
		fprintf(out, "%zu from a layers.csv that did not count threads alive "
			"(os_any_bytes)\n", counts[DMO_SAFE_OBSERVED]);
}

int dmo_rundir_exists(const char *dir, char *err, size_t err_len)
{
	struct stat st;
	const char *why = "is not a folder";

	if (stat(dir, &st) != 0)
		why = errno == ENOENT ? "does not exist" : strerror(errno);
	else if (S_ISDIR(st.st_mode))
		return 0;
	snprintf(err, err_len, "%s %s (a run directory is what dmo profile --out, dmo run --out "
		 "or valgrind --tool=dmo wrote)", dir, why);
	return -1;
}
