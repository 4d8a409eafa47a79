/* test_event_code.c - event-file version 2's event coding (common/
 * event_code.h): every event comes back as it went in, whatever its steps;
 * a code cut short is "short", never an event; invalid codes are refused;
 * the common cases take the bytes docs/trace-format.md promises; and a
 * run of tag bytes written at once is those events coded one by one. */
#include <stdint.h>
#include <string.h>

#include "check_main.h"
#include "event_code.h"

/* splitmix64: a reproducible stream of test events. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A mix of what kernels do (adjacent and strided streams, small time
 * steps) and the extremes the format must carry (time going back or
 * jumping by 2^63, offsets at 2^32 - 1, sizes 1 and 65535, thread 255). */
static void make_event(uint64_t *rng, uint64_t *time, uint64_t next_offset[4],
		       struct dmo_event *e)
{
	uint64_t r = next_random(rng);
	unsigned kind = r & 3, shape = (r >> 2) % 16;

	e->flags = (uint8_t)kind;
	e->size = shape < 10 ? 4 : shape < 12 ? 1 + (r >> 8) % 64 : shape == 12 ? 65535 : 1;
	e->tid = shape == 13 ? (uint8_t)(r >> 16) : 1;
	if (shape < 8)
		e->offset = (uint32_t)next_offset[kind];
	else if (shape == 14)
		e->offset = UINT32_MAX - (uint32_t)((r >> 20) % 3);
	else
		e->offset = (uint32_t)(r >> 32);
	if (shape == 9)
		*time -= (r >> 24) % 1000;  /* backwards: the format allows it */
	else if (shape == 15)
		*time += 1ull << 63;
	else
		*time += (r >> 24) % (shape < 8 ? 14 : 100000);
	e->time = *time;
	next_offset[kind] = (uint64_t)e->offset + e->size + (shape < 4 ? 0 : 12);
	if (next_offset[kind] > UINT32_MAX)
		next_offset[kind] = 0;
}

enum { N = 100000 };
static uint8_t coded[N * DMO_EVENT_CODE_MAX];
static struct dmo_event events[N];

/* Encode N events into CODED; the bytes written. */
static size_t encode_all(uint64_t seed)
{
	struct dmo_event_code_state s;
	uint64_t rng = seed, time = 0, next_offset[4] = { 0, 0, 0, 0 };
	uint8_t *p = coded;

	/* Check's asserts each cost a write to its pipe: the loops count and
	 * assert once. */
	size_t bad_lengths = 0;
	memset(&s, 0, sizeof s);
	for (size_t i = 0; i < N; i++) {
		make_event(&rng, &time, next_offset, &events[i]);
		uint8_t *end = dmo_event_encode(&s, p, &events[i]);
		bad_lengths += end - p < 1 || end - p > DMO_EVENT_CODE_MAX;
		p = end;
	}
	ck_assert_uint_eq(bad_lengths, 0);
	return (size_t)(p - coded);
}

START_TEST(round_trip)
{
	for (uint64_t seed = 1; seed <= 3; seed++) {
		size_t bytes = encode_all(seed), at = 0, wrong = 0;
		struct dmo_event_code_state s;
		memset(&s, 0, sizeof s);
		for (size_t i = 0; i < N; i++) {
			struct dmo_event e;
			int got = dmo_event_decode(&s, coded + at, bytes - at, &e);
			if (got <= 0) {
				wrong++;
				break;
			}
			wrong += e.time != events[i].time || e.offset != events[i].offset ||
				 e.size != events[i].size || e.flags != events[i].flags ||
				 e.tid != events[i].tid;
			at += (size_t)got;
		}
		ck_assert_uint_eq(wrong, 0);
		ck_assert_uint_eq(at, bytes);
	}
}
END_TEST

static int same_state(const struct dmo_event_code_state *a, const struct dmo_event_code_state *b)
{
	for (unsigned k = 0; k < DMO_COUNT_KINDS; k++)
		if (a->end[k] != b->end[k] || a->gap[k] != b->gap[k] || a->size[k] != b->size[k])
			return 0;
	return a->time == b->time && a->tid == b->tid;
}

