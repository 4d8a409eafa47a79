/* plot_series.c - the series files of an access figure (plot_series.h):
 * a second pass over the events, each one appended to its series' file,
 * or folded into the per-bin envelope of its series when the trace is too
 * long to draw event by event. */
#include "plot_series.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot.h"

#define MAX_SERIES (PLOT_MAX_THREADS * 2)

/* One series: its file and, when decimated, per-bin envelopes of drawn
 * offsets: lo = smallest start, hi = largest end (lo == UINT64_MAX: no
 * event in that bin). */
struct series {
	FILE *file;
	char stem[16];
	uint64_t *lo, *hi;
};

struct pass {
	enum plot_partition how;
	const char *dir;
	uint64_t in_shift;      /* input offset r is drawn at r + in_shift */
	uint64_t t_min, span;   /* bins cover [t_min, t_min + span) */
	int decimated;
	uint64_t rows;
	struct series *series[MAX_SERIES];
	int failed;             /* out of memory or a file could not be written */
};

static const char *const kind_stems[DMO_COUNT_KINDS] = { "ri", "wi", "ro", "wo" };

/* Series index of an event: its kind, or its thread and buffer. */
static unsigned series_of(const struct pass *p, const struct dmo_event *e)
{
	if (p->how == PLOT_BY_THREAD)
		return e->tid * 2u + ((e->flags & DMO_EV_OUT) ? 1u : 0u);
	return dmo_event_kind(e->flags);
}

static int is_output(const struct pass *p, unsigned index)
{
	return p->how == PLOT_BY_THREAD ? (index & 1u) : index >= DMO_COUNT_OUT_READS;
}

static struct series *series_get(struct pass *p, unsigned index)
{
	struct series *s = p->series[index];
	char path[PATH_MAX];

	/* Once a series failed, none is written: its file may not be open. */
	if (s != NULL || p->failed)
		return p->failed ? NULL : s;
	s = calloc(1, sizeof *s);
	if (s == NULL) {
		p->failed = 1;
		return NULL;
	}
	if (p->how == PLOT_BY_THREAD)
		snprintf(s->stem, sizeof s->stem, "t%u-%s", index / 2, (index & 1) ? "out" : "in");
	else
		snprintf(s->stem, sizeof s->stem, "%s", kind_stems[index]);
	snprintf(path, sizeof path, "%s/%s.csv", p->dir, s->stem);
	s->file = fopen(path, "w");
	if (p->decimated) {
		s->lo = malloc(DMO_PLOT_BINS * sizeof *s->lo);
		s->hi = calloc(DMO_PLOT_BINS, sizeof *s->hi);
		if (s->lo != NULL)
			memset(s->lo, 0xff, DMO_PLOT_BINS * sizeof *s->lo);
	}
	if (s->file == NULL || (p->decimated && (s->lo == NULL || s->hi == NULL)) ||
	    fputs("time,offset,end\n", s->file) == EOF)
		p->failed = 1;
	p->series[index] = s;
	return p->failed ? NULL : s;
}

static void add_event(void *ctx, const struct dmo_event *e)
{
	struct pass *p = ctx;
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
static void write_envelopes(struct pass *p, struct series *s)
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

static void list_add(char *list, size_t len, const char *word)
{
	size_t used = strlen(list);

	snprintf(list + used, len - used, "%s%s", used ? " " : "", word);
}

/* Close every series and name it in LIST.  Returns -1 on a failure. */
static int finish(struct pass *p, struct plot_series_list *list)
{
	int rc = p->failed ? -1 : 0;
	unsigned last_tid = UINT_MAX;
	char tid[8];

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
		if (is_output(p, i))
			list_add(list->out_stems, sizeof list->out_stems, s->stem);
		else
			list_add(list->in_stems, sizeof list->in_stems, s->stem);
		if (p->how == PLOT_BY_THREAD && i / 2 != last_tid) {
			last_tid = i / 2;
			snprintf(tid, sizeof tid, "%u", last_tid);
			list_add(list->threads, sizeof list->threads, tid);
		}
		free(s->lo);
		free(s->hi);
		free(s);
		p->series[i] = NULL;
	}
	return rc;
}

int plot_series_write(const char *event_file, const char *dir, enum plot_partition how,
		      uint64_t in_shift, const struct plot_scan *s, struct plot_series_list *list,
		      char *err, size_t err_len)
{
	struct pass p = {
		.how = how, .dir = dir, .in_shift = in_shift, .t_min = s->t_min,
		.span = s->t_max - s->t_min + 1, .decimated = s->events > DMO_PLOT_RAW_MAX,
	};
	int rc;

	memset(list, 0, sizeof *list);
	rc = plot_each_event(event_file, add_event, &p, err, err_len);
	if (finish(&p, list) != 0 && rc == 0) {
		snprintf(err, err_len, "cannot write plot data in %s", dir);
		rc = -1;
	}
	list->rows = p.rows;
	list->decimated = p.decimated;
	return rc;
}
