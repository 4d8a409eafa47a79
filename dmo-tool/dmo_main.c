/* dmo_main.c - the dmo Valgrind tool: registration, options, and the
 * instrumenter.
 *
 * Until the first layer a translation only watches for stores to the
 * target's marker region, which it recognises by their constant address at
 * translation time, so such code runs as under --tool=none.  When a layer
 * opens over buffers other than the ones the code was translated for,
 * every translation is thrown away and code is translated afresh.  Each
 * load and store then gets an inline range check against the buffers (the
 * ranges are constants in the code) guarding a helper call, plus an inline
 * instruction counter flushed before each side exit.  When the layer ends
 * the code stays as it is: its helpers find no open layer and return, and
 * the next layer over the same buffers costs no new translations. */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_machine.h"
#include "pub_tool_options.h"
#include "pub_tool_vkiscnums.h"

#include "event.h"
#include "dmo_layers.h"
#include "dmo_trace.h"
#include "size_text.h"
#include "trace_format.h"

static const HChar *clo_fifo = NULL;
static const HChar *clo_out = NULL;
static Bool clo_full_trace = False;
static ULong clo_max_mem = (ULong)DMO_MAX_MEM_DEFAULT_MIB << 20;

static Bool dmo_process_cmd_line_option(const HChar *arg)
{
	const HChar *trace = NULL, *max_mem = NULL;
	if VG_STR_CLO(arg, "--dmo-fifo", clo_fifo) {}
	else if VG_STR_CLO(arg, "--dmo-out", clo_out) {}
	else if VG_STR_CLO(arg, "--dmo-trace", trace) {
		if (VG_(strcmp)(trace, "full") == 0)
			clo_full_trace = True;
		else if (VG_(strcmp)(trace, "summary") == 0)
			clo_full_trace = False;
		else
			VG_(fmsg_bad_option)(arg, "expected summary or full\n");
	} else if VG_STR_CLO(arg, "--dmo-max-mem", max_mem) {
		uint64_t bytes = 0;
		if (dmo_size_parse(max_mem, &bytes) != 0 || bytes < DMO_MAX_MEM_MIN)
			VG_(fmsg_bad_option)(arg, "expected a size of at least 2M, e.g. 64M or 2G\n");
		clo_max_mem = bytes;
	} else
		return False;
	return True;
}

static void dmo_print_usage(void)
{
	VG_(printf)(
"    --dmo-fifo=PATH           FIFO the target sends layer descriptors on\n"
"                              [$DMO_FIFO is what the target opens]\n"
"    --dmo-out=DIR             run directory for tool-layers.bin and event\n"
"                              files; it must exist [none: report only]\n"
"    --dmo-trace=summary|full  summary: per-layer counts and exact O_s;\n"
"                              full: also every event, in layer-NNNN.events\n"
"                              [summary]\n"
"    --dmo-max-mem=SIZE        RAM a full trace may hold (K, M, G suffixes);\n"
"                              beyond it, events go straight to disk ["
				DMO_MAX_MEM_DEFAULT_TEXT "]\n");
}

static void dmo_print_debug_usage(void)
{
	VG_(printf)("    (none)\n");
}

static void dmo_post_clo_init(void)
{
	dmo_layers_init(clo_fifo, clo_out, clo_full_trace, clo_max_mem);
}

static void dmo_post_syscall(ThreadId tid, UInt syscallno, UWord *args,
			     UInt nArgs, SysRes res)
{
	(void)tid; (void)args; (void)nArgs; (void)res;
	if (syscallno == __NR_write || syscallno == __NR_writev ||
	    syscallno == __NR_pwrite64 || syscallno == __NR_pwritev)
		dmo_layers_drain();
}

static void dmo_start_client_code(ThreadId tid, ULong blocks_done)
{
	(void)blocks_done;
	dmo_running_tid = tid;
}

static void dmo_pre_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nArgs)
{
	(void)tid; (void)syscallno; (void)args; (void)nArgs;
}

/* ---- run-time helpers called from instrumented code ---- */

/* The open layer, or NULL: code translated for the last layer's buffers
 * keeps calling the helpers when it touches them between layers, and past
 * a few such calls dmo_layers_idle_access stops watching them. */
static inline const struct dmo_active_layer *open_layer(void)
{
	if (dmo_active == NULL)
		dmo_layers_idle_access();
	return dmo_active;
}

/* The hot path, run for every access that passes the inline range check:
 * clip to the buffer, fold into the reducer, and keep the event when the
 * full trace is on.  One specialised helper per buffer and kind, so
 * nothing is decided at run time that the instrumenter already knew. */
