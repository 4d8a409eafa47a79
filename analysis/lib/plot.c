/* plot.c - data preparation and gnuplot invocation for `dmo plot` (plot.h).
 *
 * One pass over the event file folds every event into the exact O_s
 * reducer and notes which two events set it; a second pass writes the
 * series (event by event, or min/max envelopes per time bin) as CSV into a
 * temporary folder; gnuplot then renders a template from plots/. */
#include "locate.h"
#include "plan.h"
#include "plot.h"

#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "algorithmic.h"
#include "analytic.h"
#include "curves.h"
#include "opspec.h"
#include "os_reducer.h"
#include "trace.h"

#define READ_CHUNK 65536
/* Thread series: the tool saturates thread ids at 255; two buffers each. */
#define MAX_SERIES (256 * 2)

static const char *const kind_names[] = { "pattern", "bounds", "threads" };

const char *dmo_plot_kind_name(enum dmo_plot_kind kind)
{
	return kind_names[kind];
}

int dmo_plot_kind_parse(const char *name, enum dmo_plot_kind *kind)
{
	for (size_t i = 0; i < sizeof kind_names / sizeof kind_names[0]; i++)
		if (strcmp(name, kind_names[i]) == 0) {
			*kind = (enum dmo_plot_kind)i;
			return 0;
		}
	return -1;
}

/* What the first pass learns. */
struct scan {
	struct dmo_reducer red;
	/* The same events per thread: the O_s safe for every interleaving,
	 * the value the figures shade (docs/formulas.md 1b). */
	struct dmo_thread_acc slots[DMO_TID_LUMPED + 1];
	struct dmo_any_reducer any;
	uint64_t events, t_min, t_max;
	/* The events that currently hold the reducer's running extremes, and
	 * the pair (E1 before E2) that gave its smallest bound. */
	struct dmo_event wo_setter, wi_setter;
	struct dmo_event pair[2];
	int have_pair;
};

/* Watch the normative reducer rather than restate its rule: an event that
 * moves an extreme becomes that extreme's holder, and an event that lowers
 * the bound forms the new tightest pair with the holder of the extreme it
 * was compared against (W(O) for an input-side event, W(I) for R(O)). */
static void scan_event(struct scan *s, const struct dmo_event *e)
{
	struct dmo_reducer before = s->red;

	dmo_reducer_add(&s->red, e->flags, e->offset, e->size);
	dmo_any_add(&s->any, e->tid, e->flags, e->offset, e->size);
	if (s->red.counts[3] != before.counts[3] &&
	    (before.counts[3] == 0 || s->red.max_out_write_end > before.max_out_write_end))
		s->wo_setter = *e;
	if (s->red.counts[1] != before.counts[1] &&
	    (before.counts[1] == 0 || s->red.min_in_write_start < before.min_in_write_start))
		s->wi_setter = *e;
	if (s->red.have_bound && (!before.have_bound || s->red.min_bound < before.min_bound)) {
		s->pair[0] = (e->flags & DMO_EV_OUT) ? s->wi_setter : s->wo_setter;
		s->pair[1] = *e;
		s->have_pair = 1;
	}
	if (s->events == 0 || e->time < s->t_min)
		s->t_min = e->time;
	if (e->time > s->t_max)
		s->t_max = e->time;
	s->events++;
}

typedef void (*event_fn)(void *ctx, const struct dmo_event *e);

/* Feed every event of PATH, in order, to FN. */
static int each_event(const char *path, event_fn fn, void *ctx, char *err, size_t err_len)
{
	struct dmo_trace trace;
	struct dmo_event *events = malloc(READ_CHUNK * sizeof *events);
	size_t got;
	int rc;

	if (events == NULL) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	if (dmo_trace_open(path, &trace, err, err_len) != 0) {
		free(events);
		return -1;
	}
	while ((rc = dmo_trace_read(&trace, events, READ_CHUNK, &got, err, err_len)) == 0 &&
	       got > 0)
		for (size_t i = 0; i < got; i++)
			fn(ctx, &events[i]);
	dmo_trace_close(&trace);
	free(events);
	return rc;
}

static void scan_fn(void *ctx, const struct dmo_event *e)
{
	scan_event(ctx, e);
}

/* ---- series files ------------------------------------------------------ */

/* One drawn series: its CSV file (time,TITLE,end) and, when decimated,
 * per-bin envelopes of drawn offsets: lo = smallest start, hi = largest end
 * (lo == UINT64_MAX: no event in that bin). */
