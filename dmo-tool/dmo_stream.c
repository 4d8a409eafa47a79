/* dmo_stream.c - streams (dmo_stream.h): learning a stream's steps from
 * two accesses of one instruction, and flushing what the fast path took. */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"

#include "dmo_layers.h"
#include "dmo_stream.h"
#include "dmo_threads.h"
#include "dmo_trace.h"
#include "dmo_where.h"
#include "os_reducer.h"

struct dmo_stream dmo_stream;
Bool dmo_stream_on = True;
struct dmo_stream_stats dmo_stream_stats;
struct dmo_probe dmo_stream_deferred;

void dmo_stream_start(UInt flags, Addr a, const struct dmo_probe *p, Addr base, ULong len,
		      Bool taken)
{
	struct dmo_stream *s = &dmo_stream;
	struct dmo_probe *key = p->stream;
	ULong time = dmo_instructions + p->time_offset, span;

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
	/* A chain's lead needs its follower inside too, STRIDE from it: at
	 * an offset from the stride's length on (backwards) or up to the
	 * last less that length (forwards).  A longer stride takes no
	 * follower ahead (dmo_stream_lead's check), so its bounds are never
	 * read. */
	span = s->stride < 0 ? (ULong)-s->stride : (ULong)s->stride;
	s->lead_base = base + (s->stride < 0 ? span : 0);
	s->max_lead_offset = span <= s->max_offset ? s->max_offset - span : 0;
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
static void code_run(struct dmo_stream *s)
{
	Addr addr = s->run_addr;
	ULong time = s->run_time, index = s->traced;
	UInt k;
	for (k = 0; k < s->moves; k++) {
		ULong at = s->moved[k].index;
		/* The address of the event before it. */
		Addr before = addr + (Addr)s->stride * (at - index) - (Addr)s->stride;
		if (at > index)
			trace_events(s, addr, s->stride, time, s->step, at - index);
		/* Its steps are from the event before it, the trace's last,
		 * as the trace is written in order. */
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

/* The bytes of a run with moves, kept to be written again.  A loop nest
 * flushes the same run over and over (a depthwise convolution's pixel:
 * 216 reads, the eight taps' moves between them, each pixel after the
 * last): coded, such a run cost about an eighth of the full trace's time
 * (bench/README.md).  Its bytes are a function of what DESCRIBES it,
 * the stream and the encoder's state, all as steps from the run's first
 * access: coding reads only the time and the kind's end, gap and size
 * and the thread (event_code.h), the first two through differences,
 * which the description holds.  So a run described as the one kept
 * gets the kept bytes, and the encoder's state the kept state moved by
 * the run's first time and offset: byte for byte what coding them writes
 * (tests/tool_streams.sh runs such kernels against --dmo-streams=no).
 * Two slots: a kernel's reads and writes may take turns. */
enum { MEMO_WORDS = 9 + 3 * DMO_STREAM_MOVES, MEMO_BYTES = 1024 };
static struct run_memo {
	UInt words, bytes;
	ULong describes[MEMO_WORDS];
	UChar code[MEMO_BYTES + 8];
	/* The events the bytes hold, and the encoder's state after them:
	 * the time and the kind's end less the run's first time and offset,
	 * and the kind's gap and size and the thread as they are. */
	ULong events, time_after, end_after;
	Long gap_after;
	UShort size_after;
	UChar tid_after;
} memo[2];
static UInt memo_next;

static UInt describe(const struct dmo_stream *s, ULong *w)
{
	const struct dmo_event_code_state *c = &dmo_trace_code;
	unsigned kind = s->flags & (DMO_EV_WRITE | DMO_EV_OUT);
	UInt k, n = 9;
	w[0] = (ULong)(Addr)s->key;
	w[1] = s->flags | (ULong)s->tid << 8 | (ULong)c->tid << 40 | (ULong)c->size[kind] << 48;
	w[2] = (ULong)s->stride;
	w[3] = s->step;
	w[4] = s->pending - s->traced;
	w[5] = s->moves;
	w[6] = s->run_time - c->time;
	w[7] = (s->run_addr - s->base) - c->end[kind];
	w[8] = (ULong)c->gap[kind];
	for (k = 0; k < s->moves; k++) {
		w[n++] = s->moved[k].index - s->traced;
		w[n++] = s->moved[k].addr - s->run_addr;
		w[n++] = s->moved[k].time - s->run_time;
	}
	return n;
}

static Bool same_words(const ULong *a, const ULong *b, UInt n)
{
	UInt i;
	for (i = 0; i < n; i++)
		if (a[i] != b[i])
			return False;
	return True;
}

/* Copy N bytes 8 at a time: up to 7 bytes past N are written, which
 * both the memo and the reserved run have room for. */
static void copy_words(UChar *to, const UChar *from, UInt n)
{
	UInt i;
	for (i = 0; i < n; i += 8)
		__builtin_memcpy(to + i, from + i, 8);
}

/* Write the run's kept bytes if a slot describes it (and the reserved
 * run has room); else code it, and keep its bytes if they fit. */
static void trace_run_memo(struct dmo_stream *s)
{
	ULong w[MEMO_WORDS];
	UInt words = describe(s, w), i;
	unsigned kind = s->flags & (DMO_EV_WRITE | DMO_EV_OUT);
	ULong offset = s->run_addr - s->base, refills = dmo_trace_refills, events = dmo_trace_events;
	UChar *start = dmo_trace_next;
	struct run_memo *m;
	for (i = 0; i < 2; i++) {
		m = &memo[i];
		if (m->words != words || !same_words(m->describes, w, words))
			continue;
		if (start > dmo_trace_limit ||
		    (ULong)(dmo_trace_limit - start) + DMO_EVENT_CODE_MAX < m->bytes + 7)
			break;
		copy_words(start, m->code, m->bytes);
		dmo_trace_next = start + m->bytes;
		dmo_trace_events += m->events;
		dmo_trace_code.time = s->run_time + m->time_after;
		dmo_trace_code.end[kind] = offset + m->end_after;
		dmo_trace_code.gap[kind] = m->gap_after;
		dmo_trace_code.size[kind] = m->size_after;
		dmo_trace_code.tid = m->tid_after;
		dmo_stream_stats.replayed++;
		return;
	}
	code_run(s);
	if (dmo_trace_refills != refills || dmo_trace_next - start > MEMO_BYTES)
		return;
	m = &memo[memo_next];
	memo_next ^= 1;
	m->words = words;
	VG_(memcpy)(m->describes, w, words * sizeof w[0]);
	m->bytes = (UInt)(dmo_trace_next - start);
	VG_(memcpy)(m->code, start, m->bytes);
	m->events = dmo_trace_events - events;
	m->time_after = dmo_trace_code.time - s->run_time;
	m->end_after = dmo_trace_code.end[kind] - offset;
	m->gap_after = dmo_trace_code.gap[kind];
	m->size_after = dmo_trace_code.size[kind];
	m->tid_after = dmo_trace_code.tid;
}

static void trace_run(struct dmo_stream *s)
{
	if (dmo_trace_on) {
		if (s->moves > 0 && !dmo_trace_fixed)
			trace_run_memo(s);
		else
			code_run(s);
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

void dmo_stream_lead(Addr a, struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	Addr follower = a + (Addr)p->lead_stride;
	ULong now;
	dmo_stream_settle();
	p->take(a, p);
	now = dmo_instructions;
	/* A count from an earlier layer could match this one's. */
	p->ran = ~0ULL;
	s->confirm = now;
	if (s->key == p->stream && s->next_addr == follower &&
	    s->next_time == now + p->time_offset + p->lead_step && s->stride == p->lead_stride &&
	    s->step == p->lead_step && follower - s->base <= s->max_offset) {
		/* What dmo_stream_extends does for the follower. */
		s->next_addr = follower + (Addr)s->stride;
		s->next_time += s->step;
		s->pending++;
		s->lead = p;
		return;
	}
	s->lead = &dmo_stream_deferred;
	s->deferred = p;
	s->deferred_addr = follower;
}

void dmo_stream_settle_lead(void)
{
	struct dmo_stream *s = &dmo_stream;
	struct dmo_probe *lead = s->lead;
	s->lead = NULL;
	if (lead == &dmo_stream_deferred) {
		/* The follower's helper takes it at its time, the count
		 * then less its probe's offset. */
		ULong now = dmo_instructions;
		lead = s->deferred;
		if (lead->ran != s->confirm)
			return;
		dmo_stream_stats.settled_long_way++;
		dmo_instructions = s->confirm + lead->time_offset + lead->lead_step -
				   lead->follower->time_offset;
		lead->take(s->deferred_addr, lead->follower);
		dmo_instructions = now;
		return;
	}
	if (lead->ran != s->confirm) {
		dmo_stream_stats.given_back++;
		s->pending--;
		s->next_addr -= (Addr)s->stride;
		s->next_time -= s->step;
	}
}

void dmo_stream_end(void)
{
	dmo_stream_settle();
	if (dmo_stream.pending != 0)
		dmo_stream_flush();
	dmo_stream_break();
}

void dmo_stream_drop(void)
{
	dmo_stream.lead = NULL;
	dmo_stream.pending = dmo_stream.traced = 0;
	dmo_stream.moves = 0;
	dmo_stream_break();
}
