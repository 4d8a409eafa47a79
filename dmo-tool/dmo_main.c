/* dmo_main.c - the dmo Valgrind tool: registration, options, and the
 * instrumenter.
 *
 * Until the first layer a translation only watches for stores to the
 * target's marker region, which it recognises by their constant address at
 * translation time, so such code runs as under --tool=none.  When the
 * first layer opens every translation is thrown away and code is
 * translated afresh with checks: each load and store gets an inline range
 * check guarding a call of the access's probe's entry (dmo_entry.h), but
 * those of one address sum of the block's entry registers, which share
 * one check at the block's start (a hull, dmo_hull.h), and those that
 * follow an access of the same instruction a constant apart, whose check
 * and call take them ahead (a chain, dmo_chain.h), plus,
 * for a full trace or --dmo-count=yes, an inline instruction counter
 * flushed before each side exit but those that raise a signal.  The
 * helper behind the entry takes an access that continues a stream at once
 * (dmo_stream.h), any other the long way.  (The O_s
 * update itself was also built inline in IR: with no branches in IR it
 * ran for every watched access, misses too, and was several times slower
 * than the guarded call; bench/README.md.)  The check reads the buffers'
 * ranges (dmo_watch) from the running thread's copy of them in its guest
 * state (DMO_WATCH_SHADOW), each as a memory operand of the subtract
 * and the compare, not from constants baked in at translation time, so a
 * later layer over other buffers needs no new translations: correctness
 * needs only that every translation made since the first layer checks
 * against the ranges of the layer open when it runs.  The ranges change
 * only in the marker helper, which copies them to the thread it runs on
 * and which the checks after it read afresh; any other thread gets them
 * when it next starts to run (dmo_layers.h).  When a layer ends
 * the code stays as it is: its helpers find no open layer and return.
 * Translations are thrown away only when code goes from plain to checked
 * (the first layer; a layer after the checks were dropped), from checked
 * to plain (past many helper calls with no layer open), or when the
 * buffers need another number of ranges (close together or apart). */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "event.h"
#include "dmo_bare.h"
#include "dmo_chain.h"
#include "dmo_entry.h"
#include "dmo_hull.h"
#include "dmo_layers.h"
#include "dmo_stream.h"
#include "dmo_threads.h"
#include "dmo_trace.h"
#include "dmo_where.h"
#include "layer_list.h"
#include "size_text.h"
#include "trace_format.h"
#include "wire.h"

static const HChar *clo_fifo = NULL;
static const HChar *clo_out = NULL;
static Bool clo_full_trace = False;
static Bool clo_count = False;
/* Whether the code counts guest instructions: the full trace's events
 * need their times; a summary needs the count only for layers.csv's
 * instructions column, so only when asked (--dmo-count=yes). */
static Bool count_instructions = False;
static ULong clo_max_mem = (ULong)DMO_MAX_MEM_DEFAULT_MIB << 20;
static const HChar *clo_layers = NULL;
static Bool clo_skip_untraced = False;
/* The process that started Valgrind (dmo profile); 0: not said.  An
 * instance whose parent is another process is a traced child's. */
static Long clo_profiler_pid = 0;

static Bool dmo_process_cmd_line_option(const HChar *arg)
{
	const HChar *trace = NULL, *max_mem = NULL, *untraced = NULL;
	Long version = 0;
	SizeT bad_at;
	if VG_STR_CLO(arg, "--dmo-fifo", clo_fifo) {}
	else if VG_STR_CLO(arg, "--dmo-out", clo_out) {}
	else if VG_STR_CLO(arg, "--dmo-trace", trace) {
		if (VG_(strcmp)(trace, "full") == 0)
			clo_full_trace = True;
		else if (VG_(strcmp)(trace, "summary") == 0)
			clo_full_trace = False;
		else
			VG_(fmsg_bad_option)(arg, "expected summary or full\n");
	} else if VG_BOOL_CLO(arg, "--dmo-count", clo_count) {
	} else if VG_BOOL_CLO(arg, "--dmo-streams", dmo_stream_on) {
	} else if VG_BOOL_CLO(arg, "--dmo-hulls", dmo_hull_on) {
	} else if VG_BOOL_CLO(arg, "--dmo-chains", dmo_chain_on) {
	} else if VG_STR_CLO(arg, "--dmo-layers", clo_layers) {
		if (dmo_layer_list_check(clo_layers, &bad_at) != 0)
			VG_(fmsg_bad_option)(arg, "expected numbers, ranges N-M and names (* and ?"
					     " as wildcards), separated by commas\n");
	} else if VG_STR_CLO(arg, "--dmo-untraced", untraced) {
		if (VG_(strcmp)(untraced, "summary") != 0 && VG_(strcmp)(untraced, "skip") != 0)
			VG_(fmsg_bad_option)(arg, "expected summary or skip\n");
		clo_skip_untraced = VG_(strcmp)(untraced, "skip") == 0;
	} else if VG_INT_CLO(arg, "--dmo-trace-version", version) {
		if (!dmo_trace_set_version((UInt)version))
			VG_(fmsg_bad_option)(arg, "expected 2 (compact) or 1 (16-byte events)\n");
	} else if VG_INT_CLO(arg, "--dmo-profiler-pid", clo_profiler_pid) {
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
"                              [$DMO_FIFO; else the tool makes DIR/dmo.fifo\n"
"                              and tells libdmo-harness]\n"
"    --dmo-out=DIR             run directory for tool-layers.bin and event\n"
"                              files, made if missing; %%p is the pid\n"
"                              [dmo.out.%%p; none with a FIFO given]\n"
"    --dmo-trace=summary|full  summary: per-layer counts and exact O_s;\n"
"                              full: also every event, in layer-NNNN.events\n"
"                              [summary]\n"
"    --dmo-layers=LIST         a full trace keeps only these layers: numbers\n"
"                              (from 1), ranges N-M, names with * and ?,\n"
"                              separated by commas; the others get their\n"
"                              summary rows [all]\n"
"    --dmo-untraced=summary|skip  the layers --dmo-layers leaves out:\n"
"                              summary rows, or skipped (no row, run as\n"
"                              code outside layers) [summary]\n"
"    --dmo-trace-version=2|1   event files in version 2 (compact) or 1\n"
"                              (16 bytes an event) [2]\n"
"    --dmo-count=no|yes        count guest instructions for layers.csv's\n"
"                              instructions column; a full trace always\n"
"                              counts (event times) [no]\n"
"    --dmo-max-mem=SIZE        RAM a full trace may hold (K, M, G suffixes);\n"
"                              beyond it, events go straight to disk ["
				DMO_MAX_MEM_DEFAULT_TEXT "]\n"
"    --dmo-profiler-pid=PID    the process that started Valgrind: a traced\n"
"                              child (--trace-children=yes) records into\n"
"                              DIR/proc-PID with a FIFO of its own [none]\n");
}