struct series {
	FILE *file;
	char stem[16];
	uint64_t *lo, *hi;
};

struct prep {
	const struct dmo_plot_request *req;
	const char *dir;
	uint64_t in_shift;      /* input offset r is drawn at r + in_shift */
	uint64_t t_min, span;   /* bins cover [t_min, t_min + span) */
	int decimated;
	uint64_t rows;
	struct series *series[MAX_SERIES];
	int failed;             /* out of memory or a file could not be opened */
};

static int write_header(FILE *f, const char *first, const char *title, const char *last)
{
	fprintf(f, "%s,", first);
	csv_fwrite(f, title, strlen(title));
	fprintf(f, ",%s\n", last);
	return ferror(f) ? -1 : 0;
}

static const char *const kind_titles[4] = {
	"input reads R(I)", "input writes W(I)", "output reads R(O)", "output writes W(O)",
};
static const char *const kind_stems[4] = { "ri", "wi", "ro", "wo" };

/* Series index of an event: its kind (pattern) or thread and buffer. */
static unsigned series_of(const struct prep *p, const struct dmo_event *e)
{
	if (p->req->kind == DMO_PLOT_THREADS)
		return e->tid * 2u + ((e->flags & DMO_EV_OUT) ? 1u : 0u);
	return dmo_event_kind(e->flags);
}

static struct series *series_get(struct prep *p, unsigned index)
{
	struct series *s = p->series[index];
	char path[PATH_MAX], title[64];

	if (s != NULL || p->failed)
		return s;
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		p->failed = 1;
		return NULL;
	}
	if (p->req->kind == DMO_PLOT_THREADS) {
		snprintf(s->stem, sizeof s->stem, "t%u-%s", index / 2, (index & 1) ? "out" : "in");
		/* One legend entry per thread, its colour being the same on
		 * both buffers: the thread's second series is titled "-",
		 * which threads.gp leaves out of the legend. */
		if (p->series[index ^ 1u] != NULL)
			snprintf(title, sizeof title, "-");
		else
			snprintf(title, sizeof title, "thread %u", index / 2);
	} else {
		snprintf(s->stem, sizeof s->stem, "%s", kind_stems[index]);
		snprintf(title, sizeof title, "%s", kind_titles[index]);
	}
	snprintf(path, sizeof path, "%s/%s.csv", p->dir, s->stem);
	s->file = fopen(path, "w");
	if (p->decimated) {
		s->lo = malloc(DMO_PLOT_BINS * sizeof *s->lo);
		s->hi = calloc(DMO_PLOT_BINS, sizeof *s->hi);
		if (s->lo != NULL)
			memset(s->lo, 0xff, DMO_PLOT_BINS * sizeof *s->lo);
	}
	if (s->file == NULL || (p->decimated && (s->lo == NULL || s->hi == NULL)) ||
	    write_header(s->file, "time", title, "end") != 0)
		p->failed = 1;
	p->series[index] = s;
	return p->failed ? NULL : s;
}