static inline Bool record(UInt flags, Addr base, ULong len, Addr addr, UWord size,
			  UWord time_offset)
{
	uint64_t offset = addr - base, clipped = size;
	/* Returns whether the access lies wholly inside this buffer: it then
	 * cannot touch the other one.  Most do, so test that first. */
	Bool inside = size <= len && offset <= len - size;
	if (!inside && !dmo_clip(addr, size, base, len, &offset, &clipped))
		return False;
	dmo_any_add(&dmo_active->reducer, dmo_running_tid, flags, offset, clipped);
	if (dmo_trace_on)
		dmo_trace_event(flags, offset, clipped, dmo_instructions + time_offset);
	return inside;
}

static VG_REGPARM(3) void on_in_read(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l != NULL)
		record(0, l->in_addr, l->in_bytes, addr, size, time_offset);
}

static VG_REGPARM(3) void on_in_write(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l != NULL)
		record(DMO_EV_WRITE, l->in_addr, l->in_bytes, addr, size, time_offset);
}

static VG_REGPARM(3) void on_out_read(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l != NULL)
		record(DMO_EV_OUT, l->out_addr, l->out_bytes, addr, size, time_offset);
}

static VG_REGPARM(3) void on_out_write(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l != NULL)
		record(DMO_EV_OUT | DMO_EV_WRITE, l->out_addr, l->out_bytes, addr, size, time_offset);
}

/* For buffers that lie close together one range check covers both, and
 * the helper finds which one the access touched: the likelier one first,
 * and the other only if the access is not wholly inside it.  A write at
 * their junction counts its output part first, the order that can only
 * forbid more placements. */
static VG_REGPARM(3) void on_read(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l == NULL)
		return;
	if (!record(0, l->in_addr, l->in_bytes, addr, size, time_offset))
		record(DMO_EV_OUT, l->out_addr, l->out_bytes, addr, size, time_offset);
}

static VG_REGPARM(3) void on_write(Addr addr, UWord size, UWord time_offset)
{
	const struct dmo_active_layer *l = open_layer();
	if (l == NULL)
		return;
	if (!record(DMO_EV_OUT | DMO_EV_WRITE, l->out_addr, l->out_bytes, addr, size, time_offset))
		record(DMO_EV_WRITE, l->in_addr, l->in_bytes, addr, size, time_offset);
}

static VG_REGPARM(2) UWord on_marker(UWord word, ULong value)
{
	return dmo_layers_marker(word, value);
}

/* ---- instrumentation ---- */

struct sb_state {
	IRSB *out;
	Addr next_instr;      /* guest address after the current instruction */
	UInt pending_instrs;  /* instructions not yet added to dmo_instructions */
	Bool active;          /* translated to watch dmo_watched's buffers */
	Addr in_addr, out_addr;
	ULong in_bytes, out_bytes;
	/* Both buffers as one range, when the gap between them is small, so
	 * that an access far from both costs one check, not two; 0 = apart. */
	Addr both_base;
	ULong both_len;
};

static IRExpr *tmp_of(IRSB *sb, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, ty);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

static void flush_instructions(struct sb_state *st)
{
	IRExpr *counter = mkIRExpr_HWord((HWord)&dmo_instructions);
	IRExpr *old, *sum;
	if (st->pending_instrs == 0)
		return;
	old = tmp_of(st->out, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, counter));
	sum = tmp_of(st->out, Ity_I64,
		     IRExpr_Binop(Iop_Add64, old, IRExpr_Const(IRConst_U64(st->pending_instrs))));
	addStmtToIRSB(st->out, IRStmt_Store(Iend_LE, counter, sum));
	st->pending_instrs = 0;
}

struct helper {
	const HChar *name;
	void *fn;
};

/* One buffer's helper, indexed by dmo_event_kind(). */
static const struct helper buffer_helpers[4] = {
	{ "dmo_on_in_read", on_in_read },
	{ "dmo_on_in_write", on_in_write },
	{ "dmo_on_out_read", on_out_read },
	{ "dmo_on_out_write", on_out_write },
};

/* Either buffer's helper, indexed by "is a write". */
static const struct helper either_helpers[2] = {
	{ "dmo_on_read", on_read },
	{ "dmo_on_write", on_write },
};

/* A helper call guarded by an inline check that [addr, addr+size) shares
 * a byte with [base, base+len), tested as one unsigned compare:
 * addr - (base - size + 1) < len + size - 1. */
