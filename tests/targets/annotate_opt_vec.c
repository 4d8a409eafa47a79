/* annotate_opt_vec.c - the -O3 -mavx2 -funroll-loops half of
 * tests/targets/annotate_opt (its hand derivations are in annotate_opt.c's
 * header comment): loops the compiler vectorises to 32-byte AVX2 loads and
 * stores and unrolls, so one source line owns several instructions.  (A
 * load that the compiler folds into the instruction using it takes that
 * statement's line, so each kernel is one statement.) */
#include "annotate_opt.h"

void vec_shift(const int32_t *in, int32_t *out)
{
	for (int i = LAG; i < N; i++)
		out[i] = in[i] + in[i - LAG]; /* ANNOTATE:vec-shift */
}

void vec_backward(const int32_t *in, int32_t *out)
{
	for (int i = N - 1; i >= 0; i--)
		out[i] = 3 * element_at(in, i); /* ANNOTATE:vec-back-write */
}
