/* event.h - one recorded memory access, as the tool stores it and the
 * analysis reads it back.  16 bytes, so a tape slab holds a whole number of
 * them and a 10^7-event layer is 160 MB.  Freestanding: no libc. */
#ifndef DMO_EVENT_H
#define DMO_EVENT_H

#include <stdint.h>

enum {
	DMO_EV_WRITE = 1u << 0, /* else a read */
	DMO_EV_OUT = 1u << 1,   /* else the input buffer */
};

struct dmo_event {
	uint64_t time;   /* guest instructions since the layer's begin */
	uint32_t offset; /* first byte inside the buffer */
	uint16_t size;   /* bytes inside the buffer (access clipped to it) */
	uint8_t flags;   /* DMO_EV_WRITE | DMO_EV_OUT */
	uint8_t tid;     /* the thread's number in its layer (docs/threads.md), saturated at 255 */
};

/* Indexes into per-kind counters, the column order of layers.csv. */
enum {
	DMO_COUNT_IN_READS = 0,
	DMO_COUNT_IN_WRITES = 1,
	DMO_COUNT_OUT_READS = 2,
	DMO_COUNT_OUT_WRITES = 3,
	DMO_COUNT_KINDS = 4,
};

/* The counter index of an event with FLAGS. */
static inline unsigned dmo_event_kind(uint8_t flags)
{
	return ((flags & DMO_EV_OUT) ? 2u : 0u) + ((flags & DMO_EV_WRITE) ? 1u : 0u);
}

#endif
