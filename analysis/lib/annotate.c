/* annotate.c - a layer's code locations per source line (annotate.h), as
 * cg_annotate shows a cachegrind profile: the counts beside the source,
 * with a mark on the two lines whose accesses bind O_s.
 *
 * The bound of the pair is recomputed here from its two accesses, the
 * rule of docs/definitions.md: for W(O) before an input access at i,
 * OB + i - o_end with o_end the write's end; for W(I) at i before R(O)
 * ending at o_end, the same.  The pair binds when that bound is below
 * min(IB, OB); otherwise O_s is the whole of the smaller buffer and no
 * line limits it. */
#include "annotate.h"

#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "event.h"
#include "where.h"

/* One source line's accesses (or one instruction's, with no line). */
struct line_counts {
	const char *file; /* "" when unknown */
	unsigned line;
	const struct dmo_where_row *site; /* its first site: function, ip, object */
	uint64_t counts[4];
	unsigned binds;   /* bit 0: the pair's first access, bit 1: its second */
	/* A binding access's nearest caller with source, when the access has
	 * none here (where.h): the line of the kernel that called the
	 * library; "" otherwise. */
	const char *called_from;
};

static uint64_t loads(const uint64_t *c)
{
	return c[DMO_COUNT_IN_READS] + c[DMO_COUNT_OUT_READS];
}

static uint64_t stores(const uint64_t *c)
{
	return c[DMO_COUNT_IN_WRITES] + c[DMO_COUNT_OUT_WRITES];
}

static int by_file_line(const void *a, const void *b)
{
	const struct line_counts *x = a, *y = b;
	int c = strcmp(x->file, y->file);
	if (c != 0)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->site->ip < y->site->ip ? -1 : x->site->ip > y->site->ip;
}

/* W's sites merged per (file, line); an instruction with no line stays
 * alone; the lines of BINDING's accesses (NULL when the pair does not
 * bind) marked.  Returns the number of entries in *LINES (to free), or -1. */
static long merge_lines(const struct dmo_where *w, const struct dmo_where_row *const *binding,
			struct line_counts **lines)
{
	struct line_counts *l = calloc(w->count ? w->count : 1, sizeof *l);
	size_t n = 0, kept = 0;
	if (l == NULL)
		return -1;
	for (size_t i = 0; i < w->count; i++) {
		const struct dmo_where_row *r = &w->rows[i];
		if (r->role != DMO_WHERE_SITE)
			continue;
		l[n].file = r->line > 0 ? r->file : "";
		l[n].line = r->line;
		l[n].site = r;
		l[n].called_from = "";
		memcpy(l[n].counts, r->counts, sizeof l[n].counts);
		for (int p = 0; p < 2; p++)
			if (binding != NULL && binding[p]->ip == r->ip) {
				l[n].binds |= 1u << p;
				l[n].called_from = binding[p]->called_from;
			}
		n++;
	}
	qsort(l, n, sizeof *l, by_file_line);
	for (size_t i = 0; i < n; i++) {
		if (kept > 0 && l[i].line > 0 && l[kept - 1].line == l[i].line &&
		    strcmp(l[kept - 1].file, l[i].file) == 0) {
			for (int k = 0; k < 4; k++)
				l[kept - 1].counts[k] += l[i].counts[k];
			l[kept - 1].binds |= l[i].binds;
			if (l[i].called_from[0])
				l[kept - 1].called_from = l[i].called_from;
			continue;
		}
		l[kept++] = l[i];
	}
	*lines = l;
	return (long)kept;
}

static const char *binds_text(unsigned binds)
{
	static const char *const text[] = { "", "first", "second", "first+second" };
	return text[binds & 3];
}

/* The pair's bound OB + i - o_end. */
static int64_t pair_bound(const struct dmo_where *w, uint64_t out_bytes, uint64_t *in_start,
			  uint64_t *out_end)
{
	const struct dmo_where_row *in = w->pair[1], *out = w->pair[0];
	if (w->pair[1]->kind == DMO_COUNT_OUT_READS) {
		in = w->pair[0];
		out = w->pair[1];
	}
	*in_start = in->offset;
	*out_end = out->offset + out->size;
	return (int64_t)out_bytes + (int64_t)*in_start - (int64_t)*out_end;
}

/* Whether W's pair limits O_s of ROW: its bound is below min(IB, OB). */
static int pair_binds(const struct dmo_where *w, const struct dmo_layer_row *row)
{
	uint64_t limit = row->in_bytes < row->out_bytes ? row->in_bytes : row->out_bytes;
	uint64_t in_start, out_end;
	return w->pair[0] != NULL &&
	       pair_bound(w, row->out_bytes, &in_start, &out_end) < (int64_t)limit;
}

