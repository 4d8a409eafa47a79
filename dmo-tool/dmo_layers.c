/* dmo_layers.c - the tool's side of the target protocol: a thin Valgrind
 * adapter around the protocol engine (common/protocol.h), and the run
 * directory it writes.
 *
 * The FIFO is opened before the guest runs, non-blocking and read-write, so
 * neither side ever blocks on open; it is drained after every guest write,
 * so records arrive in program order.  The engine decides what every byte
 * and marker store means; this file measures the layers it opens, writes
 * the rows it makes, and answers the program through the marker region.
 * The profiled program runs on as if the tool were not there. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_machine.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#include "dmo_layers.h"
#include "dmo_stream.h"
#include "dmo_threads.h"
#include "event.h"
#include "protocol.h"
#include "summary.h"
#include "dmo_trace.h"
#include "dmo_where.h"
#include "layer_list.h"
#include "trace_format.h"

/* Core functions the installed headers do not declare.
 *
 * VG_(safe_fd) moves a descriptor of the tool's (the FIFO, tool-layers.bin,
 * event files) into the range Valgrind reserves above the guest's limit,
 * close-on-exec.  The public headers have no way to reach that range (its
 * bounds are core-private too), and a descriptor left in the guest's range
 * would be the guest's to close, dup2 over or inherit.  It relies on the
 * core's reserved range having room: a handful of descriptors at a time.
 *
 * VG_(discard_translations) is the core's own discard.  The public
 * VG_(discard_translations_safely) asserts VG_(ok_to_discard_translations),
 * which the core sets only while a tool's client-request handler runs;
 * dmo discards from a dirty helper (the marker store, the idle count) and
 * from the post-syscall hook (a HELLO read from the FIFO), never inside a
 * client request, since the target talks to the tool through the FIFO and
 * marker stores, not client requests.  Discarding from a helper relies on
 * what the core does: it marks the translations deleted and unchains the
 * jumps into them, but leaves their host code where it is until a later
 * translation recycles the sector, which happens only once control is
 * back in the scheduler.  So the block that called the helper runs on to
 * its end (or to the exit the marker code takes at once), and the next
 * block is looked up and translated afresh. */
extern Int VG_(safe_fd)(Int oldfd);
extern void VG_(discard_translations)(Addr start, ULong range, const HChar *who);

struct dmo_active_layer *dmo_active = NULL;
const struct dmo_active_layer *dmo_watched = NULL;
struct dmo_watch_ranges dmo_watch;
ULong dmo_instructions = 0;

/* One slot per thread number an event file can tell apart (os_reducer.h,
 * dmo_threads.h). */
static struct dmo_thread_acc thread_slots[DMO_TID_LUMPED + 1];

static struct {
	Int fifo_fd, summary_fd;
	const HChar *out_dir;
	Bool full_trace, count;
	struct dmo_protocol *engine;
	struct dmo_active_layer active;
	ULong max_mem;
	ULong summary_end;   /* bytes of tool-layers.bin so far */
	ULong active_row_at; /* where the open layer's row is */
	ULong idle_accesses; /* helper calls since the last layer ended */
	ULong rows;          /* layers opened and misuse rows recorded */
	Bool retranslated;   /* by the marker store being handled */
	/* Threads of the process alive now: Valgrind reports the main
	 * thread's creation too, so this starts at 0. */
	UInt alive_threads;
	UInt trace_stopped_at; /* the layer whose event file failed; 0: none */
} st = { .fifo_fd = -1, .summary_fd = -1 };

/* The layers a full trace keeps (--dmo-layers, common/layer_list.h);
 * NULL: all of them.  With SKIP_OTHERS the others are not measured at
 * all: no row, no checks (--dmo-untraced=skip). */
static const HChar *traced_layers;
static Bool skip_others;
/* The open layer is one of those: its end only closes it. */
static Bool skipping;

void dmo_layers_trace_only(const HChar *list, Bool skip)
{
	traced_layers = list;
	skip_others = skip;
}

