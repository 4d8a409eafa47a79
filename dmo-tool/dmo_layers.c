/* dmo_layers.c - the tool's side of the target protocol (docs/protocol.md)
 * and the run directory it writes.
 *
 * The FIFO is opened before the guest runs, non-blocking and read-write, so
 * neither side ever blocks on open; it is drained after every guest write,
 * so records arrive in program order.  A layer descriptor waits here until
 * the target's begin store names it.  Every misuse is reported once on
 * Valgrind's output, recorded as an error row, and otherwise ignored: the
 * profiled program must run on as if the tool were not there. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_options.h"
#include "pub_tool_threadstate.h"
#include "pub_tool_vki.h"

#include "dmo_layers.h"
#include "event.h"
#include "summary.h"
#include "dmo_trace.h"
#include "wire_parse.h"

/* Core functions the installed headers do not declare. */
extern Int VG_(safe_fd)(Int oldfd);
extern void VG_(discard_translations)(Addr start, ULong range, const HChar *who);

struct dmo_active_layer *dmo_active = NULL;
const struct dmo_active_layer *dmo_watched = NULL;
ULong dmo_instructions = 0;
UInt dmo_running_tid = 0;

/* One slot per thread id an event file can tell apart (os_reducer.h). */
static struct dmo_thread_acc thread_slots[DMO_TID_LUMPED + 1];

struct layer {
	UInt seq;
	HChar name[256], spec[1024];
	struct dmo_active_layer ranges;
};

static struct {
	Int fifo_fd, summary_fd;
	const HChar *out_dir;
	Bool full_trace;
	Addr marker;
	UChar stream[2 * DMO_WIRE_MAX_RECORD];
	SizeT stream_len;
	Bool have_pending;
	struct layer pending, active;
	ULong max_mem;
	ULong trace_events;  /* of the layer being written out */
	ULong summary_end;   /* bytes of tool-layers.bin so far */
	ULong active_row_at; /* where the open layer's row is */
	ULong idle_accesses; /* helper calls since the last layer ended */
} st = { .fifo_fd = -1, .summary_fd = -1 };

static void copy_text(HChar *dst, SizeT cap, const HChar *src, SizeT len)
{
	if (len >= cap)
		len = cap - 1;
	VG_(memcpy)(dst, src, len);
	dst[len] = '\0';
}

/* The per-thread part of a measured row. */
static void fill_threads(struct dmo_layer_summary *row, const struct dmo_any_reducer *a)
{
	UInt i;
	row->threads = a->n_threads;
	row->os_any_bytes = dmo_any_os(a);
	for (i = 0; i < a->n_threads && i < DMO_SUMMARY_THREADS; i++) {
		row->thread_counts[i].tid = a->threads[i].tid;
		row->thread_counts[i].lumped = a->threads[i].unordered;
		VG_(memcpy)(row->thread_counts[i].counts, a->threads[i].own.counts,
			    sizeof row->thread_counts[i].counts);
	}
	row->listed_threads = i;
}

/* A result row of tool-layers.bin.  MEASURED: the row is a layer that
 * ran, whose counts, instructions and O_s mean something. */
static void fill_row(struct dmo_layer_summary *row, const struct layer *l, Bool measured,
		     UInt status, const HChar *reason)
{
	const struct dmo_reducer *r = dmo_any_ran(&l->ranges.reducer);
	Int i;

	VG_(memset)(row, 0, sizeof *row);
	row->magic = DMO_SUMMARY_MAGIC;
	row->version = DMO_SUMMARY_VERSION;
	row->layer = l->seq;
	row->status = status;
	row->in_bytes = l->ranges.in_bytes;
	row->out_bytes = l->ranges.out_bytes;
	for (i = 0; i < 4; i++)
		row->counts[i] = r->counts[i];
	row->steps = r->counts[3];
	row->instructions = measured ? dmo_instructions : 0;
	row->os_bytes = measured ? dmo_reducer_os(r) : 0;
	row->trace_events = measured ? st.trace_events : 0;
	if (measured)
		fill_threads(row, &l->ranges.reducer);
	copy_text(row->name, sizeof row->name, l->name, VG_(strlen)(l->name));
	copy_text(row->spec, sizeof row->spec, l->spec, VG_(strlen)(l->spec));
	copy_text(row->reason, sizeof row->reason, reason, VG_(strlen)(reason));
}

/* Write ROW at byte OFFSET of tool-layers.bin, at once, so nothing
 * recorded is lost if the program dies later. */
