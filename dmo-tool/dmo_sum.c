/* dmo_sum.c - addresses as sums of a block's entry registers
 * (dmo_sum.h): the arithmetic on sums, and the walk over a block. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"
#include "libvex_guest_amd64.h"

#include "dmo_sum.h"

/* Constants and factors stay below these, so that no sum overflows. */
#define SUM_MAX_CONSTANT (1LL << 40)
#define SUM_MAX_FACTOR (1LL << 16)

static const struct dmo_sum dmo_sum_unknown = { .known = False };

static struct dmo_sum constant_sum(Long c)
{
	struct dmo_sum s = { .known = True, .c = c };
	return c > -SUM_MAX_CONSTANT && c < SUM_MAX_CONSTANT ? s : dmo_sum_unknown;
}

/* A + K * B. */
static struct dmo_sum add_scaled(struct dmo_sum a, const struct dmo_sum *b, Long k)
{
	UInt i, j;
	if (!a.known || !b->known || k <= -SUM_MAX_FACTOR || k >= SUM_MAX_FACTOR)
		return dmo_sum_unknown;
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
			if (a.n == DMO_SUM_TERMS)
				return dmo_sum_unknown;
			VG_(memmove)(&a.offset[j + 1], &a.offset[j], (a.n - j) * sizeof a.offset[0]);
			VG_(memmove)(&a.factor[j + 1], &a.factor[j], (a.n - j) * sizeof a.factor[0]);
			a.offset[j] = b->offset[i];
			a.factor[j] = f;
			a.n++;
		}
		if (j < a.n && (a.factor[j] <= -SUM_MAX_FACTOR || a.factor[j] >= SUM_MAX_FACTOR))
			return dmo_sum_unknown;
	}
	a.c += b->c * k;
	a.direction += b->direction * k;
	return a.c > -SUM_MAX_CONSTANT && a.c < SUM_MAX_CONSTANT &&
	       a.direction > -SUM_MAX_FACTOR && a.direction < SUM_MAX_FACTOR ? a : dmo_sum_unknown;
}

/* An atom's sum: a temporary's, or a 64-bit constant's. */
static struct dmo_sum atom_sum(const struct dmo_sum *temps, const IRExpr *e)
{
	if (e->tag == Iex_RdTmp)
		return temps[e->Iex.RdTmp.tmp];
	if (e->tag == Iex_Const && e->Iex.Const.con->tag == Ico_U64)
		return constant_sum((Long)e->Iex.Const.con->Ico.U64);
	return dmo_sum_unknown;
}

/* The sum of a flat expression, whose GETs read the entry value of a
 * register if no PUT before touched its bytes (WRITTEN). */
static struct dmo_sum expr_sum(const struct dmo_sum *temps, const IRExpr *e, const UChar *written)
{
	struct dmo_sum a, b, zero = constant_sum(0);
	Int i;
	switch (e->tag) {
	case Iex_Get:
		if (e->Iex.Get.ty != Ity_I64)
			return dmo_sum_unknown;
		for (i = 0; i < 8; i++)
			if (written[e->Iex.Get.offset + i])
				return dmo_sum_unknown;
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
			return dmo_sum_unknown;
		case Iop_Shl64:
			if (e->Iex.Binop.arg2->tag == Iex_Const &&
			    e->Iex.Binop.arg2->Iex.Const.con->tag == Ico_U8 &&
			    e->Iex.Binop.arg2->Iex.Const.con->Ico.U8 < 16)
				return add_scaled(zero, &a, 1LL << e->Iex.Binop.arg2->Iex.Const.con->Ico.U8);
			return dmo_sum_unknown;
		default:
			return dmo_sum_unknown;
		}
	default:
		return dmo_sum_unknown;
	}
}

void dmo_sums_init(struct dmo_sums *w, const IRSB *in, Int state_bytes)
{
	w->temps = VG_(calloc)("dmo.sums.temps", in->tyenv->types_used, sizeof *w->temps);
	w->written = VG_(calloc)("dmo.sums.written", state_bytes, 1);
	w->state_bytes = state_bytes;
	w->tyenv = in->tyenv;
}

/* Statements that leave a temporary out (a guarded load's, a CAS's)
 * leave its sum unknown, as calloc made it. */
void dmo_sums_step(struct dmo_sums *w, const IRStmt *s)
{
	if (s->tag == Ist_WrTmp) {
		w->temps[s->Ist.WrTmp.tmp] = expr_sum(w->temps, s->Ist.WrTmp.data, w->written);
	} else if (s->tag == Ist_Put) {
		Int at = s->Ist.Put.offset;
		Int bytes = sizeofIRType(typeOfIRExpr(w->tyenv, s->Ist.Put.data));
		tl_assert(at >= 0 && at + bytes <= w->state_bytes);
		VG_(memset)(w->written + at, 1, bytes);
	}
}

struct dmo_sum dmo_sums_atom(const struct dmo_sums *w, const IRExpr *e)
{
	return atom_sum(w->temps, e);
}

void dmo_sums_free(struct dmo_sums *w)
{
	VG_(free)(w->temps);
	VG_(free)(w->written);
}

Bool dmo_sum_same_registers(const struct dmo_sum *a, const struct dmo_sum *b)
{
	UInt i;
	if (!a->known || !b->known || a->n != b->n)
		return False;
	for (i = 0; i < a->n; i++)
		if (a->offset[i] != b->offset[i] || a->factor[i] != b->factor[i])
			return False;
	return True;
}