/* Whether layer SEQ, named NAME, gets an event file: a full trace, and
 * the layer is on the list.  Once one failed (a full disk), no later
 * layer's is begun: each printed its own error and left an empty file.
 * Said once, here. */
static Bool trace_wanted(UInt seq, const HChar *name)
{
	if (!st.full_trace || st.out_dir == NULL)
		return False;
	if (traced_layers != NULL && !dmo_layer_list_has(traced_layers, seq, name))
		return False;
	if (st.trace_stopped_at == 0)
		return True;
	if (st.trace_stopped_at != (UInt)-1) {
		VG_(umsg)("dmo: no event files after layer %u's failed (disk full?): layer %u and "
			  "later keep their counts and O_s, without events\n", st.trace_stopped_at,
			  seq);
		st.trace_stopped_at = (UInt)-1;
	}
	return False;
}

/* The per-thread part of a measured row. */
static void fill_threads(struct dmo_layer_summary *row, const struct dmo_any_reducer *a)
{
	UInt i;
	row->threads = a->n_threads;
	row->os_any_bytes = dmo_any_os(a);
	row->os_split_bytes = dmo_any_split_os(a);
	row->alive_threads = st.active.alive_threads;
	for (i = 0; i < a->n_threads && i < DMO_SUMMARY_THREADS; i++) {
		row->thread_counts[i].tid = a->threads[i].tid;
		row->thread_counts[i].lumped = a->threads[i].unordered;
		VG_(memcpy)(row->thread_counts[i].counts, a->threads[i].own.counts,
			    sizeof row->thread_counts[i].counts);
	}
	row->listed_threads = i;
}

/* Write ROW at byte OFFSET of tool-layers.bin, at once, so nothing
 * recorded is lost if the program dies later. */
static void put_row(const struct dmo_layer_summary *row, ULong offset)
{
	if (st.summary_fd < 0)
		return;
	if (VG_(lseek)(st.summary_fd, (Off64T)offset, VKI_SEEK_SET) != (Off64T)offset ||
	    VG_(write)(st.summary_fd, row, sizeof *row) != (Int)sizeof *row) {
		VG_(umsg)("dmo: cannot write %s/%s at layer %u (disk full?); it and later "
			  "layers are not recorded\n", st.out_dir, DMO_SUMMARY_FILE, row->layer);
		VG_(close)(st.summary_fd);
		st.summary_fd = -1;
	}
}

/* Append a row; returns where it went. */
static ULong append_row(const struct dmo_layer_summary *row)
{
	ULong at = st.summary_end;
	put_row(row, at);
	st.summary_end += sizeof *row;
	return at;
}

/* The measured part of the open layer's row. */
static void add_measures(struct dmo_layer_summary *row, ULong trace_events)
{
	const struct dmo_reducer *r = dmo_any_ran(&st.active.reducer);
	Int i;
	for (i = 0; i < DMO_COUNT_KINDS; i++)
		row->counts[i] = r->counts[i];
	row->steps = r->counts[DMO_COUNT_OUT_WRITES];
	row->instructions = st.count ? dmo_instructions : DMO_NOT_COUNTED;
	row->os_bytes = dmo_reducer_os(r);
	row->trace_events = trace_events;
	fill_threads(row, &st.active.reducer);
}

const HChar *dmo_create_error(SysRes res)
{
	return sr_Err(res) == VKI_ELOOP ? "a symbolic link is in its place, not followed"
					: VG_(strerror)(sr_Err(res));
}

static Int open_out_file(const HChar *leaf)
{
	HChar path[4096];
	SysRes res;
	VG_(snprintf)(path, sizeof path, "%s/%s", st.out_dir, leaf);
	res = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC | VKI_O_NOFOLLOW, 0644);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot create %s: %s\n", path, dmo_create_error(res));
		return -1;
	}
	return VG_(safe_fd)(sr_Res(res));
}

static void retranslate_all(void)
{
	VG_(discard_translations)(0, ~0ULL, "dmo layer change");
	st.retranslated = True;
}