/* Each of the first events cut at every byte: short, and the state is
 * untouched, so the whole event then decodes as it should. */
START_TEST(cut_codes_are_short)
{
	size_t bytes = encode_all(7), at = 0, wrong = 0;
	struct dmo_event_code_state s, before;
	memset(&s, 0, sizeof s);
	for (size_t i = 0; i < 2000 && at < bytes; i++) {
		struct dmo_event e;
		int whole;
		before = s;
		whole = dmo_event_decode(&before, coded + at, bytes - at, &e);
		if (whole <= 0) {
			wrong++;
			break;
		}
		for (int cut = 0; cut < whole; cut++) {
			before = s;
			wrong += dmo_event_decode(&s, coded + at, (size_t)cut, &e) != DMO_CODE_SHORT ||
				 !same_state(&before, &s);
		}
		wrong += dmo_event_decode(&s, coded + at, (size_t)whole, &e) != whole ||
			 e.time != events[i].time || e.offset != events[i].offset;
		at += (size_t)whole;
	}
	ck_assert_uint_eq(wrong, 0);
}
END_TEST

static int decode_bytes(const uint8_t *p, size_t n)
{
	struct dmo_event_code_state s;
	struct dmo_event e;
	memset(&s, 0, sizeof s);
	return dmo_event_decode(&s, p, n, &e);
}

/* Codes written by hand from docs/trace-format.md's layout. */
START_TEST(invalid_codes_refused)
{
	/* tag 0x04: extension byte, which says nothing (0) or reserved bits */
	static const uint8_t empty_ext[] = { 0x04, 0x00, 0x00 };
	static const uint8_t reserved_ext[] = { 0x04, 0x05, 0x04, 0x00 };
	/* a first event without a size: the kind's size is still 0 */
	static const uint8_t no_size[] = { 0x00, 0x00 };
	/* size 0, and size 65536 (varint 80 80 04) */
	static const uint8_t size_zero[] = { 0x04, 0x01, 0x00, 0x00 };
	static const uint8_t size_big[] = { 0x04, 0x01, 0x80, 0x80, 0x04, 0x00 };
	/* size 4, then a gap of -1 (zigzag 1): offset -1 */
	static const uint8_t before_zero[] = { 0x04, 0x01, 0x04, 0x01 };
	/* gap 2^32 (zigzag 2^33 = 80 80 80 80 20): offset past 2^32 - 1 */
	static const uint8_t past_4g[] = { 0x04, 0x01, 0x04, 0x80, 0x80, 0x80, 0x80, 0x20 };
	/* time step in 11 bytes, and a tenth byte above 1 (beyond 64 bits) */
	static const uint8_t long_time[] = { 0xf4, 0x01, 0x04, 0x80, 0x80, 0x80, 0x80, 0x80,
					     0x80, 0x80, 0x80, 0x80, 0x80, 0x00, 0x00 };
	static const uint8_t wide_time[] = { 0xf4, 0x01, 0x04, 0x80, 0x80, 0x80, 0x80, 0x80,
					     0x80, 0x80, 0x80, 0x80, 0x02, 0x00 };
	ck_assert_int_eq(decode_bytes(empty_ext, sizeof empty_ext), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(reserved_ext, sizeof reserved_ext), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(no_size, sizeof no_size), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(size_zero, sizeof size_zero), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(size_big, sizeof size_big), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(before_zero, sizeof before_zero), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(past_4g, sizeof past_4g), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(long_time, sizeof long_time), DMO_CODE_BAD);
	ck_assert_int_eq(decode_bytes(wide_time, sizeof wide_time), DMO_CODE_BAD);
}
END_TEST

/* A stream of adjacent 4-byte reads 3 instructions apart: the first event
 * takes tag, extension and size (0c 01 04: its gap from offset 0 is 0,
 * the state's start); every later one its tag alone (gap 0 as before,
 * size and thread as before, time step 3 < 15). */
