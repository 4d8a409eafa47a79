/* dmo_hull.c - hulls (dmo_hull.h): each access's address as a sum of the
 * block's entry registers, the accesses of one sum gathered into hulls,
 * and the helper a hull's check calls when it passes.  The check itself
 * is IR, made by the instrumenter (dmo_main.c). */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
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
/* Constants and factors stay below these, so that no sum overflows. */
#define SUM_MAX_CONSTANT (1LL << 40)
#define SUM_MAX_FACTOR (1LL << 16)

/* A value as FACTOR[i] times the guest register at OFFSET[i] as the
 * block began, for i < N (offsets increasing, factors not 0), plus C,
 * plus DIRECTION times the direction flag; KNOWN False: no such sum.
 * The flag (guest_DFLAG) is always 1 or -1 (VEX's amd64 guest), so it
 * is no register of the sum but a spread of the constant: a string
 * instruction's (rep movsq) address is rsi + 8 k DFLAG in its k-th
 * round. */
struct sum {
	Bool known;
	UInt n;
	Int offset[DMO_HULL_TERMS];
	Long factor[DMO_HULL_TERMS];
	Long c, direction;
};

static const struct sum unknown_sum = { .known = False };

static struct sum constant_sum(Long c)
{
	struct sum s = { .known = True, .c = c };
	return c > -SUM_MAX_CONSTANT && c < SUM_MAX_CONSTANT ? s : unknown_sum;
}

/* A + K * B. */
static struct sum add_scaled(struct sum a, const struct sum *b, Long k)
{
	UInt i, j;
	if (!a.known || !b->known || k <= -SUM_MAX_FACTOR || k >= SUM_MAX_FACTOR)
		return unknown_sum;
	for (i = 0; i < b->n; i++) {
		Long f = b->factor[i] * k;
		for (j = 0; j < a.n && a.offset[j] < b->offset[i]; j++)
			;
		if (j < a.n && a.offset[j] == b->offset[i]) {
			a.factor[j] += f;
			if (a.factor[j] == 0) {
				a.n--;
				VG_(memmove)(&a.offset[j], &a.offset[j + 1], (a.n - j) * sizeof a.offset[0]);
				VG_(memmove)(&a.factor[j], &a.factor[j + 1], (a.n - j) * sizeof a.factor[0]);
			}
		} else {
			if (a.n == DMO_HULL_TERMS)
				return unknown_sum;
			VG_(memmove)(&a.offset[j + 1], &a.offset[j], (a.n - j) * sizeof a.offset[0]);
			VG_(memmove)(&a.factor[j + 1], &a.factor[j], (a.n - j) * sizeof a.factor[0]);
			a.offset[j] = b->offset[i];
			a.factor[j] = f;
			a.n++;
		}
		if (j < a.n && (a.factor[j] <= -SUM_MAX_FACTOR || a.factor[j] >= SUM_MAX_FACTOR))
			return unknown_sum;
	}
	a.c += b->c * k;
	a.direction += b->direction * k;
	return a.c > -SUM_MAX_CONSTANT && a.c < SUM_MAX_CONSTANT &&
	       a.direction > -SUM_MAX_FACTOR && a.direction < SUM_MAX_FACTOR ? a : unknown_sum;
}

/* An atom's sum: a temporary's, or a 64-bit constant's. */
static struct sum atom_sum(const struct sum *temps, const IRExpr *e)
{
	if (e->tag == Iex_RdTmp)
		return temps[e->Iex.RdTmp.tmp];
	if (e->tag == Iex_Const && e->Iex.Const.con->tag == Ico_U64)
		return constant_sum((Long)e->Iex.Const.con->Ico.U64);
	return unknown_sum;
}

/* The sum of a flat expression, whose GETs read the entry value of a
 * register if no PUT before touched its bytes (WRITTEN). */