static void prep_fn(void *ctx, const struct dmo_event *e)
{
	struct prep *p = ctx;
	struct series *s = series_get(p, series_of(p, e));
	uint64_t y = e->offset + ((e->flags & DMO_EV_OUT) ? 0 : p->in_shift);

	if (s == NULL)
		return;
	if (!p->decimated) {
		fprintf(s->file, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", e->time, y, y + e->size);
		p->rows++;
		return;
	}
	uint64_t bin = (e->time - p->t_min) * DMO_PLOT_BINS / p->span;
	if (y < s->lo[bin])
		s->lo[bin] = y;
	if (y + e->size > s->hi[bin])
		s->hi[bin] = y + e->size;
}

/* Write the envelopes: one row per non-empty bin at the bin's middle
 * time, a blank line across empty bins so no band bridges a gap. */
static void write_envelopes(struct prep *p, struct series *s)
{
	int gap = 0;

	for (uint64_t b = 0; b < DMO_PLOT_BINS; b++) {
		if (s->lo[b] == UINT64_MAX) {
			gap = 1;
			continue;
		}
		if (gap)
			fputc('\n', s->file);
		gap = 0;
		fprintf(s->file, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n",
			p->t_min + (2 * b + 1) * p->span / (2 * DMO_PLOT_BINS), s->lo[b], s->hi[b]);
		p->rows++;
	}
}

/* Close every series; append its stem to LIST.  Returns -1 on a failure. */
static int finish_series(struct prep *p, char *list, size_t len)
{
	int rc = p->failed ? -1 : 0;
	size_t used = 0;

	list[0] = '\0';
	for (unsigned i = 0; i < MAX_SERIES; i++) {
		struct series *s = p->series[i];
		if (s == NULL)
			continue;
		if (s->file != NULL) {
			if (p->decimated && rc == 0)
				write_envelopes(p, s);
			if (ferror(s->file) | fclose(s->file))
				rc = -1;
		}
		used += (size_t)snprintf(list + used, len - used, "%s%s", used ? " " : "", s->stem);
		free(s->lo);
		free(s->hi);
		free(s);
		p->series[i] = NULL;
	}
	return rc;
}

/* ---- gnuplot arguments -------------------------------------------------- */

/* A growing `-e` program of gnuplot assignments. */
struct gp_args {
	char text[16384];
	size_t used;
};

static void gp_add(struct gp_args *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (a->used >= sizeof a->text)
		return;
	va_start(ap, fmt);
	n = vsnprintf(a->text + a->used, sizeof a->text - a->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		a->used += (size_t)n;
}

/* NAME = 'VALUE'; as a gnuplot single-quoted string: a quote is doubled,
 * control characters (a layer name comes from the profiled program) become
 * spaces. */
static void gp_string(struct gp_args *a, const char *name, const char *value)
{
	gp_add(a, "%s='", name);
	for (const char *c = value; *c; c++) {
		if (*c == '\'')
			gp_add(a, "''");
		else
			gp_add(a, "%c", (unsigned char)*c < 0x20 ? ' ' : *c);
	}
	gp_add(a, "';");
}

static void gp_uint(struct gp_args *a, const char *name, uint64_t value)
{
	gp_add(a, "%s=%" PRIu64 ";", name, value);
}

/* Run gnuplot on TEMPLATE with the assignments; its stderr goes to
 * DIR/gnuplot.err and the first line of it into ERR on failure. */
static int run_gnuplot(const char *dir, const char *tmpl, const struct gp_args *a, char *err,
		       size_t err_len)
{
	const char *gnuplot = DMO_GNUPLOT[0] ? DMO_GNUPLOT : "gnuplot";
	char script[PATH_MAX], log[PATH_MAX];
	pid_t pid;
	int status, fd;

	snprintf(script, sizeof script, "%s/%s", dmo_locate_plots(), tmpl);
	snprintf(log, sizeof log, "%s/gnuplot.err", dir);
	if (access(script, R_OK) != 0) {
		snprintf(err, err_len, "gnuplot template %s not found (set DMO_PLOTS_DIR)", script);
		return -1;
	}
	if (a->used >= sizeof a->text) {
		snprintf(err, err_len, "gnuplot arguments too long");
		return -1;
	}
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		snprintf(err, err_len, "%s: %s", log, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		dup2(fd, 2);
		dup2(fd, 1);
		execlp(gnuplot, gnuplot, "-e", a->text, script, (char *)NULL);
		fprintf(stderr, "cannot run %s: %s\n", gnuplot, strerror(errno));
		_exit(127);
	}
	close(fd);
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		snprintf(err, err_len, "cannot run %s: %s", gnuplot, strerror(errno));
		return -1;
	}
	/* gnuplot reports errors on stderr but may still exit 0 for some. */
	FILE *f = fopen(log, "r");
	char line[512] = "";
	int said = f != NULL && fgets(line, sizeof line, f) != NULL;
	if (f != NULL)
		fclose(f);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || said) {
		line[strcspn(line, "\n")] = '\0';
		snprintf(err, err_len, "gnuplot failed on %s: %s", script,
			 said ? line : "no message");
		return -1;
	}
	return 0;
}

/* ---- the figures -------------------------------------------------------- */

