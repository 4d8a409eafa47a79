/* tape.h - the tape: an append/pop event store that keeps a few slabs in RAM
 * and spills older ones to a file, so a layer of 10^9 events never exhausts
 * memory.
 *
 * Freestanding (no libc): the Valgrind tool and the analysis library compile
 * this same code and hand it their world through struct dmo_tape_ops.  The
 * design and the spill file format are in docs/tape.md. */
#ifndef DMO_TAPE_H
#define DMO_TAPE_H

#include <stddef.h>
#include <stdint.h>

/* Return codes: 0 or one of these.  dmo_tape_error() has the details. */
enum {
	DMO_TAPE_OK = 0,
	DMO_TAPE_EINVAL = -1, /* bad configuration or index */
	DMO_TAPE_ENOMEM = -2, /* alloc op returned NULL */
	DMO_TAPE_EOPEN = -3,  /* the spill file could not be created */
	DMO_TAPE_EWRITE = -4, /* writing a slab to the spill file failed */
	DMO_TAPE_EREAD = -5,  /* reading a slab back failed */
	DMO_TAPE_EEMPTY = -6, /* pop or back on an empty tape */
};

/* Everything the core needs from its world.  Each op gets the CTX given to
 * dmo_tape_create().  Byte-count ops return the count or -errno; a short
 * write or read is treated as an error.  Ops marked optional may be NULL. */
struct dmo_tape_ops {
	void *(*alloc)(void *ctx, size_t bytes);
	void (*free)(void *ctx, void *p, size_t bytes);
	/* Create a fresh spill file in DIR, open for reading and writing; store
	 * its handle in *FILE.  Returns 0 or -errno. */
	int (*spill_open)(void *ctx, const char *dir, intptr_t *file);
	long (*spill_write)(void *ctx, intptr_t file, const void *buf, size_t n,
			    uint64_t off);
	long (*spill_read)(void *ctx, intptr_t file, void *buf, size_t n,
			   uint64_t off);
	/* Close the spill file and remove it: a spill file never outlives its
	 * tape. */
	void (*spill_close)(void *ctx, intptr_t file);
	/* Optional: text for -errno values (else "errno N"). */
	const char *(*strerror)(void *ctx, int err);
	/* Optional: told every error message as it happens, so the tool can log
	 * it where its user looks. */
	void (*report)(void *ctx, const char *msg);
	/* Optional, both or neither: start in the background either a
	 * spill_write of BUF (WHAT = DMO_TAPE_IO_WRITE) or a read of the N
	 * bytes at OFF into the system's file cache (DMO_TAPE_IO_READAHEAD,
	 * BUF unused), 0 or -errno; and wait for its result (N, or -errno).
	 * At most one is outstanding.  With them a walk has the next slabs
	 * read while the caller consumes this one, and with write_behind the
	 * tape writes a slab while the next one fills; without them both are
	 * synchronous. */
	int (*io_start)(void *ctx, intptr_t file, void *buf, size_t n,
			uint64_t off, int what);
	long (*io_wait)(void *ctx);
};

enum { DMO_TAPE_IO_WRITE = 1, DMO_TAPE_IO_READAHEAD = 2 };

struct dmo_tape_config {
	size_t elem_size;    /* bytes per element, > 0 */
	size_t sbo_elems;    /* elements kept inline in the tape object */
	size_t slab_elems;   /* elements per slab, > 0 */
	size_t max_resident; /* slabs kept in RAM; older ones spill. 0: never */
	const char *spill_dir; /* needed when max_resident > 0; not copied */
	/* With the io ops: write the oldest slab in the background while the
	 * tail fills, instead of in the push that needs its memory (on in
	 * dmo analyze; docs/tape.md, "Spill", has the measurements). */
	int write_behind;
};

struct dmo_tape;

