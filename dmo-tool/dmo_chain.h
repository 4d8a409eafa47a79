/* dmo_chain.h - chains: one helper call for two accesses of one
 * instruction in a block.
 *
 * VEX unrolls a small loop into one block, so the depthwise kernel's
 * pixel load runs twice a block, at rcx + rax and rcx + rax + 16, eight
 * instructions apart.  Each paid for a check and a helper call, though
 * the second only ever continues the stream (dmo_stream.h) the first one
 * moved on.  A chain pairs such accesses: the first (the lead) and the
 * next access of the same instruction, kind and size in the block (the
 * follower), whose address is the lead's plus a constant STRIDE, 0 <
 * |STRIDE| <= 32 - size, as sums of the block's entry registers
 * (dmo_sum.h), STEP instructions later, with no other checked access,
 * helper call or marker store between them.  The lead's check covers
 * both ([lead, follower + size) going forwards, one compare,
 * dmo_layers.h's slack) and
 * calls the lead's helper; the follower has no check and no call, only a
 * store: when its instruction has run, the instruction count the lead
 * saw (dmo_instructions then, dmo_layers.h) goes into its lead probe's
 * word RAN (dmo_where.h).
 *
 * The lead's helper takes the follower ahead, before its code runs, and
 * the next helper call of any kind (or a flush, a layer's end, another
 * thread) settles it: it ran iff RAN holds the count the lead saw.  The
 * count at the lead names one run of one block: the count only grows, by
 * every block that runs, so no other run of the lead's block and no
 * other block stores that value into that word (a new layer, which
 * starts the count at 0 again, is a settling point, and the lead
 * clears the word when it starts).  A follower that did not run (the
 * loop left between the two, or a fault stopped the block) is given
 * back; one that ran is exactly the access its own helper would have
 * taken, in order, as nothing was taken between.  Taken ahead means
 * pending in the stream, as if dmo_stream_extends had taken it: the
 * lead's helper checks what that needs (the stream's key, next address
 * and time, its steps equal to the chain's, the follower inside the
 * buffer); otherwise the follower is settled the long way, by its own
 * helper, at its own time, at the next settling point.  So every file
 * the tool writes is the same as with each access checked where it is
 * (`--dmo-chains=no`; tests/tool_chains.sh).
 *
 * Only for one range over both buffers (the helpers' common case) and
 * when instructions are counted (a full trace, --dmo-count=yes): without
 * a count the lead's word names no run.  Not for an instruction with no
 * source (dmo_where.h), whose access keeps the call stack it runs on. */
#ifndef DMO_CHAIN_H
#define DMO_CHAIN_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"

/* Chains on (--dmo-chains, default yes); for --stats=yes, blocks
 * translated with chains. */
extern Bool dmo_chain_on;
extern ULong dmo_chain_blocks;

/* What dmo_chain_find says of a statement: the follower it leads (-1:
 * none) with the STRIDE and STEP above, or the lead it follows (-1:
 * none). */
struct dmo_chain_link {
	Int follower, lead;
	Long stride;
	UInt step;
};

/* The helper numbers (dmo_where.h) of a lead's probe: after the hulls'
 * (dmo_hull.h), plus 1 for a store. */
#define DMO_CHAIN_PROBE_HELPER 8

/* The chains of block IN (flat IR) from statement FIRST (its first
 * IMark) on; LINKS has room for IN's statements.  COVERED (NULL: none)
 * says which statements' accesses a hull covers: they have no check.
 * STATE_BYTES is the guest state's size; IS_MARKER says whether a store
 * is to a marker word.  Returns the number of chains. */
UInt dmo_chain_find(const IRSB *in, Int first, Int state_bytes,
		    Bool (*is_marker)(const IRStmt *), const Bool *covered,
		    struct dmo_chain_link *links);

#endif