/* Shared assignments: terminal, output, data folder, titles, sizes. */
static void gp_common(struct gp_args *a, const struct dmo_plot_request *req, const char *dir,
		      const char *what, const struct scan *s, const char *detail)
{
	const struct dmo_layer_row *row = req->row;
	char title[1600], subtitle[512], value[160];
	/* A layer cut short has no O_s: nothing is drawn as if it had one. */
	int known = dmo_layer_os_known(row);
	uint64_t ob = row->out_bytes, os = known ? dmo_any_os(&s->any) : 0;
	uint64_t os_run = known ? dmo_reducer_os(&s->red) : 0;

	gp_string(a, "term", req->format == DMO_PLOT_SVG ? "svg" : "pngcairo");
	gp_string(a, "outfile", req->out_file);
	gp_string(a, "datadir", dir);
	gp_string(a, "plotsdir", dmo_locate_plots());
	snprintf(title, sizeof title, "%s of layer %u '%s'%s%s%s", what, row->layer, row->name,
		 row->op[0] ? " (" : "", row->op, row->op[0] ? ")" : "");
	if (!known)
		snprintf(subtitle, sizeof subtitle,
			 "INCOMPLETE layer (the program ended inside it): no O_s; OB = %" PRIu64
			 " B, IB = %" PRIu64 " B, %" PRIu64 " events seen; %s",
			 ob, row->in_bytes, s->events, detail);
	else {
		if (s->any.n_threads > 1)
			snprintf(value, sizeof value, "%u threads: O_s = %" PRIu64 " B for any "
				 "interleaving (%" PRIu64 " B as run)", s->any.n_threads, os, os_run);
		else
			snprintf(value, sizeof value, "O_s = %" PRIu64 " B", os);
		snprintf(subtitle, sizeof subtitle,
			 "%s of OB = %" PRIu64 " B (%.2f %%), IB = %" PRIu64 " B, %" PRIu64
			 " events; %s",
			 value, ob, ob ? 100.0 * (double)os / (double)ob : 0.0, row->in_bytes,
			 s->events, detail);
	}
	gp_string(a, "title", title);
	gp_string(a, "subtitle", subtitle);
	gp_uint(a, "ob", ob);
	gp_uint(a, "ib", row->in_bytes);
	gp_uint(a, "os", os);
	gp_uint(a, "osrun", os_run);
	gp_uint(a, "known", (uint64_t)known);
	/* One event, or all at one instant, still has a time axis. */
	gp_uint(a, "tlo", s->t_min);
	gp_uint(a, "thi", s->t_max + 1);
}

/* pair.csv: the two events that set O_s, at their drawn positions: the
 * output side at its range's end, the input side at its range's start.
 * LABEL says which they are and the bound they give, for the legend. */
static int write_pair(const char *dir, const struct scan *s, uint64_t in_shift,
		      uint64_t out_bytes, char *label, size_t label_len)
{
	char path[PATH_MAX], side[2][40];
	uint64_t edge[2]; /* o_end of the output-side event, i of the input side */
	FILE *f;

	for (int i = 0; i < 2; i++) {
		const struct dmo_event *e = &s->pair[i];
		int out = (e->flags & DMO_EV_OUT) != 0;
		edge[i] = out ? (uint64_t)e->offset + e->size : e->offset;
		snprintf(side[i], sizeof side[i], "%s(%s) %s %" PRIu64,
			 (e->flags & DMO_EV_WRITE) ? "W" : "R", out ? "O" : "I",
			 out ? "end" : "offset", edge[i]);
	}
	/* Exactly one event of a forbidding pair is on the output buffer. */
	int o = (s->pair[0].flags & DMO_EV_OUT) ? 0 : 1;
	snprintf(label, label_len, "%s set by %s then %s: OB + %" PRIu64 " - %" PRIu64 " = %" PRId64,
		 s->any.n_threads > 1 ? "O_s as run" : "O_s", side[0], side[1], edge[1 - o], edge[o],
		 (int64_t)out_bytes + (int64_t)edge[1 - o] - (int64_t)edge[o]);
	snprintf(path, sizeof path, "%s/pair.csv", dir);
	f = fopen(path, "w");
	if (f == NULL)
		return -1;
	fputs("time,offset\n", f);
	for (int i = 0; i < 2; i++)
		fprintf(f, "%" PRIu64 ",%" PRIu64 "\n", s->pair[i].time,
			edge[i] + (i == o ? 0 : in_shift));
	return (ferror(f) | fclose(f)) ? -1 : 0;
}

static int plot_memory(const struct dmo_plot_request *req, const char *dir, struct scan *s,
		       struct dmo_plot_result *res, char *err, size_t err_len)
{
	struct prep p = { .req = req, .dir = dir };
	struct gp_args *a = calloc(1, sizeof *a);
	char list[MAX_SERIES * 12], detail[160], pair[200] = "";
	uint64_t os = dmo_layer_os_known(req->row) ? dmo_any_os(&s->any) : 0;
	int rc;