/* The tape's hot end.  A struct dmo_tape begins with one, so the common
 * push and pop are inline: the tail chunk (the inline buffer, or the tail
 * slab) holds its elements in [floor, top) and has room up to ceiling.
 * Anything else (a full or nearly empty chunk, a wrong element size) takes
 * the slow path.  The element count is not kept here but derived (BEFORE
 * plus the tail chunk's), so the inline paths store one pointer and
 * nothing else. */
struct dmo_tape_end {
	unsigned char *floor, *top, *ceiling;
	/* floor + elem_size: the pop's one bound, so that a loop of pops
	 * keeps it and top in registers (docs/tape.md) */
	unsigned char *pop_stop;
	size_t elem_size;
	uint64_t before; /* elements in the chunks before the tail chunk */
};

/* NULL when CFG is invalid or the alloc op fails. */
struct dmo_tape *dmo_tape_create(const struct dmo_tape_config *cfg,
				 const struct dmo_tape_ops *ops, void *ctx);
/* Frees every slab and removes the spill file. */
void dmo_tape_destroy(struct dmo_tape *t);

/* The slow push only finds the new element's place, or returns NULL (the
 * tape unchanged; dmo_tape_error_code() says why).  The inline caller
 * copies, so the caller's element never has its address taken by a call
 * and can live in registers. */
void *dmo_tape_push_slow(struct dmo_tape *t, size_t size);
/* The last error's code (0 if none); dmo_tape_error() has its message. */
int dmo_tape_error_code(const struct dmo_tape *t);
const void *dmo_tape_pop_slow(struct dmo_tape *t);

/* The place of one more element of SIZE bytes at the end, or NULL: SIZE
 * is not the tape's element size (DMO_TAPE_EINVAL), or a new slab could
 * not be had.  The element is on the tape once this returns, so the
 * caller fills it before any other call on the tape. */
static inline void *dmo_tape_push_place(struct dmo_tape *t, size_t size)
{
	struct dmo_tape_end *e = (struct dmo_tape_end *)t;
	unsigned char *dst = e->top;

	if (size != e->elem_size || dst == e->ceiling)
		return dmo_tape_push_slow(t, size);
	if (!dst) /* never, and saying so spares the caller's test */
		__builtin_unreachable();
	e->top = dst + size;
	return dst;
}

/* Append the SIZE bytes at ELEM, for callers that hold only a void
 * pointer; 0 or a code, and on error the tape is unchanged: every element
 * pushed so far stays readable.  The bytes are copied as bytes, which may
 * alias anything, the tape's own end included, so a loop of these reloads
 * the end at every element; dmo_tape_push does not. */
static inline int dmo_tape_push_sized(struct dmo_tape *t, const void *elem,
				      size_t size)
{
	void *dst = dmo_tape_push_place(t, size);

	if (!dst)
		return dmo_tape_error_code(t);
	/* A call to memcpy when SIZE is not a constant: the tool's core
	 * defines one too, for the calls gcc makes on its own. */
	__builtin_memcpy(dst, elem, size);
	return 0;
}

/* The usual push, of the object ELEM points to: 0 or a code, as
 * dmo_tape_push_sized.  The element is stored as its own type, and C
 * does not let a store of, say, a uint64_t alias the tape's end pointers,
 * so a loop of pushes keeps the end in registers rather than reloading it
 * after every element (a byte copy may alias anything; so may a
 * character-typed member of a struct, which costs part of the gain).
 * The slabs and the inline buffer are allocated storage with no declared
 * type, 16-byte aligned, so an element of any type up to that alignment
 * may be stored there.  The comma in the typeof drops a const. */
#define dmo_tape_push(t, elem)                                              \
	__extension__({                                                     \
		struct dmo_tape *dmo_tape_ = (t);                           \
		__typeof__((void)0, *(elem)) *dmo_place_ =                  \
			dmo_tape_push_place(dmo_tape_, sizeof *(elem));     \
		dmo_place_ ? (*dmo_place_ = *(elem), 0)                     \
			   : dmo_tape_error_code(dmo_tape_);                \
	})

