/* fuzz_wire.c - libFuzzer target for the FIFO record validator, whose input
 * is whatever the profiled program writes.  It checks the contract of
 * dmo_wire_parse() on the whole input, then replays the input through a copy
 * of the tool's stream loop (dmo-tool/dmo_layers.c parse_stream and
 * dmo_layers_drain), fed in chunks of varying size as a pipe delivers them,
 * so that a reply the loop mishandles shows up as an overread, a skip past
 * the buffered bytes, or a buffer that can never drain. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wire_parse.h"

enum { HEADER = sizeof(struct dmo_wire_header), STREAM = 2 * DMO_WIRE_MAX_RECORD };

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
		assert(rec.type == DMO_WIRE_HELLO || rec.type == DMO_WIRE_LAYER);
		if (rec.type == DMO_WIRE_LAYER) {
			const char *start = (const char *)buf, *end = start + n;
			assert(rec.seq != 0);
			assert(rec.name_len <= DMO_WIRE_MAX_NAME && rec.spec_len <= DMO_WIRE_MAX_SPEC);
			assert(rec.name >= start && rec.name + rec.name_len <= end);
			assert(rec.spec >= start && rec.spec + rec.spec_len == end);
		}
	}
	free(buf);
	return n;
}

/* parse_stream: consume every whole record; returns the bytes used. */
static size_t parse_stream(const uint8_t *stream, size_t stream_len)
{
	size_t used = 0;

	while (used < stream_len) {
		size_t skip;
		int n = parse_checked(stream + used, stream_len - used, &skip);
		if (n == DMO_WIRE_INCOMPLETE)
			break;
		if (n == DMO_WIRE_BAD)
			n = (int)(skip ? skip : stream_len - used);
		/* Each pass makes progress, and stays inside what was read. */
		assert(n > 0 && (size_t)n <= stream_len - used);
		used += (size_t)n;
	}
	return used;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t stream[STREAM];
	size_t stream_len = 0, pos = 0, skip;
	/* Chunk sizes come from the input, so every input replays the same. */
	uint32_t rng = 2166136261u;

	for (size_t i = 0; i < size; i++)
		rng = (rng ^ data[i]) * 16777619u;
	parse_checked(data, size, &skip);

	/* dmo_layers_drain: read what fits, parse, keep the unparsed tail. */
	while (pos < size) {
		size_t room = sizeof stream - stream_len, chunk;
		/* A full buffer that parsing cannot shrink would never drain. */
		assert(room > 0);
		rng ^= rng << 13;
		rng ^= rng >> 17;
		rng ^= rng << 5;
		chunk = 1 + rng % (rng & 1 ? 64 : room);
		if (chunk > room)
			chunk = room;
		if (chunk > size - pos)
			chunk = size - pos;
		memcpy(stream + stream_len, data + pos, chunk);
		stream_len += chunk;
		pos += chunk;
		size_t used = parse_stream(stream, stream_len);
		memmove(stream, stream + used, stream_len - used);
		stream_len -= used;
	}
	return 0;
}