static void put_csv_text(FILE *out, const char *text)
{
	csv_fwrite(out, text, strlen(text));
}

static void csv_rows(FILE *out, const struct dmo_layer_row *row, const struct line_counts *l,
		     long n)
{
	for (long i = 0; i < n; i++) {
		fprintf(out, "%u,", row->layer);
		put_csv_text(out, row->name);
		fputc(',', out);
		put_csv_text(out, l[i].file);
		if (l[i].line > 0)
			fprintf(out, ",%u,", l[i].line);
		else
			fputs(",,", out);
		put_csv_text(out, l[i].site->function);
		fprintf(out, ",%" PRIu64 ",%" PRIu64, loads(l[i].counts), stores(l[i].counts));
		for (int k = 0; k < 4; k++)
			fprintf(out, ",%" PRIu64, l[i].counts[k]);
		fprintf(out, ",%s,", binds_text(l[i].binds));
		/* A line may hold several instructions: only a line-less
		 * entry is one. */
		if (l[i].line == 0)
			fprintf(out, "0x%" PRIx64, l[i].site->ip);
		fputc(',', out);
		put_csv_text(out, l[i].site->object);
		fputc(',', out);
		if (l[i].line == 0 && l[i].site->in_object)
			fprintf(out, "0x%" PRIx64, l[i].site->object_address);
		fputc(',', out);
		put_csv_text(out, l[i].called_from);
		fputc('\n', out);
	}
}

/* "function (file:line)", or the address and object when unnamed. */
static void where_text(const struct dmo_where_row *r, char *text, size_t len)
{
	const char *fn = r->function[0] ? r->function : "???";
	if (r->line > 0)
		snprintf(text, len, "%s (%s:%u)", fn, r->file, r->line);
	else if (r->object[0] && r->in_object)
		snprintf(text, len, "%s (in %s at 0x%" PRIx64 ")", fn, r->object, r->object_address);
	else if (r->object[0])
		snprintf(text, len, "%s (in %s)", fn, r->object);
	else
		snprintf(text, len, "%s", fn);
}

static void text_pair(FILE *out, const struct dmo_layer_row *row, const struct dmo_where *w)
{
	uint64_t limit = row->in_bytes < row->out_bytes ? row->in_bytes : row->out_bytes;
	uint64_t in_start, out_end;
	int64_t bound;
	char place[2048];

	fprintf(out, "layer %u %s: O_s = %" PRIu64 " of %" PRIu64 " output bytes (as run)\n",
		row->layer, row->name, row->os_bytes, row->out_bytes);
	if (w->pair[0] == NULL) {
		fprintf(out, "  no access forbids any overlap: O_s = min(IB, OB) = %" PRIu64 "\n",
			limit);
		return;
	}
	bound = pair_bound(w, row->out_bytes, &in_start, &out_end);
	if (bound >= (int64_t)limit)
		fprintf(out, "  no pair limits O_s below min(IB, OB) = %" PRIu64 "; the tightest "
			"allows %" PRId64 ":\n", limit, bound);
	else
		fprintf(out, "  binding pair: OB + i - o_end = %" PRIu64 " + %" PRIu64 " - %" PRIu64
			" = %" PRId64 "%s\n", row->out_bytes, in_start, out_end, bound,
			bound < 0 ? " (clamped to 0)" : "");
	for (int p = 0; p < 2; p++) {
		const struct dmo_where_row *a = w->pair[p];
		where_text(a, place, sizeof place);
		fprintf(out, "  %d %-9s bytes [%" PRIu64 ", %" PRIu64 ") at 0x%" PRIx64 " %s\n",
			p + 1, dmo_where_kind_name(a->kind), a->offset, a->offset + a->size, a->ip,
			place);
		if (a->inlined_into[0])
			fprintf(out, "      inlined into %s\n", a->inlined_into);
		/* Which of a line's instructions it is: where objdump finds it
		 * (where_text gives it already for a line-less one). */
		if (a->line > 0 && a->in_object)
			fprintf(out, "      instruction at 0x%" PRIx64 " of %s\n", a->object_address,
				a->object);
		/* The tool found no source for it when the program ran: a
		 * library's code, or the kernel's own file moved since the
		 * build, which the caller is then not. */
		if (a->called_from[0])
			fprintf(out, "      no source here (%s): called from %s\n",
				a->line > 0 ? "its file was not on this machine when profiled: a "
					      "library's, or moved"
					    : "no line: code built without -g",
				a->called_from);
	}
}