/* Remove the last element and return its address: it stays readable
 * until the next push (as chunks from dmo_tape_pop_chunk do).  NULL when
 * the tape is empty, or on an error (dmo_tape_error_code(): a spilled slab
 * that could not be read back; the tape is unchanged).  Handing back an
 * address rather than copying keeps the caller's stores away from the hot
 * end.  A chunk's last element takes the slow path, since emptying a
 * chunk moves the tail. */
static inline const void *dmo_tape_pop(struct dmo_tape *t)
{
	struct dmo_tape_end *e = (struct dmo_tape_end *)t;
	unsigned char *top = e->top;

	if (top <= e->pop_stop)
		return dmo_tape_pop_slow(t);
	top -= e->elem_size;
	e->top = top;
	return top;
}

/* Push in bulk, without a copy: room at the end for *ROOM >= 1 elements,
 * one after another, or NULL on error (the tape unchanged).  Write up to
 * *ROOM elements there, then dmo_tape_commit() how many were written (0
 * is fine): only then are they on the tape.  Call nothing else on the
 * tape in between.  The producer's loop becomes a plain array fill, with
 * the tape's position in a register; a file reader can read straight
 * into the tape. */
void *dmo_tape_reserve(struct dmo_tape *t, size_t *room);
/* 0, or DMO_TAPE_EINVAL (COUNT over the room), or the error of spilling
 * the oldest slab to make room in RAM; on error the COUNT elements are
 * not on the tape and everything before them is. */
int dmo_tape_commit(struct dmo_tape *t, size_t count);

/* Pop the whole tail chunk at once: *BASE is its first element in memory
 * order, the return value its length (0 when the tape is empty, or a
 * negative code).  The elements stay readable until the next push.  For
 * walks that consume the tape from the end, at array speed. */
long dmo_tape_pop_chunk(struct dmo_tape *t, const void **base);

/* The last element, or NULL when empty; never touches the spill file. */
const void *dmo_tape_back(const struct dmo_tape *t);
uint64_t dmo_tape_size(const struct dmo_tape *t);
size_t dmo_tape_elem_size(const struct dmo_tape *t);

/* Element I, or NULL (see dmo_tape_error()).  A spilled element is read
 * into the tape's one random-access slot, so the pointer is valid until the
 * next call that changes the tape or reads through the slot. */
const void *dmo_tape_at(struct dmo_tape *t, uint64_t i);

/* The last error's message ("" if none). */
const char *dmo_tape_error(const struct dmo_tape *t);
void *dmo_tape_ctx(const struct dmo_tape *t);
/* Slabs currently written to the spill file. */
uint64_t dmo_tape_spilled(const struct dmo_tape *t);

/* Iteration by contiguous chunks (the inline buffer, then each slab), so the
 * caller's inner loop is a plain pointer walk.  The tape must not change
 * while an iterator is open. */
struct dmo_tape_iter {
	struct dmo_tape *t;
	int reverse;
	int prefetch;      /* ask for read-ahead of the spilled slabs to come */
	int readahead_busy;
	int64_t next;      /* chunk to yield next: -1 the inline buffer, k slab k */
	void *node;        /* resident slab of chunk NEXT, when it is resident */
};

/* REVERSE walks from the last element to the first.  PREFETCH (with the io
 * ops) has the next two spilled slabs in walk order read into the file
 * cache while the caller consumes the current one, so the walk's own read
 * of each slab into the slot finds it there; it costs no RAM of the tape's
 * own.  A walk reads one slab at a time into the slot. */
int dmo_tape_iter_begin(struct dmo_tape_iter *it, struct dmo_tape *t,
			int reverse, int prefetch);
/* The next chunk: *BASE is its first element in memory order and the return
 * value its length; 0 at the end, or a negative code.  A reverse walk gets
 * the chunks last first and should walk each from its end.  A chunk stays
 * readable until the next call. */
long dmo_tape_iter_next(struct dmo_tape_iter *it, const void **base);
void dmo_tape_iter_end(struct dmo_tape_iter *it);

#endif