static struct sum expr_sum(const struct sum *temps, const IRExpr *e, const UChar *written)
{
	struct sum a, b, zero = constant_sum(0);
	Int i;
	switch (e->tag) {
	case Iex_Get:
		if (e->Iex.Get.ty != Ity_I64)
			return unknown_sum;
		for (i = 0; i < 8; i++)
			if (written[e->Iex.Get.offset + i])
				return unknown_sum;
		a = zero;
		if (e->Iex.Get.offset == offsetof(VexGuestAMD64State, guest_DFLAG)) {
			a.direction = 1;
			return a;
		}
		a.n = 1;
		a.offset[0] = e->Iex.Get.offset;
		a.factor[0] = 1;
		return a;
	case Iex_RdTmp:
	case Iex_Const:
		return atom_sum(temps, e);
	case Iex_Binop:
		a = atom_sum(temps, e->Iex.Binop.arg1);
		b = atom_sum(temps, e->Iex.Binop.arg2);
		switch (e->Iex.Binop.op) {
		case Iop_Add64:
			return add_scaled(a, &b, 1);
		case Iop_Sub64:
			return add_scaled(a, &b, -1);
		case Iop_Mul64:
			if (b.known && b.n == 0)
				return add_scaled(zero, &a, b.c);
			if (a.known && a.n == 0)
				return add_scaled(zero, &b, a.c);
			return unknown_sum;
		case Iop_Shl64:
			if (e->Iex.Binop.arg2->tag == Iex_Const &&
			    e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U8 &&
			    e->Iex.Binop.arg2->Iex.Const.con->Ico.U8 < 16)
				return add_scaled(zero, &a, 1LL << e->Iex.Binop.arg2->Iex.Const.con->Ico.U8);
			return unknown_sum;
		default:
			return unknown_sum;
		}
	default:
		return unknown_sum;
	}
}

static Bool same_registers(const struct dmo_hull *h, const struct sum *s)
{
	UInt i;
	if (h->n != s->n)
		return False;
	for (i = 0; i < s->n; i++)
		if (h->offset[i] != s->offset[i] || h->factor[i] != s->factor[i])
			return False;
	return True;
}

UInt dmo_hull_find(const IRSB *in, Int first, Int state_bytes,
		   Bool (*is_marker)(const IRStmt *), struct dmo_hull *hulls, Bool *covered)
{
	struct sum *temps = VG_(calloc)("dmo.hull.sums", in->tyenv->types_used, sizeof *temps);
	UChar *written = VG_(calloc)("dmo.hull.written", state_bytes, 1);
	Int *hull_of = VG_(malloc)("dmo.hull.of", in->stmts_used * sizeof *hull_of);
	UInt accesses[DMO_HULLS] = { 0 };
	Long end[DMO_HULLS];
	UInt n = 0, n_kept = 0, h;
	Addr ip = 0;
	Int i;

	for (i = 0; i < in->stmts_used; i++)
		hull_of[i] = -1;
	/* Statements that leave a temporary out (a guarded load's, a CAS's)
	 * leave its sum unknown, as calloc made it. */
	for (i = first; i < in->stmts_used; i++) {
		const IRStmt *s = in->stmts[i];
		const IRExpr *addr = NULL;
		Bool writes = False;
		struct sum a;
		ULong size = 0;
		Long spread;
		switch (s->tag) {
		case Ist_IMark:
			ip = s->Ist.IMark.addr;
			break;
		case Ist_WrTmp:
			temps[s->Ist.WrTmp.tmp] = expr_sum(temps, s->Ist.WrTmp.data, written);
			if (s->Ist.WrTmp.data->tag == Iex_Load) {
				addr = s->Ist.WrTmp.data->Iex.Load.addr;
				size = sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty);
			}
			break;
		case Ist_Put: {
			Int at = s->Ist.Put.offset;
			Int bytes = sizeofIRType(typeOfIRExpr(in->tyenv, s->Ist.Put.data));
			tl_assert(at >= 0 && at + bytes <= state_bytes);
			VG_(memset)(written + at, 1, bytes);
			break;
		}
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
		a = atom_sum(temps, addr);
		if (!a.known || (dmo_where_site(ip)->hull_touched & (writes ? DMO_HULL_WRITES : DMO_HULL_READS)))
			continue;
		spread = a.direction < 0 ? -a.direction : a.direction;
		for (h = 0; h < n; h++) {
			Long lo = a.c - spread < hulls[h].lo ? a.c - spread : hulls[h].lo;
			Long hi = a.c + spread + (Long)size > end[h] ? a.c + spread + (Long)size : end[h];
			if (same_registers(&hulls[h], &a) && hi - lo <= HULL_MAX_BYTES) {
				hulls[h].lo = lo;
				end[h] = hi;
				break;
			}
		}
		if (h == n) {
			if (n == DMO_HULLS)
				continue;
			n++;
			hulls[h].n = a.n;
			VG_(memcpy)(hulls[h].offset, a.offset, sizeof a.offset);
			VG_(memcpy)(hulls[h].factor, a.factor, sizeof a.factor);
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
	VG_(free)(temps);
	VG_(free)(written);
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
