/* dmo_chain.c - finding a block's chains (dmo_chain.h).  The lead's
 * helper and the settling are the streams' (dmo_stream.c); the IR is the
 * instrumenter's (dmo_main.c). */
#include "pub_tool_basics.h"

#include "dmo_chain.h"
#include "dmo_layers.h"
#include "dmo_sum.h"
#include "dmo_where.h"

Bool dmo_chain_on = True;
ULong dmo_chain_blocks;

/* A checked access of the block: its statement, instruction, kind and
 * size, and its address's sum. */
struct access {
	Int stmt;
	Addr ip;
	Bool writes;
	ULong size;
	struct dmo_sum at;
};

/* Whether B may follow A: the same instruction, kind and size, the
 * address a constant 1 to 32 - size bytes on or back, no direction flag
 * in either (a string instruction's step may go either way). */
static Bool follows(const struct access *a, const struct access *b)
{
	Long stride = b->at.c - a->at.c;
	Long span = stride < 0 ? -stride : stride;
	return a->ip == b->ip && a->writes == b->writes && a->size == b->size &&
	       dmo_sum_same_registers(&a->at, &b->at) && a->at.direction == 0 &&
	       b->at.direction == 0 && span > 0 && span + (Long)b->size <= DMO_WATCH_SLACK + 1;
}

UInt dmo_chain_find(const IRSB *in, Int first, Int state_bytes,
		    Bool (*is_marker)(const IRStmt *), const Bool *covered,
		    struct dmo_chain_link *links)
{
	struct dmo_sums sums;
	struct access last = { .stmt = -1 }, now;
	UInt n = 0, instrs = 0, last_instrs = 0;
	Addr ip = 0;
	Int i;

	for (i = 0; i < in->stmts_used; i++)
		links[i].follower = links[i].lead = -1;
	dmo_sums_init(&sums, in, state_bytes);
	for (i = first; i < in->stmts_used; i++) {
		const IRStmt *s = in->stmts[i];
		dmo_sums_step(&sums, s);
		switch (s->tag) {
		case Ist_IMark:
			ip = s->Ist.IMark.addr;
			instrs++;
			continue;
		case Ist_WrTmp:
			if (s->Ist.WrTmp.data->tag != Iex_Load)
				continue;
			now.writes = False;
			now.size = sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty);
			now.at = dmo_sums_atom(&sums, s->Ist.WrTmp.data->Iex.Load.addr);
			break;
		case Ist_Store:
			/* A marker may open a layer, and its helper settles. */
			if (is_marker(s))
				goto done;
			now.writes = True;
			now.size = sizeofIRType(typeOfIRExpr(in->tyenv, s->Ist.Store.data));
			now.at = dmo_sums_atom(&sums, s->Ist.Store.addr);
			break;
		case Ist_LoadG:
		case Ist_StoreG:
		case Ist_CAS:
		case Ist_LLSC:
			/* Checked, and never in a chain. */
			last.stmt = -1;
			continue;
		case Ist_Dirty:
		case Ist_PutI:
			/* A call (a check's, or VEX's own, which may read or write
			 * memory), or registers written that sums may read. */
			goto done;
		default:
			continue;
		}
		if (covered != NULL && covered[i])
			continue;
		now.stmt = i;
		now.ip = ip;
		if (last.stmt >= 0 && follows(&last, &now) && !dmo_where_site(ip)->no_source) {
			links[last.stmt].follower = i;
			links[last.stmt].stride = now.at.c - last.at.c;
			links[last.stmt].step = instrs - last_instrs;
			links[i].lead = last.stmt;
			n++;
			/* A follower leads no chain of its own. */
			last.stmt = -1;
			continue;
		}
		last = now;
		last_instrs = instrs;
	}
done:
	dmo_sums_free(&sums);
	return n;
}