/* Helper calls with no layer open before the code stops watching the last
 * layer's buffers: enough to ride out a harness touching them between
 * layers, few enough that later code outside layers soon runs plain. */
#define IDLE_ACCESSES_BEFORE_UNWATCH 100000

void dmo_layers_idle_access(void)
{
	if (++st.idle_accesses < IDLE_ACCESSES_BEFORE_UNWATCH)
		return;
	st.idle_accesses = 0;
	dmo_watched = NULL;
	retranslate_all();
}

/* Separate mallocs of large buffers usually sit a page apart: one range
 * over both makes a miss one compare.  Weights or the stack between two
 * far-apart buffers would cost a useless helper call per access, so a
 * wider gap keeps two ranges. */
#define MAX_GAP_COVERED (64 * 1024)

static void watch_range(UInt k, Addr base, ULong len)
{
	dmo_watch.lo[k] = base - DMO_WATCH_SLACK;
	dmo_watch.span[k] = len + DMO_WATCH_SLACK;
}

void dmo_watch_publish(UInt tid)
{
	ULong words[4] = { dmo_watch.lo[0], dmo_watch.lo[1], dmo_watch.span[0],
			   dmo_watch.span[1] };
	STATIC_ASSERT(sizeof words == DMO_WATCH_SHADOW_BYTES);
	STATIC_ASSERT(DMO_WATCH_SHADOW + DMO_WATCH_SHADOW_BYTES ==
		      offsetof(VexGuestAMD64State, guest_RSP));
	if (tid != VG_INVALID_THREADID)
		VG_(set_shadow_regs_area)(tid, 1, DMO_WATCH_SHADOW, sizeof words,
					  (const UChar *)words);
}

/* Point the checks at L's buffers; returns the number of ranges. */
static UInt watch_buffers(const struct dmo_active_layer *l)
{
	Addr lo = l->in_addr < l->out_addr ? l->in_addr : l->out_addr;
	Addr in_end = l->in_addr + l->in_bytes, out_end = l->out_addr + l->out_bytes;
	Addr hi = in_end > out_end ? in_end : out_end;
	/* The engine opens only non-empty buffers in mapped guest memory,
	 * which never starts in the first page. */
	tl_assert(l->in_bytes > 0 && l->out_bytes > 0);
	tl_assert(lo >= DMO_WATCH_SLACK);
	if (hi - lo <= l->in_bytes + l->out_bytes + MAX_GAP_COVERED) {
		watch_range(0, lo, hi - lo);
		return 1;
	}
	watch_range(0, l->in_addr, l->in_bytes);
	watch_range(1, l->out_addr, l->out_bytes);
	return 2;
}

/* ---- the engine's world ---- */

static void *op_alloc(void *ctx, SizeT bytes)
{
	return VG_(malloc)("dmo.protocol", bytes);
}

static void op_free(void *ctx, void *p, SizeT bytes)
{
	VG_(free)(p);
}

static int op_mapped(void *ctx, uint64_t addr, uint64_t len, int writable)
{
	return VG_(am_is_valid_for_client)((Addr)addr, len,
					   writable ? VKI_PROT_READ | VKI_PROT_WRITE : VKI_PROT_READ);
}

static void op_say(void *ctx, const char *line)
{
	VG_(umsg)("%s\n", line);
}

static void op_markers(void *ctx, uint64_t addr)
{
	/* Code translated before now could not see the markers. */
	retranslate_all();
}

static void op_status(void *ctx, int64_t value)
{
	/* The target reads this word after its store to learn whether the
	 * tool accepted it (docs/protocol.md). */
	Addr marker = (Addr)dmo_protocol_marker_addr(st.engine);
	if (marker != 0)
		((volatile struct dmo_marker_region *)marker)->status = value;
}

