/* wire_parse.h - validation of the FIFO byte stream (see wire.h).
 * The tool runs it on what it drains from the FIFO; the fuzzer runs it on
 * arbitrary bytes.  Freestanding: no libc. */
#ifndef DMO_WIRE_PARSE_H
#define DMO_WIRE_PARSE_H

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

struct dmo_wire_record {
	uint16_t type;
	uint32_t sender;       /* every record: the sending process, 0 = not said */
	uint64_t marker_addr;  /* HELLO */
	uint32_t pid;          /* HELLO */
	uint32_t seq;          /* LAYER, REFUSED */
	uint64_t in_addr, in_bytes, out_addr, out_bytes; /* LAYER, REFUSED */
	const char *name;      /* LAYER, REFUSED: points into the input, not terminated */
	const char *spec;
	uint16_t name_len, spec_len;
	uint16_t reason;       /* REFUSED: enum dmo_wire_refusal */
	uint16_t message_len;  /* REFUSED */
	const char *message;   /* REFUSED: points into the input, not terminated */
};

enum dmo_wire_status {
	DMO_WIRE_INCOMPLETE = 0, /* need more bytes */
	DMO_WIRE_BAD = -1,       /* malformed: *why says how */
};

/* Parse the record at the start of BUF.  Returns the bytes it occupies
 * (> 0) and fills *REC, or DMO_WIRE_INCOMPLETE, or DMO_WIRE_BAD with *WHY set.
 * A record whose header is valid but whose body is not reports DMO_WIRE_BAD
 * and, in *SKIP, the length to skip to stay in step with the stream (0 when
 * the header itself is garbage and the stream cannot be resynchronised);
 * a nonzero skip never exceeds LEN. */
int dmo_wire_parse(const uint8_t *buf, size_t len, struct dmo_wire_record *rec,
		   const char **why, size_t *skip);

#endif
