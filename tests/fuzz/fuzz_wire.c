/* fuzz_wire.c - libFuzzer target for the FIFO record validator, whose input
 * is whatever the profiled program writes.  It checks the contract of
 * dmo_wire_parse() on the whole input, then replays the input through the
 * tool's stream loop (the protocol engine's, common/protocol.c), fed in
 * chunks of varying size as a pipe delivers them, so that a reply the loop
 * mishandles shows up as an overread, a skip past the buffered bytes, or a
 * buffer that can never drain (a hang). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"
#include "wire_parse.h"

enum { HEADER = sizeof(struct dmo_wire_header) };

/* One call on exactly LEN heap bytes, so ASan sees any read past them;
 * checks every promise wire_parse.h makes about the result. */
static int parse_checked(const uint8_t *bytes, size_t len, size_t *skip)
{
	uint8_t *buf = malloc(len ? len : 1);
	struct dmo_wire_record rec;
	const char *why = NULL;
	int n;

	assert(buf != NULL);
	memcpy(buf, bytes, len);
	*skip = 0;
	n = dmo_wire_parse(buf, len, &rec, &why, skip);
	if (n == DMO_WIRE_INCOMPLETE) {
		/* A whole record is never longer than the maximum. */
		assert(len < DMO_WIRE_MAX_RECORD);
	} else if (n == DMO_WIRE_BAD) {
		assert(why != NULL && why[0] != '\0');
		/* The loop skips what it is told: never past the bytes it has. */
		assert(*skip == 0 || (*skip >= HEADER && *skip <= DMO_WIRE_MAX_RECORD &&
				      *skip <= len));
	} else {
		assert(n >= (int)HEADER && (size_t)n <= len && n <= (int)DMO_WIRE_MAX_RECORD);
		assert(rec.type == DMO_WIRE_HELLO || rec.type == DMO_WIRE_LAYER ||
		       rec.type == DMO_WIRE_REFUSED);
		if (rec.type != DMO_WIRE_HELLO) {
			const char *start = (const char *)buf, *end = start + n;
			size_t tail = rec.type == DMO_WIRE_REFUSED ? rec.message_len : 0;
			assert(rec.seq != 0);
			assert(rec.name_len <= DMO_WIRE_MAX_NAME && rec.spec_len <= DMO_WIRE_MAX_SPEC);
			assert(rec.name >= start && rec.name + rec.name_len <= end);
			assert(rec.spec >= start && rec.spec + rec.spec_len + tail == end);
			if (rec.type == DMO_WIRE_REFUSED)
				assert(rec.message == rec.spec + rec.spec_len &&
				       rec.message_len <= DMO_WIRE_MAX_MESSAGE &&
				       (rec.reason == DMO_REFUSED_BAD_SPEC ||
					rec.reason == DMO_REFUSED_SPEC_SIZE));
		}
	}
	free(buf);
	return n;
}

/* The engine's world: anything goes, nothing is checked here
 * (fuzz_protocol checks the engine's contract). */
static void *op_alloc(void *ctx, size_t bytes) { (void)ctx; return malloc(bytes); }
static void op_free(void *ctx, void *p, size_t bytes) { (void)ctx; (void)bytes; free(p); }
static int op_mapped(void *ctx, uint64_t addr, uint64_t len, int w) { (void)ctx; (void)w; return addr + len > addr; }
static void op_say(void *ctx, const char *line) { (void)ctx; (void)line; }
static void op_markers(void *ctx, uint64_t addr) { (void)ctx; (void)addr; }
static void op_open(void *ctx, const struct dmo_protocol_layer *l) { (void)ctx; (void)l; }
static void op_close(void *ctx, struct dmo_layer_summary *row) { (void)ctx; (void)row; }
static void op_row(void *ctx, const struct dmo_layer_summary *row) { (void)ctx; (void)row; }
static void op_status(void *ctx, int64_t v) { (void)ctx; (void)v; }

static const struct dmo_protocol_ops ops = {
	.alloc = op_alloc, .free = op_free, .mapped = op_mapped, .say = op_say,
	.markers = op_markers, .open = op_open, .close = op_close,
	.error_row = op_row, .status = op_status,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_protocol *engine = dmo_protocol_create(&ops, NULL);
	size_t pos = 0, skip;
	/* Chunk sizes come from the input, so every input replays the same. */
	uint32_t rng = 2166136261u;

	assert(engine != NULL);
	for (size_t i = 0; i < size; i++)
		rng = (rng ^ data[i]) * 16777619u;
	parse_checked(data, size, &skip);

	/* The input as the tool's reads deliver it, in pieces, to the engine's
	 * stream loop: a loop that stops progressing hangs, one that passes
	 * its buffer overflows. */
	while (pos < size) {
		size_t chunk;
		rng ^= rng << 13;
		rng ^= rng >> 17;
		rng ^= rng << 5;
		chunk = 1 + rng % (rng & 1 ? 64 : DMO_WIRE_MAX_RECORD);
		if (chunk > size - pos)
			chunk = size - pos;
		dmo_protocol_bytes(engine, data + pos, chunk);
		pos += chunk;
	}
	dmo_protocol_finish(engine);
	dmo_protocol_destroy(engine);
	return 0;
}
