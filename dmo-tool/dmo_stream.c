/* dmo_stream.c - streams (dmo_stream.h): learning a stream's steps from
 * two accesses of one instruction, and flushing what the fast path took. */
#include "pub_tool_basics.h"

#include "dmo_layers.h"
#include "dmo_stream.h"
#include "dmo_trace.h"
#include "dmo_where.h"
#include "os_reducer.h"

struct dmo_stream dmo_stream;
Bool dmo_stream_on = True;
struct dmo_stream_stats dmo_stream_stats;

void dmo_stream_note(UInt flags, Addr a, const struct dmo_probe *p, Addr base, ULong len,
		     Bool taken)
{
	struct dmo_stream *s = &dmo_stream;
	struct dmo_probe *key = p->stream;
	ULong offset = a - base, size = p->size, fits;
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
	 * STRIDE.  An instruction with no source keeps the call stack of an
	 * access that moves the reducer (dmo_where.h), which a flush, in a
	 * later access, could not: its stream must move nothing, which holds
	 * for an input-side stream going forwards or staying (os_reducer.h:
	 * each of its bounds is above its first access's). */
	if (!key->steps_known || len > 0xffffffffULL ||
	    (p->site->no_source && ((flags & DMO_EV_OUT) || key->stride < 0)))
		return;
	s->stride = key->stride;
	s->step = key->step;
	/* How many more accesses at this stride stay wholly inside the
	 * buffer: offset + k * stride within [0, len - size]. */
	if (s->stride > 0)
		fits = (len - size - offset) / (ULong)s->stride;
	else if (s->stride < 0)
		fits = offset / (ULong)-s->stride;
	else
		fits = 1;
	if (fits == 0)
		return;
	s->stop_addr = s->stride == 0 ? 0 : a + (Addr)s->stride * (fits + 1);
	s->next_addr = a + (Addr)s->stride;
	s->next_time = time + s->step;
	s->run_time = s->next_time;
	s->flags = flags;
	s->tid = dmo_running_tid;
	s->base = base;
}

/* Trace the pending accesses not traced yet: runs at the stream's step,
 * and between them the accesses retimed. */
static void trace_run(struct dmo_stream *s)
{
	ULong size = s->key->size, time = s->run_time, index = s->traced;
	ULong first_offset = s->next_addr - (Addr)s->stride * s->pending - s->base;
	UInt k;
	if (dmo_trace_on) {
		for (k = 0; k <= s->retimes; k++) {
			ULong end = k < s->retimes ? s->retimed[k].index : s->pending;
			if (end > index)
				dmo_trace_stream(s->flags, first_offset + index * (ULong)s->stride,
						 s->stride, size, time, s->step, end - index, s->tid);
			if (k == s->retimes)
				break;
			time = s->retimed[k].time;
			dmo_trace_stream(s->flags, first_offset + end * (ULong)s->stride, s->stride,
					 size, time, s->step, 1, s->tid);
			time += s->step;
			index = end + 1;
		}
	}
	s->traced = s->pending;
	s->retimes = 0;
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
		dmo_where_moved(site, s->tid, s->flags, last_offset, size, moved);
}

void dmo_stream_retime(Addr a, const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	ULong time = dmo_instructions + p->time_offset;
	dmo_stream_stats.retimed++;
	if (s->retimes == DMO_STREAM_RETIMES)
		trace_run(s);
	s->retimed[s->retimes].index = s->pending;
	s->retimed[s->retimes].time = time;
	s->retimes++;
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
	dmo_stream.retimes = 0;
	dmo_stream_break();
}
