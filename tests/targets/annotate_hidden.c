/* annotate_hidden.c - test target of tests/annotate_hidden.sh: kernels
 * written as a kernel author might, none like those annotate.sh and
 * annotate_opt.sh were built around.  This file is built -O2 -g; the
 * helpers and two kernels it calls are in annotate_hidden_b.c, built
 * -O0 -g (annotate_hidden.h gives the sizes).  Each binding pair and O_s
 * derived by hand, "bound" being OB + i - o_end (docs/definitions.md):
 *
 * two-file: loop here, store and loads in the other file's functions
 *   (not inlined across files): for i, two_read reads in[i] and, from i =
 *   LAG, in[i-LAG], then two_write stores out[i].  After out[i-1] (end
 *   4i), in[i-LAG] at 4(i-LAG): bound OB - 4 LAG = 1024 - 28 = 996, first
 *   at i = LAG; in[i] gives OB.  Pair (two-write, two-lag), O_s 996.
 * tail-2d: ROWS x COLS, OB = 512; each row's body writes out[r][c] =
 *   in[r][c+1] for c < COLS-1 (read after writes ending at its own
 *   offset: bound OB + 4), then its tail wraps round, out[r][COLS-1] =
 *   in[r][0], read after the body's writes ending at 4(r COLS + COLS-1):
 *   OB - 4(COLS-1) = 452, first at r = 0.  Pair (tail-body, tail-wrap).
 * row-copy: each row copied by libc's memmove, then (r > 0) its first
 *   element adds the previous row's: in[(r-1) COLS] read after memmove's
 *   store ending at 4(r+1) COLS: OB - 8 COLS = 384 (memmove's own reads
 *   follow writes ending no further than their own offset: bound >= OB).
 *   Pair (one of memmove's stores in libc, called from row-copy-call;
 *   row-copy-lag), O_s 384.  Built with _FORTIFY_SOURCE=2, the call is
 *   glibc's inline memmove of bits/string_fortified.h, inlined there.
 * back-diff (-O0): i from N-1 down, out[i] = in[i] - in[i-1]: out[N-1]
 *   ends at OB first, so a read at i bounds i; in[0] is read first as
 *   prev at i = 1, again as here at i = 0, the same bound 0: the pair is
 *   the first access that reached it.  Pair (back-write, back-prev), O_s 0.
 * sse2-lag (-O0): SSE2 intrinsics (emmintrin.h, inlined: a system header's
 *   lines, which give way to the calls in this file), four elements a
 *   step, out[i..i+4) = in[i..i+4) + in[i-VLAG..i-VLAG+4) from i = 8: at
 *   step i the lagged load reads from 4(i-VLAG) after stores ending at
 *   4i: bound OB - 4 VLAG = 1000; in[i]'s load gives OB.  Pair
 *   (sse-store, sse-lag), O_s 1000.
 * same-line (-O0): out[i] = in[max(i - SLAG, 0)] + 1 on one line: for i
 *   <= SLAG in[0] after writes ending at 4i, bound OB - 4i; later in[i -
 *   SLAG] after 4i: OB - 4 SLAG = 1004.  Pair (same, same), O_s 1004.
 *
 * `annotate_hidden native NAME X` runs one kernel natively with its input
 * overlapping the output's last X bytes and says whether the output is
 * the same as with separate buffers. */
#include <stdio.h>
#include <string.h>

#include "annotate_hidden.h"
#include "annotate_layer.h"

__attribute__((noinline)) static void two_file(const int32_t *in, int32_t *out)
{
	for (int i = 0; i < N; i++)
		two_write(out, i, two_read(in, i)); /* ANNOTATE:two-call */
}

__attribute__((noinline)) static void tail_2d(const int32_t *in, int32_t *out)
{
	for (int r = 0; r < ROWS; r++) {
		int c;
		for (c = 0; c < COLS - 1; c++)
			out[r * COLS + c] = in[r * COLS + c + 1]; /* ANNOTATE:tail-body */
		out[r * COLS + c] = in[r * COLS]; /* ANNOTATE:tail-wrap */
	}
}

/* A row's length the compiler cannot see, as a kernel's shapes known at
 * run time: memmove stays libc's call, not a few inlined moves. */
static volatile size_t row_elements = COLS;

__attribute__((noinline)) static void row_copy(const int32_t *in, int32_t *out)
{
	const size_t row_bytes = row_elements * sizeof *in;
	for (int r = 0; r < ROWS; r++) {
		memmove(out + r * COLS, in + r * COLS, row_bytes); /* ANNOTATE:row-copy-call */
		if (r > 0)
			out[r * COLS] += in[(r - 1) * COLS]; /* ANNOTATE:row-copy-lag */
	}
}

/* The layers, in the order they run. */
static const struct hidden_layer {
	const char *name;
	void (*kernel)(const int32_t *, int32_t *);
	size_t elements; /* of the input and of the output */
} layers[] = {
	{ "two-file", two_file, N },   { "tail-2d", tail_2d, ROWS * COLS },
	{ "row-copy", row_copy, ROWS * COLS }, { "back-diff", back_diff, N },
	{ "same-line", same_line, N }, { "sse2-lag", sse2_lag, N },
};
enum { LAYERS = sizeof layers / sizeof layers[0] };

/* Natively, without markers: layer L's kernel with the input overlapping
 * the output's last X bytes (the output starts the arena, the input ends
 * it, as dmo verify lays them out); "same" when the output is the one of
 * separate buffers, else "differs". */
static int native(const struct hidden_layer *l, unsigned long x)
{
	size_t bytes = l->elements * sizeof(int32_t);
	int32_t *in, *reference;
	char *arena;
	int same;

	if (x > bytes || x % sizeof(int32_t) != 0 || annotate_buffers(l->elements, &in, &reference) != 0 ||
	    (arena = malloc(2 * bytes - x)) == NULL)
		return 2;
	l->kernel(in, reference);
	memcpy(arena + bytes - x, in, bytes);
	l->kernel((const int32_t *)(arena + bytes - x), (int32_t *)arena);
	same = memcmp(arena, reference, bytes) == 0;
	printf("%s\n", same ? "same" : "differs");
	free(arena);
	free(in);
	free(reference);
	return 0;
}

/* annotate_hidden: every layer between markers; annotate_hidden native
 * NAME X: layer NAME natively at overlap X (bytes, a multiple of 4). */
int main(int argc, char **argv)
{
	int32_t *in, *out;
	if (argc == 4 && strcmp(argv[1], "native") == 0) {
		for (int l = 0; l < LAYERS; l++)
			if (strcmp(layers[l].name, argv[2]) == 0)
				return native(&layers[l], strtoul(argv[3], NULL, 10));
		return 2;
	}
	if (argc != 1 || annotate_buffers(N, &in, &out) != 0)
		return 2;
	for (int l = 0; l < LAYERS; l++) {
		size_t bytes = layers[l].elements * sizeof(int32_t);
		if (annotate_layer(layers[l].name, layers[l].kernel, in, bytes, out, bytes) != 0)
			return 1;
	}
	return 0;
}
