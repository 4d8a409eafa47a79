/* arm_dsp_intrinsics.h - the Armv7E-M / Armv8-M DSP instructions that
 * CMSIS-NN's ARM_MATH_DSP path calls (Cortex-M4, M7, M33), written as plain
 * C so that the path compiles and runs on any host.
 *
 * Force-include it (`-include arm_dsp_intrinsics.h -DARM_MATH_DSP=1`) ahead
 * of CMSIS-NN's sources.  CMSIS-NN's arm_nn_compiler.h defines these names
 * only when the compiler targets the DSP extension (__ARM_FEATURE_DSP == 1),
 * which a host compiler never does, so nothing collides; with
 * __ARMCC_VERSION defined, it also maps CLZ to Arm Compiler 6's __clz,
 * which is given here too.
 *
 * Each function follows the instruction's pseudocode in the Arm
 * Architecture Reference Manual (Armv7-M, section A7.7; Armv8-M, C2.4):
 * SInt() of a halfword or byte field, exact arithmetic on the fields, the
 * low bits of the result kept.  They read and write registers only: every
 * load and store a kernel makes stays CMSIS-NN's own C, so a run of the
 * kernel touches memory in the order its source does.  The Q and GE flags
 * that SMLAD, SMLABB, QADD, QSUB8 and SADD16 set are not modelled: CMSIS-NN
 * never reads them (no __get_APSR, no SEL).
 *
 * Return types follow the header that would be in force on a real target:
 * CMSIS-NN's own inline-assembly wrappers return uint32_t under gcc, Arm
 * Compiler 6 maps the same names to ACLE's intrinsics, which return int32_t
 * (int16x2_t, int8x4_t).  The difference decides how a result converts to a
 * wider type, so it is kept.
 *
 * Valid C99 and C++: the TensorFlow Lite Micro build includes it too. */
#ifndef DMO_ARM_DSP_INTRINSICS_H
#define DMO_ARM_DSP_INTRINSICS_H

#include <stdint.h>

#if defined(__ARMCC_VERSION)
typedef int32_t dmo_dsp_word; /* ACLE's int32_t / int16x2_t / int8x4_t */
#else
typedef uint32_t dmo_dsp_word; /* CMSIS-NN's gcc wrappers: uint32_t */
#endif

/* SInt(x<15:0>), SInt(x<31:16>), SInt(x<8k+7:8k>). */
static inline int32_t dmo_dsp_lo16(uint32_t x)
{
	return (int32_t)(int16_t)(uint16_t)(x & 0xFFFFu);
}

static inline int32_t dmo_dsp_hi16(uint32_t x)
{
	return (int32_t)(int16_t)(uint16_t)(x >> 16);
}

static inline int32_t dmo_dsp_byte(uint32_t x, int k)
{
	return (int32_t)(int8_t)(uint8_t)((x >> (8 * k)) & 0xFFu);
}

/* Two halfwords packed as <31:16> = HI, <15:0> = LO (each taken mod 2^16). */
static inline uint32_t dmo_dsp_pack16(int32_t hi, int32_t lo)
{
	return ((uint32_t)hi << 16) | ((uint32_t)lo & 0xFFFFu);
}

/* SignedSat(x, bits). */
static inline int64_t dmo_dsp_ssat(int64_t x, int bits)
{
	int64_t max = ((int64_t)1 << (bits - 1)) - 1;

	return x > max ? max : x < -max - 1 ? -max - 1 : x;
}

/* ROR: rotate right by N mod 32 (CMSIS-NN's own C ROR, and ACLE's __ror). */
static inline uint32_t ROR(uint32_t x, uint32_t n)
{
	n %= 32u;
	return n == 0 ? x : (x >> n) | (x << (32u - n));
}

/* SXTB16 Rd, Rm: Rd<15:0> = SignExtend(Rm<7:0>), Rd<31:16> =
 * SignExtend(Rm<23:16>). */
static inline dmo_dsp_word SXTB16(uint32_t x)
{
	return (dmo_dsp_word)dmo_dsp_pack16(dmo_dsp_byte(x, 2), dmo_dsp_byte(x, 0));
}

/* SXTB16 Rd, Rm, ROR #n. */
static inline dmo_dsp_word SXTB16_RORn(uint32_t x, uint32_t n)
{
	return SXTB16(ROR(x, n));
}

/* SXTAB16 Rd, Rn, Rm: each halfword of Rn plus the sign-extended byte 0
 * (low) or 2 (high) of Rm, mod 2^16. */
static inline dmo_dsp_word SXTAB16(uint32_t acc, uint32_t x)
{
	return (dmo_dsp_word)dmo_dsp_pack16(dmo_dsp_hi16(acc) + dmo_dsp_byte(x, 2),
					    dmo_dsp_lo16(acc) + dmo_dsp_byte(x, 0));
}

/* SXTAB16 Rd, Rn, Rm, ROR #n. */
static inline dmo_dsp_word SXTAB16_RORn(uint32_t acc, uint32_t x, uint32_t n)
{
	return SXTAB16(acc, ROR(x, n));
}

/* SMLAD Rd, Rn, Rm, Ra: Ra + lo(Rn) * lo(Rm) + hi(Rn) * hi(Rm), the low
 * 32 bits (Q set on overflow, not modelled). */
