/* annotate_opt.h - shared by the two halves of tests/targets/annotate_opt
 * (annotate_opt.c at -O2, annotate_opt_vec.c at -O3 -mavx2): the sizes,
 * the kernels of the vectorised half, and an inline helper whose read the
 * compiler inlines into its callers, so that a binding read's line lies in
 * this header (tests/annotate_opt.sh looks for its ANNOTATE tag here). */
#ifndef ANNOTATE_OPT_H
#define ANNOTATE_OPT_H

#include <stdint.h>

#define N 256   /* int32 elements of the one-dimensional buffers */
#define LAG 3   /* the shift kernels' look-back */

static inline int32_t element_at(const int32_t *p, int i)
{
	return p[i]; /* ANNOTATE:header-read */
}

void vec_shift(const int32_t *in, int32_t *out);
void vec_backward(const int32_t *in, int32_t *out);

#endif