/* The text output's mark: which of the pair's accesses a line holds. */
static const char *mark_text(unsigned binds)
{
	static const char *const marks[] = { "", "1", "2", "1,2" };
	return marks[binds & 3];
}

static void text_line(FILE *out, const struct line_counts *l, unsigned line, const char *source)
{
	if (l != NULL)
		fprintf(out, "%10" PRIu64 " %10" PRIu64 "  %-4s", loads(l->counts),
			stores(l->counts), mark_text(l->binds));
	else
		fprintf(out, "%10s %10s  %-4s", ".", ".", "");
	fprintf(out, "%6u  %s", line, source);
	if (source[0] == '\0' || source[strlen(source) - 1] != '\n')
		fputc('\n', out);
}

/* The lines L[0..N) of one file, all counted, sorted by line: the file's
 * text around them when it can be read, else the counted lines alone.
 * RUN_TIME is when the where file was written (0: unknown): a source
 * changed since may no longer hold the lines counted, as cg_annotate
 * warns too. */
static void text_file(FILE *out, const struct line_counts *l, long n, unsigned context,
		      time_t run_time)
{
	FILE *src = fopen(l[0].file, "r");
	char *text = NULL;
	size_t cap = 0;
	unsigned line = 0, shown = 0;
	long next = 0;
	struct stat info;

	fprintf(out, "\n-- %s\n", l[0].file);
	if (src == NULL)
		fprintf(out, "   (cannot read it: %s; its counted lines only)\n", strerror(errno));
	else if (run_time > 0 && fstat(fileno(src), &info) == 0 && info.st_mtime > run_time)
		fputs("   (changed since the run: its lines may not be the ones counted)\n", out);
	fprintf(out, "%10s %10s  %-4s%6s\n", "loads", "stores", "bind", "line");
	if (src == NULL) {
		for (long i = 0; i < n; i++)
			text_line(out, &l[i], l[i].line, "");
		return;
	}
	while (next < n && getline(&text, &cap, src) != -1) {
		line++;
		if (line + context < l[next].line)
			continue;
		if (shown > 0 && line > shown + 1)
			fprintf(out, "%27s-- line %u --\n", "", line);
		if (line == l[next].line)
			text_line(out, &l[next++], line, text);
		else
			text_line(out, NULL, line, text);
		shown = line;
		/* The context after the last counted line. */
		for (unsigned k = 0; next == n && k < context && getline(&text, &cap, src) != -1;
		     k++)
			text_line(out, NULL, ++line, text);
	}
	free(text);
	fclose(src);
}

static void text_lines(FILE *out, const struct line_counts *l, long n, unsigned context,
		       time_t run_time)
{
	long first = 0;
	while (first < n && l[first].line == 0) {
		char place[2048];
		if (first == 0)
			fprintf(out, "\n-- instructions with no source line\n%10s %10s  %-4s  %s\n",
				"loads", "stores", "bind", "instruction");
		where_text(l[first].site, place, sizeof place);
		fprintf(out, "%10" PRIu64 " %10" PRIu64 "  %-4s  0x%" PRIx64 " %s\n",
			loads(l[first].counts), stores(l[first].counts), mark_text(l[first].binds),
			l[first].site->ip, place);
		first++;
	}
	while (first < n) {
		long end = first + 1;
		while (end < n && strcmp(l[end].file, l[first].file) == 0)
			end++;
		text_file(out, l + first, end - first, context, run_time);
		first = end;
	}
}

int dmo_annotate_layer(FILE *out, const char *dir, const struct dmo_layer_row *row, int csv,
		       unsigned context, char *err, size_t err_len)
{
	char path[4096];
	struct dmo_where w;
	struct line_counts *lines;
	long n;

	dmo_where_path(dir, row->layer, path, sizeof path);
	errno = 0;
	if (dmo_where_read(path, &w, err, err_len) != 0) {
		if (errno == ENOENT)
			snprintf(err, err_len, "%s does not exist: the tool that made this run "
				 "recorded no code locations (a dmo before them)", path);
		return -1;
	}
	n = merge_lines(&w, pair_binds(&w, row) ? w.pair : NULL, &lines);
	if (n < 0) {
		snprintf(err, err_len, "out of memory");
		dmo_where_free(&w);
		return -1;
	}
	if (csv) {
		csv_rows(out, row, lines, n);
	} else {
		struct stat written;
		text_pair(out, row, &w);
		text_lines(out, lines, n, context, stat(path, &written) == 0 ? written.st_mtime : 0);
		fputc('\n', out);
	}
	free(lines);
	dmo_where_free(&w);
	return 0;
}
