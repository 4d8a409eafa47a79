/* dmo_trace.h - the tool's full event trace of the active layer: events go
 * onto a tape that keeps at most --dmo-max-mem bytes in RAM and spills its
 * oldest slabs straight into the layer's event file. */
#ifndef DMO_TRACE_H
#define DMO_TRACE_H

#include "pub_tool_basics.h"

/* Start layer SEQ's event file PATH.  Failure is reported and the layer
 * simply has no trace. */
void dmo_trace_open(const HChar *path, UInt seq, ULong in_bytes, ULong out_bytes,
		    ULong max_mem);
/* True while events are being kept: the helpers test it for every
 * event, so it is a variable, not a call. */
extern Bool dmo_trace_on;
void dmo_trace_event(UInt flags, ULong offset, ULong size, ULong time);
/* Finish the file; returns the events it holds. */
ULong dmo_trace_close(void);
/* Drop the trace without writing anything more: in a forked child, whose
 * event file descriptor is the parent's. */
void dmo_trace_abandon(void);
/* True when the last trace lost events (disk full, write error). */
Bool dmo_trace_failed(void);

#endif
