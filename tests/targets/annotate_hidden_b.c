/* annotate_hidden_b.c - the -O0 half of tests/targets/annotate_hidden:
 * the two-file kernel's store and loads (its loop is in annotate_hidden.c,
 * built -O2), two kernels whose pair the tool must pick among equal
 * bounds or find on one line, and one of SSE2 intrinsics.  The
 * derivations are in annotate_hidden.c's header; the tags are the lines
 * tests/annotate_hidden.sh expects. */
#include <emmintrin.h>

#include "annotate_hidden.h"

void two_write(int32_t *out, int i, int32_t v)
{
	out[i] = v; /* ANNOTATE:two-write */
}

int32_t two_read(const int32_t *in, int i)
{
	int32_t v = in[i]; /* ANNOTATE:two-here */
	if (i >= LAG)
		v += in[i - LAG]; /* ANNOTATE:two-lag */
	return v;
}

void back_diff(const int32_t *in, int32_t *out)
{
	for (int i = N - 1; i >= 0; i--) {
		int32_t prev = i > 0 ? in[i - 1] : 0; /* ANNOTATE:back-prev */
		int32_t here = in[i]; /* ANNOTATE:back-here */
		out[i] = here - prev; /* ANNOTATE:back-write */
	}
}

void same_line(const int32_t *in, int32_t *out)
{
	for (int i = 0; i < N; i++) out[i] = in[i >= SLAG ? i - SLAG : 0] + 1; /* ANNOTATE:same */
}

void sse2_lag(const int32_t *in, int32_t *out)
{
	for (int i = 0; i < N; i += 4) {
		__m128i v = _mm_loadu_si128((const __m128i *)(in + i));
		__m128i back = i >= 8 ? _mm_loadu_si128((const __m128i *)(in + i - VLAG)) : _mm_setzero_si128(); /* ANNOTATE:sse-lag */
		_mm_storeu_si128((__m128i *)(out + i), _mm_add_epi32(v, back)); /* ANNOTATE:sse-store */
	}
}