	if (a == NULL) {
		snprintf(err, err_len, "out of memory");
		return -1;
	}
	p.in_shift = req->row->out_bytes - os;
	p.t_min = s->t_min;
	p.span = s->t_max - s->t_min + 1;
	p.decimated = s->events > DMO_PLOT_RAW_MAX;
	rc = each_event(req->event_file, prep_fn, &p, err, err_len);
	if (finish_series(&p, list, sizeof list) != 0 && rc == 0) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		rc = -1;
	}
	if (!dmo_layer_os_known(req->row))
		s->have_pair = 0; /* no pair sets an O_s the layer does not have */
	if (rc == 0 && s->have_pair &&
	    write_pair(dir, s, p.in_shift, req->row->out_bytes, pair, sizeof pair) != 0) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		rc = -1;
	}
	if (rc == 0) {
		if (p.decimated)
			snprintf(detail, sizeof detail,
				 "decimated 1:%" PRIu64 " (min/max envelopes in %u time bins)",
				 s->events / (p.rows ? p.rows : 1), DMO_PLOT_BINS);
		else
			snprintf(detail, sizeof detail, "every event drawn");
		gp_common(a, req, dir,
			  req->kind == DMO_PLOT_THREADS ? "Threads" : "Access pattern", s, detail);
		gp_string(a, "series", list);
		gp_uint(a, "decimated", (uint64_t)p.decimated);
		gp_uint(a, "have_pair", (uint64_t)s->have_pair);
		gp_string(a, "pairtitle", pair);
		rc = run_gnuplot(dir, req->kind == DMO_PLOT_THREADS ? "threads.gp" : "pattern.gp",
				 a, err, err_len);
	}
	res->points = p.rows;
	res->decimated = p.decimated;
	free(a);
	return rc;
}

/* Bounds: curve points kept per step bin (first, last and the one with
 * the smallest minR - maxW), so the step that sets O_s is always drawn. */
struct bounds_prep {
	FILE *file;
	uint64_t steps, bin, rows;
	int have_bin;
	struct dmo_curve_point first, last, tight;
	int64_t best;                   /* smallest minR - maxW so far */
	struct dmo_curve_point critical;
	int have_critical;
};

static void bounds_row(struct bounds_prep *b, const struct dmo_curve_point *q)
{
	fprintf(b->file, "%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", q->step, q->min_read,
		q->max_write);
	b->rows++;
}

static void bounds_flush(struct bounds_prep *b)
{
	if (!b->have_bin)
		return;
	bounds_row(b, &b->first);
	if (b->tight.step != b->first.step && b->tight.step != b->last.step)
		bounds_row(b, &b->tight);
	if (b->last.step != b->first.step)
		bounds_row(b, &b->last);
}

static int64_t gap_of(const struct dmo_curve_point *q)
{
	return (int64_t)q->min_read - (int64_t)q->max_write;
}

static int bounds_sink(void *ctx, const struct dmo_curve_point *q)
{
	struct bounds_prep *b = ctx;
	uint64_t bin = b->steps > DMO_PLOT_RAW_MAX ? (q->step - 1) * DMO_PLOT_BINS / b->steps
						   : q->step;

	if (!b->have_critical || gap_of(q) < b->best) {
		b->best = gap_of(q);
		b->critical = *q;
		b->have_critical = 1;
	}
	if (!b->have_bin || bin != b->bin) {
		bounds_flush(b);
		b->bin = bin;
		b->first = b->tight = *q;
		b->have_bin = 1;
	} else if (gap_of(q) < gap_of(&b->tight)) {
		b->tight = *q;
	}
	b->last = *q;
	return ferror(b->file) ? -1 : 0;
}

/* The analytic bound of the layer's op spec, when it describes these
 * buffers and is the linear one: minR(i) >= es * (rho * i - L).  Returns 1
 * when it applies (the closed forms of formulas.md section 4 draw no line). */
static int analytic_of(const struct dmo_layer_row *row, struct dmo_geom *g,
		       struct dmo_analytic_result *an)
{
	struct dmo_opspec spec;
	char err[256];

	return row->op[0] && dmo_opspec_parse(row->op, &spec, err, sizeof err) == 0 &&
	       dmo_geom_from_spec(&spec, g) == 0 && dmo_geom_out_bytes(g) == row->out_bytes &&
	       dmo_geom_in_bytes(g) == row->in_bytes && dmo_analytic_geom(g, an) == 0 &&
	       an->linear;
}

