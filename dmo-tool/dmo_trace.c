/* dmo_trace.c - the full event trace inside the tool, on the tape of
 * common/tape.c reached through Valgrind's allocator and file calls.  The
 * tape holds bytes: the events coded as event-file version 2 does
 * (event_code.h), or version 1's 16-byte records when asked.
 *
 * The tape's spill file is the layer's event file itself: slab k of the
 * tape lands at its final place, after the header and the tape's inline
 * buffer, so a spilled slab is written once and never read back.  When the
 * layer ends, the inline buffer and the slabs still in RAM are written to
 * their places and the header gets the event count.  Memory stays at the
 * inline buffer plus max_resident slabs whatever the trace length. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_vki.h"

#include "dmo_layers.h"
#include "dmo_trace.h"
#include "event.h"
#include "slab_pool.h"
#include "tape.h"
#include "trace_format.h"

extern Int VG_(safe_fd)(Int oldfd);

enum { SBO_BYTES = 4096, SLAB_BYTES = 1 << 20 };

static struct {
	Int fd;
	struct dmo_tape *tape;
	struct dmo_trace_header header;
	Bool failed;
	/* What the tape holds of whole events, as of the last commit: a run
	 * the tape refused, or an event half pushed through the bridge, is
	 * not in the file. */
	ULong kept_events, kept_bytes;
} tr = { .fd = -1 };

Bool dmo_trace_on = False;
UChar *dmo_trace_next, *dmo_trace_limit;
struct dmo_event_code_state dmo_trace_code;
ULong dmo_trace_events;
Bool dmo_trace_fixed = False;
ULong dmo_trace_refills;
/* Where the reserved run began: its bytes go on the tape at commit. */
static UChar *run_start;
/* When the tail chunk has less room than the longest event, the next
 * event is encoded here and pushed byte by byte, across the chunk's end. */
static UChar bridge[DMO_EVENT_CODE_MAX];

static ULong file_offset(ULong tape_offset)
{
	return sizeof(struct dmo_trace_header) + SBO_BYTES + tape_offset;
}

static Bool write_at(ULong offset, const void *buf, SizeT len)
{
	return VG_(lseek)(tr.fd, (Off64T)offset, VKI_SEEK_SET) == (Off64T)offset &&
	       VG_(write)(tr.fd, buf, (Int)len) == (Int)len;
}

/* ---- the tape's world inside Valgrind ---- */

/* Slabs a layer's tape frees at its end wait here for the next layer's
 * tape, up to the bytes of that tape's own bound (max_resident + 1
 * slabs), so the memory held between layers is no more than a layer may
 * hold.  Given
 * back to Valgrind, a 1 MiB block is unmapped, and the next layer would
 * take a page fault on every page of it again: on this project's VM that
 * was about half of a full trace's time (docs/tape.md). */
static struct dmo_slab_pool spare;

static void *op_alloc(void *ctx, size_t bytes)
{
	void *p = dmo_slab_pool_take(&spare, bytes);
	(void)ctx;
	return p ? p : VG_(malloc)("dmo.trace.tape", bytes);
}

static void op_free(void *ctx, void *p, size_t bytes)
{
	(void)ctx;
	if (bytes < SLAB_BYTES || !dmo_slab_pool_give(&spare, p, bytes))
		VG_(free)(p);
}

static int op_spill_open(void *ctx, const char *dir, intptr_t *file)
{
	(void)ctx; (void)dir;
	*file = tr.fd;
	return 0;
}

static long op_spill_write(void *ctx, intptr_t file, const void *buf, size_t n, uint64_t off)
{
	(void)ctx; (void)file;
	return write_at(file_offset(off), buf, n) ? (long)n : -VKI_EIO;
}

static long op_spill_read(void *ctx, intptr_t file, void *buf, size_t n, uint64_t off)
{
	ULong at = file_offset(off);
	(void)ctx;
	if (VG_(lseek)((Int)file, (Off64T)at, VKI_SEEK_SET) != (Off64T)at)
		return -VKI_EIO;
	return VG_(read)((Int)file, buf, (Int)n);
}

