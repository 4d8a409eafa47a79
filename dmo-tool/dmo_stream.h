/* dmo_stream.h - streams: the helpers' fastest path.
 *
 * A kernel's inner loop makes most of the accesses the helpers see, one
 * instruction stepping through a buffer: each access by the same
 * instruction (the same stream key, dmo_where.h) as the one before it, a
 * fixed number of bytes and of instructions after it, with no other
 * access to the layer's buffers between them.  Such an access only moves
 * the stream on: four compares and three stores (dmo_stream_extends).  An
 * access by the same instruction that goes on in the stream's direction
 * but not at its steps (the loop's next row, or its next pass after the
 * loop around it) only notes its address and time (dmo_stream_moves).
 * The accesses taken in these two ways are folded, counted and traced
 * together when anything else happens (dmo_stream_flush): another
 * instruction's access, a marker, the layer's end, another thread.
 *
 * Why that is exact (docs/trace-format.md, "Streams", has the steps): the
 * trace gets the bytes each access would have written in turn, most of
 * them runs of one tag byte (event_code.h); the counts add up; and the
 * reducer ends in the same state folding only the last access as folding
 * them all, because along a stream of one kind the offsets move one way,
 * so every extreme and every bound the rule keeps (os_reducer.h) is
 * reached at the stream's first or last access, and the first was
 * already folded.  The where file's holder of what the last access moved
 * is that access, as it is when each is folded in turn; an instruction
 * with no source of its own keeps the call stack of the access that
 * moves something, which a flush, in a later access, could not: its
 * streams are only those that move nothing. */
#ifndef DMO_STREAM_H
#define DMO_STREAM_H

#include "pub_tool_basics.h"
#include "dmo_layers.h"
#include "dmo_where.h"

/* The accesses a stream may take off its steps before they are traced. */
#define DMO_STREAM_MOVES 16

struct dmo_stream {
	/* What the fast path compares: the stream key (struct dmo_probe) of
	 * the last access recorded; the address and time (instructions
	 * since the layer began) that continue the stream (next_addr 0:
	 * nothing continues it); its buffer, and the largest offset in it
	 * at which an access of the stream's size lies wholly inside. */
	struct dmo_probe *key;
	Addr next_addr, base;
	ULong next_time, max_offset;
	/* The steps between accesses, in bytes and instructions (the
	 * key's). */
	Long stride;
	ULong step;
	/* Accesses of the stream not yet folded, and how many of them are
	 * in the trace already.  The others are each STRIDE and STEP after
	 * the one before, from the address and time RUN_ADDR and RUN_TIME
	 * on, but those dmo_stream_moves took: their index among the pending
	 * ones, their address and their time. */
	ULong pending, traced;
	Addr run_addr;
	ULong run_time;
	UInt moves;
	struct {
		ULong index, time;
		Addr addr;
	} moved[DMO_STREAM_MOVES];
	/* Their flags (event.h) and thread. */
	UInt flags, tid;
	/* The last access the helpers' other paths recorded, to learn the
	 * steps from. */
	Addr last_addr;
	ULong last_time;
	/* A chain's follower not settled yet (dmo_chain.h): LEAD is the lead's
	 * probe, with its follower pending in the stream, or
	 * &dmo_stream_deferred, with the lead in DEFERRED and the follower's
	 * address in DEFERRED_ADDR, for its helper to take if it ran; NULL:
	 * none.  CONFIRM is the instruction count the lead saw, which the
	 * lead's word holds if the follower ran.  A lead whose follower,
	 * STRIDE on, is inside the buffer too is LEAD_BASE + 0 to
	 * MAX_LEAD_OFFSET. */
	struct dmo_probe *lead, *deferred;
	Addr lead_base;
	ULong confirm, max_lead_offset;
	Addr deferred_addr;
};
extern struct dmo_stream dmo_stream;
/* --dmo-streams: False, and no stream ever starts. */
extern Bool dmo_stream_on;
/* For --stats=yes: accesses folded in streams (at their flush), those of
 * them dmo_stream_moves took, and those the helpers took the long way;
 * runs with moves whose kept bytes were written again (dmo_stream.c). */
extern struct dmo_stream_stats {
	ULong streamed, moved, long_way, replayed;
	/* Chains' followers (dmo_chain.h) given back, their code not run,
	 * and taken by their own helper at a settling point. */
	ULong given_back, settled_long_way;
} dmo_stream_stats;
/* LEAD's mark for a follower that is not in the stream. */
extern struct dmo_probe dmo_stream_deferred;

/* Whether the access at A through probe P continues the stream; if so,
 * it is taken (pending) and there is nothing else to do. */
static inline __attribute__((always_inline)) Bool dmo_stream_extends(Addr a,
								     const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	ULong time;
	if (p->stream != s->key || a != s->next_addr || a - s->base > s->max_offset ||
	    s->lead != NULL)
		return False;
	time = dmo_instructions + p->time_offset;
	if (time != s->next_time)
		return False;
	s->next_addr = a + (Addr)s->stride;
	s->next_time = time + s->step;
	s->pending++;
	return True;
}