static void op_open(void *ctx, const struct dmo_protocol_layer *l)
{
	struct dmo_active_layer next = {
		.in_addr = (Addr)l->in_addr, .out_addr = (Addr)l->out_addr,
		.in_bytes = l->in_bytes, .out_bytes = l->out_bytes,
	};
	struct dmo_layer_summary row;
	/* Code translated with checks reads the ranges from dmo_watch, so
	 * only plain code (before the first layer, or once the checks were
	 * dropped) and code made for another number of ranges must be
	 * translated again. */
	Bool rewatch = dmo_watched == NULL;
	UInt n_ranges;

	dmo_stream_end();

	if (skip_others && st.full_trace && traced_layers != NULL &&
	    !dmo_layer_list_has(traced_layers, l->seq, l->name)) {
		/* Runs as code outside layers does: the checks of the last
		 * layer's buffers soon go (dmo_layers_idle_access). */
		skipping = True;
		return;
	}
	st.active = next;
	st.active.alive_threads = st.alive_threads > 0 ? st.alive_threads : 1;
	st.rows++;
	dmo_any_init(&st.active.reducer, l->in_bytes, l->out_bytes, thread_slots,
		     DMO_TID_LUMPED + 1);
	dmo_instructions = 0;
	dmo_threads_layer_opened();
	dmo_where_open();
	if (trace_wanted(l->seq, l->name)) {
		HChar path[4096];
		VG_(snprintf)(path, sizeof path, "%s/" DMO_TRACE_FILE_FORMAT, st.out_dir, l->seq);
		dmo_trace_open(path, l->seq, l->in_bytes, l->out_bytes, st.max_mem);
	}
	dmo_active = &st.active;
	dmo_watched = dmo_active;
	n_ranges = watch_buffers(dmo_active);
	if (n_ranges != dmo_watch.n_ranges)
		rewatch = True;
	dmo_watch.n_ranges = n_ranges;
	dmo_watch_publish(VG_(get_running_tid)());
	st.idle_accesses = 0;
	/* Claim the layer's row now: it reads "incomplete" until the layer
	 * ends, and rewriting it in place needs no new disk space. */
	VG_(memset)(&row, 0, sizeof row);
	row.magic = DMO_SUMMARY_MAGIC;
	row.version = DMO_SUMMARY_VERSION;
	row.layer = l->seq;
	row.status = DMO_STATUS_INCOMPLETE;
	row.in_bytes = l->in_bytes;
	row.out_bytes = l->out_bytes;
	VG_(strncpy)(row.name, l->name, sizeof row.name - 1);
	VG_(strncpy)(row.spec, l->spec, sizeof row.spec - 1);
	add_measures(&row, 0);
	st.active_row_at = append_row(&row);
	if (rewatch)
		retranslate_all();
}

/* ---- threads alive ---- */

void dmo_layers_thread_created(void)
{
	st.alive_threads++;
	if (dmo_active != NULL && st.alive_threads > dmo_active->alive_threads)
		dmo_active->alive_threads = st.alive_threads;
}

void dmo_layers_thread_exited(void)
{
	if (st.alive_threads > 0)
		st.alive_threads--;
}

static void op_close(void *ctx, struct dmo_layer_summary *row)
{
	Bool traced = st.full_trace && st.out_dir != NULL && st.trace_stopped_at == 0;
	ULong trace_events;
	if (skipping) {
		skipping = False;
		return;
	}
	dmo_stream_end();
	trace_events = dmo_trace_close();
	if (traced && dmo_trace_failed()) {
		st.trace_stopped_at = row->layer;
		if (row->status == DMO_STATUS_OK) {
			row->status = DMO_STATUS_ERROR;
			VG_(strcpy)(row->reason, "trace-write-failed");
		}
	}
	add_measures(row, trace_events);
	put_row(row, st.active_row_at);
	dmo_where_close(st.out_dir, row->layer);
	if (VG_(clo_verbosity) > 0)
		VG_(umsg)("dmo: layer %u '%s': %s, O_s = %llu of %llu output bytes"
			  " (threads %u of %u alive, any interleaving %llu, any split %llu)\n",
			  row->layer, row->name, row->status == DMO_STATUS_OK ? "ok" :
			  row->status == DMO_STATUS_INCOMPLETE ? "incomplete" : row->reason,
			  (ULong)row->os_bytes, (ULong)row->out_bytes, row->threads,
			  row->alive_threads, (ULong)row->os_any_bytes, (ULong)row->os_split_bytes);
	/* The code stays watching this layer's buffers: its helpers do
	 * nothing while no layer is open, and the next layer over the same
	 * buffers needs no new translations. */
	dmo_active = NULL;
}

