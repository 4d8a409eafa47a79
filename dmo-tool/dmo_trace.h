/* dmo_trace.h - the tool's full event trace of the active layer: events are
 * encoded (event_code.h) onto a tape of bytes that keeps at most --dmo-max-mem bytes in RAM and spills its
 * oldest slabs straight into the layer's event file. */
#ifndef DMO_TRACE_H
#define DMO_TRACE_H

#include "pub_tool_basics.h"
#include "event.h"
#include "event_code.h"

/* Start layer SEQ's event file PATH.  Failure is reported and the layer
 * simply has no trace. */
void dmo_trace_open(const HChar *path, UInt seq, ULong in_bytes, ULong out_bytes,
		    ULong max_mem);
/* The event-file version new traces are written in: 2 (compact, the
 * default) or 1 (16-byte records, for comparison); false if neither. */
Bool dmo_trace_set_version(UInt version);
/* True while events are being kept: the helpers test it for every
 * event, so it is a variable, not a call. */
extern Bool dmo_trace_on;

/* The run of bytes reserved at the tape's end (dmo_tape_reserve) that
 * events are encoded into: dmo_trace_next is the next free byte, and an
 * event may start while it is at most dmo_trace_limit, which leaves room
 * for the longest one.  The run is committed to the tape when it is full
 * and when the layer ends, so an event costs its encoding and one
 * compare. */
extern UChar *dmo_trace_next, *dmo_trace_limit;
/* What the encoder remembers between events (event_code.h), the events
 * kept so far, and whether they are written as version 1's 16-byte
 * records (--dmo-trace-version=1) instead. */
extern struct dmo_event_code_state dmo_trace_code;
extern ULong dmo_trace_events;
extern Bool dmo_trace_fixed;
/* Reserved runs committed so far: bytes encoded while it stays the same
 * lie one after the other in one run. */
extern ULong dmo_trace_refills;

/* Commit the full run and reserve the next; NULL (and the trace stops,
 * with a message) when the tape fails. */
UChar *dmo_trace_refill(void);

/* Write one event, at TIME, of thread TID, at dmo_trace_next, which the
 * caller found at most dmo_trace_limit.  Forced inline, so that the
 * event's fields stay in registers and its kind is a constant. */
static inline __attribute__((always_inline)) void dmo_trace_put(UInt flags, ULong offset,
								ULong size, ULong time,
								UInt tid)
{
	UChar *p = dmo_trace_next;
	const struct dmo_event e = {
		.time = time,
		.offset = (UInt)offset,
		.size = size > 0xffff ? 0xffff : (UShort)size,
		.flags = (UChar)flags,
		.tid = tid > 255 ? 255 : (UChar)tid,
	};
	if (dmo_trace_fixed) {
		__builtin_memcpy(p, &e, sizeof e);
		p += sizeof e;
	} else {
		p = dmo_event_encode(&dmo_trace_code, p, &e);
	}
	dmo_trace_next = p;
	dmo_trace_events++;
}

/* Keep one event as dmo_trace_event does, if it is version 2's tag byte
 * alone (dmo_event_encode_short) and the reserved run has room; else
 * return False with nothing kept.  What the helpers' fastest path tries:
 * a few loads and compares, no call. */
static inline __attribute__((always_inline)) Bool dmo_trace_put_short(UInt flags, ULong offset,
								      ULong size, ULong time,
								      UInt tid)
{
	UChar *p = dmo_trace_next;
	if (p > dmo_trace_limit || dmo_trace_fixed)
		return False;
	p = dmo_event_encode_short(&dmo_trace_code, p, flags & (DMO_EV_WRITE | DMO_EV_OUT), time,
				   (UInt)offset, size, tid);
	if (p == NULL)
		return False;
	dmo_trace_next = p;
	dmo_trace_events++;
	return True;
}

/* Keep one event, at TIME, of thread TID: in the reserved run, after a
 * refill if it is full. */
static inline void dmo_trace_event(UInt flags, ULong offset, ULong size, ULong time, UInt tid)
{
	if (dmo_trace_next > dmo_trace_limit && dmo_trace_refill() == NULL)
		return;
	dmo_trace_put(flags, offset, size, time, tid);
}
/* Keep N events of one stream of thread TID (dmo_stream.h), one after
 * the other: the first at OFFSET and TIME, each next one STRIDE bytes and
 * STEP instructions after the one before, when dmo_trace_tags declined
 * them.  The same bytes as N calls of dmo_trace_event, the first coded
 * alone, the others as runs of tag bytes where they can be. */
void dmo_trace_stream(UInt flags, ULong offset, Long stride, ULong size, ULong time,
		      ULong step, ULong n, UInt tid);

/* dmo_trace_stream's common case, inline: when the trace is on and the N
 * events are each the tag byte alone (dmo_event_encode_repeat), the first
 * STEP after the event before it too, and fit in the reserved run (whose
 * last DMO_EVENT_CODE_MAX bytes take the encoder's overrun), keep them and
 * return True; else keep nothing and return False. */
static inline __attribute__((always_inline)) Bool dmo_trace_tags(UInt flags, Long stride,
								 ULong size, ULong time,
								 ULong step, ULong n, UInt tid)
{
	UChar *end;
	if (!dmo_trace_on || dmo_trace_fixed || dmo_trace_next > dmo_trace_limit ||
	    (ULong)(dmo_trace_limit - dmo_trace_next) < n - 1 || time - dmo_trace_code.time != step)
		return False;
	end = dmo_event_encode_repeat(&dmo_trace_code, dmo_trace_next, flags & (DMO_EV_WRITE | DMO_EV_OUT),
				      size, tid, stride, step, n);
	if (end == NULL)
		return False;
	dmo_trace_next = end;
	dmo_trace_events += n;
	return True;
}
/* Finish the file; returns the events it holds. */
ULong dmo_trace_close(void);
/* Drop the trace without writing anything more: in a forked child, whose
 * event file descriptor is the parent's. */
void dmo_trace_abandon(void);
/* True when the last trace lost events (disk full, write error). */
Bool dmo_trace_failed(void);

#endif
