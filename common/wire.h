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
/* The client request (valgrind.h's VALGRIND_DO_CLIENT_REQUEST_EXPR) by
 * which a program asks the tool where its FIFO is: arguments a buffer and
 * its size.  The tool writes the path there, NUL-terminated, and returns
 * its length; 0 when it has no FIFO or the buffer is too small.  Without
 * Valgrind, or under another tool, the request returns its default, 0.
 * The number is Valgrind's tool-request base for 'D','M', plus 1. */
#define DMO_WIRE_REQ_FIFO_PATH ((((unsigned)'D' & 0xffu) << 24 | ((unsigned)'M' & 0xffu) << 16) + 1u)

enum dmo_wire_type {
	DMO_WIRE_HELLO = 1, /* once, before anything else: where the markers are */
	DMO_WIRE_LAYER = 2, /* describes the layer the next begin marker opens */
	DMO_WIRE_REFUSED = 3, /* a layer the program refused itself: record why */
};

struct dmo_wire_header {
	uint32_t magic;
	uint16_t version;
	uint16_t type;
	uint32_t length; /* whole record, header included */
	/* The sending process's id: a program's children that link the
	 * harness inherit the FIFO, and the tool keeps each process's
	 * records apart by it.  0: not said (writers before issue 28). */
	uint32_t sender;
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

/* Why the program refused a layer (REFUSED's `reason`).  The client
 * library checks the op spec, which the tool cannot parse (it has no libc),
 * and sends the verdict so that the refusal is on record. */
enum dmo_wire_refusal {
	DMO_REFUSED_BAD_SPEC = 1,  /* the op spec does not parse */
	DMO_REFUSED_SPEC_SIZE = 2, /* its input/output bytes are not the buffers' */
};
#define DMO_WIRE_MAX_MESSAGE 511u

/* REFUSED: a LAYER's fields, then why, then name, spec and message (the
 * client's explanation, as its dmo_layer_error() gives it). */
struct dmo_wire_refused {
	struct dmo_wire_layer layer; /* header.type = DMO_WIRE_REFUSED, length
				      * = 64 + name_len + spec_len + message_len */
	uint16_t reason;             /* enum dmo_wire_refusal */
	uint16_t message_len;        /* <= DMO_WIRE_MAX_MESSAGE */
	uint32_t reserved;           /* zero */
	/* followed by name, spec and message bytes, no terminators */
};
_Static_assert(sizeof(struct dmo_wire_refused) == 64,
	       "docs/protocol.md: REFUSED's fixed part is 64 bytes");

/* The target's marker region: three words, 8-byte aligned, writable.  A
 * layer is active from the store of its seq into `begin` to the store of
 * its seq into `end`.  Both stores must be 8-byte stores to these exact
 * addresses; the tool recognises them when it translates the code that
 * makes them, so the region should be a global the compiler addresses
 * directly (RIP-relative or absolute).  The tool answers each store in
 * `status`: 0 accepted, -1 refused (the program clears it first). */
struct dmo_marker_region {
	volatile uint64_t begin;
	volatile uint64_t end;
	volatile int64_t status;
};
#define DMO_MARKER_BEGIN 0u  /* word index of begin */
#define DMO_MARKER_END 1u    /* word index of end */
#define DMO_MARKER_STATUS 2u /* word index of status */
#define DMO_MARKER_REGION_BYTES 24u
_Static_assert(sizeof(struct dmo_marker_region) == DMO_MARKER_REGION_BYTES,
	       "docs/protocol.md: the marker region is three 8-byte words");

/* Whether LEN bytes of a name or op spec may go on the wire: no control
 * characters (below 0x20, or 0x7f).  Bytes from 0x80 up are allowed, so
 * UTF-8 text passes.  The client library and the tool both ask this. */
static inline int dmo_wire_text_ok(const char *text, uint32_t len)
{
	const unsigned char *p = (const unsigned char *)text;
	for (uint32_t i = 0; i < len; i++)
		if (p[i] < 0x20 || p[i] == 0x7f)
			return 0;
	return 1;
}

/* The buffer rules of a LAYER (docs/protocol.md, misuse table), in the
 * order the tool checks them: NULL when the two buffers are acceptable,
 * else the error reason.  Whether they are mapped only the tool can tell. */
static inline const char *dmo_wire_buffers_bad(uint64_t in_addr, uint64_t in_bytes,
					       uint64_t out_addr, uint64_t out_bytes)
{
	if (in_bytes == 0 || out_bytes == 0)
		return "zero-size-buffer";
	if (in_bytes > 0xffffffffull || out_bytes > 0xffffffffull)
		return "buffer-over-4gib";
	if (in_addr + in_bytes < in_addr || out_addr + out_bytes < out_addr)
		return "buffer-wraps";
	if (in_addr < out_addr + out_bytes && out_addr < in_addr + in_bytes)
		return "overlapping-buffers";
	return 0;
}

#endif