static int plot_bounds(const struct dmo_plot_request *req, const char *dir, struct scan *s,
		       struct dmo_plot_result *res, char *err, size_t err_len)
{
	struct bounds_prep b = { .steps = s->red.counts[3] };
	struct dmo_curve_summary summary;
	struct gp_args *a = calloc(1, sizeof *a);
	struct dmo_geom g;
	struct dmo_analytic_result an;
	char path[PATH_MAX], detail[200];
	int rc = -1, have_analytic = analytic_of(req->row, &g, &an);

	snprintf(path, sizeof path, "%s/curves.csv", dir);
	b.file = fopen(path, "w");
	if (a == NULL || b.file == NULL) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		goto out;
	}
	fputs("step,min_read,max_write\n", b.file);
	rc = dmo_trace_curves(req->event_file, dir, bounds_sink, &b, &summary, err, err_len);
	if (rc != 0)
		goto out;
	bounds_flush(&b);
	if (ferror(b.file) | fclose(b.file)) {
		b.file = NULL;
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		rc = -1;
		goto out;
	}
	b.file = NULL;
	if (b.rows == 0) {
		snprintf(err, err_len, "layer %u has no output write: no step to plot",
			 req->row->layer);
		rc = -1;
		goto out;
	}
	res->decimated = b.steps > DMO_PLOT_RAW_MAX;
	res->points = b.rows;
	snprintf(detail, sizeof detail, "%" PRIu64 " steps%s%s", b.steps,
		 res->decimated ? "" : ", every step drawn",
		 req->row->op[0] && !have_analytic ? ", no analytic bound (op spec unusable)" : "");
	if (res->decimated)
		snprintf(detail + strlen(detail), sizeof detail - strlen(detail),
			 ", decimated 1:%" PRIu64 " (first, last, tightest step of %u bins)",
			 b.steps / b.rows, DMO_PLOT_BINS);
	gp_common(a, req, dir, "minR/maxW bounds", s, detail);
	/* The curve's critical step only sets O_s when a read follows a write
	 * (summary.critical_step != 0). */
	gp_uint(a, "have_critical",
		(uint64_t)(summary.critical_step != 0 && dmo_layer_os_known(req->row)));
	gp_uint(a, "crit_step", b.critical.step);
	gp_uint(a, "crit_minr", b.critical.min_read);
	gp_uint(a, "crit_maxw", b.critical.max_write);
	gp_uint(a, "have_analytic", (uint64_t)have_analytic);
	if (have_analytic) {
		gp_uint(a, "es", g.elem_size);
		gp_add(a, "rho=%.17g;lag=%.17g;", an.rho, an.lag);
		gp_uint(a, "analytic_os", an.os);
	}
	rc = run_gnuplot(dir, "bounds.gp", a, err, err_len);
out:
	if (b.file != NULL)
		fclose(b.file);
	free(a);
	return rc;
}

/* Remove the temporary folder and what it holds (no subfolders). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	char path[PATH_MAX];

	if (d != NULL) {
		while ((entry = readdir(d)) != NULL) {
			if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0)
				continue;
			snprintf(path, sizeof path, "%s/%s", dir, entry->d_name);
			unlink(path);
		}
		closedir(d);
	}
	rmdir(dir);
}

/* A fresh folder for one figure's data files, under $TMPDIR.  DIR is kept
 * short, so every data file's path fits PATH_MAX. */
static int make_data_dir(char *dir, size_t len, char *err, size_t err_len)
{
	const char *tmp = getenv("TMPDIR");

	if ((size_t)snprintf(dir, len, "%s/dmo-plot.XXXXXX", tmp && *tmp ? tmp : "/tmp") >= len ||
	    mkdtemp(dir) == NULL) {
		snprintf(err, err_len, "cannot create a temporary folder %s: %s", dir,
			 strerror(errno));
		return -1;
	}
	return 0;
}

