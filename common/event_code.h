/* event_code.h - the compact events of event-file version 2
 * (docs/trace-format.md): each event is coded as the small steps it makes
 * from the events before it, in 1 to DMO_EVENT_CODE_MAX bytes.  The tool
 * encodes (inline, on its hot path); the readers decode
 * (dmo_event_decode).  Freestanding: no libc. */
#ifndef DMO_EVENT_CODE_H
#define DMO_EVENT_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "event.h"

/* Tag byte: bits 0-1 the event's flags; DMO_CODE_EXT: an extension byte
 * follows; DMO_CODE_SAME_GAP: the offset is as far past the end of the
 * previous access of the same kind as that one was past the one before
 * (0 for a stream of adjacent accesses), else the gap follows; bits 4-7
 * the time step from the previous event, 0..14, or 15: the step follows. */
enum {
	DMO_CODE_EXT = 1u << 2,
	DMO_CODE_SAME_GAP = 1u << 3,
	DMO_CODE_TIME_SHIFT = 4,
	DMO_CODE_TIME_FOLLOWS = 15,
	/* Extension byte: a new size follows (varint), a new thread id follows
	 * (one byte).  Other bits are reserved, 0. */
	DMO_CODE_NEW_SIZE = 1u << 0,
	DMO_CODE_NEW_TID = 1u << 1,
	/* tag + extension + size (3) + tid + time (10) + gap (5) */
	DMO_EVENT_CODE_MAX = 21,
};

/* What both sides remember between events; all zero at a file's start, so
 * the first event of each kind carries its size. */
struct dmo_event_code_state {
	uint64_t time;                     /* the previous event's */
	uint64_t end[DMO_COUNT_KINDS];     /* offset + size of the kind's previous */
	int64_t gap[DMO_COUNT_KINDS];      /* its offset minus the end before it */
	uint16_t size[DMO_COUNT_KINDS];    /* its size */
	uint8_t tid;                       /* the previous event's */
};

static inline uint8_t *dmo_code_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* Signed steps as unsigned varints: 0, -1, 1, -2 ... -> 0, 1, 2, 3 ... */
static inline uint64_t dmo_code_zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

/* The tag byte of an event that is the tag alone (below). */
static inline uint8_t dmo_code_short_tag(unsigned kind, uint64_t step)
{
	return (uint8_t)(kind | DMO_CODE_SAME_GAP | (unsigned)step << DMO_CODE_TIME_SHIFT);
}

/* Most events are the tag byte alone: the same size, thread and gap as
 * the kind's previous event, a time step under DMO_CODE_TIME_FOLLOWS.
 * Encode such an event (of KIND, dmo_event's flags, and its other
 * fields) at P and return the end; return NULL for any other event,
 * with nothing written.  Only time and end move.  Apart from
 * dmo_event_encode, which tries it first, so that the tool's fastest
 * path can try it alone with its fields in registers (dmo_main.c):
 * SIZE and TID may be the access's own, unsaturated, since a value
 * beyond the event's field matches no saved one. */
static inline __attribute__((always_inline)) uint8_t *
dmo_event_encode_short(struct dmo_event_code_state *s, uint8_t *p, unsigned kind,
		       uint64_t time, uint32_t offset, uint64_t size, unsigned tid)
{
	uint64_t step = time - s->time;
	if (size != s->size[kind] || tid != s->tid ||
	    (int64_t)offset - (int64_t)s->end[kind] != s->gap[kind] ||
	    step >= DMO_CODE_TIME_FOLLOWS)
		return NULL;
	*p = dmo_code_short_tag(kind, step);
	s->time = time;
	s->end[kind] = (uint64_t)offset + size;
	return p + 1;
}

