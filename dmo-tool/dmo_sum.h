/* dmo_sum.h - a block's addresses as sums of its entry registers.
 *
 * The instrumenter reasons about an access's address before the block
 * runs: hulls (dmo_hull.h) check the accesses of one sum once at the
 * block's start, and chains (dmo_chain.h) pair two accesses of one
 * instruction a constant apart.  Both need each address as a sum of the
 * guest registers as the block began, times constant factors, plus a
 * constant; a walk over the block's flat IR, statement by statement,
 * keeps the sum of each temporary that has one. */
#ifndef DMO_SUM_H
#define DMO_SUM_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* Registers (times a factor) a sum may hold. */
#define DMO_SUM_TERMS 3

/* A value as FACTOR[i] times the guest register at OFFSET[i] as the
 * block began, for i < N (offsets increasing, factors not 0), plus C,
 * plus DIRECTION times the direction flag; KNOWN False: no such sum.
 * The flag (guest_DFLAG) is always 1 or -1 (VEX's amd64 guest), so it
 * is no register of the sum but a spread of the constant: a string
 * instruction's (rep movsq) address is rsi + 8 k DFLAG in its k-th
 * round. */
struct dmo_sum {
	Bool known;
	UInt n;
	Int offset[DMO_SUM_TERMS];
	Long factor[DMO_SUM_TERMS];
	Long c, direction;
};

/* The walk: the sums of the temporaries so far, and which bytes of the
 * guest state a PUT has written (a GET of them reads no entry value). */
struct dmo_sums {
	struct dmo_sum *temps;
	UChar *written;
	Int state_bytes;
	const IRTypeEnv *tyenv;
};

/* Start a walk over block IN, whose guest state is STATE_BYTES long. */
void dmo_sums_init(struct dmo_sums *w, const IRSB *in, Int state_bytes);
/* Take statement S in: a temporary's sum, a register's write. */
void dmo_sums_step(struct dmo_sums *w, const IRStmt *s);
/* The sum of an atom (an address) at this point of the walk. */
struct dmo_sum dmo_sums_atom(const struct dmo_sums *w, const IRExpr *e);
void dmo_sums_free(struct dmo_sums *w);

/* Whether A and B are both known and hold the same registers times the
 * same factors (their constants may differ). */
Bool dmo_sum_same_registers(const struct dmo_sum *a, const struct dmo_sum *b);

#endif
