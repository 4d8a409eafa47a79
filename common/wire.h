/* wire.h - the records a target sends the dmo tool through its FIFO, and
 * the marker region whose stores start and end a layer.  docs/protocol.md
 * is the prose version, for implementers in other languages.
 *
 * Every field is little-endian and naturally aligned; records are at most
 * DMO_WIRE_MAX_RECORD bytes so that one write() to a pipe is atomic.
 * Freestanding: no libc. */
#ifndef DMO_WIRE_H
#define DMO_WIRE_H

#include <stdint.h>

#define DMO_WIRE_MAGIC 0x524f4d44u /* "DMOR" read as a little-endian u32 */
#define DMO_WIRE_VERSION 1u
#define DMO_WIRE_MAX_RECORD 4096u
#define DMO_WIRE_MAX_NAME 255u
#define DMO_WIRE_MAX_SPEC 1023u
#define DMO_FIFO_ENV "DMO_FIFO" /* the FIFO's path, set by `dmo profile` */

enum dmo_wire_type {
	DMO_WIRE_HELLO = 1, /* once, before anything else: where the markers are */
	DMO_WIRE_LAYER = 2, /* describes the layer the next begin marker opens */
};

struct dmo_wire_header {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t length; /* whole record, header included */
	uint32_t reserved; /* zero */
};

struct dmo_wire_hello {
	struct dmo_wire_header header;
	uint64_t marker_addr; /* address of a struct dmo_marker_region */
	uint32_t pid;
	uint32_t reserved;
};

struct dmo_wire_layer {
	struct dmo_wire_header header;
	uint32_t seq;      /* 1, 2, 3, ...: the value the begin/end stores carry */
	uint16_t name_len; /* bytes of name following the fixed part */
	uint16_t spec_len; /* bytes of op spec following the name; 0 = none */
	uint64_t in_addr, in_bytes;
	uint64_t out_addr, out_bytes;
	/* followed by name_len + spec_len bytes, no terminators */
};

/* The target's marker region.  A layer is active from the store of its
 * seq into `begin` to the store of its seq into `end`.  Both stores must be
 * 8-byte stores to these exact addresses; the tool recognises them when it
 * translates the code that makes them, so the region should be a global
 * the compiler addresses directly (RIP-relative or absolute). */
struct dmo_marker_region {
	volatile uint64_t begin;
	volatile uint64_t end;
};

#endif