static void dmo_print_debug_usage(void)
{
	VG_(printf)(
"    --dmo-streams=yes|no      take accesses that continue a stream at once\n"
"                              (dmo_stream.h); no: each the long way, for\n"
"                              the tests that compare the two [yes]\n"
"    --dmo-hulls=yes|no        check accesses of one address sum once, at the\n"
"                              block's start (dmo_hull.h); no: each where it\n"
"                              is, for the tests that compare the two [yes]\n"
"    --dmo-chains=yes|no       one check and call for two accesses of one\n"
"                              instruction in a block (dmo_chain.h); no: each\n"
"                              its own, for the tests that compare the two [yes]\n");
}

static void dmo_post_clo_init(void)
{
	const HChar *out;
	/* The target finds the FIFO in $DMO_FIFO, so a plain
	 * `DMO_FIFO=F valgrind --tool=dmo PROG` needs no second spelling;
	 * with neither, the tool makes its own (dmo_bare.c). */
	if (clo_fifo == NULL || *clo_fifo == '\0')
		clo_fifo = VG_(getenv)(DMO_FIFO_ENV);
	if (clo_fifo != NULL && *clo_fifo == '\0')
		clo_fifo = NULL;
	out = dmo_bare_out_dir(clo_out, clo_fifo);
	if (out != NULL && clo_profiler_pid > 0 && VG_(getppid)() != clo_profiler_pid) {
		/* A traced child: the profiled process's FIFO and files stay its own. */
		out = dmo_bare_child_out_dir(out);
		clo_fifo = out == NULL ? NULL : dmo_bare_make_fifo(out);
	} else if (clo_fifo == NULL) {
		clo_fifo = dmo_bare_make_fifo(out);
	}
	dmo_bare_set_fifo(clo_fifo);
	count_instructions = clo_full_trace || clo_count;
	dmo_layers_init(clo_fifo, out, clo_full_trace, count_instructions, clo_max_mem);
	if (clo_layers != NULL)
		dmo_layers_trace_only(clo_layers, clo_skip_untraced);
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
	UInt thread = dmo_threads_number(tid);
	(void)blocks_done;
	/* Valgrind starts a thread again after each new translation too;
	 * only another thread ends a stream here. */
	if (thread != dmo_running_tid)
		dmo_stream_end();
	dmo_running_tid = thread;
	dmo_watch_publish(tid);
}

/* Threads alive while a layer is open (dmo_layers.h), and a new thread's
 * own number (dmo_threads.h); kept apart from the instrumentation, which
 * learns nothing from them. */
static void dmo_thread_created(ThreadId parent, ThreadId child)
{
	(void)parent;
	dmo_threads_created(child);
	dmo_layers_thread_created();
}

static void dmo_thread_exited(ThreadId tid)
{
	(void)tid;
	dmo_layers_thread_exited();
}

static void dmo_pre_syscall(ThreadId tid, UInt syscallno, UWord *args, UInt nArgs)
{
	(void)tid; (void)syscallno; (void)args; (void)nArgs;
}

/* ---- run-time helpers called from instrumented code ---- */

/* The open layer, or NULL: code translated with checks keeps calling the
 * helpers when it touches the last layer's buffers between layers, and
 * past a few such calls dmo_layers_idle_access stops watching them. */
static inline const struct dmo_active_layer *open_layer(void)
{
	if (dmo_active == NULL)
		dmo_layers_idle_access();
	return dmo_active;
}

/* The hot path, run for every access that passes the inline range check:
 * clip to the buffer, fold into the reducer noting the instruction's SITE
 * (dmo_where.h), and keep the event when the full trace is on.  Returns whether the access lies wholly inside this
 * buffer: it then cannot touch the other one.  Most do, so that is tested
 * first. */
static inline __attribute__((always_inline)) Bool record(UInt flags, Addr base, ULong len, Addr addr, UWord size,
			  UWord time_offset, struct dmo_site *site)
{
	uint64_t offset = addr - base, clipped = size;
	Bool inside = size <= len && offset <= len - size;
	if (!inside && !dmo_clip(addr, size, base, len, &offset, &clipped))
		return False;
	dmo_where_add(&dmo_active->reducer, dmo_running_tid, site, flags, offset, clipped);
	if (dmo_trace_on)
		dmo_trace_event(flags, offset, clipped, dmo_instructions + time_offset,
				dmo_running_tid);
	return inside;
}

/* One access of unknown buffer (one range covers both): the likelier
 * buffer first, the other only if the access is not wholly inside it.  A
 * write at their junction counts its output part first, the order that
 * can only forbid more placements.  An access that passed the range check
 * but touches neither (the slack below a buffer, the gap between them)
 * records nothing.  The general path, out of line: quick() takes the
 * common access. */
static __attribute__((noinline)) void record_either(Bool write, Addr addr, UWord size,
						    UWord time_offset, struct dmo_site *site)
{
	const struct dmo_active_layer *l = open_layer();
	if (l == NULL)
		return;
	if (write) {
		if (!record(DMO_EV_OUT | DMO_EV_WRITE, l->out_addr, l->out_bytes, addr, size,
			    time_offset, site))
			record(DMO_EV_WRITE, l->in_addr, l->in_bytes, addr, size, time_offset, site);
	} else if (!record(0, l->in_addr, l->in_bytes, addr, size, time_offset, site)) {
		record(DMO_EV_OUT, l->out_addr, l->out_bytes, addr, size, time_offset, site);
	}
}

