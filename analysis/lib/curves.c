/* curves.c - minR/maxW curves and exact O_s from an event file (curves.h).
 *
 * Three passes over a tape: load (forwards, folding every event into the
 * reducer), suffix minimum (backwards, pushing minR of each step onto a
 * second tape, last step first), then curves (forwards again, popping
 * minR(1), minR(2), ... while the running maxW grows). */
#include <stdio.h>
#include <string.h>

#include "curves.h"
#include "event.h"
#include "tape_libc.h"
#include "trace.h"

enum { SLAB_EVENTS = 1 << 16, RESIDENT_SLABS = 32 }; /* 1 MiB slabs, 32 MiB */

static struct dmo_tape *new_tape(size_t elem_size, const char *spill_dir)
{
	struct dmo_tape_config cfg = {
		.elem_size = elem_size,
		.sbo_elems = 64,
		.slab_elems = SLAB_EVENTS,
		.max_resident = RESIDENT_SLABS,
		.spill_dir = spill_dir,
		.write_behind = 1, /* docs/tape.md, "Spill" */
	};
	return dmo_tape_libc_new(&cfg);
}

static int tape_failed(struct dmo_tape *t, const char *what, char *err, size_t err_len)
{
	snprintf(err, err_len, "%s: %s", what, dmo_tape_error(t));
	return -1;
}

/* The event file is read straight into the tape's free room, a chunk at
 * a time, and folded into the reducer there: per thread, and in the order
 * it ran, which is the exact O_s. */
static int load(struct dmo_trace *trace, struct dmo_tape *events,
		struct dmo_curve_summary *s, char *err, size_t err_len)
{
	size_t room, got;
	struct dmo_thread_acc slots[DMO_TID_LUMPED + 1];
	struct dmo_any_reducer any;
	struct dmo_split_reducer split; /* folded apart from the tool's form, as a check */

	dmo_split_init(&split, trace->header.in_bytes, trace->header.out_bytes);
	dmo_any_init(&any, trace->header.in_bytes, trace->header.out_bytes, slots,
		     DMO_TID_LUMPED + 1);

	do {
		struct dmo_event *dst = dmo_tape_reserve(events, &room);

		if (!dst)
			return tape_failed(events, "storing events", err, err_len);
		if (dmo_trace_read(trace, dst, room, &got, err, err_len) != 0) {
			dmo_tape_commit(events, 0);
			return -1;
		}
		for (size_t i = 0; i < got; i++) {
			dmo_any_add(&any, dst[i].tid, dst[i].flags, dst[i].offset, dst[i].size);
			dmo_split_add(&split, dst[i].flags, dst[i].offset, dst[i].size);
		}
		if (dmo_tape_commit(events, got) != 0)
			return tape_failed(events, "storing events", err, err_len);
		s->events += got;
	} while (got > 0);
	s->exact = *dmo_any_ran(&any);
	s->threads = any.n_threads;
	s->any_os = dmo_any_os(&any);
	s->split_os = dmo_split_os(&split);
	return s->events == trace->count ? 0 : -1;
}

/* Backwards: the running minimum of input offsets seen so far is minR of
 * each W(O) met, since those accesses all come after it. */
static int suffix_minimum(struct dmo_tape *events, struct dmo_tape *min_reads,
			  uint64_t in_bytes, char *err, size_t err_len)
{
	struct dmo_tape_iter it;
	const void *base;
	long n;
	uint64_t running = in_bytes;

	if (dmo_tape_iter_begin(&it, events, 1, 1) != 0)
		return tape_failed(events, "reading events back", err, err_len);
	while ((n = dmo_tape_iter_next(&it, &base)) > 0) {
		const struct dmo_event *chunk = base;
		for (long i = n - 1; i >= 0; i--) {
			const struct dmo_event *e = &chunk[i];
			if (!(e->flags & DMO_EV_OUT)) {
				if (e->offset < running)
					running = e->offset;
			} else if ((e->flags & DMO_EV_WRITE) &&
				   dmo_tape_push(min_reads, &running) != 0) {
				dmo_tape_iter_end(&it);
				return tape_failed(min_reads, "storing minR", err, err_len);
			}
		}
	}
	dmo_tape_iter_end(&it);
	return n < 0 ? tape_failed(events, "reading events back", err, err_len) : 0;
}