static inline dmo_dsp_word SMLAD(uint32_t x, uint32_t y, uint32_t acc)
{
	int64_t sum = (int64_t)dmo_dsp_lo16(x) * dmo_dsp_lo16(y) +
		      (int64_t)dmo_dsp_hi16(x) * dmo_dsp_hi16(y) + (int64_t)(int32_t)acc;

	return (dmo_dsp_word)(uint32_t)(uint64_t)sum;
}

/* SMLALD RdLo, RdHi, Rn, Rm: the 64-bit accumulator plus both halfword
 * products, mod 2^64. */
static inline int64_t SMLALD(uint32_t x, uint32_t y, int64_t acc)
{
	uint64_t sum = (uint64_t)acc + (uint64_t)((int64_t)dmo_dsp_lo16(x) * dmo_dsp_lo16(y)) +
		       (uint64_t)((int64_t)dmo_dsp_hi16(x) * dmo_dsp_hi16(y));

	return (int64_t)sum;
}

/* SMULBB / SMULTT Rd, Rn, Rm: the product of the bottom (top) halfwords;
 * it always fits in 32 bits. */
static inline dmo_dsp_word SMULBB(uint32_t x, uint32_t y)
{
	return (dmo_dsp_word)(dmo_dsp_lo16(x) * dmo_dsp_lo16(y));
}

static inline dmo_dsp_word SMULTT(uint32_t x, uint32_t y)
{
	return (dmo_dsp_word)(dmo_dsp_hi16(x) * dmo_dsp_hi16(y));
}

/* SMLABB / SMLATT Rd, Rn, Rm, Ra: Ra plus that product, low 32 bits. */
static inline int32_t SMLABB(int32_t x, int32_t y, int32_t acc)
{
	int64_t sum = (int64_t)dmo_dsp_lo16((uint32_t)x) * dmo_dsp_lo16((uint32_t)y) + acc;

	return (int32_t)(uint32_t)(uint64_t)sum;
}

static inline int32_t SMLATT(int32_t x, int32_t y, int32_t acc)
{
	int64_t sum = (int64_t)dmo_dsp_hi16((uint32_t)x) * dmo_dsp_hi16((uint32_t)y) + acc;

	return (int32_t)(uint32_t)(uint64_t)sum;
}

/* QADD Rd, Rm, Rn: SignedSat(Rm + Rn, 32). */
static inline int32_t QADD(int32_t x, int32_t y)
{
	return (int32_t)dmo_dsp_ssat((int64_t)x + y, 32);
}

/* QSUB16 / QSUB8 Rd, Rn, Rm: per halfword (byte), SignedSat(Rn - Rm). */
static inline int32_t QSUB16(int32_t x, int32_t y)
{
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y;

	return (int32_t)dmo_dsp_pack16(
		(int32_t)dmo_dsp_ssat(dmo_dsp_hi16(ux) - dmo_dsp_hi16(uy), 16),
		(int32_t)dmo_dsp_ssat(dmo_dsp_lo16(ux) - dmo_dsp_lo16(uy), 16));
}

static inline int32_t QSUB8(int32_t x, int32_t y)
{
	uint32_t r = 0;

	for (int k = 0; k < 4; k++) {
		int64_t d = dmo_dsp_byte((uint32_t)x, k) - dmo_dsp_byte((uint32_t)y, k);

		r |= ((uint32_t)dmo_dsp_ssat(d, 8) & 0xFFu) << (8 * k);
	}
	return (int32_t)r;
}

/* SADD16 Rd, Rn, Rm: per halfword Rn + Rm, mod 2^16 (GE not modelled). */
static inline int32_t SADD16(int32_t x, int32_t y)
{
	uint32_t ux = (uint32_t)x, uy = (uint32_t)y;

	return (int32_t)dmo_dsp_pack16(dmo_dsp_hi16(ux) + dmo_dsp_hi16(uy),
				       dmo_dsp_lo16(ux) + dmo_dsp_lo16(uy));
}

/* PKHBT Rd, Rn, Rm, LSL #n: Rd<15:0> = Rn<15:0>, Rd<31:16> = (Rm LSL n)<31:16>. */
static inline uint32_t PKHBT(uint32_t x, uint32_t y, uint32_t n)
{
	return (x & 0xFFFFu) | ((y << (n & 31u)) & 0xFFFF0000u);
}

/* PKHTB Rd, Rn, Rm, ASR #n: Rd<31:16> = Rn<31:16>, Rd<15:0> = (Rm ASR
 * n)<15:0>; n = 0 is the form without a shift (n = 32 fills with the sign). */
static inline uint32_t PKHTB(uint32_t x, uint32_t y, uint32_t n)
{
	int64_t shifted = (int64_t)(int32_t)y >> (n > 32u ? 32u : n);

	return (x & 0xFFFF0000u) | ((uint32_t)(uint64_t)shifted & 0xFFFFu);
}

/* ACLE's __sxtb16, which the s4 kernels call by that name. */
static inline int32_t __sxtb16(uint32_t x)
{
	return (int32_t)SXTB16(x);
}

#if defined(__ARMCC_VERSION)
/* Arm Compiler 6's __clz (CLZ: 32 for 0). */
static inline unsigned int __clz(uint32_t x)
{
	unsigned int n = 0;

	for (uint32_t bit = 0x80000000u; bit != 0 && (x & bit) == 0; bit >>= 1)
		n++;
	return n;
}
#endif

#endif
