/* annotate_hidden.h - what the two C files of tests/targets/annotate_hidden
 * share: the sizes, and the functions annotate_hidden_b.c (built -O0)
 * gives the -O2 kernels of annotate_hidden.c. */
#ifndef ANNOTATE_HIDDEN_H
#define ANNOTATE_HIDDEN_H

#include <stdint.h>

#define N 256  /* int32 elements of a 1-D kernel's buffers */
#define LAG 7  /* two-file's read reaches back this many elements */
#define SLAG 5 /* same-line's */
#define VLAG 6 /* sse2-lag's */
#define ROWS 8 /* the 2-D kernels' rows and columns */
#define COLS 16

void two_write(int32_t *out, int i, int32_t v);
int32_t two_read(const int32_t *in, int i);
void back_diff(const int32_t *in, int32_t *out);
void same_line(const int32_t *in, int32_t *out);
void sse2_lag(const int32_t *in, int32_t *out);

#endif
