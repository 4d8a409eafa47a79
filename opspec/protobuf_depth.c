/* protobuf_depth.c - the nesting depth of a protobuf message from its wire
 * format (protobuf_depth.h).  The wire format: each field is a varint key
 * (field number << 3 | wire type) and a value: a varint (type 0), 8 bytes
 * (1), a varint length and that many bytes (2: a string, bytes or a
 * message), or 4 bytes (5).  Group types (3, 4) are not used by ONNX and
 * make a payload read as no message. */
#include "protobuf_depth.h"

enum { NOT_A_MESSAGE = 0, WITHIN = 1, TOO_DEEP = 2 };

/* Read a varint at DATA[*AT] (up to END); 0 when it runs past END or past
 * 10 bytes. */
static int varint(const uint8_t *data, size_t end, size_t *at, uint64_t *value)
{
	*value = 0;
	for (unsigned shift = 0; shift < 70 && *at < end; shift += 7) {
		uint8_t byte = data[(*at)++];
		*value |= (uint64_t)(byte & 0x7f) << (shift < 64 ? shift : 0);
		if ((byte & 0x80) == 0)
			return 1;
	}
	return 0;
}

/* DATA[0, LEN) read as a message with LEVELS_LEFT more levels allowed
 * inside it (-1: none, and its fields are not entered). */
static int scan(const uint8_t *data, size_t len, int levels_left)
{
	size_t at = 0;
	uint64_t key, value;

	while (at < len) {
		if (!varint(data, len, &at, &key) || key >> 3 == 0)
			return NOT_A_MESSAGE;
		switch (key & 7) {
		case 0:
			if (!varint(data, len, &at, &value))
				return NOT_A_MESSAGE;
			break;
		case 1:
		case 5: {
			size_t width = (key & 7) == 1 ? 8 : 4;
			if (len - at < width)
				return NOT_A_MESSAGE;
			at += width;
			break;
		}
		case 2:
			if (!varint(data, len, &at, &value) || value > len - at)
				return NOT_A_MESSAGE;
			/* A payload that reads as a message is one more level;
			 * with no level left (-1) it is only read, not entered. */
			if (value > 0 && levels_left >= 0) {
				int inner = scan(data + at, (size_t)value, levels_left - 1);
				if (inner == TOO_DEEP || (inner == WITHIN && levels_left == 0))
					return TOO_DEEP;
			}
			at += (size_t)value;
			break;
		default:
			return NOT_A_MESSAGE;
		}
	}
	return WITHIN;
}

int dmo_protobuf_depth_within(const uint8_t *data, size_t len, int max_depth)
{
	return scan(data, len, max_depth - 1) != TOO_DEEP;
}