static void call_if_touching(struct sb_state *st, IRExpr *addr, UInt size, Addr base,
			     ULong len, IRExpr *guard, const struct helper *helper)
{
	IRExpr *rel, *hit;
	IRDirty *call;
	if (len == 0)
		return;
	rel = tmp_of(st->out, Ity_I64,
		     IRExpr_Binop(Iop_Sub64, addr,
				  IRExpr_Const(IRConst_U64(base - size + 1))));
	hit = tmp_of(st->out, Ity_I1,
		     IRExpr_Binop(Iop_CmpLT64U, rel,
				  IRExpr_Const(IRConst_U64(len + size - 1))));
	if (guard != NULL)
		hit = tmp_of(st->out, Ity_I1, IRExpr_Binop(Iop_And1, hit, guard));
	/* The instruction being executed has not been counted yet. */
	call = unsafeIRDirty_0_N(3, helper->name, VG_(fnptr_to_fnentry)(helper->fn),
				 mkIRExprVec_3(addr, mkIRExpr_HWord(size),
					       mkIRExpr_HWord((HWord)((Long)st->pending_instrs - 1))));
	call->guard = hit;
	addStmtToIRSB(st->out, IRStmt_Dirty(call));
}

static void watch(struct sb_state *st, IRExpr *addr, UInt size, Bool write,
		  IRExpr *guard)
{
	UInt kind = write ? DMO_EV_WRITE : 0;
	if (!st->active || size == 0)
		return;
	if (addr->tag != Iex_RdTmp && addr->tag != Iex_Const)
		addr = tmp_of(st->out, Ity_I64, addr);
	if (st->both_len != 0) {
		call_if_touching(st, addr, size, st->both_base, st->both_len, guard,
				 &either_helpers[write]);
		return;
	}
	call_if_touching(st, addr, size, st->in_addr, st->in_bytes, guard,
			 &buffer_helpers[dmo_event_kind((UChar)kind)]);
	call_if_touching(st, addr, size, st->out_addr, st->out_bytes, guard,
			 &buffer_helpers[dmo_event_kind((UChar)(kind | DMO_EV_OUT))]);
}

/* A store to a marker word: call on_marker after it, and if the layer
 * state changed leave this translation at the next instruction. */
static void watch_marker(struct sb_state *st, IRStmt *store)
{
	Addr marker = dmo_layers_marker_addr();
	IRExpr *addr = store->Ist.Store.addr, *data = store->Ist.Store.data;
	ULong where;
	IRTemp changed;
	IRDirty *call;
	IRExpr *leave;
	if (marker == 0 || addr->tag != Iex_Const ||
	    typeOfIRExpr(st->out->tyenv, data) != Ity_I64)
		return;
	where = addr->Iex.Const.con->Ico.U64;
	if (where != marker && where != marker + 8)
		return;
	flush_instructions(st);
	changed = newIRTemp(st->out->tyenv, Ity_I64);
	call = unsafeIRDirty_1_N(changed, 2, "dmo_on_marker", VG_(fnptr_to_fnentry)(on_marker),
				 mkIRExprVec_2(mkIRExpr_HWord(where == marker ? 0 : 1), data));
	addStmtToIRSB(st->out, IRStmt_Dirty(call));
	leave = tmp_of(st->out, Ity_I1,
		       IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(changed),
				    IRExpr_Const(IRConst_U64(0))));
	addStmtToIRSB(st->out, IRStmt_Exit(leave, Ijk_Boring,
					   IRConst_U64(st->next_instr),
					   st->out->offsIP));
}

static UInt load_g_size(IRLoadGOp cvt)
{
	IRType wide, narrow;
	typeOfIRLoadGOp(cvt, &wide, &narrow);
	return sizeofIRType(narrow);
}

static void watch_cas(struct sb_state *st, IRCAS *cas)
{
	UInt size = sizeofIRType(typeOfIRExpr(st->out->tyenv, cas->dataLo));
	if (cas->dataHi != NULL)
		size *= 2;
	/* A CAS reads, then writes; counting the write even when the compare
	 * fails can only make O_s smaller, never unsafe. */
	watch(st, cas->addr, size, False, NULL);
	watch(st, cas->addr, size, True, NULL);
}

static void watch_dirty(struct sb_state *st, IRDirty *d)
{
	if (d->mFx == Ifx_None)
		return;
	if (d->mFx == Ifx_Read || d->mFx == Ifx_Modify)
		watch(st, d->mAddr, d->mSize, False, d->guard);
	if (d->mFx == Ifx_Write || d->mFx == Ifx_Modify)
		watch(st, d->mAddr, d->mSize, True, d->guard);
}

/* Separate mallocs of large buffers usually sit a page apart; weights or
 * the stack between them would cost a useless helper call per access, so
 * a wider gap keeps two checks. */
#define MAX_GAP_COVERED (64 * 1024)