int dmo_plot_render(const struct dmo_plot_request *req, struct dmo_plot_result *res,
		    char *err, size_t err_len)
{
	struct scan s;
	char dir[1024];
	int rc;

	memset(res, 0, sizeof *res);
	memset(&s, 0, sizeof s);
	dmo_reducer_init(&s.red, req->row->in_bytes, req->row->out_bytes);
	dmo_any_init(&s.any, req->row->in_bytes, req->row->out_bytes, s.slots, DMO_TID_LUMPED + 1);
	if (each_event(req->event_file, scan_fn, &s, err, err_len) != 0)
		return -1;
	if (s.events == 0) {
		snprintf(err, err_len, "%s holds no event: nothing to plot", req->event_file);
		return -1;
	}
	res->events = s.events;
	res->os = dmo_reducer_os(&s.red);
	res->os_any = dmo_any_os(&s.any);
	res->threads = s.any.n_threads;
	if (make_data_dir(dir, sizeof dir, err, err_len) != 0)
		return -1;
	if (req->kind == DMO_PLOT_BOUNDS)
		rc = plot_bounds(req, dir, &s, res, err, err_len);
	else
		rc = plot_memory(req, dir, &s, res, err, err_len);
	remove_dir(dir);
	return rc;
}

/* ---- the arena plan of a model ------------------------------------------ */

int dmo_plot_plan(const struct dmo_plan *plan, const char *model_name,
		  enum dmo_plot_format format, const char *out_file, char *err, size_t err_len)
{
	struct gp_args a = { .used = 0 };
	char dir[1024], path[PATH_MAX], caption[256];
	FILE *f;
	int rc = -1;

	if (make_data_dir(dir, sizeof dir, err, err_len) != 0)
		return -1;
	snprintf(path, sizeof path, "%s/plan.csv", dir);
	f = fopen(path, "w");
	if (f == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		goto out;
	}
	fputs("first,last,plain_lo,plain_hi,dmo_lo,dmo_hi,colour\n", f);
	for (size_t i = 0; i < plan->n_tensors; i++) {
		const struct dmo_plan_tensor *t = &plan->tensors[i];
		fprintf(f, "%d,%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%zu\n", t->first,
			t->last, t->offset_plain, t->offset_plain + t->bytes, t->offset_dmo,
			t->offset_dmo + t->bytes, i % 8 + 1);
	}
	if (ferror(f) | fclose(f)) {
		snprintf(err, err_len, "%s: write failed", path);
		goto out;
	}
	gp_string(&a, "term", format == DMO_PLOT_SVG ? "svg" : "pngcairo");
	gp_string(&a, "outfile", out_file);
	gp_string(&a, "datadir", dir);
	gp_string(&a, "plotsdir", dmo_locate_plots());
	snprintf(caption, sizeof caption, "arena of %s over its %zu layers", model_name,
		 plan->n_layers);
	gp_string(&a, "title", caption);
	snprintf(caption, sizeof caption,
		 "lower bound with overlaps: %" PRIu64 " B; overlap plan: %s", plan->bound_dmo,
		 dmo_plan_status_name(plan->status));
	gp_string(&a, "subtitle", caption);
	gp_uint(&a, "layers", plan->n_layers);
	gp_uint(&a, "peakplain", plan->peak_plain);
	gp_uint(&a, "peakdmo", plan->peak_dmo);
	snprintf(caption, sizeof caption, "without overlaps: peak %" PRIu64 " B", plan->peak_plain);
	gp_string(&a, "plaincaption", caption);
	snprintf(caption, sizeof caption, "with diagonal overlaps: peak %" PRIu64 " B (-%.1f %%)",
		 plan->peak_dmo,
		 plan->peak_plain ? 100.0 * (double)(plan->peak_plain - plan->peak_dmo) /
					    (double)plan->peak_plain : 0.0);
	gp_string(&a, "dmocaption", caption);
	rc = run_gnuplot(dir, "plan.gp", &a, err, err_len);
out:
	remove_dir(dir);
	return rc;
}

/* ---- a formula sweep ---------------------------------------------------- */

int dmo_plot_sweep(const char *data_csv, const char *title, const char *subtitle,
		   enum dmo_plot_format format, const char *out_file, char *err, size_t err_len)
{
	struct gp_args a = { .used = 0 };
	char dir[1024];
	int rc;

	if (make_data_dir(dir, sizeof dir, err, err_len) != 0)
		return -1;
	gp_string(&a, "term", format == DMO_PLOT_SVG ? "svg" : "pngcairo");
	gp_string(&a, "outfile", out_file);
	gp_string(&a, "datafile", data_csv);
	gp_string(&a, "plotsdir", dmo_locate_plots());
	gp_string(&a, "title", title);
	gp_string(&a, "subtitle", subtitle);
	rc = run_gnuplot(dir, "sweep.gp", &a, err, err_len);
	remove_dir(dir);
	return rc;
}
