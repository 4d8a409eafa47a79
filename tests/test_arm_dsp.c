/* test_arm_dsp.c - target-harness/armdsp/arm_dsp_intrinsics.h against the
 * Arm Architecture Reference Manual's pseudocode of each instruction
 * (Armv7-M A7.7), re-derived here in another style: fields taken by
 * division and remainder on exact integers, SInt() by subtracting 2^width,
 * results reduced mod 2^width, instead of the header's shifts and casts.
 * Both are run on edge values and on random words, and a few results are
 * worked by hand beside the asserts.  Built twice: as gcc sees CMSIS-NN
 * (uint32_t results) and with __ARMCC_VERSION (ACLE's int32_t results,
 * Arm Compiler 6's __clz). */
#include <check.h>
#include <stdint.h>

#include "../target-harness/armdsp/arm_dsp_intrinsics.h"
#include "check_main.h"

/* x<lo + width - 1 : lo> as an unsigned number. */
static int64_t ufield(uint32_t x, int lo, int width)
{
	return (int64_t)(((uint64_t)x / ((uint64_t)1 << lo)) % ((uint64_t)1 << width));
}

/* SInt(x<lo + width - 1 : lo>). */
static int64_t sfield(uint32_t x, int lo, int width)
{
	int64_t u = ufield(x, lo, width);

	return u >= ((int64_t)1 << (width - 1)) ? u - ((int64_t)1 << width) : u;
}

/* V mod 2^width, as the bits a register field keeps. */
static uint64_t keep(int64_t v, int width)
{
	int64_t m = (int64_t)1 << width;

	return (uint64_t)(((v % m) + m) % m);
}

/* SignedSat(v, width). */
static int64_t sat(int64_t v, int width)
{
	int64_t hi = ((int64_t)1 << (width - 1)) - 1;

	return v > hi ? hi : v < -hi - 1 ? -hi - 1 : v;
}

static uint32_t halves(int64_t hi, int64_t lo)
{
	return (uint32_t)(keep(hi, 16) * 65536 + keep(lo, 16));
}

/* ROR(x, n), bit by bit: result bit i is x's bit (i + n) mod 32. */
static uint32_t ref_ror(uint32_t x, unsigned n)
{
	uint32_t r = 0;

	for (unsigned i = 0; i < 32; i++)
		if (ufield(x, (int)((i + n) % 32), 1))
			r += (uint32_t)1 << i;
	return r;
}

static uint32_t ref_sxtab16(uint32_t acc, uint32_t x, unsigned rot)
{
	uint32_t r = ref_ror(x, rot);

	return halves(sfield(acc, 16, 16) + sfield(r, 16, 8), sfield(acc, 0, 16) + sfield(r, 0, 8));
}

static uint32_t ref_smlad(uint32_t x, uint32_t y, uint32_t acc)
{
	return (uint32_t)keep(sfield(x, 0, 16) * sfield(y, 0, 16) + sfield(x, 16, 16) * sfield(y, 16, 16) +
			      sfield(acc, 0, 32), 32);
}

/* SMLALD in 128-bit-free form: the products fit in int64, the 64-bit
 * accumulator wraps, so do the sum mod 2^64 in two 32-bit halves. */
static int64_t ref_smlald(uint32_t x, uint32_t y, int64_t acc)
{
	int64_t products = sfield(x, 0, 16) * sfield(y, 0, 16) + sfield(x, 16, 16) * sfield(y, 16, 16);
	uint64_t a = (uint64_t)acc, p = (uint64_t)products;
	uint64_t lo = (a % 4294967296u) + (p % 4294967296u);
	uint64_t hi = (a / 4294967296u + p / 4294967296u + lo / 4294967296u) % 4294967296u;

	return (int64_t)(hi * 4294967296u + lo % 4294967296u);
}

static uint32_t ref_pkhbt(uint32_t x, uint32_t y, unsigned n)
{
	return (uint32_t)(ufield(x, 0, 16) + ufield((uint32_t)keep((int64_t)y * ((int64_t)1 << n), 32), 16, 16) * 65536);
}

static uint32_t ref_pkhtb(uint32_t x, uint32_t y, unsigned n)
{
	/* ASR n of SInt(y): floor division by 2^n. */
	int64_t v = sfield(y, 0, 32), d = (int64_t)1 << n, q = v / d;

	if (v % d != 0 && v < 0)
		q--;
	return (uint32_t)(ufield(x, 16, 16) * 65536 + (int64_t)keep(q, 16));
}

/* Words that hit each field's sign and carry edges, then random ones. */
static const uint32_t edges[] = { 0, 1, 0x7F, 0x80, 0xFF, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7F7F7F7F,
				  0x80808080, 0x00800080, 0x7FFF8000, 0x80007FFF, 0x7FFFFFFF, 0x80000000,
				  0xFFFFFFFF, 0x12345678, 0xFEDCBA98 };
#define N_EDGES (sizeof edges / sizeof edges[0])
#define N_WORDS (N_EDGES + 200)

