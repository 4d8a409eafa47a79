/* analytic.h - a closed-form lower bound on the safe overlap O_s of every
 * reference op, in O(1) and without walking the loop nest.  The ops that
 * only move or rescale elements have an exact closed form instead
 * (docs/formulas.md, section 4).
 *
 * The bound is the paper's linear one: the smallest input offset still to be
 * read never falls more than a lag L behind rho times the output written,
 * rho = IB/OB.  L is derived per op from the loop geometry (docs/formulas.md,
 * "Analytic bound"), so the result never exceeds the exact value of
 * algorithmic.h; for the MobileNet v2 golden layer it is 1193376 bytes. */
#ifndef DMO_ANALYTIC_H
#define DMO_ANALYTIC_H

#include <stdint.h>

#include "algorithmic.h"
#include "opspec.h"

struct dmo_analytic_result {
	uint64_t os;          /* lower bound on O_s, bytes */
	uint64_t in_bytes, out_bytes;
	uint64_t penalty;     /* bytes the linear model gives up below OB,
			       * before clamping to [0, min(IB, OB)] */
	double rho;           /* IB / OB */
	double lag;           /* L, input elements */
	int linear;           /* 1: the bound is the linear one (rho, lag);
			       * 0: a per-op closed form (reshape, softmax,
			       * logistic, mean, quantize, dequantize, pad,
			       * concat, transpose; the NCHW windowed ops),
			       * rho and lag unused */
	int exact;            /* 1: the closed form is the exact O_s
			       * (formulas.md section 4); 0: a lower bound */
};

/* Returns 0, or -1 (errno EINVAL) for an inconsistent spec. */
int dmo_analytic(const struct dmo_opspec *spec, struct dmo_analytic_result *res);
int dmo_analytic_geom(const struct dmo_geom *g, struct dmo_analytic_result *res);

#endif