static void put_row(const struct dmo_layer_summary *row, ULong offset)
{
	if (st.summary_fd < 0)
		return;
	if (VG_(lseek)(st.summary_fd, (Off64T)offset, VKI_SEEK_SET) != (Off64T)offset ||
	    VG_(write)(st.summary_fd, row, sizeof *row) != (Int)sizeof *row) {
		VG_(umsg)("dmo: cannot write %s/%s; later layers are not recorded\n",
			  st.out_dir, DMO_SUMMARY_FILE);
		VG_(close)(st.summary_fd);
		st.summary_fd = -1;
	}
}

/* Append a row; returns where it went. */
static ULong append_row(const struct layer *l, Bool measured, UInt status, const HChar *reason)
{
	struct dmo_layer_summary row;
	ULong at = st.summary_end;
	fill_row(&row, l, measured, status, reason);
	put_row(&row, at);
	st.summary_end += sizeof row;
	return at;
}

/* Report a protocol misuse: one message, one error row. */
static void misuse(UInt seq, const HChar *name, const HChar *reason, const HChar *message)
{
	struct layer l;
	VG_(memset)(&l, 0, sizeof l);
	l.seq = seq;
	copy_text(l.name, sizeof l.name, name, VG_(strlen)(name));
	VG_(umsg)("dmo: protocol error: %s [error:%s]\n", message, reason);
	append_row(&l, False, DMO_STATUS_ERROR, reason);
}

static void set_marker_status(Long status)
{
	/* The target reads this word after its store to learn whether the
	 * tool accepted it (docs/protocol.md). */
	if (st.marker != 0)
		*(volatile Long *)(st.marker + 16) = status;
}

static Int open_out_file(const HChar *leaf)
{
	HChar path[4096];
	SysRes res;
	VG_(snprintf)(path, sizeof path, "%s/%s", st.out_dir, leaf);
	res = VG_(open)(path, VKI_O_CREAT | VKI_O_WRONLY | VKI_O_TRUNC, 0644);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot create %s (errno %lu)\n", path, sr_Err(res));
		return -1;
	}
	return VG_(safe_fd)(sr_Res(res));
}

/* ---- begin and end ---- */