static uint32_t word(unsigned i)
{
	static uint64_t state = 0x9e3779b97f4a7c15ull;

	if (i < N_EDGES)
		return edges[i];
	state = state * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(state >> 32);
}

static uint32_t words[N_WORDS];

static void setup(void)
{
	for (unsigned i = 0; i < N_WORDS; i++)
		words[i] = word(i);
}

START_TEST(ror_sxtb16_sxtab16)
{
	/* Hand: 0x80FF7F01 -> bytes 0 = 0x01, 2 = 0xFF: halves 0xFFFF, 0x0001. */
	ck_assert_uint_eq((uint32_t)SXTB16(0x80FF7F01u), 0xFFFF0001u);
	/* ROR 8 brings bytes 1 and 3 down: 0x7F, 0x80 -> 0xFF80, 0x007F. */
	ck_assert_uint_eq((uint32_t)SXTB16_RORn(0x80FF7F01u, 8), 0xFF80007Fu);
	/* 0x7FFF + 1 wraps to 0x8000 in the low half; 0x0001 + (-1) = 0. */
	ck_assert_uint_eq((uint32_t)SXTAB16(0x00017FFFu, 0x00FF0001u), 0x00008000u);
	ck_assert_uint_eq(ROR(0x12345678u, 8), 0x78123456u);
	ck_assert_uint_eq(ROR(0x12345678u, 32), 0x12345678u);
	for (unsigned i = 0; i < N_WORDS; i++)
		for (unsigned rot = 0; rot < 32; rot += 8) {
			uint32_t x = words[i], acc = words[(i * 7 + 3) % N_WORDS];

			ck_assert_uint_eq(ROR(x, rot), ref_ror(x, rot));
			ck_assert_uint_eq((uint32_t)SXTB16_RORn(x, rot), ref_sxtab16(0, x, rot));
			ck_assert_uint_eq((uint32_t)SXTAB16_RORn(acc, x, rot), ref_sxtab16(acc, x, rot));
			if (rot == 0) {
				ck_assert_uint_eq((uint32_t)SXTB16(x), ref_sxtab16(0, x, 0));
				ck_assert_uint_eq((uint32_t)__sxtb16(x), ref_sxtab16(0, x, 0));
				ck_assert_uint_eq((uint32_t)SXTAB16(acc, x), ref_sxtab16(acc, x, 0));
			}
		}
}
END_TEST

START_TEST(multiply_accumulate)
{
	/* Hand: (-32768)(-32768) * 2 = 2^31, + 0 -> 0x80000000 (wraps; Q set). */
	ck_assert_uint_eq((uint32_t)SMLAD(0x80008000u, 0x80008000u, 0), 0x80000000u);
	/* 3 * 5 + (-2) * 7 + 10 = 11. */
	ck_assert_uint_eq((uint32_t)SMLAD(0xFFFE0003u, 0x00070005u, 10), 11u);
	/* SMLALD: 2^31 + (2^63 - 1) wraps to -2^63 + 2^31 - 1. */
	ck_assert_int_eq(SMLALD(0x80008000u, 0x80008000u, INT64_MAX), INT64_MIN + 0x7FFFFFFF);
	ck_assert_int_eq((int32_t)SMULBB(0x00058000u, 0x0003FFFFu), 32768);
	ck_assert_int_eq((int32_t)SMULTT(0xFFFF0000u, 0x7FFF0000u), -32767);
	ck_assert_int_eq(SMLABB(0x8000, 0x8000, INT32_MAX), INT32_MIN + 0x3FFFFFFF);
	for (unsigned i = 0; i < N_WORDS; i++)
		for (unsigned j = 0; j < N_WORDS; j += 7) {
			uint32_t x = words[i], y = words[j], acc = words[(i + j) % N_WORDS];
			int64_t acc64 = (int64_t)(((uint64_t)acc << 32) | words[(i * j) % N_WORDS]);

			ck_assert_uint_eq((uint32_t)SMLAD(x, y, acc), ref_smlad(x, y, acc));
			ck_assert_int_eq(SMLALD(x, y, acc64), ref_smlald(x, y, acc64));
			ck_assert_int_eq((int64_t)(int32_t)SMULBB(x, y), sfield(x, 0, 16) * sfield(y, 0, 16));
			ck_assert_int_eq((int64_t)(int32_t)SMULTT(x, y), sfield(x, 16, 16) * sfield(y, 16, 16));
			ck_assert_uint_eq((uint32_t)SMLABB((int32_t)x, (int32_t)y, (int32_t)acc),
					  (uint32_t)keep(sfield(x, 0, 16) * sfield(y, 0, 16) + sfield(acc, 0, 32), 32));
			ck_assert_uint_eq((uint32_t)SMLATT((int32_t)x, (int32_t)y, (int32_t)acc),
					  (uint32_t)keep(sfield(x, 16, 16) * sfield(y, 16, 16) + sfield(acc, 0, 32), 32));
		}
}
END_TEST

