/* verify.h - verification by overlapped execution: run an op spec's
 * reference kernel with its input really placed at overlap X inside one
 * arena and compare its output bit for bit with a separate-buffer run.
 *
 * Arena layout (docs/definitions.md, "Overlap placement and conflicts"): the output occupies
 * arena[0, OB), the input arena[OB - X, OB - X + IB), so input byte r shares
 * memory with output byte r + OB - X.  The check is value based: at the exact
 * O_s the output must match; a match at a larger X is no proof of safety,
 * because a clobbered value may happen to equal the original.  See
 * docs/verify.md. */
#ifndef DMO_VERIFY_H
#define DMO_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "opspec.h"

/* Default bound on the kernel runs of the scan for a larger changing
 * overlap: a MobileNet-size layer runs in milliseconds, so this stays within
 * seconds even when no step changes the output. */
#define DMO_VERIFY_SCAN_LIMIT 128

struct dmo_verify_opts {
	int have_overlap;    /* 0: test the exact O_s of dmo_algorithmic */
	uint64_t overlap;    /* X in bytes, 0 <= X <= min(IB, OB) */
	int threads;         /* 1..DMO_OP_MAX_THREADS, as dmo_op_execute */
	int interleave;
	uint64_t scan_limit; /* most kernel runs of the scan; 0 = no scan */
	/* Overlapped runs at X after the first: a threaded kernel's result
	 * depends on the schedule.  DMO_VERIFY_REPEAT_AUTO: when threads > 1,
	 * about a second's worth but at least DMO_VERIFY_REPEAT_THREADED;
	 * none otherwise. */
	uint64_t repeat;
	const char *backend; /* NULL: the reference runner (with threads); else a
			      * backend of backend.h, on its library's own pool
			      * of THREADS threads */
	const char *isa;     /* its ISA cap, NULL for none */
};

#define DMO_VERIFY_REPEAT_AUTO UINT64_MAX
#define DMO_VERIFY_REPEAT_MAX 100000
#define DMO_VERIFY_REPEAT_THREADED 1000

/* Where an overlapped run's output first differs from the reference. */
struct dmo_verify_diff {
	uint64_t byte;           /* output byte offset */
	uint64_t elem;           /* byte / element size */
	int n, y, x, c;          /* that element's NHWC output coordinates */
};

enum dmo_verify_scan {
	DMO_SCAN_SKIPPED, /* not run: the tested X is unsafe, or limit 0 */
	DMO_SCAN_FOUND,   /* scan_overlap is the smallest changing X' */
	DMO_SCAN_NONE,    /* every X' up to min(IB, OB) left the output alone */
	DMO_SCAN_LIMIT,   /* limit hit; scan_overlap is the last X' tried */
	DMO_SCAN_AT_MAX,  /* the tested X is min(IB, OB): no larger X' */
};

struct dmo_verify_result {
	uint64_t in_bytes, out_bytes, elem_size;
	uint64_t max_overlap;    /* min(IB, OB) */
	uint64_t exact_os;       /* dmo_algorithmic's O_s */
	uint64_t overlap;        /* the X tested */
	uint64_t arena_bytes;    /* max(OB, OB - X + IB) */
	int misaligned;          /* X is not a multiple of the element size */
	int safe;                /* output identical at X, in every run */
	struct dmo_verify_diff diff;      /* when !safe: of the first differing run */
	uint64_t runs;           /* overlapped runs at X (1 + repeats) */
	uint64_t differed;       /* of them, those whose output differed */
	enum dmo_verify_scan scan;
	uint64_t scan_runs;      /* kernel runs the scan made */
	uint64_t scan_overlap;   /* see enum dmo_verify_scan */
	uint64_t step;           /* scan step: the element size, or the
				  * backend's alignment when larger */
	struct dmo_verify_diff scan_diff; /* when DMO_SCAN_FOUND */
};

/* Run the check.  Returns 0 with *RES filled, or -1 with one message in
 * ERR: a bad overlap or dtype, no memory, or a kernel that refused to run. */
int dmo_verify(const struct dmo_opspec *spec, const struct dmo_verify_opts *opts,
	       struct dmo_verify_result *res, char *err, size_t err_len);

#endif
