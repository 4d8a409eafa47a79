/* dmo_hull.h - one check at a block's start for accesses that miss the
 * buffers: the weights and the stack of a kernel's inner loop.
 *
 * Three of the four accesses an iteration of a vectorised depthwise loop
 * makes never touch the layer's buffers, yet each paid for a check of its
 * own and a guarded call site, which makes VEX keep every vector value in
 * memory across it (bench/README.md).  Their addresses are the block's
 * entry registers plus constants: rsi + rax, and rsi + rax + 16 in the
 * loop's second iteration, which VEX unrolls into the same block.  So the
 * instrumenter gathers a block's accesses whose addresses are one sum of
 * entry registers (the same registers times the same factors, a constant
 * apart) into a hull, the bytes from the lowest to the end of the
 * highest, and checks each hull of two or more accesses once, before the
 * block's first instruction; those accesses then have no check of their
 * own.
 *
 * Why no access that touches a buffer goes unseen: the hull's check is
 * the access check (dmo_main.c) of one access as long as the hull, so it
 * passes every hull that touches a buffer's range, and a hull that does
 * not touch one holds no access that does.  A hull check that passes
 * calls dmo_hull_touched before any instruction of the block has run: it
 * marks the hull's first instruction as one whose accesses are checked
 * where they are (its site's hull_touched) and throws away every
 * translation holding it, and the block leaves at once to its own start,
 * to run again as translated afresh.  Each time a hull check passes, one
 * more instruction is marked, so a block is translated again at most
 * once per instruction in it; an instruction that touched a buffer once
 * (the input pixel's load) is checked in place from then on, as before.
 * The accesses a hull covers are only loads and stores of one instruction
 * each (not guarded ones, CASes or helpers' accesses) before the first
 * thing in the block that could change what the check compared: a marker
 * store (a new layer's ranges), a helper call or an indexed write to the
 * guest state (registers the sums read).  A hull may include an access
 * after a side exit, which may not run: its check is then one that did
 * not need to pass, never one missing.  So every file the tool writes is
 * the same as with each access checked in place (`--dmo-hulls=no`, a
 * Valgrind debugging option; tests/tool_hulls.sh). */
#ifndef DMO_HULL_H
#define DMO_HULL_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"
#include "libvex_guest_amd64.h"
#include "dmo_sum.h"
#include "dmo_where.h"

/* Hulls a block. */
#define DMO_HULLS 8

/* Hulls on (--dmo-hulls, default yes). */
extern Bool dmo_hull_on;
/* A hull check passed and its block is leaving: the next block
 * translated, the one the block leaves for (dmo_main.c), has no hulls,
 * so that it cannot leave again before running. */
extern Bool dmo_hull_leaving;
/* For --stats=yes: hull checks that passed, and blocks translated with
 * hulls. */
extern ULong dmo_hull_touches, dmo_hull_blocks;

/* Accesses of one address sum: their lowest address is the registers
 * of the sum AT (dmo_sum.h; its constant and direction are its first
 * access's, not the hull's) plus LO; they cover BYTES bytes from there.
 * FIRST_IP is the instruction of the first of them in the block,
 * FIRST_WRITES whether that access is a write (a string copy's
 * instruction both reads and writes, through two hulls). */
struct dmo_hull {
	struct dmo_sum at;
	Long lo;
	ULong bytes;
	Addr first_ip;
	Bool first_writes;
};

/* The helper number (dmo_where.h) of a hull's probe, one past the six
 * access helpers' (dmo_main.c), plus 1 if its first access writes. */
#define DMO_HULL_PROBE_HELPER 6
/* The bits of a site's hull_touched (dmo_where.h). */
#define DMO_HULL_READS 1u
#define DMO_HULL_WRITES 2u

/* The hulls of block IN (flat IR) from statement FIRST (its first IMark)
 * on, at most DMO_HULLS; COVERED[i] (room for IN's statements, all False
 * on entry) is set for each statement whose access a hull covers.
 * STATE_BYTES is the guest state's size (where its first shadow area
 * begins).  IS_MARKER says whether a store
 * is to a marker word. */
UInt dmo_hull_find(const IRSB *in, Int first, Int state_bytes,
		   Bool (*is_marker)(const IRStmt *), struct dmo_hull *hulls, Bool *covered);

/* The hull's check passed: the helper behind the hull's probe P (its
 * first access's, of helper number DMO_HULL_PROBE_HELPER or the next;
 * dmo_where.h), called with no address (A is whatever the register
 * holds).  It sets the running thread's leave flag (DMO_HULL_LEAVE, a
 * word in its guest state's first shadow area, which the block reads and
 * clears after its hull checks, and leaves if it was set). */
VG_REGPARM(2) void dmo_hull_touched(Addr a, const struct dmo_probe *p);
#define DMO_HULL_LEAVE offsetof(VexGuestAMD64State, guest_RBP)

#endif
