/* plot_scan.c - the first pass over a layer's events (plot_scan.h): every
 * event is folded into the normative O_s reducers, and the events that set
 * O_s are noted so the figures can point at them. */
#include "plot_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define READ_CHUNK 65536

/* The events holding the reducer's extremes, and the pair that gave its
 * smallest bound (os_reducer.h, DMO_MOVED_*). */
static void scan_event(void *ctx, const struct dmo_event *e)
{
	struct plot_scan *s = ctx;
	unsigned moved = dmo_reducer_add(&s->red, e->flags, e->offset, e->size);

	dmo_any_add(&s->any, e->tid, e->flags, e->offset, e->size);
	if (moved & DMO_MOVED_OUT_WRITE_END)
		s->wo_setter = *e;
	if (moved & DMO_MOVED_IN_WRITE_START)
		s->wi_setter = *e;
	if (moved & DMO_MOVED_BOUND) {
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

int plot_each_event(const char *path, plot_event_fn fn, void *ctx, char *err, size_t err_len)
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

int plot_scan_file(const char *event_file, uint64_t in_bytes, uint64_t out_bytes,
		   struct plot_scan *s, char *err, size_t err_len)
{
	memset(s, 0, sizeof *s);
	dmo_reducer_init(&s->red, in_bytes, out_bytes);
	dmo_any_init(&s->any, in_bytes, out_bytes, s->slots, DMO_TID_LUMPED + 1);
	if (plot_each_event(event_file, scan_event, s, err, err_len) != 0)
		return -1;
	if (s->events == 0) {
		snprintf(err, err_len, "%s holds no event: nothing to plot", event_file);
		return -1;
	}
	return 0;
}