/* One access near one buffer (two ranges: range 0 is the input); the
 * general path, as record_either. */
static __attribute__((noinline)) void record_one(UInt flags, Addr addr, UWord size,
						 UWord time_offset, struct dmo_site *site)
{
	const struct dmo_active_layer *l = open_layer();
	if (l == NULL)
		return;
	if (flags & DMO_EV_OUT)
		record(flags, l->out_addr, l->out_bytes, addr, size, time_offset, site);
	else
		record(flags, l->in_addr, l->in_bytes, addr, size, time_offset, site);
}

/* The common access: a layer open, the access wholly inside the buffer
 * FLAGS names, its thread the layer's only one, its site counted in this
 * layer.  Returns the layer and sets *OFFSET, or returns NULL. */
static inline __attribute__((always_inline)) struct dmo_active_layer *
common_access(UInt flags, Addr addr, UWord size, const struct dmo_site *site, ULong *offset)
{
	struct dmo_active_layer *l = dmo_active;
	Addr base;
	ULong len;
	if (l == NULL)
		return NULL;
	base = flags & DMO_EV_OUT ? l->out_addr : l->in_addr;
	len = flags & DMO_EV_OUT ? l->out_bytes : l->in_bytes;
	*offset = addr - base;
	if (!(size <= len && *offset <= len - size) || dmo_running_tid != l->reducer.only_tid ||
	    site->layer != dmo_where.layer)
		return NULL;
	return l;
}

/* What record() does for a common access besides its event, in an order
 * that puts the one call left (a moved extreme, rare) last. */
static inline __attribute__((always_inline)) void fold_common(struct dmo_active_layer *l,
							      UInt flags, ULong offset,
							      UWord size,
							      struct dmo_site *site)
{
	unsigned moved = dmo_any_fold(l->reducer.threads, flags, offset, size);
	site->counts[dmo_event_kind((UChar)flags)]++;
	if (moved != 0)
		dmo_where_moved(site, flags, offset, size, moved);
}

/* The long way's first try when no stream was just taken: a common
 * access whose event, if the trace is on, is version 2's tag byte alone
 * (an access of a loop that takes turns with another, say; TURN: one that
 * dmo_stream_takes_turns).  Anything else changes nothing, returns False,
 * and the helper calls general(). */
static inline __attribute__((always_inline)) Bool quick_short(UInt flags, Addr addr,
							      const struct dmo_probe *p, Bool turn)
{
	struct dmo_site *site = p->site;
	ULong offset;
	struct dmo_active_layer *l = common_access(flags, addr, p->size, site, &offset);
	if (l == NULL)
		return False;
	if (dmo_trace_on && !dmo_trace_put_short(flags, offset, p->size,
						 dmo_instructions + p->time_offset,
						 dmo_running_tid))
		return False;
	if (turn)
		dmo_stream_first(addr, p);
	else
		dmo_stream_note(flags, addr, p, addr - offset,
				flags & DMO_EV_OUT ? l->out_bytes : l->in_bytes, False);
	fold_common(l, flags, offset, p->size, site);
	return True;
}

/* A common access with any event (record()'s work without its calls),
 * or False with nothing changed. */
static inline __attribute__((always_inline)) Bool quick(UInt flags, Addr addr,
							const struct dmo_probe *p, Bool taken)
{
	ULong offset;
	struct dmo_active_layer *l = common_access(flags, addr, p->size, p->site, &offset);
	if (l == NULL)
		return False;
	if (dmo_trace_on) {
		if (dmo_trace_next > dmo_trace_limit)
			return False;
		dmo_trace_put(flags, offset, p->size, dmo_instructions + p->time_offset,
			      dmo_running_tid);
	}
	dmo_stream_note(flags, addr, p, addr - offset,
			flags & DMO_EV_OUT ? l->out_bytes : l->in_bytes, taken);
	fold_common(l, flags, offset, p->size, p->site);
	return True;
}

/* The helpers' path when quick_short() declined, out of line: quick(),
 * else the full work, record_either() for the one range over both
 * buffers (EITHER), record_one() for a range of one; no stream follows
 * those. */
static __attribute__((noinline)) void general(UInt flags, Bool either, Addr a,
					      const struct dmo_probe *p, Bool taken)
{
	if (quick(flags, a, p, taken))
		return;
	dmo_stream_break();
	if (either)
		record_either((flags & DMO_EV_WRITE) != 0, a, p->size, p->time_offset, p->site);
	else
		record_one(flags, a, p->size, p->time_offset, p->site);
}

/* An access that neither continues the stream nor takes turns with
 * another instruction's: noted if it goes on in the stream, else flush
 * the stream, then the common access, else the general path. */
static inline __attribute__((always_inline)) void access_slow(UInt flags, Bool either, Addr a,
							      const struct dmo_probe *p)
{
	Bool taken;
	dmo_stream_settle();
	taken = dmo_stream.pending != 0;
	if (dmo_stream_goes_on(a, p)) {
		dmo_stream_moves(a, p);
		return;
	}
	dmo_stream_stats.long_way++;
	if (taken)
		dmo_stream_flush();
	/* After a stream the access is seldom the tag byte alone (a jump,
	 * or another instruction's first access for a while). */
	if (taken || !quick_short(flags, a, p, False))
		general(flags, either, a, p, taken && p->stream == dmo_stream.key);
}

/* The helpers: one per range shape and kind, so nothing is decided at run
 * time that the instrumenter knew.  Each takes the access's address and
 * its probe (dmo_where.h): size, site, and the time offset a full
 * trace's event needs.  With one range a read is tried on the input
 * first, a write on the output.  A helper continues the stream
 * (dmo_stream.h), and takes the common access of instructions taking
 * turns, inline, saving no register; any other access goes to a copy of
 * access_slow of its own: with the kind a variable there, the common
 * access lost much of its speed (bench/README.md). */
