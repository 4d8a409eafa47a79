/* dmo_stream.c - streams (dmo_stream.h): learning a stream's steps from
 * two accesses of one instruction, and flushing what the fast path took. */
#include "pub_tool_basics.h"

#include "dmo_layers.h"
#include "dmo_stream.h"
#include "dmo_threads.h"
#include "dmo_trace.h"
#include "dmo_where.h"
#include "os_reducer.h"

struct dmo_stream dmo_stream;
Bool dmo_stream_on = True;
struct dmo_stream_stats dmo_stream_stats;

void dmo_stream_start(UInt flags, Addr a, const struct dmo_probe *p, Addr base, ULong len,
		      Bool taken)
{
	struct dmo_stream *s = &dmo_stream;
	struct dmo_probe *key = p->stream;
	ULong time = dmo_instructions + p->time_offset;

	if (!dmo_stream_on)
		return;
	if (key == s->key && !taken) {
		key->stride = (Long)(a - s->last_addr);
		key->step = time - s->last_time;
		key->steps_known = True;
	}
	s->key = key;
	s->last_addr = a;
	s->last_time = time;
	s->next_addr = 0;
	/* Event offsets are 32 bits (event.h): a longer buffer's accesses
	 * never stream, so that each next offset is the last one plus
	 * STRIDE.  An instruction with no source streams only where nothing
	 * can move (dmo_stream.h): on the input side, going forwards or
	 * staying (os_reducer.h: each bound of such an access is above the
	 * first one's). */
	if (!key->steps_known || len > 0xffffffffULL ||
	    (p->site->no_source && ((flags & DMO_EV_OUT) || key->stride < 0)))
		return;
	s->stride = key->stride;
	s->step = key->step;
	s->next_addr = a + (Addr)s->stride;
	s->next_time = time + s->step;
	s->run_addr = s->next_addr;
	s->run_time = s->next_time;
	s->base = base;
	s->max_offset = len - p->size;
	s->flags = flags;
	s->tid = dmo_running_tid;
}

/* Keep N events of the stream from address ADDR and TIME on, each
 * STRIDE bytes and STEP after the one before, the first too. */
static void trace_events(const struct dmo_stream *s, Addr addr, Long stride, ULong time,
			 ULong step, ULong n)
{
	ULong size = s->key->size;
	if (dmo_trace_on && !dmo_trace_tags(s->flags, stride, size, time, step, n, s->tid))
		dmo_trace_stream(s->flags, addr - s->base, stride, size, time, step, n, s->tid);
}

/* Trace the pending accesses not traced yet: runs at the stream's steps,
 * and between them the accesses dmo_stream_moves took. */
static void trace_run(struct dmo_stream *s)
{
	Addr addr = s->run_addr;
	ULong time = s->run_time, index = s->traced;
	UInt k;
	if (dmo_trace_on) {
		for (k = 0; k < s->moves; k++) {
			ULong at = s->moved[k].index;
			/* The address of the event before it. */
			Addr before = addr + (Addr)s->stride * (at - index) - (Addr)s->stride;
			if (at > index)
				trace_events(s, addr, s->stride, time, s->step, at - index);
			/* Its steps are from the event before it, the trace's
			 * last, as the trace is written in order. */
			addr = s->moved[k].addr;
			time = s->moved[k].time;
			trace_events(s, addr, (Long)(addr - before), time, time - dmo_trace_code.time, 1);
			addr += (Addr)s->stride;
			time += s->step;
			index = at + 1;
		}
		if (s->pending > index)
			trace_events(s, addr, s->stride, time, s->step, s->pending - index);
	}
	s->traced = s->pending;
	s->moves = 0;
	s->run_addr = s->next_addr;
	s->run_time = s->next_time;
}

void dmo_stream_flush(void)
{
	struct dmo_stream *s = &dmo_stream;
	struct dmo_site *site = s->key->site;
	struct dmo_thread_acc *t = dmo_active->reducer.threads;
	ULong n = s->pending, size = s->key->size;
	ULong last_offset = s->next_addr - (Addr)s->stride - s->base;
	unsigned kind = dmo_event_kind((UChar)s->flags);
	unsigned moved;

	trace_run(s);
	dmo_stream_stats.streamed += n;
	s->pending = s->traced = 0;
	/* The reducer ends as if each was folded: the last one alone moves
	 * what the stream moves (dmo_stream.h). */
	t->own.counts[kind] += n - 1;
	moved = dmo_any_fold(t, s->flags, last_offset, size);
	site->counts[kind] += n;
	if (moved != 0)
		dmo_where_moved(site, s->flags, last_offset, size, moved);
}

void dmo_stream_moves(Addr a, const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	ULong time = dmo_instructions + p->time_offset;
	dmo_stream_stats.moved++;
	if (s->moves == DMO_STREAM_MOVES)
		trace_run(s);
	s->moved[s->moves].index = s->pending;
	s->moved[s->moves].addr = a;
	s->moved[s->moves].time = time;
	s->moves++;
	s->pending++;
	s->next_addr = a + (Addr)s->stride;
	s->next_time = time + s->step;
}

void dmo_stream_end(void)
{
	if (dmo_stream.pending != 0)
		dmo_stream_flush();
	dmo_stream_break();
}

void dmo_stream_drop(void)
{
	dmo_stream.pending = dmo_stream.traced = 0;
	dmo_stream.moves = 0;
	dmo_stream_break();
}
