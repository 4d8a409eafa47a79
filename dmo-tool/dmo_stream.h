/* dmo_stream.h - streams: the helpers' fastest path.
 *
 * A kernel's inner loop makes most of the accesses the helpers see, one
 * instruction stepping through a buffer: each access by the same
 * instruction (the same stream key, dmo_where.h) as the one before it, a fixed
 * number of bytes and of instructions after it, with no other access to
 * the layer's buffers between them.  Such an access only moves the stream
 * on: four compares and three stores (dmo_stream_extends).  The accesses
 * taken that way are folded, counted and traced together when anything
 * else happens (dmo_stream_flush): the next access that does not continue
 * the stream, a marker, the layer's end.
 *
 * Why that is exact (docs/trace-format.md, "Streams", has the steps):
 * the trace gets the same bytes, since each access after the stream's
 * first pending one is the tag byte alone, the same byte for all
 * (event_code.h); the counts add up; and the reducer ends in the same
 * state folding only the last access as folding them all, because along a
 * stream of one kind the offsets move one way, so every extreme and every
 * bound the rule keeps (os_reducer.h) is reached at the stream's first or
 * last access, and the first was already folded.  The where file's holder
 * of what the last access moved is that access, as it is when each is
 * folded in turn; a site with no source of its own never streams, since
 * its holder keeps the call stack of the moment it moved. */
#ifndef DMO_STREAM_H
#define DMO_STREAM_H

#include "pub_tool_basics.h"
#include "dmo_layers.h"
#include "dmo_where.h"

/* The accesses a stream may take off its step before they are traced. */
#define DMO_STREAM_RETIMES 16

struct dmo_stream {
	/* What the fast path compares: the stream key (struct dmo_probe) of
	 * the last access recorded; the address and time (instructions
	 * since the layer began) that continue the stream (next_addr 0:
	 * nothing continues it); the first address of the stream not
	 * wholly inside its buffer. */
	struct dmo_probe *key;
	Addr next_addr, stop_addr;
	ULong next_time;
	/* The steps between accesses, in bytes and instructions (the
	 * key's). */
	Long stride;
	ULong step;
	/* Accesses of the stream not yet folded, and how many of them are
	 * in the trace already.  The others are each STEP after the one
	 * before, from RUN_TIME on, but those dmo_stream_retime took: their
	 * index among the pending ones and their own time. */
	ULong pending, traced, run_time;
	UInt retimes;
	struct {
		ULong index, time;
	} retimed[DMO_STREAM_RETIMES];
	/* Their flags (event.h), buffer, and thread. */
	UInt flags, tid;
	Addr base;
	/* The last access the helpers' other paths recorded, to learn the
	 * steps from. */
	Addr last_addr;
	ULong last_time;
};
extern struct dmo_stream dmo_stream;
/* --dmo-streams: False, and no stream ever starts. */
extern Bool dmo_stream_on;
/* For --stats=yes: accesses folded in streams (at their flush), those of
 * them dmo_stream_retime took, and those the helpers took the long way. */
extern struct dmo_stream_stats {
	ULong streamed, retimed, long_way;
} dmo_stream_stats;

/* Whether the access at A through probe P continues the stream; if so,
 * it is taken (pending) and there is nothing else to do. */
static inline __attribute__((always_inline)) Bool dmo_stream_extends(Addr a,
								     const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	ULong time;
	if (p->stream != s->key || a != s->next_addr || a == s->stop_addr)
		return False;
	time = dmo_instructions + p->time_offset;
	if (time != s->next_time)
		return False;
	s->next_addr = a + (Addr)s->stride;
	s->next_time = time + s->step;
	s->pending++;
	return True;
}

/* Fold, count and trace the pending accesses.  Out of line. */
void dmo_stream_flush(void);

/* Whether the access at A through P continues the stream in space, not
 * in time (a loop's next pass, after the instructions of the loop
 * around it): dmo_stream_retime then takes it, far more cheaply than a
 * flush and a new start. */
static inline __attribute__((always_inline)) Bool dmo_stream_goes_on(Addr a,
								     const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	return p->stream == s->key && a == s->next_addr && a != s->stop_addr;
}

/* Take the access at A through P, which dmo_stream_goes_on: note its
 * time, and go on at the same steps.  Out of line. */
void dmo_stream_retime(Addr a, const struct dmo_probe *p);

/* The access at A through P, of FLAGS, wholly inside the buffer at BASE
 * of LEN bytes, by the open layer's only thread, was just recorded by the
 * helpers' other paths (after dmo_stream_flush); TAKEN: the stream its
 * key names had been taken by the fast path right before it.  The next
 * access may continue a stream from it: at the steps its key's stream
 * last went at (after a loop's jump to its next row, or when the loop
 * runs again), or at the steps from the access before it, when that was
 * by the same key and no stream was taken between them. */
void dmo_stream_note(UInt flags, Addr a, const struct dmo_probe *p, Addr base, ULong len,
		     Bool taken);

/* Another thread may run: nothing continues the stream until the
 * helpers' other paths record an access again.  The pending accesses
 * stay for the next flush. */
static inline void dmo_stream_pause(void)
{
	dmo_stream.stop_addr = dmo_stream.next_addr;
}

/* The helpers' other paths recorded an access no stream may follow (of
 * another thread, across a buffer's edge): the next one starts afresh.
 * Called after dmo_stream_flush, with nothing pending. */
static inline void dmo_stream_break(void)
{
	dmo_stream.key = NULL;
	dmo_stream.next_addr = 0;
}

/* The layer ends or begins: flush, and no stream goes on. */
void dmo_stream_end(void);
/* In a forked child, which lets go of the layer: no flush. */
void dmo_stream_drop(void);

#endif