#define DMO_HELPER(name, flags, either)                                                  \
	static __attribute__((noinline)) void name##_slow(Addr a, const struct dmo_probe *p) \
	{                                                                                \
		access_slow(flags, either, a, p);                                        \
	}                                                                                \
	static VG_REGPARM(2) void name(Addr a, const struct dmo_probe *p)                \
	{                                                                                \
		if (dmo_stream_extends(a, p))                                            \
			return;                                                          \
		if (dmo_stream_takes_turns(p) && quick_short(flags, a, p, True))         \
			return;                                                          \
		name##_slow(a, p);                                                       \
	}
DMO_HELPER(on_read, 0, True)
DMO_HELPER(on_write, DMO_EV_OUT | DMO_EV_WRITE, True)
DMO_HELPER(on_in_read, 0, False)
DMO_HELPER(on_in_write, DMO_EV_WRITE, False)
DMO_HELPER(on_out_read, DMO_EV_OUT, False)
DMO_HELPER(on_out_write, DMO_EV_OUT | DMO_EV_WRITE, False)

/* A chain's lead (dmo_chain.h): its probe says which helper takes its
 * accesses the long way. */
static VG_REGPARM(2) void on_lead(Addr a, struct dmo_probe *p)
{
	if (dmo_stream_leads(a, p))
		return;
	dmo_stream_lead(a, p);
}

static VG_REGPARM(2) UWord on_marker(UWord word, ULong value)
{
	return dmo_layers_marker(word, value);
}

/* ---- instrumentation ---- */

struct sb_state {
	IRSB *out;
	Addr instr;           /* guest address of the current instruction */
	Addr next_instr;      /* guest address after it */
	UInt pending_instrs;  /* instructions not yet added to dmo_instructions */
	UInt block_instrs;    /* all the block's instructions, when counted */
	/* dmo_instructions as loaded at the block's first flush, and the
	 * instructions flushed onto it since: a later flush stores their sum
	 * without loading the word again, which the last flush stored (each
	 * load would wait on that store).  IRTemp_INVALID until the first
	 * flush, and again after a marker, whose helper may reset the count. */
	IRTemp count_base;
	UInt flushed_instrs;
	Bool active;          /* translated with checks (dmo_watched set) */
	UInt n_ranges;        /* dmo_watch.n_ranges it was translated for */
	Int shadow;           /* the offset of guest state's first shadow area */
	/* The last chain's lead (dmo_chain.h), and what its follower's code
	 * adds to count_base (or to the count, loaded, if there is no
	 * count_base yet) to store the count the lead saw. */
	struct dmo_probe *lead;
	UInt lead_flushed;
};