/* N events of KIND, SIZE and TID right after the kind's previous event,
 * with no event between them: each STRIDE bytes past the one before it
 * and STEP after it in time.  If they are each the tag byte alone (the
 * kind's previous event had that size, that thread, and a gap of STRIDE
 * less SIZE; STEP under DMO_CODE_TIME_FOLLOWS), write their N bytes at P
 * and return the end, the state moved as N calls of
 * dmo_event_encode_short would move it; else return NULL with nothing
 * written.  The bytes go eight at a time, so P needs room for N + 7: the
 * up to seven past the end are the next events' to overwrite.  For the
 * tool's streams (dmo-tool/dmo_stream.h), whose runs end that far before
 * their room does (DMO_EVENT_CODE_MAX). */
static inline uint8_t *dmo_event_encode_repeat(struct dmo_event_code_state *s, uint8_t *p,
					       unsigned kind, uint64_t size, unsigned tid,
					       int64_t stride, uint64_t step, uint64_t n)
{
	uint8_t tag = dmo_code_short_tag(kind, step);
	uint64_t tags = 0x0101010101010101ull * tag;
	if (size != s->size[kind] || tid != s->tid || stride - (int64_t)size != s->gap[kind] ||
	    step >= DMO_CODE_TIME_FOLLOWS)
		return NULL;
	for (uint64_t i = 0; i < n; i += sizeof tags)
		__builtin_memcpy(p + i, &tags, sizeof tags);
	s->time += n * step;
	s->end[kind] += n * (uint64_t)stride;
	return p + n;
}

/* Encode E at P (room for DMO_EVENT_CODE_MAX bytes); returns the end.
 * Forced inline: the tool encodes on its hot path, where a call costs
 * more than the common event's work (bench/README.md). */
static inline __attribute__((always_inline)) uint8_t *
dmo_event_encode(struct dmo_event_code_state *s, uint8_t *p, const struct dmo_event *e)
{
	unsigned kind = e->flags & (DMO_EV_WRITE | DMO_EV_OUT);
	uint64_t step = e->time - s->time;
	int64_t gap = (int64_t)e->offset - (int64_t)s->end[kind];
	unsigned ext = (e->size != s->size[kind] ? DMO_CODE_NEW_SIZE : 0) |
		       (e->tid != s->tid ? DMO_CODE_NEW_TID : 0);
	unsigned tag = kind | (ext ? DMO_CODE_EXT : 0) | (gap == s->gap[kind] ? DMO_CODE_SAME_GAP : 0);
	uint8_t *short_end = dmo_event_encode_short(s, p, kind, e->time, e->offset, e->size, e->tid);
	uint8_t *tag_at = p++;

	if (short_end != NULL)
		return short_end;
	if (ext) {
		*p++ = (uint8_t)ext;
		if (ext & DMO_CODE_NEW_SIZE)
			p = dmo_code_varint(p, e->size);
		if (ext & DMO_CODE_NEW_TID)
			*p++ = e->tid;
	}
	if (step < DMO_CODE_TIME_FOLLOWS) {
		tag |= (unsigned)step << DMO_CODE_TIME_SHIFT;
	} else {
		tag |= DMO_CODE_TIME_FOLLOWS << DMO_CODE_TIME_SHIFT;
		p = dmo_code_varint(p, step);
	}
	if (!(tag & DMO_CODE_SAME_GAP))
		p = dmo_code_varint(p, dmo_code_zigzag(gap));
	*tag_at = (uint8_t)tag;
	s->time = e->time;
	s->end[kind] = (uint64_t)e->offset + e->size;
	s->gap[kind] = gap;
	s->size[kind] = e->size;
	s->tid = e->tid;
	return p;
}

/* Results of dmo_event_decode besides the bytes used (> 0). */
enum {
	DMO_CODE_SHORT = 0,      /* the bytes end inside the event */
	DMO_CODE_BAD = -1,       /* not a valid event: *E holds what was decoded */
};

/* Decode one event from the N bytes at P into *E: the bytes it took, or
 * DMO_CODE_SHORT / DMO_CODE_BAD (reserved bits, an overlong varint, size
 * 0 or above 65535, an offset outside 0 .. 2^32-1).  The state advances
 * only on success.  The buffer limits are the caller's to check. */
int dmo_event_decode(struct dmo_event_code_state *s, const uint8_t *p, size_t n,
		     struct dmo_event *e);

#endif
