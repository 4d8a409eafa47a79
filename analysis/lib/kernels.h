/* kernels.h - which kernels an O_s, a run directory and a plan hold for.
 * A safe overlap is a property of one kernel build's loop order (CMSIS-NN's
 * 1x1 convolution built by gcc allows a few bytes where dmo's reference
 * kernel allows 18425), so every run directory records the kernels that
 * ran (DIR/kernels.csv, docs/rundir.md) and every plan names the kernels
 * its O_s were measured on; a plan is only run, verified or embedded for
 * those same kernels.
 *
 * The known kernel sets: `ref` (dmo's reference kernels, whose O_s the
 * algorithmic method gives exactly), backends (`dmo run --backend NAME`,
 * docs/backends.md), TensorFlow Lite Micro itself with one of its kernel
 * builds (`dmo run --runtime NAME`, run by the program
 * dmo-tflm-run-NAME), and a user's program profiled by `dmo profile`
 * ("program:NAME" unless declared with --kernels). */
#ifndef DMO_KERNELS_H
#define DMO_KERNELS_H

#include <stddef.h>

/* Where the kernels run, which says how their O_s are measured and how a
 * plan for them is run. */
enum dmo_kernels_kind {
	DMO_KERNELS_REF,     /* libdmokernels: O_s algorithmic (exact), or
			      * dmo run --model; plans run by dmo's own infer */
	DMO_KERNELS_BACKEND, /* a backend: dmo run --model M --backend NAME */
	DMO_KERNELS_RUNTIME, /* inside TFLM: dmo run --model M --runtime NAME;
			      * plans run by dmo-tflm-run-NAME */
	DMO_KERNELS_PROGRAM, /* a user's program: dmo profile; dmo cannot run it */
};

/* The kernels of one run (one row of kernels.csv). */
struct dmo_kernels {
	char name[96];       /* ref, cmsis-nn-dsp, tflm-cmsis-nn, program:NAME, ... */
	enum dmo_kernels_kind kind;
	char variant[96];    /* the ISA cap asked for (--isa), else empty */
	char version[96];    /* the library's own version, empty if unknown */
	char isa[96];        /* the instruction set it ran, empty if unknown */
};

#define DMO_KERNELS_CSV "kernels.csv"

/* The name of dmo's reference kernels, and of the runner of a runtime. */
#define DMO_KERNELS_REF_NAME "ref"
#define DMO_TFLM_RUNNER_PREFIX "dmo-tflm-run-"

/* Fill *K for the kernels NAME: a known set, a backend dmo knows, or
 * "program:NAME".  VERSION and ISA are left empty (the run that measures
 * fills them).  Returns 0, or -1 with ERR listing the known names. */
int dmo_kernels_named(const char *name, struct dmo_kernels *k, char *err, size_t err_len);

/* The I-th kernel build of TensorFlow Lite Micro dmo knows (tflm,
 * tflm-cmsis-nn, ...), in the order of kernels.csv's table; NULL past the
 * last. */
const char *dmo_kernels_runtime(size_t i);

/* What NAME's kernels are, in words, for the plan header ("dmo's reference
 * kernels (TFLM reference loop order)"). */
const char *dmo_kernels_describe(const struct dmo_kernels *k);

/* The kernels of backend NAME (ref included) under the ISA cap ISA (NULL:
 * none), with the version and ISA the loaded backend reports.  Returns 0,
 * or -1 with ERR (the backend cannot be loaded). */
int dmo_kernels_of_backend(const char *name, const char *isa, struct dmo_kernels *k, char *err,
			   size_t err_len);

/* The kernels of `dmo profile -- PROGRAM` (argv[0]): "program:BASENAME". */
void dmo_kernels_of_program(const char *program, struct dmo_kernels *k);

/* Write DIR/kernels.csv (a temporary file renamed into place).  Returns 0,
 * or -1 with ERR. */
int dmo_kernels_write(const char *dir, const struct dmo_kernels *k, char *err, size_t err_len);

/* Read the kernels of run directory DIR from its kernels.csv, or from
 * backend.csv of a run that predates kernels.csv (every layer by one
 * backend).  Returns 0 with *K, 1 when DIR names no kernels (*K then
 * "unknown"), -1 with ERR when the file is damaged. */
int dmo_kernels_read(const char *dir, struct dmo_kernels *k, char *err, size_t err_len);

/* The kernels the O_s of SOURCE hold for: "algorithmic" and "analytic"
 * replay and bound dmo's reference kernels (ref); "measured:DIR" those of
 * DIR's run.  Returns 0 with *K, 1 when DIR does not say (*K "unknown"),
 * -1 with ERR. */
int dmo_kernels_of_os(const char *source, struct dmo_kernels *k, char *err, size_t err_len);

/* WHAT ("--verify", "dmo infer") runs the kernels RUNS on a plan whose
 * O_s hold for OS (UNKNOWN: a run directory that does not say).  Returns
 * 0 when they are the same, else -1 with ERR naming both. */
int dmo_kernels_check_run(const struct dmo_kernels *os, int unknown, const struct dmo_kernels *runs,
			  const char *what, char *err, size_t err_len);

/* Do A and B name the same kernels?  (Same name; a version or ISA both
 * record must agree too.) */
int dmo_kernels_same(const struct dmo_kernels *a, const struct dmo_kernels *b);

/* "NAME" with its version and ISA when known: "ref (libdmokernels 0.1.0,
 * x86-64)", for messages that name two kernel sets. */
void dmo_kernels_label(const struct dmo_kernels *k, char *buf, size_t len);

/* Scratch bytes kernels K need for layer LAYER of MODEL beside its input
 * and output (TFLM plans them in the non-persistent arena during the op):
 * 0 for ref and TFLM's reference kernels; a backend's own scratch_bytes
 * for a backend, and for TFLM's CMSIS-NN build tflm-X that of backend X.
 * Returns 0 with *BYTES, or -1 with ERR when dmo cannot tell (a user's
 * program, a backend that does not load). */
struct dmo_model;
int dmo_kernels_scratch(const struct dmo_kernels *k, const struct dmo_model *model, size_t layer,
			unsigned long long *bytes, char *err, size_t err_len);

#endif