START_TEST(adjacent_reads_take_one_byte)
{
	struct dmo_event_code_state s;
	uint8_t buf[DMO_EVENT_CODE_MAX], *end;
	memset(&s, 0, sizeof s);
	for (unsigned i = 0; i < 100; i++) {
		struct dmo_event e = { .time = 3 * i, .offset = 4 * i, .size = 4, .flags = 0, .tid = 0 };
		end = dmo_event_encode(&s, buf, &e);
		ck_assert_int_eq(end - buf, i == 0 ? 3 : 1);
		ck_assert_uint_eq(buf[0], i == 0 ? 0x0c : 0x38); /* time << 4 | same gap | ext */
	}
}
END_TEST

/* dmo_event_encode_repeat (the tool's streams) against the events one
 * by one: random streams after random events.  Where each of the N would
 * be the tag byte alone it writes the same N bytes and leaves the same
 * state; where one would not (a step of 15 or more, a stride that is not
 * the kind's last gap plus the size, another size or thread) it returns
 * NULL and changes nothing. */
START_TEST(repeat_is_each_in_turn)
{
	uint64_t rng = 7;
	size_t taken = 0, refused = 0, bad = 0;
	for (unsigned trial = 0; trial < 20000; trial++) {
		struct dmo_event_code_state one, many, before;
		uint8_t one_buf[64 * DMO_EVENT_CODE_MAX], many_buf[64 + 7], *p = one_buf, *end;
		uint64_t r = next_random(&rng), time = r % 1000, next_offset[4] = { 0, 0, 0, 0 };
		struct dmo_event e;
		unsigned n = 1 + (r >> 10) % 64, tid = (r >> 16) % 3 == 0 ? 2 : 1;
		int64_t stride = (int64_t)((r >> 20) % 9) * 4 - 16;
		uint64_t step = (r >> 28) % 17, size = (r >> 34) % 4 == 0 ? 8 : 4;
		memset(&one, 0, sizeof one);
		for (unsigned i = 0; i < 1 + (r >> 40) % 6; i++) {
			make_event(&rng, &time, next_offset, &e);
			p = dmo_event_encode(&one, one_buf, &e);
		}
		/* The stream's first, as any event: its size, thread, gap; most
		 * times a second one STRIDE on, which sets the gap a stream
		 * needs. */
		e = (struct dmo_event){ .time = time + 5, .offset = 1u << 20, .size = (uint16_t)size,
					.flags = (uint8_t)((r >> 44) & 3), .tid = 1 };
		dmo_event_encode(&one, one_buf, &e);
		if ((r >> 48) % 4 != 0) {
			e.offset = (uint32_t)((int64_t)e.offset + stride);
			e.time += step;
			dmo_event_encode(&one, one_buf, &e);
		}
		many = before = one;
		memset(many_buf, 0xee, sizeof many_buf);
		end = dmo_event_encode_repeat(&many, many_buf, e.flags, size, tid, stride, step, n);
		p = one_buf;
		for (unsigned i = 1; i <= n; i++) {
			struct dmo_event next = e;
			next.time = e.time + i * step;
			next.offset = (uint32_t)((int64_t)e.offset + (int64_t)i * stride);
			next.tid = (uint8_t)tid;
			p = dmo_event_encode(&one, p, &next);
		}
		if ((size_t)(p - one_buf) == n) {
			taken++;
			bad += end != many_buf + n || memcmp(one_buf, many_buf, n) != 0 ||
			       memcmp(&one, &many, sizeof one) != 0;
		} else {
			refused++;
			bad += end != NULL || memcmp(&many, &before, sizeof many) != 0 ||
			       many_buf[0] != 0xee;
		}
	}
	ck_assert_uint_eq(bad, 0);
	/* Both cases were tried many times. */
	ck_assert_uint_gt(taken, 1000);
	ck_assert_uint_gt(refused, 1000);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("event_code");
	TCase *c = tcase_create("event_code");
	tcase_set_timeout(c, 60);
	tcase_add_test(c, round_trip);
	tcase_add_test(c, cut_codes_are_short);
	tcase_add_test(c, invalid_codes_refused);
	tcase_add_test(c, adjacent_reads_take_one_byte);
	tcase_add_test(c, repeat_is_each_in_turn);
	suite_add_tcase(s, c);
	return dmo_run_suite(s);
}