static IRExpr *tmp_of(IRSB *sb, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(sb->tyenv, ty);
	addStmtToIRSB(sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

/* Word I of the running thread's copy of dmo_watch's ranges
 * (DMO_WATCH_SHADOW): 0 and 1 lo, 2 and 3 span.  Read afresh by each
 * check: Valgrind runs no redundant-read removal after instrumentation,
 * so each read is a memory operand of the compare that uses it. */
static IRExpr *watch_word(struct sb_state *st, UInt i)
{
	return tmp_of(st->out, Ity_I64,
		      IRExpr_Get(st->shadow + DMO_WATCH_SHADOW + 8 * (Int)i, Ity_I64));
}

/* A side exit that raises a signal in the guest: VEX's checks before an
 * instruction that would fault (a misaligned movaps, say, one in each
 * iteration of a vectorised loop's store).  No instruction count is
 * flushed before it, six host instructions and a spill fewer an
 * iteration of the depthwise benchmark's loop (bench/README.md): when
 * taken, the instructions of the block before it go uncounted, as they
 * do when a load or store faults; on_fault_signal keeps times going
 * forwards. */
static Bool raises_signal(IRJumpKind jk)
{
	return jk == Ijk_SigILL || jk == Ijk_SigTRAP || jk == Ijk_SigSEGV || jk == Ijk_SigBUS ||
	       jk == Ijk_SigFPE || jk == Ijk_SigFPE_IntDiv || jk == Ijk_SigFPE_IntOvf;
}

/* The most instructions of any block translated with a counter. */
static UInt most_block_instrs = 0;

/* A fault's signal left its block with instructions of the block not yet
 * added to dmo_instructions (above), and events of the block already
 * timed by them: count a whole block's worth, the most a block holds, so
 * that every event after comes later than every event before.  The
 * layer's instruction count may then be over by as many: a layer's code
 * that faults and goes on is rare, and time must not go backwards. */
static void on_fault_signal(ThreadId tid, Int signal, Bool alt_stack)
{
	(void)tid; (void)alt_stack;
	if (signal == VKI_SIGSEGV || signal == VKI_SIGBUS || signal == VKI_SIGILL ||
	    signal == VKI_SIGFPE || signal == VKI_SIGTRAP)
		dmo_instructions += most_block_instrs;
}

static void flush_instructions(struct sb_state *st)
{
	IRExpr *counter = mkIRExpr_HWord((HWord)&dmo_instructions);
	IRExpr *sum;
	if (st->pending_instrs == 0)
		return;
	if (st->count_base == IRTemp_INVALID) {
		st->count_base = newIRTemp(st->out->tyenv, Ity_I64);
		addStmtToIRSB(st->out, IRStmt_WrTmp(st->count_base,
						    IRExpr_Load(Iend_LE, Ity_I64, counter)));
		st->flushed_instrs = 0;
	}
	st->flushed_instrs += st->pending_instrs;
	sum = tmp_of(st->out, Ity_I64,
		     IRExpr_Binop(Iop_Add64, IRExpr_RdTmp(st->count_base),
				  IRExpr_Const(IRConst_U64(st->flushed_instrs))));
	addStmtToIRSB(st->out, IRStmt_Store(Iend_LE, counter, sum));
	st->pending_instrs = 0;
}

struct helper {
	const HChar *name;
	void *fn;
};

/* [range shape][kind]: the range shape is 0 for the one range over both
 * buffers (kinds 0 read, 1 write), 1 for the input's range and 2 for the
 * output's (kinds 0 read, 1 write). */
static const struct helper helpers[3][2] = {
	{ { "dmo_on_read", on_read }, { "dmo_on_write", on_write } },
	{ { "dmo_on_in_read", on_in_read }, { "dmo_on_in_write", on_in_write } },
	{ { "dmo_on_out_read", on_out_read }, { "dmo_on_out_write", on_out_write } },
};

/* A call of ENTRY (a probe's entry point into its helper, dmo_entry.h)
 * with ADDR, guarded by an inline check of range K of dmo_watch against
 * [addr+from, addr+from+size) (FROM below 0: a chain going backwards,
 * dmo_chain.h).  For size <= DMO_WATCH_SLACK + 1 the range's slack
 * makes it one compare:
 *    t = addr - lo[k];  if (t <u span[k]) entry(addr)
 * A wider access (an xsave, say, or a hull) adds E = size - 1 -
 * DMO_WATCH_SLACK to both sides, which makes the test exact:
 *    t = addr + E - lo[k];  if (t <u span[k] + E) ...
 * HULL: a hull's check (dmo_hull.h), whose helper takes no address (one
 * move less a check) and may set the thread's leave flag. */
static void call_if_touching(struct sb_state *st, IRExpr *addr, Long from, ULong size, UInt k,
			     IRExpr *guard, const HChar *name, void *entry, Bool hull)
{
	IRExpr *exact_addr = addr; /* the helper's; ADDR may be moved below */
	IRExpr *lo = watch_word(st, k);
	IRExpr *span = watch_word(st, 2 + k);
	IRExpr *rel, *hit;
	IRDirty *call;
	if (from != 0)
		addr = tmp_of(st->out, Ity_I64,
			      IRExpr_Binop(Iop_Add64, addr, IRExpr_Const(IRConst_U64((ULong)from))));
	if (size > DMO_WATCH_SLACK + 1) {
		IRExpr *extra = IRExpr_Const(IRConst_U64(size - 1 - DMO_WATCH_SLACK));
		addr = tmp_of(st->out, Ity_I64, IRExpr_Binop(Iop_Add64, addr, extra));
		span = tmp_of(st->out, Ity_I64, IRExpr_Binop(Iop_Add64, span, extra));
	}
	rel = tmp_of(st->out, Ity_I64, IRExpr_Binop(Iop_Sub64, addr, lo));
	hit = tmp_of(st->out, Ity_I1, IRExpr_Binop(Iop_CmpLT64U, rel, span));
	if (guard != NULL)
		hit = tmp_of(st->out, Ity_I1, IRExpr_Binop(Iop_And1, hit, guard));
	call = hull ? unsafeIRDirty_0_N(0, name, entry, mkIRExprVec_0())
		    : unsafeIRDirty_0_N(1, name, entry, mkIRExprVec_1(exact_addr));
	call->guard = hit;
	if (hull) {
		call->nFxState = 1;
		call->fxState[0].fx = Ifx_Write;
		call->fxState[0].offset = st->shadow + DMO_HULL_LEAVE;
		call->fxState[0].size = 8;
		call->fxState[0].nRepeats = 0;
		call->fxState[0].repeatLen = 0;
	}
	addStmtToIRSB(st->out, IRStmt_Dirty(call));
}

/* PROBE's entry point into FN, made on first use. */
static void *entry_of(struct dmo_probe *probe, void *fn)
{
	if (probe->entry == NULL)
		probe->entry = dmo_entry_make(VG_(fnptr_to_fnentry)(fn), probe);
	return probe->entry;
}

/* The check of an access of the current instruction against range K,
 * calling HELPER when it touches. */
static void check_access(struct sb_state *st, IRExpr *addr, UInt size, UInt k, IRExpr *guard,
			 const struct helper *helper)
{
	/* The instruction being executed has not been counted yet. */
	struct dmo_probe *probe = dmo_where_probe(st->instr, size,
						  (UWord)((Long)st->pending_instrs - 1),
						  (UInt)(helper - &helpers[0][0]));
	call_if_touching(st, addr, 0, size, k, guard, helper->name, entry_of(probe, helper->fn),
			 False);
}

/* A chain's lead (dmo_chain.h), the access at ADDR of SIZE bytes, with
 * its follower as LINK says: one check over both, calling on_lead. */
static void watch_lead(struct sb_state *st, IRExpr *addr, UInt size, Bool write,
		       const struct dmo_chain_link *link)
{
	const struct helper *helper = &helpers[0][write];
	struct dmo_probe *plain = dmo_where_probe(st->instr, size,
						  (UWord)((Long)st->pending_instrs - 1),
						  (UInt)(helper - &helpers[0][0]));
	struct dmo_probe *lead = dmo_where_lead_probe(plain, DMO_CHAIN_PROBE_HELPER + write,
						      link->stride, link->step);
	lead->take = helper->fn;
	st->lead = lead;
	/* The count the lead sees: count_base plus what was flushed onto
	 * it, or the count as the block began. */
	st->lead_flushed = st->count_base != IRTemp_INVALID ? st->flushed_instrs : 0;
	/* Forwards from the lead to the follower's end, or backwards from
	 * the follower to the lead's. */
	call_if_touching(st, addr, link->stride < 0 ? link->stride : 0,
			 size + (ULong)(link->stride < 0 ? -link->stride : link->stride), 0, NULL,
			 "dmo_on_lead", entry_of(lead, on_lead), False);
}

/* A chain's follower, of SIZE bytes, has run: store the count its lead
 * saw in the lead's word. */
static void follower_ran(struct sb_state *st, UInt size, Bool write)
{
	IRExpr *seen;
	st->lead->follower = dmo_where_probe(st->instr, size, (UWord)((Long)st->pending_instrs - 1),
					     (UInt)(&helpers[0][write] - &helpers[0][0]));
	/* With no flush since the block began, count_base is the count. */
	if (st->count_base != IRTemp_INVALID)
		seen = IRExpr_RdTmp(st->count_base);
	else
		seen = tmp_of(st->out, Ity_I64,
			      IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)&dmo_instructions)));
	if (st->lead_flushed != 0)
		seen = tmp_of(st->out, Ity_I64,
			      IRExpr_Binop(Iop_Add64, seen,
					   IRExpr_Const(IRConst_U64(st->lead_flushed))));
	addStmtToIRSB(st->out, IRStmt_Store(Iend_LE, mkIRExpr_HWord((HWord)&st->lead->ran), seen));
}

