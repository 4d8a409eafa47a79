/* annotate_opt.c - test target of tests/annotate_opt.sh: kernels built as
 * a user builds them (-O2 -g here, -O3 -mavx2 -funroll-loops -g in
 * annotate_opt_vec.c), whose binding pair is derived by hand below; the
 * lines of interest carry "ANNOTATE:TAG" comments that the test greps
 * for.  Optimised, a load folded into the instruction that uses it takes
 * the line of the statement it is folded into; the kernels keep the
 * accesses of interest in statements of their own, or assert which
 * instruction of a shared line binds.  "bound" is OB + i - o_end of docs/definitions.md, i the input
 * access's first byte, o_end the end of the furthest output write before
 * it; O_s = min(IB, OB, the least bound), clamped at 0.
 *
 * shared-line: out[i] = in[i] + in[i-LAG] for i >= LAG, on one line with
 *   two loads and a store.  After out[i-1] (end 4i), in[i-LAG] at
 *   4(i-LAG): bound OB - 4 LAG = 1012; in[i] gives OB.  The pair is the
 *   store and the in[i-LAG] load, both on shared-line: only the
 *   instructions' addresses tell the two loads apart.
 * vec-shift, vec-backward (annotate_opt_vec.c): the same shift in 32-byte
 *   vectors (vec-shift: the pair is a vector store and the vector load
 *   of in[i-LAG..]; each vector of 8 reads in[i-LAG] after out[i-1]
 *   ended at 4i: the same bound 1012); and i from N-1 down through
 *   element_at (annotate_opt.h, header-read, inlined): the first store
 *   ends at OB and in[0] is read last: bound 0, pair (vec-back-write,
 *   header-read).
 * col-tiled: ROWS x COLS, in tiles of CT columns over all rows;
 *   out[r][c] = in[r][c] + in[r-1][c] (the second through element_at).
 *   Tile 0 ends with out[ROWS-1][CT-1], end 4((ROWS-1) COLS + CT); tile 1
 *   starts with in[0][CT] at 4 CT, read directly (r = 0 has no r-1):
 *   bound OB - 4 (ROWS-1) COLS = 1024 - 960 = 64, the least (each later
 *   tile's start ties, a tie keeps the first): the pair is the store and
 *   the direct load on line tiled, not the halo read of element_at
 *   (header-read), which comes later in each tile.
 * im2col: a 3x3 valid conv of an 8x8x2 int8 input to 6x6x4 int8 outputs
 *   (IB 128, OB 144), one output row at a time: im2col copies the row's
 *   3x3x2 patches into a scratch buffer (im2col-read, less a zero point),
 *   then a GEMM writes the row (gemm-write).  The scratch is neither
 *   buffer.  Row oy's first input byte is in[oy W C] = 16 oy, after rows
 *   0..oy-1 written (end 24 oy): bound 144 - 8 oy, least at oy = 5: 104:
 *   pair (gemm-write, im2col-read).
 * memcpy-rows: rows copied last row first by libc's memcpy (a size the
 *   compiler cannot see, so the call stays): the first copy's stores end
 *   at OB, the last copy reads in[0]: bound 0.  Both accesses are libc's,
 *   with no source line; the line the kernel author can change is the
 *   call, memcpy-call, which the tool finds on the stack.
 * fn-pointer: out[i] = f(in, N-1-i) through a function pointer the
 *   compiler cannot see through: after out[N-2] (end 4(N-1)), f reads
 *   in[0]: bound OB - 4(N-1) = 4: pair (fp-write, fp-read). */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate_layer.h"
#include "annotate_opt.h"

#define ROWS 16
#define COLS 16
#define CT 4
#define H 8
#define W 8
#define C 2
#define OC 4
#define K 3
#define OH (H - K + 1)
#define OW (W - K + 1)
#define ZERO_POINT 1
_Static_assert(ROWS * COLS == N, "the row kernels run on the N-element buffers");

__attribute__((noinline)) static void shared_line(const int32_t *in, int32_t *out)
{
	for (int i = LAG; i < N; i++)
		out[i] = in[i] + in[i - LAG]; /* ANNOTATE:shared-line */
}