static void op_error_row(void *ctx, const struct dmo_layer_summary *row)
{
	st.rows++;
	append_row(row);
}

static const struct dmo_protocol_ops engine_ops = {
	.alloc = op_alloc, .free = op_free, .mapped = op_mapped, .say = op_say,
	.markers = op_markers, .open = op_open, .close = op_close,
	.error_row = op_error_row, .status = op_status,
};

/* ---- what the instrumentation and the core call ---- */

Bool dmo_layers_marker(UWord word, ULong value)
{
	dmo_layers_drain();
	st.retranslated = False;
	dmo_protocol_marker(st.engine, (unsigned)word, value);
	return st.retranslated;
}

Addr dmo_layers_marker_addr(void)
{
	return st.engine ? (Addr)dmo_protocol_marker_addr(st.engine) : 0;
}

void dmo_layers_drain(void)
{
	UChar buf[DMO_WIRE_MAX_RECORD];
	if (st.fifo_fd < 0)
		return;
	for (;;) {
		Int n = VG_(read)(st.fifo_fd, buf, (Int)sizeof buf);
		if (n <= 0)
			break;
		dmo_protocol_bytes(st.engine, buf, (SizeT)n);
	}
}

/* In a child made by fork: its layers would mix with the parent's in one
 * run directory and its reads would steal the parent's FIFO records, so it
 * lets go of both and says so once. */
static void in_forked_child(ThreadId tid)
{
	dmo_protocol_forked(st.engine, (UInt)VG_(getpid)());
	st.alive_threads = 1; /* fork copies only the calling thread */
	dmo_stream_drop();
	if (dmo_active != NULL) {
		dmo_trace_abandon();
		dmo_active = NULL;
	}
	if (st.summary_fd >= 0)
		VG_(close)(st.summary_fd);
	if (st.fifo_fd >= 0)
		VG_(close)(st.fifo_fd);
	st.summary_fd = st.fifo_fd = -1;
}

void dmo_layers_init(const HChar *fifo_path, const HChar *out_dir, Bool full_trace,
		     Bool count, ULong max_mem)
{
	st.count = count;
	st.max_mem = max_mem;
	st.out_dir = out_dir;
	st.full_trace = full_trace;
	st.engine = dmo_protocol_create(&engine_ops, NULL);
	dmo_protocol_set_pid(st.engine, (UInt)VG_(getpid)());
	VG_(atfork)(NULL, NULL, in_forked_child);
	if (full_trace && out_dir == NULL)
		VG_(umsg)("dmo: --dmo-trace=full needs --dmo-out=DIR; keeping summaries only\n");
	if (out_dir != NULL)
		st.summary_fd = open_out_file(DMO_SUMMARY_FILE);
	if (fifo_path == NULL) /* the tool could not make its own (it said why) */
		return;
	/* Read-write and non-blocking: open cannot wait for a writer, and a
	 * writer that closes never makes the FIFO read as end-of-file. */
	SysRes res = VG_(open)(fifo_path, VKI_O_RDWR | VKI_O_NONBLOCK, 0);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot open FIFO %s: %s; no layers will be seen\n",
			  fifo_path, VG_(strerror)(sr_Err(res)));
		return;
	}
	st.fifo_fd = VG_(safe_fd)(sr_Res(res));
}

ULong dmo_layers_fini(void)
{
	dmo_layers_drain();
	dmo_protocol_finish(st.engine);
	dmo_protocol_destroy(st.engine);
	st.engine = NULL;
	if (st.summary_fd >= 0)
		VG_(close)(st.summary_fd);
	if (st.fifo_fd >= 0)
		VG_(close)(st.fifo_fd);
	return st.rows;
}