static void watch(struct sb_state *st, IRExpr *addr, UInt size, Bool write,
		  IRExpr *guard)
{
	if (!st->active)
		return;
	/* Flat IR: addresses and guards are atoms of the host word; the
	 * helper and the events take the size as given. */
	tl_assert(addr != NULL && isIRAtom(addr));
	tl_assert(typeOfIRExpr(st->out->tyenv, addr) == Ity_I64);
	tl_assert(guard == NULL || typeOfIRExpr(st->out->tyenv, guard) == Ity_I1);
	tl_assert(size > 0);
	/* Every access belongs to an instruction: an IMark came first. */
	tl_assert(st->next_instr != 0);
	if (st->n_ranges == 1) {
		check_access(st, addr, size, 0, guard, &helpers[0][write]);
		return;
	}
	check_access(st, addr, size, 0, guard, &helpers[1][write]);
	check_access(st, addr, size, 1, guard, &helpers[2][write]);
}

/* Whether S is a store to a marker word (dmo_layers.h). */
static Bool is_marker_store(const IRStmt *s)
{
	Addr marker = dmo_layers_marker_addr();
	const IRExpr *addr;
	ULong where;
	if (s->tag != Ist_Store || marker == 0)
		return False;
	addr = s->Ist.Store.addr;
	if (addr->tag != Iex_Const)
		return False;
	tl_assert(addr->Iex.Const.con->tag == Ico_U64);
	where = addr->Iex.Const.con->Ico.U64;
	return where == marker || where == marker + 8;
}

/* A store to a marker word: call on_marker after it, and if the
 * translations were thrown away (the first layer, or a change of range
 * shape: this block has no checks, or the wrong ones) leave this
 * translation at the next instruction.  Otherwise the block goes on, its
 * checks after the store reading the ranges the helper copied. */
