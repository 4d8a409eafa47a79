/* dmo_where.h - code locations: per layer, the instructions that touched
 * its buffers (loads and stores of each, by kind) and the two accesses
 * of its tightest forbidding pair, written at the layer's end as
 * layer-NNNN-where.csv, named with Valgrind's debug information
 * (common/where_format.h, docs/rundir.md).
 *
 * Each guest instruction that loads or stores gets one site, made when
 * its code is translated and kept for the run (a Valgrind hash table by
 * address, so code translated again finds its old site); the helpers get
 * the site through the access's probe (below), so counting costs no
 * look-up: an access adds one to its site's counter, and the reducer says
 * what the access moved (os_reducer.h).  O(1) per access. */
#ifndef DMO_WHERE_H
#define DMO_WHERE_H

#include "pub_tool_basics.h"
#include "os_reducer.h"

struct dmo_site {
	struct dmo_site *next_in_table; /* the hash table's chain (VgHashNode) */
	UWord ip;                       /* its key: the guest instruction's address */
	UInt layer;                     /* the layer COUNTS are for */
	struct dmo_site *next_touched;  /* in that layer's list */
	ULong counts[DMO_COUNT_KINDS];  /* accesses by dmo_event_kind */
	/* The instruction has no source here: no line, or a line of a file
	 * this machine cannot read (a library built elsewhere: libc's memcpy
	 * names its .S file).  An access of it that may bind keeps its call
	 * stack, so the file can name the line of the caller that has one. */
	Bool no_source;
	/* DMO_HULL_READS, DMO_HULL_WRITES (dmo_hull.h): a hull of its
	 * reads or writes touched a buffer's range, so they are checked
	 * where they are from then on. */
	UInt hull_touched;
	struct dmo_probe *probes;       /* its accesses as translated */
};

/* One checked access as the instrumenter saw it: its instruction's site,
 * its size, and, for a full trace's event times, the instructions of its
 * block not yet added to dmo_instructions when it runs, less one (the
 * running instruction is not counted yet).  The helpers take its address
 * as their one argument besides the accessed address: a constant in the
 * code, where three would each cost an argument move on every check,
 * misses included (bench/README.md).  Made on first use and kept for the
 * run, as sites are: code translated again finds it. */
struct dmo_probe {
	struct dmo_site *site;
	UWord size;
	UWord time_offset;
	/* Which helper calls it (the instrumenter's number), and the first
	 * probe made of its site, size and helper: the accesses of a stream
	 * (dmo_stream.h) share it, though they may come from copies of the
	 * instruction in different blocks with different time offsets (a
	 * loop's first pass chased into the block before the loop). */
	UInt helper;
	struct dmo_probe *stream;
	/* In the stream key: the steps, in bytes and instructions, its
	 * stream last went at, once known (dmo_stream.h). */
	Long stride;
	ULong step;
	Bool steps_known;
	/* What the check calls: the probe's entry point into its helper
	 * (dmo_entry.h), made by the instrumenter. */
	void *entry;
	/* A chain's lead (dmo_chain.h; 0 and NULL in any other probe): the
	 * follower's address and time after the lead's, and twice each (the
	 * two accesses the lead's fast path takes); the helper that takes
	 * either the long way, and the follower's own probe for it; the
	 * word the follower's code stores the count the lead saw in. */
	Long lead_stride, lead_stride2;
	ULong lead_step, lead_step2;
	VG_REGPARM(2) void (*take)(Addr, const struct dmo_probe *);
	struct dmo_probe *follower;
	ULong ran;
	struct dmo_probe *next; /* the site's other probes */
};

/* The frames kept of such an access's stack: enough to climb out of
 * a libc function and the library calls it went through. */
#define DMO_WHERE_CALLERS 6

/* One access as the where file names it. */
struct dmo_where_access {
	const struct dmo_site *site;
	UInt flags;
	ULong offset, size;
	UInt n_callers;                  /* 0 unless SITE has no_source */
	Addr callers[DMO_WHERE_CALLERS]; /* its stack, innermost first */
};

/* The open layer's locations. */
struct dmo_where_layer {
	UInt layer;                 /* a stamp, new for each layer */
	struct dmo_site *touched;   /* sites counted in it, newest first */
	struct dmo_where_access out_write_holder, in_write_holder;
	struct dmo_where_access pair[2];
	Bool have_pair;
};
extern struct dmo_where_layer dmo_where;

/* Before Valgrind reads its options: ask it to read inlined-call debug
 * information, as memcheck does by default (--read-inline-info=no still
 * says no). */
void dmo_where_pre_clo_init(void);

/* The probe of an access of SIZE bytes by the instruction at IP, with
 * TIME_OFFSET, checked by HELPER (struct dmo_probe), made on first use;
 * for the instrumenter. */
struct dmo_probe *dmo_where_probe(Addr ip, UWord size, UWord time_offset, UInt helper);
/* The probe of a chain's lead (dmo_chain.h) whose accesses would each
 * go through PLAIN (its stream key is PLAIN's), called through HELPER,
 * with the follower STRIDE bytes and STEP instructions on. */
struct dmo_probe *dmo_where_lead_probe(const struct dmo_probe *plain, UInt helper, Long stride,
				       ULong step);
/* The site of the instruction at IP, made if it has none. */
struct dmo_site *dmo_where_site(Addr ip);

/* A layer begins: nothing counted yet. */
void dmo_where_open(void);

/* Put SITE on the open layer's list with zero counts. */
void dmo_where_touch(struct dmo_site *site);

/* Note A's call stack (the running thread's: A is its access), its SITE
 * having no source: the cost
 * of the unwinding is paid only in code whose source is not here, and
 * once only for a site whose first stack has no caller with source either
 * (a program without -g): SITE's no_source is then cleared. */
void dmo_where_stack(struct dmo_where_access *a, struct dmo_site *site);

/* Fill A with one access. */
static inline __attribute__((always_inline)) void dmo_where_hold(struct dmo_where_access *a,
								 struct dmo_site *site,
								 UInt flags, ULong offset,
								 ULong size)
{
	a->site = site;
	a->flags = flags;
	a->offset = offset;
	a->size = size;
	a->n_callers = 0;
	if (site->no_source)
		dmo_where_stack(a, site);
}

/* An access of SITE moved what MOVED says (DMO_MOVED_*, non-zero) in
 * the layer's reducer: SITE becomes the holder of the extreme it moved,
 * or ends the tightest pair.  Out of line: the helpers' common access
 * moves nothing. */
void dmo_where_moved(struct dmo_site *site, UInt flags, ULong offset, ULong size,
		     unsigned moved);

/* Fold one access of SITE, made by the running thread, numbered TID
 * (dmo_threads.h), into the layer's reducer A, as dmo_any_add does, and
 * note where it went: the site's count, and the site as the holder of
 * what the access moved (os_reducer.h). */
static inline __attribute__((always_inline)) void dmo_where_add(struct dmo_any_reducer *a,
								UInt tid, struct dmo_site *site,
								UInt flags, ULong offset,
								ULong size)
{
	unsigned moved = dmo_any_add(a, tid, flags, offset, size);

	if (site->layer != dmo_where.layer)
		dmo_where_touch(site);
	site->counts[dmo_event_kind((UChar)flags)]++;
	if (moved != 0)
		dmo_where_moved(site, flags, offset, size, moved);
}

/* The layer SEQ ended: write OUT_DIR/layer-SEQ-where.csv.  A failure is
 * reported and costs only that file. */
void dmo_where_close(const HChar *out_dir, UInt seq);

#endif