__attribute__((noinline)) static void col_tiled(const int32_t *in, int32_t *out)
{
	for (int c0 = 0; c0 < COLS; c0 += CT)
		for (int r = 0; r < ROWS; r++)
			for (int c = c0; c < c0 + CT; c++)
				out[r * COLS + c] = in[r * COLS + c] + (r > 0 ? element_at(in, (r - 1) * COLS + c) : 0); /* ANNOTATE:tiled */
}

static int8_t weights[OC][K * K * C];

__attribute__((noinline)) static void im2col_gemm(const int8_t *in, int8_t *out)
{
	int16_t col[OW][K * K * C];
	for (int oy = 0; oy < OH; oy++) {
		for (int ox = 0; ox < OW; ox++)
			for (int ky = 0; ky < K; ky++)
				for (int kx = 0; kx < K; kx++)
					for (int c = 0; c < C; c++)
						col[ox][(ky * K + kx) * C + c] = (int16_t)(
							in[((oy + ky) * W + ox + kx) * C + c] - ZERO_POINT); /* ANNOTATE:im2col-read */
		for (int ox = 0; ox < OW; ox++)
			for (int oc = 0; oc < OC; oc++) {
				int32_t acc = 0;
				for (int k = 0; k < K * K * C; k++)
					acc += col[ox][k] * weights[oc][k];
				acc >>= 4;
				out[(oy * OW + ox) * OC + oc] = (int8_t)(acc > 127 ? 127 : acc < -128 ? -128 : acc); /* ANNOTATE:gemm-write */
			}
	}
}

/* The row's bytes, read at run time: a constant would let the compiler
 * expand memcpy inline, and libc would never run. */
static volatile size_t row_bytes = COLS * sizeof(int32_t);

__attribute__((noinline)) static void memcpy_rows(const int32_t *in, int32_t *out)
{
	size_t bytes = row_bytes;
	for (int r = ROWS - 1; r >= 0; r--)
		memcpy(out + r * COLS, in + r * COLS, bytes); /* ANNOTATE:memcpy-call */
}

__attribute__((noinline)) static int32_t mirrored(const int32_t *in, int i)
{
	return in[i] + 1; /* ANNOTATE:fp-read */
}

/* Volatile: the compiler cannot know which function it calls. */
static int32_t (*volatile element_fn)(const int32_t *, int) = mirrored;

__attribute__((noinline)) static void fn_pointer(const int32_t *in, int32_t *out)
{
	for (int i = 0; i < N; i++)
		out[i] = element_fn(in, N - 1 - i); /* ANNOTATE:fp-write */
}

static int conv_layer(void)
{
	int8_t *in = malloc(H * W * C), *out = malloc(OH * OW * OC);
	int failed;
	if (in == NULL || out == NULL)
		return 1;
	for (int i = 0; i < H * W * C; i++)
		in[i] = (int8_t)(i % 7 - 3);
	for (int oc = 0; oc < OC; oc++)
		for (int k = 0; k < K * K * C; k++)
			weights[oc][k] = (int8_t)((oc + k) % 5 - 2);
	failed = dmo_layer_begin("im2col", NULL, in, H * W * C, out, OH * OW * OC) != 0;
	if (!failed) {
		im2col_gemm(in, out);
		failed = dmo_layer_end() != 0;
	}
	free(in);
	free(out);
	return failed;
}

/* Each one-dimensional layer over all N elements (ROWS x COLS is N). */
#define BYTES (N * sizeof(int32_t))

int main(void)
{
	int32_t *in, *out;
	if (annotate_buffers(N, &in, &out) != 0)
		return 1;
	return annotate_layer("shared-line", shared_line, in, BYTES, out, BYTES) ||
	       annotate_layer("vec-shift", vec_shift, in, BYTES, out, BYTES) ||
	       annotate_layer("vec-backward", vec_backward, in, BYTES, out, BYTES) ||
	       annotate_layer("col-tiled", col_tiled, in, BYTES, out, BYTES) ||
	       conv_layer() ||
	       annotate_layer("memcpy-rows", memcpy_rows, in, BYTES, out, BYTES) ||
	       annotate_layer("fn-pointer", fn_pointer, in, BYTES, out, BYTES);
}
