/* dmo_hull.c - hulls (dmo_hull.h): the accesses of one address sum of the
 * block's entry registers (dmo_sum.h) gathered into hulls,
 * and the helper a hull's check calls when it passes.  The check itself
 * is IR, made by the instrumenter (dmo_main.c). */
#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "dmo_hull.h"

Bool dmo_hull_on = True;
Bool dmo_hull_leaving = False;
ULong dmo_hull_touches, dmo_hull_blocks;

extern void VG_(discard_translations)(Addr start, ULong range, const HChar *who);

/* A hull spans at most this many bytes: wider, one gathering accesses on
 * both sides of a buffer would pass for no access of its own. */
#define HULL_MAX_BYTES 4096
UInt dmo_hull_find(const IRSB *in, Int first, Int state_bytes,
		   Bool (*is_marker)(const IRStmt *), struct dmo_hull *hulls, Bool *covered)
{
	struct dmo_sums sums;
	Int *hull_of = VG_(malloc)("dmo.hull.of", in->stmts_used * sizeof *hull_of);
	UInt accesses[DMO_HULLS] = { 0 };
	Long end[DMO_HULLS];
	UInt n = 0, n_kept = 0, h;
	Addr ip = 0;
	Int i;

	for (i = 0; i < in->stmts_used; i++)
		hull_of[i] = -1;
	dmo_sums_init(&sums, in, state_bytes);
	for (i = first; i < in->stmts_used; i++) {
		const IRStmt *s = in->stmts[i];
		const IRExpr *addr = NULL;
		Bool writes = False;
		struct dmo_sum a;
		ULong size = 0;
		Long spread;
		dmo_sums_step(&sums, s);
		switch (s->tag) {
		case Ist_IMark:
			ip = s->Ist.IMark.addr;
			break;
		case Ist_WrTmp:
			if (s->Ist.WrTmp.data->tag == Iex_Load) {
				addr = s->Ist.WrTmp.data->Iex.Load.addr;
				size = sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty);
			}
			break;
		case Ist_Store:
			/* A marker may open a layer over other buffers. */
			if (is_marker(s))
				goto done;
			addr = s->Ist.Store.addr;
			size = sizeofIRType(typeOfIRExpr(in->tyenv, s->Ist.Store.data));
			writes = True;
			break;
		case Ist_PutI:
		case Ist_Dirty:
			/* They may write registers the sums read. */
			goto done;
		default:
			break;
		}
		if (addr == NULL)
			continue;
		a = dmo_sums_atom(&sums, addr);
		if (!a.known || (dmo_where_site(ip)->hull_touched & (writes ? DMO_HULL_WRITES : DMO_HULL_READS)))
			continue;
		spread = a.direction < 0 ? -a.direction : a.direction;
		for (h = 0; h < n; h++) {
			Long lo = a.c - spread < hulls[h].lo ? a.c - spread : hulls[h].lo;
			Long hi = a.c + spread + (Long)size > end[h] ? a.c + spread + (Long)size : end[h];
			if (dmo_sum_same_registers(&hulls[h].at, &a) && hi - lo <= HULL_MAX_BYTES) {
				hulls[h].lo = lo;
				end[h] = hi;
				break;
			}
		}
		if (h == n) {
			if (n == DMO_HULLS)
				continue;
			n++;
			hulls[h].at = a;
			hulls[h].lo = a.c - spread;
			hulls[h].first_ip = ip;
			hulls[h].first_writes = writes;
			end[h] = a.c + spread + (Long)size;
		}
		accesses[h]++;
		hull_of[i] = (Int)h;
	}
done:
	/* A hull of one access would cost its block more than the access's
	 * own check. */
	for (h = 0; h < n; h++) {
		if (accesses[h] < 2)
			continue;
		hulls[n_kept] = hulls[h];
		hulls[n_kept].bytes = (ULong)(end[h] - hulls[h].lo);
		n_kept++;
	}
	for (i = first; i < in->stmts_used; i++)
		covered[i] = hull_of[i] >= 0 && accesses[hull_of[i]] >= 2;
	dmo_sums_free(&sums);
	VG_(free)(hull_of);
	return n_kept;
}

VG_REGPARM(2) void dmo_hull_touched(Addr a, const struct dmo_probe *p)
{
	ULong leave = 1;
	(void)a;
	dmo_hull_touches++;
	dmo_hull_leaving = True;
	p->site->hull_touched |= p->helper == DMO_HULL_PROBE_HELPER ? DMO_HULL_READS : DMO_HULL_WRITES;
	VG_(discard_translations)(p->site->ip, 1, "dmo hull touched");
	VG_(set_shadow_regs_area)(VG_(get_running_tid)(), 1, DMO_HULL_LEAVE, sizeof leave,
				  (const UChar *)&leave);
}