/* The event file outlives the tape: dmo_trace_close() closes it. */
static void op_spill_close(void *ctx, intptr_t file)
{
	(void)ctx; (void)file;
}

static const char *op_strerror(void *ctx, int err)
{
	(void)ctx;
	return VG_(strerror)((UWord)err);
}

static const struct dmo_tape_ops valgrind_ops = {
	.alloc = op_alloc,
	.free = op_free,
	.spill_open = op_spill_open,
	.spill_write = op_spill_write,
	.spill_read = op_spill_read,
	.spill_close = op_spill_close,
	.strerror = op_strerror,
};

/* ---- the trace ---- */

Bool dmo_trace_set_version(UInt version)
{
	if (version != DMO_TRACE_VERSION && version != DMO_TRACE_VERSION_FIXED)
		return False;
	dmo_trace_fixed = version == DMO_TRACE_VERSION_FIXED;
	return True;
}

void dmo_trace_open(const HChar *path, UInt seq, ULong in_bytes, ULong out_bytes,
		    ULong max_mem)
{
	struct dmo_tape_config cfg = {
		.elem_size = 1,
		.sbo_elems = SBO_BYTES,
		.slab_elems = SLAB_BYTES,
		.max_resident = max_mem / SLAB_BYTES > 1 ? max_mem / SLAB_BYTES : 1,
		.spill_dir = path,
	};
	SysRes res = VG_(open)(path, VKI_O_CREAT | VKI_O_RDWR | VKI_O_TRUNC | VKI_O_NOFOLLOW, 0644);

	spare.max_bytes = (cfg.max_resident + 1) * SLAB_BYTES;
	tr.failed = False;
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot create %s: %s; layer %u has no trace\n", path,
			  dmo_create_error(res), seq);
		tr.failed = True;
		return;
	}
	tr.fd = VG_(safe_fd)(sr_Res(res));
	VG_(memset)(&tr.header, 0, sizeof tr.header);
	VG_(memcpy)(tr.header.magic, DMO_TRACE_MAGIC, 8);
	tr.header.version = dmo_trace_fixed ? DMO_TRACE_VERSION_FIXED : DMO_TRACE_VERSION;
	tr.header.header_bytes = sizeof tr.header;
	tr.header.event_bytes = dmo_trace_fixed ? sizeof(struct dmo_event) : 0;
	tr.header.layer = seq;
	tr.header.in_bytes = in_bytes;
	tr.header.out_bytes = out_bytes;
	tr.header.event_count = ~0ULL; /* "still being written" until the end */
	VG_(memset)(&dmo_trace_code, 0, sizeof dmo_trace_code);
	dmo_trace_events = tr.kept_events = tr.kept_bytes = 0;
	tr.tape = dmo_tape_create(&cfg, &valgrind_ops, NULL);
	if (tr.tape == NULL || !write_at(0, &tr.header, sizeof tr.header)) {
		VG_(umsg)("dmo: cannot start %s; layer %u has no trace\n", path, seq);
		dmo_trace_close();
		tr.failed = True;
		return;
	}
	/* The first run, so that the hot path finds room (a NULL limit
	 * would not send it to refill). */
	dmo_trace_on = True;
	dmo_trace_refill();
}

Bool dmo_trace_failed(void)
{
	return tr.failed;
}

/* The tape failed (a slab could not be had or spilled): say so once and
 * keep no more events; the events before stay in the file. */
static void stop_trace(void)
{
	VG_(umsg)("dmo: layer %u's event file: %s (disk full?); its trace stops at "
		  "event %llu, its counts and O_s stay exact\n", tr.header.layer,
		  dmo_tape_error(tr.tape), tr.kept_events);
	tr.failed = True;
	dmo_trace_on = False;
}

/* Put the bytes written into the reserved run (or the bridge) on the
 * tape.  False (the trace stops) when the tape fails. */
static Bool commit_run(void)
{
	SizeT written = (SizeT)(dmo_trace_next - run_start);
	Bool bridged = run_start == bridge;
	run_start = dmo_trace_next = dmo_trace_limit = NULL;
	if (bridged) {
		for (SizeT i = 0; i < written; i++)
			if (dmo_tape_push_sized(tr.tape, &bridge[i], 1) != 0)
				goto failed;
	} else if (dmo_tape_commit(tr.tape, written) != 0) {
		goto failed;
	}
	tr.kept_events = dmo_trace_events;
	tr.kept_bytes = dmo_tape_size(tr.tape);
	return True;
failed:
	stop_trace();
	return False;
}