static void cover_both(struct sb_state *st)
{
	Addr lo = st->in_addr < st->out_addr ? st->in_addr : st->out_addr;
	Addr in_end = st->in_addr + st->in_bytes, out_end = st->out_addr + st->out_bytes;
	Addr hi = in_end > out_end ? in_end : out_end;
	if (hi - lo <= st->in_bytes + st->out_bytes + MAX_GAP_COVERED) {
		st->both_base = lo;
		st->both_len = hi - lo;
	}
}

static IRSB *dmo_instrument(VgCallbackClosure *closure, IRSB *in,
			    const VexGuestLayout *layout, const VexGuestExtents *vge,
			    const VexArchInfo *archinfo_host, IRType gWordTy,
			    IRType hWordTy)
{
	struct sb_state st = { 0 };
	IRTypeEnv *env = in->tyenv;
	Int i;
	(void)closure; (void)layout; (void)vge; (void)archinfo_host;

	if (gWordTy != hWordTy)
		VG_(tool_panic)("host/guest word size mismatch");

	st.out = deepCopyIRSBExceptStmts(in);
	if (dmo_watched != NULL) {
		st.active = True;
		st.in_addr = dmo_watched->in_addr;
		st.in_bytes = dmo_watched->in_bytes;
		st.out_addr = dmo_watched->out_addr;
		st.out_bytes = dmo_watched->out_bytes;
		cover_both(&st);
	}
	for (i = 0; i < in->stmts_used; i++) {
		IRStmt *s = in->stmts[i];
		switch (s->tag) {
		case Ist_IMark:
			st.next_instr = s->Ist.IMark.addr + s->Ist.IMark.len;
			if (st.active)
				st.pending_instrs++;
			break;
		case Ist_WrTmp:
			if (s->Ist.WrTmp.data->tag == Iex_Load)
				watch(&st, s->Ist.WrTmp.data->Iex.Load.addr,
				      sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty), False, NULL);
			break;
		case Ist_Store:
			watch(&st, s->Ist.Store.addr,
			      sizeofIRType(typeOfIRExpr(env, s->Ist.Store.data)), True, NULL);
			break;
		case Ist_LoadG:
			watch(&st, s->Ist.LoadG.details->addr,
			      load_g_size(s->Ist.LoadG.details->cvt), False,
			      s->Ist.LoadG.details->guard);
			break;
		case Ist_StoreG:
			watch(&st, s->Ist.StoreG.details->addr,
			      sizeofIRType(typeOfIRExpr(env, s->Ist.StoreG.details->data)),
			      True, s->Ist.StoreG.details->guard);
			break;
		case Ist_CAS:
			watch_cas(&st, s->Ist.CAS.details);
			break;
		case Ist_LLSC:
			/* A store-conditional is counted as a write even if it
			 * fails: conservative, as for CAS. */
			if (s->Ist.LLSC.storedata == NULL)
				watch(&st, s->Ist.LLSC.addr,
				      sizeofIRType(typeOfIRTemp(env, s->Ist.LLSC.result)), False, NULL);
			else
				watch(&st, s->Ist.LLSC.addr,
				      sizeofIRType(typeOfIRExpr(env, s->Ist.LLSC.storedata)), True, NULL);
			break;
		case Ist_Dirty:
			watch_dirty(&st, s->Ist.Dirty.details);
			break;
		case Ist_Exit:
			if (st.active)
				flush_instructions(&st);
			break;
		default:
			break;
		}
		addStmtToIRSB(st.out, s);
		if (s->tag == Ist_Store)
			watch_marker(&st, s);
	}
	if (st.active)
		flush_instructions(&st);
	return st.out;
}

static void dmo_fini(Int exitcode)
{
	(void)exitcode;
	dmo_layers_fini();
}

static void dmo_pre_clo_init(void)
{
	VG_(details_name)("dmo");
	VG_(details_version)(PACKAGE_VERSION);
	VG_(details_description)("the diagonal memory optimisation profiler");
	VG_(details_copyright_author)("Copyright (C) the dmo authors.");
	VG_(details_bug_reports_to)("the dmo issue tracker");
	VG_(details_avg_translation_sizeB)(275);

	VG_(basic_tool_funcs)(dmo_post_clo_init, dmo_instrument, dmo_fini);
	VG_(needs_command_line_options)(dmo_process_cmd_line_option, dmo_print_usage,
					dmo_print_debug_usage);
	VG_(needs_syscall_wrapper)(dmo_pre_syscall, dmo_post_syscall);
	VG_(track_start_client_code)(dmo_start_client_code);
}

VG_DETERMINE_INTERFACE_VERSION(dmo_pre_clo_init)
