/* wire_parse.c - validation of FIFO records (see wire_parse.h).  Every
 * length is checked before it is used, because the bytes come from the
 * profiled program and may be anything. */
#include "wire_parse.h"

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | (p[1] << 8));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) |
	       ((uint32_t)p[3] << 24);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | ((uint64_t)get32(p + 4) << 32);
}

static int bad(const char **why, const char *reason, size_t *skip, size_t n)
{
	*why = reason;
	*skip = n;
	return DMO_WIRE_BAD;
}

/* The layer fields of a LAYER or REFUSED record of LENGTH bytes (for
 * REFUSED, without its message), whose name and spec start at FIXED. */
static int layer_body(const uint8_t *buf, uint32_t length, struct dmo_wire_record *rec,
		      const char **why, size_t *skip, size_t fixed)
{
	if (length < fixed)
		return bad(why, "LAYER record shorter than its fixed part", skip, length);
	rec->seq = get32(buf + 16);
	rec->name_len = get16(buf + 20);
	rec->spec_len = get16(buf + 22);
	rec->in_addr = get64(buf + 24);
	rec->in_bytes = get64(buf + 32);
	rec->out_addr = get64(buf + 40);
	rec->out_bytes = get64(buf + 48);
	if (fixed + rec->name_len + rec->spec_len != length)
		return bad(why, "LAYER name/spec lengths disagree with the record length", skip, length);
	if (rec->name_len > DMO_WIRE_MAX_NAME || rec->spec_len > DMO_WIRE_MAX_SPEC)
		return bad(why, "LAYER name or spec too long", skip, length);
	if (rec->seq == 0)
		return bad(why, "LAYER sequence number 0 is reserved", skip, length);
	rec->name = (const char *)buf + fixed;
	rec->spec = rec->name + rec->name_len;
	if (!dmo_wire_text_ok(rec->name, (uint32_t)rec->name_len + rec->spec_len))
		return bad(why, "LAYER name or spec holds a control character", skip, length);
	return (int)length;
}

int dmo_wire_parse(const uint8_t *buf, size_t len, struct dmo_wire_record *rec,
		   const char **why, size_t *skip)
{
	const size_t header = sizeof(struct dmo_wire_header);
	uint32_t length;

	if (len < header) {
		/* A wrong magic is garbage even before the header is whole. */
		static const uint8_t magic[4] = { 'D', 'M', 'O', 'R' };
		for (size_t i = 0; i < len && i < 4; i++)
			if (buf[i] != magic[i])
				return bad(why, "bad magic (not a dmo record)", skip, 0);
		return DMO_WIRE_INCOMPLETE;
	}
	if (get32(buf) != DMO_WIRE_MAGIC)
		return bad(why, "bad magic (not a dmo record)", skip, 0);
	length = get32(buf + 8);
	if (length < header || length > DMO_WIRE_MAX_RECORD)
		return bad(why, "record length out of range", skip, 0);
	/* Whole before anything else: a skip must never pass the bytes we have. */
	if (len < length)
		return DMO_WIRE_INCOMPLETE;
	if (get16(buf + 4) != DMO_WIRE_VERSION)
		return bad(why, "unsupported protocol version", skip, length);

	rec->type = get16(buf + 6);
	rec->sender = get32(buf + 12);
	switch (rec->type) {
	case DMO_WIRE_HELLO:
		if (length != sizeof(struct dmo_wire_hello))
			return bad(why, "HELLO record has the wrong length", skip, length);
		rec->marker_addr = get64(buf + 16);
		rec->pid = get32(buf + 24);
		if (rec->marker_addr == 0 || rec->marker_addr % 8 != 0)
			return bad(why, "HELLO marker address is null or unaligned", skip, length);
		return (int)length;
	case DMO_WIRE_LAYER:
		return layer_body(buf, length, rec, why, skip, sizeof(struct dmo_wire_layer));
	case DMO_WIRE_REFUSED: {
		const size_t fixed = sizeof(struct dmo_wire_refused);
		if (length < fixed)
			return bad(why, "REFUSED record shorter than its fixed part", skip, length);
		rec->reason = get16(buf + 56);
		rec->message_len = get16(buf + 58);
		if (rec->reason != DMO_REFUSED_BAD_SPEC && rec->reason != DMO_REFUSED_SPEC_SIZE)
			return bad(why, "REFUSED record with an unknown reason", skip, length);
		if (rec->message_len > DMO_WIRE_MAX_MESSAGE || rec->message_len > length - fixed)
			return bad(why, "REFUSED message too long", skip, length);
		int n = layer_body(buf, length - rec->message_len, rec, why, skip, fixed);
		if (n <= 0) {
			*skip = length;
			return n;
		}
		rec->message = rec->spec + rec->spec_len;
		if (!dmo_wire_text_ok(rec->message, rec->message_len))
			return bad(why, "REFUSED message holds a control character", skip, length);
		return (int)length;
	}
	default:
		return bad(why, "unknown record type", skip, length);
	}
}
