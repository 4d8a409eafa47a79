/* event_code.c - decoding one compact event (event_code.h).  The bytes may
 * come from a damaged file: every length is checked before a byte is read. */
#include "event_code.h"

/* Read a varint of at most MAX_BYTES bytes into *V: the bytes taken,
 * DMO_CODE_SHORT when the N bytes end first, DMO_CODE_BAD when it is
 * longer or does not fit 64 bits. */
static int read_varint(const uint8_t *p, size_t n, unsigned max_bytes, uint64_t *v)
{
	uint64_t value = 0;
	for (unsigned i = 0; i < max_bytes; i++) {
		if (i == n)
			return DMO_CODE_SHORT;
		uint64_t bits = p[i] & 0x7f;
		if (i == 9 && bits > 1)
			return DMO_CODE_BAD;
		value |= bits << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = value;
			return (int)i + 1;
		}
	}
	return DMO_CODE_BAD;
}

static int64_t unzigzag(uint64_t v)
{
	return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

int dmo_event_decode(struct dmo_event_code_state *s, const uint8_t *p, size_t n,
		     struct dmo_event *e)
{
	size_t at = 1;
	unsigned tag, kind, ext = 0;
	uint64_t size, step, zigzag_gap;
	uint8_t tid = s->tid;
	int64_t gap;
	int got;

	if (n == 0)
		return DMO_CODE_SHORT;
	tag = p[0];
	kind = tag & (DMO_EV_WRITE | DMO_EV_OUT);
	size = s->size[kind];
	if (tag & DMO_CODE_EXT) {
		if (at == n)
			return DMO_CODE_SHORT;
		ext = p[at++];
		if (ext == 0 || (ext & ~(unsigned)(DMO_CODE_NEW_SIZE | DMO_CODE_NEW_TID)))
			return DMO_CODE_BAD;
	}
	if (ext & DMO_CODE_NEW_SIZE) {
		got = read_varint(p + at, n - at, 3, &size);
		if (got <= 0)
			return got;
		at += (size_t)got;
	}
	if (ext & DMO_CODE_NEW_TID) {
		if (at == n)
			return DMO_CODE_SHORT;
		tid = p[at++];
	}
	step = tag >> DMO_CODE_TIME_SHIFT;
	if (step == DMO_CODE_TIME_FOLLOWS) {
		got = read_varint(p + at, n - at, 10, &step);
		if (got <= 0)
			return got;
		at += (size_t)got;
	}
	gap = s->gap[kind];
	if (!(tag & DMO_CODE_SAME_GAP)) {
		got = read_varint(p + at, n - at, 5, &zigzag_gap);
		if (got <= 0)
			return got;
		at += (size_t)got;
		gap = unzigzag(zigzag_gap);
	}
	/* end <= 2^32 - 1 + 65535 and |gap| < 2^35: no overflow. */
	int64_t offset = (int64_t)s->end[kind] + gap;
	e->time = s->time + step;
	e->offset = (uint32_t)offset;
	e->size = (uint16_t)size;
	e->flags = (uint8_t)kind;
	e->tid = tid;
	if (size == 0 || size > UINT16_MAX || offset < 0 || offset > (int64_t)UINT32_MAX)
		return DMO_CODE_BAD;
	s->time = e->time;
	s->end[kind] = (uint64_t)offset + size;
	s->gap[kind] = gap;
	s->size[kind] = (uint16_t)size;
	s->tid = tid;
	return (int)at;
}