static void watch_marker(struct sb_state *st, IRStmt *store)
{
	IRExpr *data = store->Ist.Store.data;
	Bool first_word;
	IRTemp changed;
	IRDirty *call;
	IRExpr *leave;
	if (!is_marker_store(store) || typeOfIRExpr(st->out->tyenv, data) != Ity_I64)
		return;
	first_word = store->Ist.Store.addr->Iex.Const.con->Ico.U64 == dmo_layers_marker_addr();
	flush_instructions(st);
	changed = newIRTemp(st->out->tyenv, Ity_I64);
	call = unsafeIRDirty_1_N(changed, 2, "dmo_on_marker", VG_(fnptr_to_fnentry)(on_marker),
				 mkIRExprVec_2(mkIRExpr_HWord(first_word ? 0 : 1), data));
	/* It may open a layer, and write the ranges' copy the checks read. */
	call->nFxState = 1;
	call->fxState[0].fx = Ifx_Write;
	call->fxState[0].offset = st->shadow + DMO_WATCH_SHADOW;
	call->fxState[0].size = DMO_WATCH_SHADOW_BYTES;
	call->fxState[0].nRepeats = 0;
	call->fxState[0].repeatLen = 0;
	addStmtToIRSB(st->out, IRStmt_Dirty(call));
	st->count_base = IRTemp_INVALID;
	leave = tmp_of(st->out, Ity_I1,
		       IRExpr_Binop(Iop_CmpNE64, IRExpr_RdTmp(changed),
				    IRExpr_Const(IRConst_U64(0))));
	tl_assert(st->next_instr != 0);
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

static void watch_cas(struct sb_state *st, IRCAS *cas, Bool write)
{
	IRType ty = typeOfIRExpr(st->out->tyenv, cas->dataLo);
	UInt size = sizeofIRType(ty);
	/* A double CAS has two halves of one type. */
	tl_assert(cas->dataHi == NULL || typeOfIRExpr(st->out->tyenv, cas->dataHi) == ty);
	if (cas->dataHi != NULL)
		size *= 2;
	/* A CAS reads, then writes; counting the write even when the compare
	 * fails can only make O_s smaller, never unsafe. */
	watch(st, cas->addr, size, write, NULL);
}

static void watch_dirty(struct sb_state *st, IRDirty *d, Bool write)
{
	if (d->mFx == Ifx_None)
		return;
	/* A helper that touches memory says where and how much. */
	tl_assert(d->mAddr != NULL);
	tl_assert(d->mSize != 0);
	if (!write && (d->mFx == Ifx_Read || d->mFx == Ifx_Modify))
		watch(st, d->mAddr, d->mSize, False, d->guard);
	if (write && (d->mFx == Ifx_Write || d->mFx == Ifx_Modify))
		watch(st, d->mAddr, d->mSize, True, d->guard);
}

/* The checks of statement S's reads (WRITES False), made before it, or
 * of its writes, made after it.  After the store, a check's call finds
 * the stored value dead: before it, a vector computed for the store
 * lived across the call, spilled and reloaded (every vector register is
 * lost at a call, taken or not), once an element of an element-wise op
 * (bench/README.md).  A read's check stays before the load, whose value
 * would live across it.  A store that faults now runs no check, as it
 * writes nothing. */
static void watch_stmt(struct sb_state *st, IRStmt *s, Bool writes)
{
	IRTypeEnv *env = st->out->tyenv;
	switch (s->tag) {
	case Ist_WrTmp:
		if (!writes && s->Ist.WrTmp.data->tag == Iex_Load)
			watch(st, s->Ist.WrTmp.data->Iex.Load.addr,
			      sizeofIRType(s->Ist.WrTmp.data->Iex.Load.ty), False, NULL);
		break;
	case Ist_Store:
		if (writes)
			watch(st, s->Ist.Store.addr,
			      sizeofIRType(typeOfIRExpr(env, s->Ist.Store.data)), True, NULL);
		break;
	case Ist_LoadG:
		if (!writes)
			watch(st, s->Ist.LoadG.details->addr,
			      load_g_size(s->Ist.LoadG.details->cvt), False,
			      s->Ist.LoadG.details->guard);
		break;
	case Ist_StoreG:
		if (writes)
			watch(st, s->Ist.StoreG.details->addr,
			      sizeofIRType(typeOfIRExpr(env, s->Ist.StoreG.details->data)),
			      True, s->Ist.StoreG.details->guard);
		break;
	case Ist_CAS:
		watch_cas(st, s->Ist.CAS.details, writes);
		break;
	case Ist_LLSC:
		/* A store-conditional is counted as a write even if it
		 * fails: conservative, as for CAS. */
		if (!writes && s->Ist.LLSC.storedata == NULL)
			watch(st, s->Ist.LLSC.addr,
			      sizeofIRType(typeOfIRTemp(env, s->Ist.LLSC.result)), False, NULL);
		else if (writes && s->Ist.LLSC.storedata != NULL)
			watch(st, s->Ist.LLSC.addr,
			      sizeofIRType(typeOfIRExpr(env, s->Ist.LLSC.storedata)), True, NULL);
		break;
	case Ist_Dirty:
		watch_dirty(st, s->Ist.Dirty.details, writes);
		break;
	default:
		break;
	}
}

/* Statement S (a load or a store, dmo_chain_find's) of a chain, as LINK
 * says: a lead's check, or a follower's store of the count its lead saw,
 * each where a check of the access would be (a load's before it, a
 * store's after it), so that a load that faults counts as run, as its
 * check would have. */
static void chain_stmt(struct sb_state *st, IRStmt *s, const struct dmo_chain_link *link)
{
	Bool write = s->tag == Ist_Store;
	IRExpr *addr = write ? s->Ist.Store.addr : s->Ist.WrTmp.data->Iex.Load.addr;
	UInt size = sizeofIRType(write ? typeOfIRExpr(st->out->tyenv, s->Ist.Store.data)
				       : s->Ist.WrTmp.data->Iex.Load.ty);
	tl_assert(write || (s->tag == Ist_WrTmp && s->Ist.WrTmp.data->tag == Iex_Load));
	if (!write && link->follower >= 0)
		watch_lead(st, addr, size, False, link);
	if (!write && link->lead >= 0)
		follower_ran(st, size, False);
	addStmtToIRSB(st->out, s);
	if (write && link->follower >= 0)
		watch_lead(st, addr, size, True, link);
	if (write && link->lead >= 0)
		follower_ran(st, size, True);
}

/* H's lowest address from the guest registers: right at a block's
 * start, before any of them is written. */
static IRExpr *hull_address(struct sb_state *st, const struct dmo_hull *h)
{
	IRExpr *sum = NULL;
	UInt i;
	for (i = 0; i < h->at.n; i++) {
		IRExpr *term = tmp_of(st->out, Ity_I64, IRExpr_Get(h->at.offset[i], Ity_I64));
		Long f = h->at.factor[i];
		if (f > 0 && (f & (f - 1)) == 0) {
			if (f > 1)
				term = tmp_of(st->out, Ity_I64,
					      IRExpr_Binop(Iop_Shl64, term,
							   IRExpr_Const(IRConst_U8(__builtin_ctzll((ULong)f)))));
		} else {
			term = tmp_of(st->out, Ity_I64,
				      IRExpr_Binop(Iop_Mul64, term, IRExpr_Const(IRConst_U64((ULong)f))));
		}
		sum = sum == NULL ? term : tmp_of(st->out, Ity_I64, IRExpr_Binop(Iop_Add64, sum, term));
	}
	if (sum == NULL)
		return IRExpr_Const(IRConst_U64((ULong)h->lo));
	if (h->lo == 0)
		return sum;
	return tmp_of(st->out, Ity_I64,
		      IRExpr_Binop(Iop_Add64, sum, IRExpr_Const(IRConst_U64((ULong)h->lo))));
}

/* The checks of block IN's hulls (dmo_hull.h), before its first
 * instruction (statement FIRST), and the exit that leaves the block
 * when one of them passed; returns which statements' accesses the hulls
 * cover (NULL: none), for the caller to free. */
static Bool *watch_hulls(struct sb_state *st, const IRSB *in, Int first)
{
	struct dmo_hull hulls[DMO_HULLS];
	Bool *covered;
	/* Hull probes never share an access's (dmo_hull.h). */
	STATIC_ASSERT(sizeof helpers / sizeof helpers[0][0] == DMO_HULL_PROBE_HELPER);
	IRExpr *leave;
	UInt n, h, k;
	/* The block a passing hull check left for: Valgrind's scheduler
	 * runs it at once and stops at a second such exit, so it has none. */
	if (dmo_hull_leaving) {
		dmo_hull_leaving = False;
		return NULL;
	}
	if (!st->active || !dmo_hull_on)
		return NULL;
	covered = VG_(calloc)("dmo.hull.covered", in->stmts_used, sizeof *covered);
	n = dmo_hull_find(in, first, st->shadow, is_marker_store, hulls, covered);
	if (n == 0) {
		VG_(free)(covered);
		return NULL;
	}
	for (h = 0; h < n; h++) {
		IRExpr *addr = hull_address(st, &hulls[h]);
		struct dmo_probe *probe = dmo_where_probe(hulls[h].first_ip, hulls[h].bytes, 0,
							  DMO_HULL_PROBE_HELPER + hulls[h].first_writes);
		for (k = 0; k < st->n_ranges; k++)
			call_if_touching(st, addr, 0, hulls[h].bytes, k, NULL, "dmo_hull_touched",
					 entry_of(probe, dmo_hull_touched), True);
	}
	/* Read and clear the flag a passing check set, and leave for the
	 * block's start: not through the table of redirected code, which
	 * would take a block reached from a function wrapper's call of the
	 * original back into the wrapper. */
	leave = tmp_of(st->out, Ity_I64, IRExpr_Get(st->shadow + DMO_HULL_LEAVE, Ity_I64));
	addStmtToIRSB(st->out, IRStmt_Put(st->shadow + DMO_HULL_LEAVE,
					  IRExpr_Const(IRConst_U64(0))));
	addStmtToIRSB(st->out, IRStmt_Exit(tmp_of(st->out, Ity_I1,
						  IRExpr_Binop(Iop_CmpNE64, leave,
							       IRExpr_Const(IRConst_U64(0)))),
					   Ijk_NoRedir, IRConst_U64(in->stmts[first]->Ist.IMark.addr),
					   st->out->offsIP));
	dmo_hull_blocks++;
	return covered;
}

static IRSB *dmo_instrument(VgCallbackClosure *closure, IRSB *in,
			    const VexGuestLayout *layout, const VexGuestExtents *vge,
			    const VexArchInfo *archinfo_host, IRType gWordTy,
			    IRType hWordTy)
{
	struct sb_state st = { 0 };
	Bool *covered = NULL;
	struct dmo_chain_link *links = NULL;
	Int i;
	(void)closure; (void)vge; (void)archinfo_host;

	if (gWordTy != hWordTy)
		VG_(tool_panic)("host/guest word size mismatch");
	tl_assert(gWordTy == Ity_I64);

	st.out = deepCopyIRSBExceptStmts(in);
	st.shadow = layout->total_sizeB;
	st.count_base = IRTemp_INVALID;
	if (dmo_watched != NULL) {
		st.active = True;
		st.n_ranges = dmo_watch.n_ranges;
		tl_assert(st.n_ranges == 1 || st.n_ranges == 2);
	}
	/* Copy the preamble up to the first IMark unchanged. */
	for (i = 0; i < in->stmts_used && in->stmts[i]->tag != Ist_IMark; i++)
		addStmtToIRSB(st.out, in->stmts[i]);
	if (i < in->stmts_used)
		covered = watch_hulls(&st, in, i);
	/* Chains need a count and the one range (dmo_chain.h). */
	if (i < in->stmts_used && st.active && count_instructions && st.n_ranges == 1 &&
	    dmo_chain_on) {
		links = VG_(malloc)("dmo.chain.links", in->stmts_used * sizeof *links);
		UInt n = dmo_chain_find(in, i, st.shadow, is_marker_store, covered, links);
		dmo_chain_blocks += n > 0;
		if (n == 0) {
			VG_(free)(links);
			links = NULL;
		}
	}
	for (; i < in->stmts_used; i++) {
		IRStmt *s = in->stmts[i];
		/* The instrumenter reads addresses and guards as atoms. */
		tl_assert(isFlatIRStmt(s));
		switch (s->tag) {
		case Ist_IMark:
			st.instr = s->Ist.IMark.addr;
			st.next_instr = s->Ist.IMark.addr + s->Ist.IMark.len;
			if (st.active && count_instructions) {
				st.pending_instrs++;
				st.block_instrs++;
			}
			break;
		case Ist_Exit:
			if (st.active && !raises_signal(s->Ist.Exit.jk))
				flush_instructions(&st);
			break;
		default:
			break;
		}
		if (links != NULL && (links[i].follower >= 0 || links[i].lead >= 0)) {
			chain_stmt(&st, s, &links[i]);
			continue;
		}
		if (covered == NULL || !covered[i])
			watch_stmt(&st, s, False);
		addStmtToIRSB(st.out, s);
		if (covered == NULL || !covered[i])
			watch_stmt(&st, s, True);
		if (s->tag == Ist_Store)
			watch_marker(&st, s);
	}
	if (st.active)
		flush_instructions(&st);
	if (st.block_instrs > most_block_instrs)
		most_block_instrs = st.block_instrs;
	if (covered != NULL)
		VG_(free)(covered);
	if (links != NULL)
		VG_(free)(links);
	return st.out;
}

static void dmo_fini(Int exitcode)
{
	(void)exitcode;
	if (VG_(clo_stats))
		VG_(umsg)("dmo: accesses the helpers saw: %llu in streams (%llu of them off the"
			  " stream's steps), %llu the long way\n", dmo_stream_stats.streamed,
			  dmo_stream_stats.moved, dmo_stream_stats.long_way);
	if (VG_(clo_stats))
		VG_(umsg)("dmo: runs with moves traced again from kept bytes: %llu\n",
			  dmo_stream_stats.replayed);
	if (VG_(clo_stats))
		VG_(umsg)("dmo: blocks translated with hulls: %llu; hull checks that passed: %llu\n",
			  dmo_hull_blocks, dmo_hull_touches);
	if (VG_(clo_stats))
		VG_(umsg)("dmo: blocks translated with chains: %llu; followers given back: %llu,"
			  " taken by their own helper: %llu\n", dmo_chain_blocks,
			  dmo_stream_stats.given_back, dmo_stream_stats.settled_long_way);
	dmo_bare_fini(dmo_layers_fini());
}

static void dmo_pre_clo_init(void)
{
	VG_(details_name)("dmo");
	VG_(details_version)(PACKAGE_VERSION);
	VG_(details_description)("the diagonal memory optimisation profiler");
	VG_(details_copyright_author)("Copyright (C) the dmo authors.");
	VG_(details_bug_reports_to)("the dmo issue tracker");
	VG_(details_avg_translation_sizeB)(275);
	dmo_where_pre_clo_init();

	VG_(basic_tool_funcs)(dmo_post_clo_init, dmo_instrument, dmo_fini);
	VG_(needs_command_line_options)(dmo_process_cmd_line_option, dmo_print_usage,
					dmo_print_debug_usage);
	VG_(needs_syscall_wrapper)(dmo_pre_syscall, dmo_post_syscall);
	VG_(needs_client_requests)(dmo_bare_client_request);
	VG_(track_start_client_code)(dmo_start_client_code);
	VG_(track_pre_deliver_signal)(on_fault_signal);
	VG_(track_pre_thread_ll_create)(dmo_thread_created);
	VG_(track_pre_thread_ll_exit)(dmo_thread_exited);
}

VG_DETERMINE_INTERFACE_VERSION(dmo_pre_clo_init)