START_TEST(saturating_and_parallel)
{
	ck_assert_int_eq(QADD(INT32_MAX, 1), INT32_MAX);
	ck_assert_int_eq(QADD(INT32_MIN, -1), INT32_MIN);
	/* 0 - (-128) saturates to 127 per byte; 0 - 5 = -5 (0xFB). */
	ck_assert_uint_eq((uint32_t)QSUB8(0, (int32_t)0x05808005u), 0xFB7F7FFBu);
	ck_assert_uint_eq((uint32_t)QSUB16(0, (int32_t)0x80000005u), 0x7FFFFFFBu);
	/* 0x7FFF + 1 wraps to 0x8000 (GE set); 0xFFFF + 0xFFFF = 0xFFFE. */
	ck_assert_uint_eq((uint32_t)SADD16((int32_t)0xFFFF7FFFu, (int32_t)0xFFFF0001u), 0xFFFE8000u);
	for (unsigned i = 0; i < N_WORDS; i++)
		for (unsigned j = 0; j < N_WORDS; j += 5) {
			uint32_t x = words[i], y = words[j], sub8 = 0;

			ck_assert_int_eq(QADD((int32_t)x, (int32_t)y), sat(sfield(x, 0, 32) + sfield(y, 0, 32), 32));
			for (int k = 3; k >= 0; k--)
				sub8 = sub8 * 256 + (uint32_t)keep(sat(sfield(x, 8 * k, 8) - sfield(y, 8 * k, 8), 8), 8);
			ck_assert_uint_eq((uint32_t)QSUB8((int32_t)x, (int32_t)y), sub8);
			ck_assert_uint_eq((uint32_t)QSUB16((int32_t)x, (int32_t)y),
					  halves(sat(sfield(x, 16, 16) - sfield(y, 16, 16), 16),
						 sat(sfield(x, 0, 16) - sfield(y, 0, 16), 16)));
			ck_assert_uint_eq((uint32_t)SADD16((int32_t)x, (int32_t)y),
					  halves(sfield(x, 16, 16) + sfield(y, 16, 16), sfield(x, 0, 16) + sfield(y, 0, 16)));
		}
}
END_TEST

START_TEST(pack_halfwords)
{
	/* Hand: PKHBT(0xAAAA1234, 0x00005678, 16) = 0x56781234. */
	ck_assert_uint_eq(PKHBT(0xAAAA1234u, 0x00005678u, 16), 0x56781234u);
	/* PKHTB(0x1234AAAA, 0x80000000, 16): ASR 16 -> 0xFFFF8000, low half 0x8000. */
	ck_assert_uint_eq(PKHTB(0x1234AAAAu, 0x80000000u, 16), 0x12348000u);
	ck_assert_uint_eq(PKHTB(0x1234AAAAu, 0x80000000u, 32), 0x1234FFFFu);
	ck_assert_uint_eq(PKHTB(0x1234AAAAu, 0x00005678u, 0), 0x12345678u);
	for (unsigned i = 0; i < N_WORDS; i++)
		for (unsigned n = 0; n <= 31; n++) {
			uint32_t x = words[i], y = words[(i * 11 + n) % N_WORDS];

			ck_assert_uint_eq(PKHBT(x, y, n), ref_pkhbt(x, y, n));
			ck_assert_uint_eq(PKHTB(x, y, n), ref_pkhtb(x, y, n));
		}
}
END_TEST

/* The return types of the two builds CMSIS-NN compiles: gcc's wrappers
 * give uint32_t, Arm Compiler 6's ACLE intrinsics int32_t, which decides
 * what a widening conversion of a negative result gives. */
START_TEST(result_types)
{
#if defined(__ARMCC_VERSION)
	ck_assert_int_eq((int64_t)SMLAD(0, 0, 0xFFFFFFFFu), -1);
	ck_assert_int_eq((int64_t)SXTB16(0x80u), 0xFF80);
	ck_assert_uint_eq(__clz(0), 32);
	ck_assert_uint_eq(__clz(1), 31);
	ck_assert_uint_eq(__clz(0x80000000u), 0);
	for (unsigned i = 0; i < N_WORDS; i++) {
		unsigned zeros = 0;

		while (zeros < 32 && ufield(words[i], 31 - (int)zeros, 1) == 0)
			zeros++;
		ck_assert_uint_eq(__clz(words[i]), zeros);
	}
#else
	ck_assert_int_eq((int64_t)SMLAD(0, 0, 0xFFFFFFFFu), 0xFFFFFFFFll);
	ck_assert_int_eq((int64_t)SMULBB(0xFFFFu, 1), 0xFFFFFFFFll);
#endif
}
END_TEST

int main(void)
{
	Suite *s = suite_create("arm_dsp_intrinsics");
	TCase *tc = tcase_create("instructions");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, ror_sxtb16_sxtab16);
	tcase_add_test(tc, multiply_accumulate);
	tcase_add_test(tc, saturating_and_parallel);
	tcase_add_test(tc, pack_halfwords);
	tcase_add_test(tc, result_types);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
