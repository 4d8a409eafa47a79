/* annotate_kernels.c - test target of tests/annotate.sh: five kernels
 * whose binding pair is known by hand, each access of interest on its own
 * line, tagged with a comment "ANNOTATE:TAG" that the test greps for the
 * line number.  Every buffer holds N int32 elements (4N bytes) unless
 * said otherwise; "bound" is OB + i - o_end of docs/definitions.md.
 *
 * forward: out[i] = in[i] + in[i-LAG].  After out[i-1] is written (end
 *   4i) in[i-LAG] is read (at 4(i-LAG)): bound OB - 4 LAG, the first time
 *   at i = LAG: pair (forward-write, forward-lag).  in[i] gives OB.
 * backward: i from N-1 down; the read goes through an inlined helper.
 *   out[N-1] ends at OB; in[0] is read last: bound 0: pair
 *   (backward-write, helper-read, inlined at backward-call).
 * tiled: tiles of TILE elements, forward; a tile is copied in first
 *   (tiled-copy: in[t+j] after writes ending at 4t, bound >= OB), then
 *   each element adds its left neighbour HALO back (tiled-halo: after
 *   writes ending at 4(t+j), in[t+j-HALO]: OB - 4 HALO): pair (tiled-write,
 *   tiled-halo).
 * accumulate: ROWS x COLS input, ROWS outputs (OB = 4 ROWS): out[r] = 0
 *   (acc-init, end 4(r+1)), then out[r] += in[r COLS + c] (acc-add): the
 *   first read, in[0] after out[0] = 0: OB - 4: pair (acc-init, acc-add).
 * two-pass: a sum over in (two-pass-sum, before any write), then out[i]
 *   = in[i] - in[0] + sum, in[0] read again each time (two-pass-base):
 *   last at i = N-1 after writes ending at 4(N-1): bound 4: pair
 *   (two-pass-write, two-pass-base). */
#include <stdint.h>

#include "annotate_layer.h"

/* Unoptimised, so every load and store keeps the line of its statement:
 * at -O2 the compiler gives a load the line of the statement that uses
 * it, and the lines this test expects would be the compiler's choice.
 * (A pragma, since make's CFLAGS come after the target's.) */
#pragma GCC optimize("O0")

#define N 256
#define LAG 3
#define TILE 16
#define HALO 5
#define ROWS 16
#define COLS 16

__attribute__((noinline)) static void forward(const int32_t *in, int32_t *out)
{
	for (int i = 0; i < N; i++) {
		int32_t back = i >= LAG ? in[i - LAG] : 0; /* ANNOTATE:forward-lag */
		out[i] = in[i] + back; /* ANNOTATE:forward-write */
	}
}

static inline __attribute__((always_inline)) int32_t element(const int32_t *p, int i)
{
	return p[i]; /* ANNOTATE:helper-read */
}

__attribute__((noinline)) static void backward(const int32_t *in, int32_t *out)
{
	for (int i = N - 1; i >= 0; i--) {
		int32_t v = element(in, i); /* ANNOTATE:backward-call */
		out[i] = v * 2; /* ANNOTATE:backward-write */
	}
}

__attribute__((noinline)) static void tiled(const int32_t *in, int32_t *out)
{
	int32_t tile[TILE];
	for (int t = 0; t < N; t += TILE) {
		for (int j = 0; j < TILE; j++)
			tile[j] = in[t + j]; /* ANNOTATE:tiled-copy */
		for (int j = 0; j < TILE; j++) {
			int32_t left = t + j >= HALO ? in[t + j - HALO] : 0; /* ANNOTATE:tiled-halo */
			out[t + j] = tile[j] + left; /* ANNOTATE:tiled-write */
		}
	}
}

__attribute__((noinline)) static void accumulate(const int32_t *in, int32_t *out)
{
	for (int r = 0; r < ROWS; r++) {
		out[r] = 0; /* ANNOTATE:acc-init */
		for (int c = 0; c < COLS; c++)
			out[r] += in[r * COLS + c]; /* ANNOTATE:acc-add */
	}
}

__attribute__((noinline)) static void two_pass(const int32_t *in, int32_t *out)
{
	int32_t sum = 0;
	for (int i = 0; i < N; i++)
		sum += in[i]; /* ANNOTATE:two-pass-sum */
	for (int i = 0; i < N; i++) {
		int32_t base = in[0]; /* ANNOTATE:two-pass-base */
		out[i] = in[i] - base + sum; /* ANNOTATE:two-pass-write */
	}
}

int main(void)
{
	int32_t *in, *out;
	if (annotate_buffers(N, &in, &out) != 0)
		return 1;
	return annotate_layer("forward", forward, in, N * sizeof *in, out, N * sizeof *out) ||
	       annotate_layer("backward", backward, in, N * sizeof *in, out, N * sizeof *out) ||
	       annotate_layer("tiled", tiled, in, N * sizeof *in, out, N * sizeof *out) ||
	       annotate_layer("accumulate", accumulate, in, ROWS * COLS * sizeof *in, out,
			      ROWS * sizeof *out) ||
	       annotate_layer("two-pass", two_pass, in, N * sizeof *in, out, N * sizeof *out);
}