static int emit_curves(struct dmo_tape *events, struct dmo_tape *min_reads,
		       struct dmo_curve_summary *s, dmo_curve_sink sink, void *ctx,
		       char *err, size_t err_len)
{
	struct dmo_tape_iter it;
	const void *base;
	long n;
	struct dmo_curve_point p = { 0 };
	int64_t best = 0;
	int have_best = 0, rc = 0;

	if (dmo_tape_iter_begin(&it, events, 0, 0) != 0)
		return tape_failed(events, "reading events", err, err_len);
	while (rc == 0 && (n = dmo_tape_iter_next(&it, &base)) > 0) {
		const struct dmo_event *chunk = base;
		for (long i = 0; rc == 0 && i < n; i++) {
			const struct dmo_event *e = &chunk[i];
			uint64_t end = (uint64_t)e->offset + e->size;
			if ((e->flags & (DMO_EV_OUT | DMO_EV_WRITE)) != (DMO_EV_OUT | DMO_EV_WRITE))
				continue;
			const uint64_t *min_read = dmo_tape_pop(min_reads);
			if (!min_read) {
				rc = tape_failed(min_reads, "reading minR", err, err_len);
				break;
			}
			p.min_read = *min_read;
			p.step++;
			p.time = e->time;
			if (end > p.max_write)
				p.max_write = end;
			/* Only a step followed by an input access forms a pair. */
			if (p.min_read < s->exact.in_bytes &&
			    (!have_best || (int64_t)p.min_read - (int64_t)p.max_write < best)) {
				best = (int64_t)p.min_read - (int64_t)p.max_write;
				have_best = 1;
				s->critical_step = p.step;
			}
			if (sink != NULL)
				rc = sink(ctx, &p);
		}
	}
	dmo_tape_iter_end(&it);
	s->steps = p.step;
	s->curve_os = dmo_os_clamp(have_best, (int64_t)s->exact.out_bytes + best,
				   s->exact.in_bytes, s->exact.out_bytes);
	return rc;
}

int dmo_trace_curves(const char *event_file, const char *spill_dir, dmo_curve_sink sink,
		     void *ctx, struct dmo_curve_summary *summary, char *err, size_t err_len)
{
	struct dmo_trace trace;
	struct dmo_tape *events = NULL, *min_reads = NULL;
	int rc = -1;

	memset(summary, 0, sizeof *summary);
	if (dmo_trace_open(event_file, &trace, err, err_len) != 0)
		return -1;
	summary->incomplete = trace.incomplete;
	dmo_reducer_init(&summary->exact, trace.header.in_bytes, trace.header.out_bytes);
	summary->any_os = summary->split_os = dmo_reducer_os(&summary->exact);
	events = new_tape(sizeof(struct dmo_event), spill_dir);
	min_reads = new_tape(sizeof(uint64_t), spill_dir);
	if (events == NULL || min_reads == NULL) {
		snprintf(err, err_len, "cannot create a tape (spill directory %s)", spill_dir);
		goto out;
	}
	if (load(&trace, events, summary, err, err_len) == 0 &&
	    suffix_minimum(events, min_reads, trace.header.in_bytes, err, err_len) == 0)
		rc = emit_curves(events, min_reads, summary, sink, ctx, err, err_len);
out:
	if (events != NULL)
		dmo_tape_libc_delete(events);
	if (min_reads != NULL)
		dmo_tape_libc_delete(min_reads);
	dmo_trace_close(&trace);
	return rc;
}