/* Whether an access through P that does not continue the stream is the
 * first of its key after another key's access, with nothing pending and
 * its key's steps unknown: the case of instructions that take turns (an
 * element-wise op's load and store), which never stream, and which the
 * helpers take the long way inline, as before streams. */
static inline __attribute__((always_inline)) Bool dmo_stream_takes_turns(const struct dmo_probe *p)
{
	return dmo_stream.pending == 0 && p->stream != dmo_stream.key &&
	       !p->stream->steps_known && dmo_stream.lead == NULL;
}

/* The fast path of a chain's lead P (dmo_chain.h) at A: P's follower
 * from its last run is pending and ran, the lead continues the stream,
 * and its follower will too, inside the buffer; then both are taken, the
 * follower ahead (settled at the next helper call), and there is nothing
 * else to do.  Its steps are the chain's: the stream went at them since
 * P's follower was first taken ahead (only the slow paths, which settle
 * first, change a stream's steps). */
static inline __attribute__((always_inline)) Bool dmo_stream_leads(Addr a,
								   const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	ULong now, time;
	if (p != s->lead || a != s->next_addr || a - s->lead_base > s->max_lead_offset)
		return False;
	now = dmo_instructions;
	time = now + p->time_offset;
	if (time != s->next_time || p->ran != s->confirm)
		return False;
	s->confirm = now;
	s->next_addr = a + (Addr)p->lead_stride2;
	s->next_time = time + p->lead_step2;
	s->pending += 2;
	return True;
}

/* The lead P's other path: settle, take its access the long way, and
 * take its follower ahead, in the stream or not.  Out of line. */
void dmo_stream_lead(Addr a, struct dmo_probe *p);

/* Settle the follower taken ahead, if any: give it back if its code did
 * not run, or have its helper take it if it ran and is not in the
 * stream.  Before anything else the helpers record. */
void dmo_stream_settle_lead(void);
static inline void dmo_stream_settle(void)
{
	if (dmo_stream.lead != NULL)
		dmo_stream_settle_lead();
}

/* Fold, count and trace the pending accesses.  Out of line. */
void dmo_stream_flush(void);

/* Whether the access at A through P goes on in the stream, not at its
 * steps: the same key, wholly inside the stream's buffer, and no further
 * back than the stream's next address (no further on, going backwards);
 * dmo_stream_moves then takes it, far more cheaply than a flush and a new
 * start. */
static inline __attribute__((always_inline)) Bool dmo_stream_goes_on(Addr a,
								     const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	if (p->stream != s->key || s->next_addr == 0 || a - s->base > s->max_offset)
		return False;
	return s->stride > 0 ? a >= s->next_addr : s->stride < 0 ? a <= s->next_addr
								 : a == s->next_addr;
}

/* Take the access at A through P, which dmo_stream_goes_on: note its
 * address and time, and go on from it at the same steps.  Out of line. */
void dmo_stream_moves(Addr a, const struct dmo_probe *p);

/* The access at A through P, of FLAGS, wholly inside the buffer at BASE
 * of LEN bytes, by the open layer's only thread, was just recorded by the
 * helpers' other paths (after dmo_stream_flush); TAKEN: the stream its
 * key names had been taken by the fast path right before it.  The next
 * access may continue a stream from it: at the steps its key's stream
 * last went at (when the loop runs again), or at the steps from the
 * access before it, when that was by the same key and no stream was
 * taken between them. */
void dmo_stream_start(UInt flags, Addr a, const struct dmo_probe *p, Addr base, ULong len,
		      Bool taken);

/* dmo_stream_note of an access dmo_stream_takes_turns: the first of its
 * key after another key's, its key's steps unknown, so only noted.
 * Inline, with no call, so that the helper needs no frame for it. */
static inline __attribute__((always_inline)) void dmo_stream_first(Addr a,
								   const struct dmo_probe *p)
{
	struct dmo_stream *s = &dmo_stream;
	dmo_stream_stats.long_way++;
	s->key = p->stream;
	s->next_addr = 0;
	s->last_addr = a;
	s->last_time = dmo_instructions + p->time_offset;
}

static inline __attribute__((always_inline)) void dmo_stream_note(UInt flags, Addr a,
								  const struct dmo_probe *p,
								  Addr base, ULong len,
								  Bool taken)
{
	if (p->stream == dmo_stream.key || p->stream->steps_known)
		dmo_stream_start(flags, a, p, base, len, taken);
	else
		dmo_stream_first(a, p);
}

/* The helpers' other paths recorded an access no stream may follow (of
 * another thread, across a buffer's edge): the next one starts afresh.
 * Called after dmo_stream_flush, with nothing pending. */
static inline void dmo_stream_break(void)
{
	dmo_stream.key = NULL;
	dmo_stream.next_addr = 0;
}

/* The layer ends or begins, or another thread runs: flush, and no stream
 * goes on. */
void dmo_stream_end(void);
/* In a forked child, which lets go of the layer: no flush. */
void dmo_stream_drop(void);

#endif
