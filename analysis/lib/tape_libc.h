/* tape_libc.h - the tape in the analysis library: the libc ops table with
 * its background I/O thread, and a mutex-guarded variant for programs
 * that push from many threads.  The core API is in common/tape.h. */
#ifndef DMO_TAPE_LIBC_H
#define DMO_TAPE_LIBC_H

#include "tape.h"

/* malloc/free, mkstemp+unlink in the spill dir, pread/pwrite, strerror, and
 * a thread for io_start/io_wait.  CTX must come from
 * dmo_tape_libc_ctx_new(); exported so tests and benchmarks can wrap single
 * ops (to fake a full disk, say). */
extern const struct dmo_tape_ops dmo_tape_libc_ops;

struct dmo_tape_libc;
struct dmo_tape_libc *dmo_tape_libc_ctx_new(void);
/* Stops the I/O thread; the tape using CTX must be destroyed first. */
void dmo_tape_libc_ctx_free(struct dmo_tape_libc *ctx);

/* A tape with the libc ops and a context of its own. */
struct dmo_tape *dmo_tape_libc_new(const struct dmo_tape_config *cfg);
void dmo_tape_libc_delete(struct dmo_tape *t);

/* Push, pop, back and size may be called from any thread at any time.
 * Iterate or index through dmo_tape_mt_tape() only while no other thread
 * uses the tape. */
struct dmo_tape_mt;
struct dmo_tape_mt *dmo_tape_mt_new(const struct dmo_tape_config *cfg);
void dmo_tape_mt_delete(struct dmo_tape_mt *m);
int dmo_tape_mt_push(struct dmo_tape_mt *m, const void *elem);
/* Pop and back copy the last element to OUT, where the plain tape hands
 * back its address: a pointer could dangle once the lock is released.
 * 0, or DMO_TAPE_EEMPTY, or the tape's error code. */
int dmo_tape_mt_pop(struct dmo_tape_mt *m, void *out);
int dmo_tape_mt_back(struct dmo_tape_mt *m, void *out);
uint64_t dmo_tape_mt_size(struct dmo_tape_mt *m);
struct dmo_tape *dmo_tape_mt_tape(struct dmo_tape_mt *m);

#endif
