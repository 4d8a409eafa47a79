/* compare.h - one op spec on every backend: the exact O_s each backend's
 * kernel has under the tool, that O_s checked by a really overlapped native
 * run (bit for bit against a separate-buffer run), the next step checked
 * for tightness, beside the reference loop order's algorithmic and analytic
 * values.  `dmo compare` prints it. */
#ifndef DMO_COMPARE_H
#define DMO_COMPARE_H

#include <stddef.h>
#include <stdint.h>

enum dmo_compare_status {
	DMO_COMPARE_OK,
	DMO_COMPARE_UNAVAILABLE, /* the backend's plugin is not built or failed to load */
	DMO_COMPARE_UNSUPPORTED, /* the backend refused the op (reason) */
	DMO_COMPARE_FAILED,      /* profiling or verification did not complete (reason) */
};

struct dmo_compare_row {
	const char *spec;        /* as given */
	const char *backend;
	enum dmo_compare_status status;
	char reason[320];
	char version[96], isa_tool[64], isa_native[64], implementation[128], cpu_tool[128];
	uint64_t in_bytes, out_bytes;
	uint64_t os;             /* the O_s dmo calls safe, measured under the tool
				  * (safe_os_bytes: docs/threads.md) */
	char safe_rule[16];      /* its safe_os_rule: as-run, any-split */
	uint64_t tested;         /* overlap verified: O_s, rounded down to the
				  * backend's alignment */
	uint64_t step;           /* element size, or alignment when larger */
	int safe;                /* output identical at TESTED, in every run */
	uint64_t runs, differed; /* overlapped native runs at TESTED, and of them
				  * those whose output differed (threads > 1:
				  * dmo verify's automatic repeat) */
	int next_changed;        /* 1 changed at TESTED + STEP, 0 not, -1 not tried
				  * (TESTED is min(IB, OB)) */
	uint64_t algorithmic, analytic; /* the reference loop order's */
	/* Largest |out - ref| / max(1, |ref|) against the ref backend on the
	 * same input (f32; integer dtypes: largest absolute difference), so a
	 * backend's op spec is checked to mean the same op; -1 not computed.
	 * Integer kernels compute exactly, so for them anything but 0 means the
	 * backend computes another op (dmo compare exits 1). */
	double diff_vs_ref;
	int exact;               /* integer dtype: diff_vs_ref must be 0 */
};

/* The tolerance dmo's tests allow diff_vs_ref for f32: libraries sum in
 * other orders and fuse multiply-adds. */
#define DMO_COMPARE_F32_TOLERANCE 1e-4

struct dmo_compare_options {
	char *const *specs;
	int n_specs;
	const char *const *backends; /* NULL-terminated */
	const char *isa;             /* cap for every backend, both runs; NULL: none */
	int threads;                 /* the libraries' own pools, under the tool and
				      * natively; a backend without one is unsupported
				      * above 1 */
	const char *out_dir;         /* one run directory per backend below it */
	/* Called, when not NULL, with each row once it is complete (a backend's
	 * rows together, after its one profiling run): the front end's progress. */
	void (*row_done)(void *arg, const struct dmo_compare_row *row);
	void *row_done_arg;
};

/* Fill ROWS (n_specs x backends, spec-major).  Returns 0, or -1 with ERR
 * when dmo itself failed (a bad spec, the tool could not run). */
int dmo_compare(const struct dmo_compare_options *opts, struct dmo_compare_row *rows,
		char *err, size_t err_len);

#endif