UChar *dmo_trace_refill(void)
{
	SizeT room;
	UChar *run;
	tl_assert(dmo_trace_on && tr.tape != NULL);
	dmo_trace_refills++;
	if (run_start != NULL && !commit_run())
		return NULL;
	run = dmo_tape_reserve(tr.tape, &room);
	if (run == NULL) {
		stop_trace();
		return NULL;
	}
	if (room < DMO_EVENT_CODE_MAX) {
		/* The chunk's last bytes: one event through the bridge. */
		if (dmo_tape_commit(tr.tape, 0) != 0) {
			stop_trace();
			return NULL;
		}
		run = bridge;
		room = DMO_EVENT_CODE_MAX;
	}
	run_start = dmo_trace_next = run;
	dmo_trace_limit = run + (room - DMO_EVENT_CODE_MAX);
	return run;
}

void dmo_trace_stream(UInt flags, ULong offset, Long stride, ULong size, ULong time,
		      ULong step, ULong n, UInt tid)
{
	ULong k = 1;
	/* The first is not the tag byte alone (after a jump, or a long
	 * step), or the run is full: it alone the general way, then the
	 * others in runs where they can be. */
	dmo_trace_event(flags, offset, size, time, tid);
	while (k < n && dmo_trace_on) {
		ULong room;
		if (dmo_trace_next > dmo_trace_limit && dmo_trace_refill() == NULL)
			return;
		room = (ULong)(dmo_trace_limit - dmo_trace_next) + 1;
		if (room > n - k)
			room = n - k;
		if (dmo_trace_tags(flags, stride, size, time + k * step, step, room, tid)) {
			k += room;
		} else {
			/* Not the tag byte alone (a long time step; a size or
			 * thread past the event's fields), or version 1: one
			 * at a time. */
			dmo_trace_put(flags, offset + k * (ULong)stride, size, time + k * step, tid);
			k++;
		}
	}
}

/* Write what is still in RAM: the inline buffer, then each resident slab,
 * to the places the spilled slabs already hold in order. */
static Bool flush_resident(void)
{
	ULong total = tr.kept_bytes, index;
	ULong first = SBO_BYTES + dmo_tape_spilled(tr.tape) * SLAB_BYTES;
	ULong sbo = total < SBO_BYTES ? total : SBO_BYTES;

	if (sbo > 0 && !write_at(sizeof tr.header, dmo_tape_at(tr.tape, 0), sbo))
		return False;
	for (index = first; index < total; index += SLAB_BYTES) {
		ULong count = total - index < SLAB_BYTES ? total - index : SLAB_BYTES;
		if (!write_at(sizeof tr.header + index, dmo_tape_at(tr.tape, index), count))
			return False;
	}
	return True;
}

ULong dmo_trace_close(void)
{
	ULong events = 0;
	if (run_start != NULL)
		commit_run();
	dmo_trace_on = False;
	if (tr.tape != NULL) {
		events = tr.kept_events;
		if (flush_resident()) {
			tr.header.event_count = events;
			tr.header.data_bytes = dmo_trace_fixed ? 0 : tr.kept_bytes;
			write_at(0, &tr.header, sizeof tr.header);
		} else {
			VG_(umsg)("dmo: layer %u's event file could not be completed\n",
				  tr.header.layer);
			tr.failed = True;
		}
		dmo_tape_destroy(tr.tape);
		tr.tape = NULL;
	}
	if (tr.fd >= 0)
		VG_(close)(tr.fd);
	tr.fd = -1;
	return events;
}

void dmo_trace_abandon(void)
{
	dmo_trace_on = False;
	run_start = dmo_trace_next = dmo_trace_limit = NULL;
	if (tr.tape != NULL)
		dmo_tape_destroy(tr.tape);
	tr.tape = NULL;
	if (tr.fd >= 0)
		VG_(close)(tr.fd);
	tr.fd = -1;
}
