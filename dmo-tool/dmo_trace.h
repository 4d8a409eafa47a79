/* dmo_trace.h - the tool's full event trace of the active layer: events go
 * onto a tape that keeps at most --dmo-max-mem bytes in RAM and spills its
 * oldest slabs straight into the layer's event file. */
#ifndef DMO_TRACE_H
#define DMO_TRACE_H

#include "pub_tool_basics.h"
#include "event.h"

/* Start layer SEQ's event file PATH.  Failure is reported and the layer
 * simply has no trace. */
void dmo_trace_open(const HChar *path, UInt seq, ULong in_bytes, ULong out_bytes,
		    ULong max_mem);
/* True while events are being kept: the helpers test it for every
 * event, so it is a variable, not a call. */
extern Bool dmo_trace_on;

/* The run of slots reserved at the tape's end (dmo_tape_reserve) that
 * events are written into: dmo_trace_next is the next free one,
 * dmo_trace_limit the end.  They are committed to the tape when the run
 * is full and when the layer ends, so an event costs its own stores and
 * one compare. */
extern struct dmo_event *dmo_trace_next, *dmo_trace_limit;

/* Commit the full run and reserve the next; NULL (and the trace stops,
 * with a message) when the tape fails. */
struct dmo_event *dmo_trace_refill(void);

/* Keep one event, at TIME, of thread TID. */
static inline void dmo_trace_event(UInt flags, ULong offset, ULong size, ULong time,
				   UInt tid)
{
	struct dmo_event *e = dmo_trace_next;
	if (e == dmo_trace_limit && (e = dmo_trace_refill()) == NULL)
		return;
	dmo_trace_next = e + 1;
	e->time = time;
	e->offset = (UInt)offset;
	e->size = size > 0xffff ? 0xffff : (UShort)size;
	e->flags = (UChar)flags;
	e->tid = tid > 255 ? 255 : (UChar)tid;
}
/* Finish the file; returns the events it holds. */
ULong dmo_trace_close(void);
/* Drop the trace without writing anything more: in a forked child, whose
 * event file descriptor is the parent's. */
void dmo_trace_abandon(void);
/* True when the last trace lost events (disk full, write error). */
Bool dmo_trace_failed(void);

#endif