static void retranslate_all(void)
{
	VG_(discard_translations)(0, ~0ULL, "dmo layer change");
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

static Bool same_buffers(const struct dmo_active_layer *a, const struct dmo_active_layer *b)
{
	return a->in_addr == b->in_addr && a->in_bytes == b->in_bytes &&
	       a->out_addr == b->out_addr && a->out_bytes == b->out_bytes;
}

static const HChar *check_buffers(const struct dmo_active_layer *r)
{
	if (r->in_bytes == 0 || r->out_bytes == 0)
		return "zero-size-buffer";
	if (r->in_bytes > 0xffffffffULL || r->out_bytes > 0xffffffffULL)
		return "buffer-over-4gib";
	if (r->in_addr + r->in_bytes < r->in_addr || r->out_addr + r->out_bytes < r->out_addr)
		return "buffer-wraps";
	if (r->in_addr < r->out_addr + r->out_bytes && r->out_addr < r->in_addr + r->in_bytes)
		return "overlapping-buffers";
	if (!VG_(am_is_valid_for_client)(r->in_addr, r->in_bytes, VKI_PROT_READ) ||
	    !VG_(am_is_valid_for_client)(r->out_addr, r->out_bytes, VKI_PROT_READ))
		return "unmapped-buffer";
	return NULL;
}

static Bool layer_begin(UInt seq)
{
	Bool rewatch;
	const HChar *bad;
	HChar message[512];
	if (dmo_active != NULL) {
		VG_(snprintf)(message, sizeof message,
			      "layer %u begins while layer %u '%s' is open; layer %u is not profiled",
			      seq, st.active.seq, st.active.name, seq);
		misuse(seq, st.have_pending && st.pending.seq == seq ? st.pending.name : "",
		       "nested-begin", message);
		st.have_pending = False;
		set_marker_status(-1);
		return False;
	}
	if (!st.have_pending || st.pending.seq != seq) {
		VG_(snprintf)(message, sizeof message,
			      "begin marker for layer %u, but no LAYER record describes it", seq);
		misuse(seq, "", "no-descriptor", message);
		set_marker_status(-1);
		return False;
	}
	st.have_pending = False;
	bad = check_buffers(&st.pending.ranges);
	if (bad != NULL) {
		VG_(snprintf)(message, sizeof message, "layer %u '%s': input %#llx+%llu, output %#llx+%llu: %s",
			      seq, st.pending.name, (ULong)st.pending.ranges.in_addr,
			      st.pending.ranges.in_bytes, (ULong)st.pending.ranges.out_addr,
			      st.pending.ranges.out_bytes, bad);
		misuse(seq, st.pending.name, bad, message);
		set_marker_status(-1);
		return False;
	}
	/* Code translated for the last layer's buffers stays valid when this
	 * layer has the same ones (a kernel run again, an inference loop). */
	rewatch = dmo_watched == NULL || !same_buffers(dmo_watched, &st.pending.ranges);
	st.active = st.pending;
	dmo_any_init(&st.active.ranges.reducer, st.active.ranges.in_bytes,
		     st.active.ranges.out_bytes, thread_slots, DMO_TID_LUMPED + 1);
	dmo_instructions = 0;
	if (st.full_trace && st.out_dir != NULL) {
		HChar path[4096];
		VG_(snprintf)(path, sizeof path, "%s/layer-%04u.events", st.out_dir, seq);
		dmo_trace_open(path, seq, st.active.ranges.in_bytes, st.active.ranges.out_bytes,
			       st.max_mem);
	}
	dmo_active = &st.active.ranges;
	dmo_watched = dmo_active;
	st.idle_accesses = 0;
	/* Claim the layer's row now: it reads "incomplete" until the layer
	 * ends, and rewriting it in place needs no new disk space. */
	st.trace_events = 0;
	st.active_row_at = append_row(&st.active, True, DMO_STATUS_INCOMPLETE, "");
	set_marker_status(0);
	if (rewatch)
		retranslate_all();
	return rewatch;
}

static void layer_close(UInt status, const HChar *reason)
{
	struct dmo_layer_summary row;
	st.trace_events = dmo_trace_close();
	if (status == DMO_STATUS_OK && dmo_trace_failed()) {
		status = DMO_STATUS_ERROR;
		reason = "trace-write-failed";
	}
	fill_row(&row, &st.active, True, status, reason);
	put_row(&row, st.active_row_at);
	if (VG_(clo_verbosity) > 0)
		VG_(umsg)("dmo: layer %u '%s': %s, O_s = %llu of %llu output bytes"
			  " (threads %u, any interleaving %llu)\n",
			  row.layer, row.name, status == DMO_STATUS_OK ? "ok" :
			  status == DMO_STATUS_INCOMPLETE ? "incomplete" : reason,
			  (ULong)row.os_bytes, (ULong)row.out_bytes, row.threads,
			  (ULong)row.os_any_bytes);
	dmo_active = NULL;
}

static Bool layer_end(UInt seq)
{
	HChar message[256];
	if (dmo_active == NULL) {
		VG_(snprintf)(message, sizeof message,
			      "end marker for layer %u, but no layer is open", seq);
		misuse(seq, "", "end-without-begin", message);
		set_marker_status(-1);
		return False;
	}
	if (seq != st.active.seq) {
		VG_(umsg)("dmo: protocol error: end marker names layer %u, but layer %u '%s' "
			  "is open; closing it [error:end-mismatch]\n", seq, st.active.seq,
			  st.active.name);
		layer_close(DMO_STATUS_ERROR, "end-mismatch");
		set_marker_status(-1);
	} else {
		layer_close(DMO_STATUS_OK, "");
		set_marker_status(0);
	}
	/* The code stays watching this layer's buffers: its helpers do
	 * nothing while no layer is open, and the next layer over the same
	 * buffers needs no new translations. */
	return False;
}

Bool dmo_layers_marker(UWord word, ULong value)
{
	dmo_layers_drain();
	if (value > 0xffffffffULL || value == 0) {
		misuse(0, "", "bad-marker-value",
		       "a marker store carries 0 or a value above 2^32-1, not a layer number");
		set_marker_status(-1);
		return False;
	}
	return word == 0 ? layer_begin((UInt)value) : layer_end((UInt)value);
}

Addr dmo_layers_marker_addr(void)
{
	return st.marker;
}

/* ---- the FIFO ---- */

/* A descriptor whose begin store never came: the target lost its marker
 * store (see the constant-address rule in docs/protocol.md). */
static void drop_pending(void)
{
	HChar message[512];
	if (!st.have_pending)
		return;
	VG_(snprintf)(message, sizeof message,
		      "layer %u '%s' was described but its begin marker never ran",
		      st.pending.seq, st.pending.name);
	misuse(st.pending.seq, st.pending.name, "no-begin-marker", message);
	st.have_pending = False;
}

static void take_record(const struct dmo_wire_record *rec)
{
	if (rec->type == DMO_WIRE_HELLO) {
		if (!VG_(am_is_valid_for_client)(rec->marker_addr, sizeof(struct dmo_marker_region),
						 VKI_PROT_READ | VKI_PROT_WRITE)) {
			misuse(0, "", "unmapped-marker-region",
			       "HELLO names a marker region that is not writable memory");
			return;
		}
		st.marker = rec->marker_addr;
		/* Code translated before now could not see the markers. */
		retranslate_all();
		return;
	}
	drop_pending();
	VG_(memset)(&st.pending, 0, sizeof st.pending);
	st.pending.seq = rec->seq;
	copy_text(st.pending.name, sizeof st.pending.name, rec->name, rec->name_len);
	copy_text(st.pending.spec, sizeof st.pending.spec, rec->spec, rec->spec_len);
	st.pending.ranges.in_addr = rec->in_addr;
	st.pending.ranges.in_bytes = rec->in_bytes;
	st.pending.ranges.out_addr = rec->out_addr;
	st.pending.ranges.out_bytes = rec->out_bytes;
	st.have_pending = True;
}

/* Parse every whole record in the stream buffer.  After garbage the rest
 * of what was buffered is dropped: each record arrives in one write and is
 * drained right after it, so the next write starts on a record again. */
static void parse_stream(void)
{
	SizeT used = 0;
	while (used < st.stream_len) {
		struct dmo_wire_record rec;
		const HChar *why = NULL;
		SizeT skip = 0;
		Int n = dmo_wire_parse(st.stream + used, st.stream_len - used, &rec, &why, &skip);
		if (n == DMO_WIRE_INCOMPLETE)
			break;
		if (n == DMO_WIRE_BAD) {
			HChar message[256];
			SizeT dropped = skip ? skip : st.stream_len - used;
			VG_(snprintf)(message, sizeof message,
				      "bad FIFO record: %s; %lu bytes ignored", why, dropped);
			misuse(0, "", "bad-fifo-record", message);
			used += dropped;
			continue;
		}
		take_record(&rec);
		used += (SizeT)n;
	}
	VG_(memmove)(st.stream, st.stream + used, st.stream_len - used);
	st.stream_len -= used;
}

void dmo_layers_drain(void)
{
	if (st.fifo_fd < 0)
		return;
	for (;;) {
		Int n = VG_(read)(st.fifo_fd, st.stream + st.stream_len,
				  (Int)(sizeof st.stream - st.stream_len));
		if (n <= 0)
			break;
		st.stream_len += (SizeT)n;
		parse_stream();
	}
}

void dmo_layers_init(const HChar *fifo_path, const HChar *out_dir, Bool full_trace,
		     ULong max_mem)
{
	st.max_mem = max_mem;
	st.out_dir = out_dir;
	st.full_trace = full_trace;
	if (full_trace && out_dir == NULL)
		VG_(umsg)("dmo: --dmo-trace=full needs --dmo-out=DIR; keeping summaries only\n");
	if (out_dir != NULL)
		st.summary_fd = open_out_file(DMO_SUMMARY_FILE);
	if (fifo_path == NULL) {
		VG_(umsg)("dmo: no --dmo-fifo given: the target cannot describe layers\n");
		return;
	}
	/* Read-write and non-blocking: open cannot wait for a writer, and a
	 * writer that closes never makes the FIFO read as end-of-file. */
	SysRes res = VG_(open)(fifo_path, VKI_O_RDWR | VKI_O_NONBLOCK, 0);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot open FIFO %s (errno %lu): no layers will be seen\n",
			  fifo_path, sr_Err(res));
		return;
	}
	st.fifo_fd = VG_(safe_fd)(sr_Res(res));
}

void dmo_layers_fini(void)
{
	dmo_layers_drain();
	if (st.stream_len > 0)
		misuse(0, "", "truncated-fifo-record",
		       "the program ended in the middle of a FIFO record");
	drop_pending();
	if (dmo_active != NULL) {
		VG_(umsg)("dmo: the program ended inside layer %u '%s'; its counts so far "
			  "are kept, marked incomplete\n", st.active.seq, st.active.name);
		layer_close(DMO_STATUS_INCOMPLETE, "");
	}
	if (st.summary_fd >= 0)
		VG_(close)(st.summary_fd);
	if (st.fifo_fd >= 0)
		VG_(close)(st.fifo_fd);
}
