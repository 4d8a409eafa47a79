/* tape.c - the tape core: inline buffer, slab list, spill file, iteration.
 * Freestanding: every outside service goes through struct dmo_tape_ops, so
 * the Valgrind tool and the analysis library share this one copy. */
#include "tape.h"
#include "text.h"

struct slab {
	struct slab *prev, *next; /* resident list; NEXT links the free list */
	size_t used;              /* elements in DATA */
	_Alignas(16) unsigned char data[];
};

struct dmo_tape {
	struct dmo_tape_end end;  /* first: the inline push and pop use it */
	struct dmo_tape_config cfg;
	uint64_t n;               /* elements; the inline paths leave it stale */
	const struct dmo_tape_ops *ops;
	void *ctx;
	size_t slab_bytes, node_bytes;
	/* Resident slabs, oldest first.  Slabs are numbered from 0 in push
	 * order; 0..nspill-1 live only in the spill file, nspill.. are here.
	 * The tail is always resident, so push, pop and back never read the
	 * file except when a pop empties the last resident slab. */
	struct slab *head, *tail;
	size_t nres;
	uint64_t nspill;
	struct slab *free;        /* emptied by pops, waiting for reuse */
	struct slab *slot;        /* copy of one spilled slab, for reads */
	int64_t slot_k;           /* which slab SLOT holds, or -1 */
	intptr_t file;
	int file_open;
	int writing;              /* the head slab's write is in flight */
	int code;                 /* of the last error */
	char err[160];
	_Alignas(16) unsigned char sbo[];
};

/* Compose "tape: WHAT: REASON" in t->err, tell the report op, return CODE.
 * ERRNUM > 0 names the system error behind it. */
static int fail(struct dmo_tape *t, int code, const char *what, int errnum)
{
	char *p = t->err, *end = t->err + sizeof t->err - 1;

	p = dmo_text_append(p, end, "tape: ");
	p = dmo_text_append(p, end, what);
	if (errnum > 0) {
		p = dmo_text_append(p, end, ": ");
		if (t->ops->strerror) {
			p = dmo_text_append(p, end, t->ops->strerror(t->ctx, errnum));
		} else {
			p = dmo_text_append(p, end, "errno ");
			p = dmo_text_append_u64(p, end, (size_t)errnum);
		}
	}
	*p = 0;
	t->code = code;
	if (t->ops->report)
		t->ops->report(t->ctx, t->err);
	return code;
}

/* A short transfer has no errno; a full disk is the usual reason. */
static int io_errno(long r)
{
	return r < 0 ? (int)-r : 28 /* ENOSPC */;
}

static size_t tail_count(const struct dmo_tape *t)
{
	return (size_t)(t->end.top - t->end.floor) / t->cfg.elem_size;
}

/* The inline push and pop (tape.h) move only end.top: bring the counts up
 * to date before anything here reads them. */
static void sync_tail(struct dmo_tape *t)
{
	size_t count = tail_count(t);

	t->n = t->end.before + count;
	if (t->tail)
		t->tail->used = count;
}

/* Point the hot end at the tail chunk: the tail slab if there is one (it
 * is never empty), else the inline buffer. */
static void refresh_end(struct dmo_tape *t)
{
	size_t es = t->cfg.elem_size;

	if (t->tail) {
		t->end.floor = t->tail->data;
		t->end.top = t->end.floor + t->tail->used * es;
		t->end.ceiling = t->end.floor + t->cfg.slab_elems * es;
		t->end.before = t->n - t->tail->used;
	} else {
		t->end.floor = t->sbo;
		t->end.top = t->sbo + t->n * es;
		t->end.ceiling = t->sbo + t->cfg.sbo_elems * es;
		t->end.before = 0;
	}
	/* An inline buffer of no elements has no floor + es inside it. */
	t->end.pop_stop = t->end.floor + (t->end.ceiling > t->end.floor ? es : 0);
}

struct dmo_tape *dmo_tape_create(const struct dmo_tape_config *cfg,
				 const struct dmo_tape_ops *ops, void *ctx)
{
	struct dmo_tape *t;
	size_t es = cfg->elem_size, sbo_bytes;

	if (!es || !cfg->slab_elems || !ops->alloc || !ops->free ||
	    cfg->slab_elems > (SIZE_MAX / 2 - sizeof(struct slab)) / es ||
	    cfg->sbo_elems > (SIZE_MAX / 2 - sizeof *t) / es)
		return NULL;
	if (cfg->max_resident &&
	    (!cfg->spill_dir || !ops->spill_open || !ops->spill_write ||
	     !ops->spill_read || !ops->spill_close))
		return NULL;
	if (!ops->io_start != !ops->io_wait)
		return NULL;
	sbo_bytes = cfg->sbo_elems * es;
	t = ops->alloc(ctx, sizeof *t + sbo_bytes);
	if (!t)
		return NULL;
	*t = (struct dmo_tape){
		.cfg = *cfg, .ops = ops, .ctx = ctx,
		.slab_bytes = cfg->slab_elems * es,
		.node_bytes = sizeof(struct slab) + cfg->slab_elems * es,
		.slot_k = -1,
	};
	t->end.elem_size = es;
	refresh_end(t);
	return t;
}

static void free_slab(struct dmo_tape *t, struct slab *s)
{
	t->ops->free(t->ctx, s, t->node_bytes);
}

/* S on the free list, for the next get_slab(). */
static void put_slab(struct dmo_tape *t, struct slab *s)
{
	s->next = t->free;
	t->free = s;
}

/* A slab from the free list, else the slot's (its copy is only a cache,
 * and taking it keeps RAM within max_resident + 1 slabs when a reserve
 * opens a slab after a walk), else a new one. */
static struct slab *get_slab(struct dmo_tape *t)
{
	struct slab *s = t->free;

	if (s) {
		t->free = s->next;
		return s;
	}
	if ((s = t->slot)) {
		t->slot = NULL;
		t->slot_k = -1;
		return s;
	}
	s = t->ops->alloc(t->ctx, t->node_bytes);
	if (!s)
		fail(t, DMO_TAPE_ENOMEM, "out of memory for a slab", 0);
	return s;
}

static uint64_t slab_off(const struct dmo_tape *t, uint64_t k)
{
	return k * (uint64_t)t->slab_bytes;
}

static int open_file(struct dmo_tape *t)
{
	int e;

	if (t->file_open)
		return 0;
	if ((e = t->ops->spill_open(t->ctx, t->cfg.spill_dir, &t->file)))
		return fail(t, DMO_TAPE_EOPEN, "cannot create a spill file", -e);
	t->file_open = 1;
	return 0;
}

/* Take resident slab S off the list, from either end. */
static void unlink_slab(struct dmo_tape *t, struct slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		t->head = s->next;
	if (s->next)
		s->next->prev = s->prev;
	else
		t->tail = s->prev;
	t->nres--;
}

/* The head slab is now slab NSPILL of the file: take it off the list. */
static struct slab *detach_head(struct dmo_tape *t)
{
	struct slab *s = t->head;

	if (t->slot_k == (int64_t)t->nspill)
		t->slot_k = -1; /* its bytes on disk just changed */
	unlink_slab(t, s);
	t->nspill++;
	return s;
}

/* Write the oldest resident slab to the file (or finish the write begun in
 * the background) and detach it for reuse.  On error it stays resident. */
static int spill_head(struct dmo_tape *t, struct slab **out)
{
	long r;
	int rc;

	if (t->writing) {
		t->writing = 0;
		r = t->ops->io_wait(t->ctx);
	} else {
		if ((rc = open_file(t)))
			return rc;
		r = t->ops->spill_write(t->ctx, t->file, t->head->data,
					t->slab_bytes, slab_off(t, t->nspill));
	}
	if (r != (long)t->slab_bytes)
		return fail(t, DMO_TAPE_EWRITE, "cannot write the spill file",
			    io_errno(r));
	*out = detach_head(t);
	return 0;
}

/* Write-behind: once RAM is full, the next slab to spill is the head, so
 * start writing it now and let the tail fill meanwhile; the push that
 * needs its memory only waits for the end of the write.  Never the first
 * spill (it opens the file and reports any error there) and never when
 * the head is the tail, which pushes still change. */
static void write_behind(struct dmo_tape *t)
{
	if (!t->cfg.write_behind || !t->ops->io_start || !t->file_open ||
	    t->writing || t->nres != t->cfg.max_resident || t->head == t->tail)
		return;
	if (t->ops->io_start(t->ctx, t->file, t->head->data, t->slab_bytes,
			     slab_off(t, t->nspill), DMO_TAPE_IO_WRITE) == 0)
		t->writing = 1;
}

/* Anything but a push first lets a background write end, so only pushes
 * ever run beside one.  A failed write leaves the head resident: the next
 * spill writes it again and reports the error if it persists. */
static void settle(struct dmo_tape *t)
{
	if (!t->writing)
		return;
	t->writing = 0;
	if (t->ops->io_wait(t->ctx) == (long)t->slab_bytes)
		put_slab(t, detach_head(t));
}

void dmo_tape_destroy(struct dmo_tape *t)
{
	struct slab *s, *next;

	settle(t);
	for (s = t->head; s; s = next) {
		next = s->next;
		free_slab(t, s);
	}
	for (s = t->free; s; s = next) {
		next = s->next;
		free_slab(t, s);
	}
	if (t->slot)
		free_slab(t, t->slot);
	if (t->file_open)
		t->ops->spill_close(t->ctx, t->file);
	t->ops->free(t->ctx, t, sizeof *t + t->cfg.sbo_elems * t->cfg.elem_size);
}

/* S becomes the new, empty tail slab. */
static void link_tail(struct dmo_tape *t, struct slab *s)
{
	s->used = 0;
	s->next = NULL;
	s->prev = t->tail;
	if (t->tail)
		t->tail->next = s;
	else
		t->head = s;
	t->tail = s;
	t->nres++;
}

static int add_slab(struct dmo_tape *t)
{
	struct slab *s = NULL;

	if (t->cfg.max_resident && t->nres == t->cfg.max_resident) {
		int rc = spill_head(t, &s);

		if (rc)
			return rc;
	} else if (!(s = get_slab(t))) {
		return DMO_TAPE_ENOMEM;
	}
	link_tail(t, s);
	write_behind(t);
	return 0;
}

/* Make room for one more element at the end; *DST is its place. */
static int push(struct dmo_tape *t, void **dst_out)
{
	size_t es = t->cfg.elem_size;
	unsigned char *dst;

	if (t->n < t->cfg.sbo_elems) {
		dst = t->sbo + t->n * es;
	} else {
		if (!t->tail || t->tail->used == t->cfg.slab_elems) {
			int rc = add_slab(t);

			if (rc)
				return rc;
		}
		dst = t->tail->data + t->tail->used++ * es;
	}
	*dst_out = dst;
	t->n++;
	return 0;
}

/* A caller's element size that is not the tape's would misplace every
 * element after it. */
static int check_size(struct dmo_tape *t, size_t size)
{
	char what[96], *p = what, *end = what + sizeof what - 1;

	if (size == t->cfg.elem_size)
		return 0;
	p = dmo_text_append(p, end, "an element of ");
	p = dmo_text_append_u64(p, end, size);
	p = dmo_text_append(p, end, " bytes on a tape of ");
	p = dmo_text_append_u64(p, end, t->cfg.elem_size);
	p = dmo_text_append(p, end, "-byte elements");
	*p = 0;
	return fail(t, DMO_TAPE_EINVAL, what, 0);
}

void *dmo_tape_push_slow(struct dmo_tape *t, size_t size)
{
	void *dst = NULL;

	if (check_size(t, size))
		return NULL;
	sync_tail(t);
	if (push(t, &dst))
		dst = NULL;
	refresh_end(t);
	return dst;
}

/* Make sure t->slot holds spilled slab K. */
static int load_slot(struct dmo_tape *t, uint64_t k)
{
	long r;

	if (t->slot_k == (int64_t)k)
		return 0;
	if (!t->slot && !(t->slot = get_slab(t)))
		return DMO_TAPE_ENOMEM;
	t->slot_k = -1;
	r = t->ops->spill_read(t->ctx, t->file, t->slot->data, t->slab_bytes,
			       slab_off(t, k));
	if (r != (long)t->slab_bytes)
		return fail(t, DMO_TAPE_EREAD, "cannot read the spill file",
			    io_errno(r));
	t->slot_k = (int64_t)k;
	return 0;
}

/* Keep the tail resident: before the last resident slab S empties, bring
 * the newest spilled slab back in front of it. */
static int unspill_before(struct dmo_tape *t, struct slab *s)
{
	int rc;

	if (t->nres != 1 || !t->nspill)
		return 0;
	rc = load_slot(t, t->nspill - 1);
	if (rc)
		return rc;
	t->slot->used = t->cfg.slab_elems;
	t->slot->prev = NULL;
	t->slot->next = s;
	s->prev = t->slot;
	t->head = t->slot;
	t->slot = NULL;
	t->slot_k = -1;
	t->nres++;
	t->nspill--;
	return 0;
}

/* The emptied tail slab S goes to the free list; its bytes stay readable
 * until a push takes it again. */
static void release_tail(struct dmo_tape *t, struct slab *s)
{
	unlink_slab(t, s);
	put_slab(t, s);
}

/* A reserve that needs a new chunk links an empty slab as the tail
 * without spilling: the caller may commit nothing, and then the slab goes
 * back to the free list with no I/O.  The spill that keeps RAM at
 * max_resident slabs waits for the commit. */
void *dmo_tape_reserve(struct dmo_tape *t, size_t *room)
{
	size_t es = t->cfg.elem_size;

	if (t->end.top == t->end.ceiling) {
		struct slab *s;

		sync_tail(t);
		if (!(s = get_slab(t)))
			return NULL;
		link_tail(t, s);
		refresh_end(t);
	}
	*room = (size_t)(t->end.ceiling - t->end.top) / es;
	return t->end.top;
}

int dmo_tape_commit(struct dmo_tape *t, size_t count)
{
	size_t es = t->cfg.elem_size;
	struct slab *s;
	int rc = 0;

	if (count > (size_t)(t->end.ceiling - t->end.top) / es)
		return fail(t, DMO_TAPE_EINVAL, "commit beyond the reserved room", 0);
	t->end.top += count * es;
	if (t->cfg.max_resident && t->nres > t->cfg.max_resident && count) {
		sync_tail(t);
		if (!(rc = spill_head(t, &s))) {
			put_slab(t, s);
			write_behind(t);
			return 0;
		}
		t->end.top -= count * es; /* the elements never arrived */
	}
	if (t->tail && t->end.top == t->end.floor) {
		sync_tail(t);
		release_tail(t, t->tail);
		refresh_end(t);
	}
	return rc;
}

/* Remove the last element; *SRC is where it stays readable until the next
 * push (an emptied slab waits on the free list). */
static int pop(struct dmo_tape *t, const void **src_out)
{
	size_t es = t->cfg.elem_size;
	struct slab *s = t->tail;
	const unsigned char *src;

	if (!t->n)
		return fail(t, DMO_TAPE_EEMPTY, "pop from an empty tape", 0);
	if (t->n <= t->cfg.sbo_elems) {
		src = t->sbo + (t->n - 1) * es;
	} else {
		if (s->used == 1) {
			int rc = unspill_before(t, s);

			if (rc)
				return rc;
		}
		src = s->data + (s->used - 1) * es;
	}
	*src_out = src;
	t->n--;
	if (t->n >= t->cfg.sbo_elems && --s->used == 0)
		release_tail(t, s);
	return 0;
}

long dmo_tape_pop_chunk(struct dmo_tape *t, const void **base)
{
	struct slab *s;
	long count;
	int rc;

	settle(t);
	sync_tail(t);
	s = t->tail;
	if (!s) {
		*base = t->sbo;
		count = (long)t->n;
		t->n = 0;
	} else {
		if ((rc = unspill_before(t, s)))
			return rc;
		*base = s->data;
		count = (long)s->used;
		t->n -= s->used;
		s->used = 0;
		release_tail(t, s);
	}
	refresh_end(t);
	return count;
}

const void *dmo_tape_pop_slow(struct dmo_tape *t)
{
	const void *src = NULL;
	int rc;

	settle(t);
	sync_tail(t);
	rc = pop(t, &src);
	refresh_end(t);
	return rc ? NULL : src;
}

const void *dmo_tape_back(const struct dmo_tape *t)
{
	return t->end.top > t->end.floor ? t->end.top - t->cfg.elem_size : NULL;
}

uint64_t dmo_tape_size(const struct dmo_tape *t)
{
	return t->end.before + tail_count(t);
}

/* Random access walks the resident list from its nearer end: at most
 * max_resident / 2 steps, and the list is short when spilling. */
const void *dmo_tape_at(struct dmo_tape *t, uint64_t i)
{
	size_t es = t->cfg.elem_size;
	uint64_t j, k, p;
	size_t off;
	struct slab *s;

	settle(t);
	sync_tail(t);
	if (i >= t->n) {
		fail(t, DMO_TAPE_EINVAL, "index out of range", 0);
		return NULL;
	}
	if (i < t->cfg.sbo_elems)
		return t->sbo + i * es;
	j = i - t->cfg.sbo_elems;
	k = j / t->cfg.slab_elems;
	off = (size_t)(j % t->cfg.slab_elems);
	if (k < t->nspill)
		return load_slot(t, k) ? NULL : t->slot->data + off * es;
	p = k - t->nspill;
	if (p < t->nres / 2) {
		for (s = t->head; p--; s = s->next)
			;
	} else {
		for (s = t->tail, p = t->nres - 1 - p; p--; s = s->prev)
			;
	}
	return s->data + off * es;
}

size_t dmo_tape_elem_size(const struct dmo_tape *t)
{
	return t->cfg.elem_size;
}

const char *dmo_tape_error(const struct dmo_tape *t)
{
	return t->err;
}

int dmo_tape_error_code(const struct dmo_tape *t)
{
	return t->code;
}

void *dmo_tape_ctx(const struct dmo_tape *t)
{
	return t->ctx;
}

uint64_t dmo_tape_spilled(const struct dmo_tape *t)
{
	return t->nspill;
}

/* The walk's first chunk in push order: the inline buffer (-1), unless
 * the tape has none, when a zero-length chunk would read as the end. */
static int64_t first_chunk(const struct dmo_tape *t)
{
	return t->cfg.sbo_elems ? -1 : 0;
}

int dmo_tape_iter_begin(struct dmo_tape_iter *it, struct dmo_tape *t,
			int reverse, int prefetch)
{
	settle(t);
	sync_tail(t);
	*it = (struct dmo_tape_iter){
		.t = t, .reverse = reverse,
		.prefetch = prefetch && t->nspill && t->ops->io_start,
		.next = reverse ? (int64_t)(t->nspill + t->nres) - 1
				: first_chunk(t),
		.node = reverse ? t->tail : t->head,
	};
	return 0;
}

/* Ask for read-ahead of the next two spilled slabs in walk order (one
 * request for the range; slabs already cached cost the kernel nothing).
 * A failure only loses the prefetch: the walk's own read reports errors. */
static void prefetch_next(struct dmo_tape_iter *it)
{
	struct dmo_tape *t = it->t;
	int64_t first = it->next, last = it->next + (it->reverse ? -1 : 1);
	int64_t lo = first < last ? first : last, hi = first < last ? last : first;

	if (!it->prefetch || first < 0 || first >= (int64_t)t->nspill)
		return;
	if (lo < 0)
		lo = 0;
	if (hi >= (int64_t)t->nspill)
		hi = (int64_t)t->nspill - 1;
	if (it->readahead_busy)
		t->ops->io_wait(t->ctx);
	it->readahead_busy = t->ops->io_start(t->ctx, t->file, NULL,
					      (size_t)(hi - lo + 1) * t->slab_bytes,
					      slab_off(t, (uint64_t)lo),
					      DMO_TAPE_IO_READAHEAD) == 0;
}

long dmo_tape_iter_next(struct dmo_tape_iter *it, const void **base)
{
	struct dmo_tape *t = it->t;
	int64_t k = it->next;
	struct slab *s;
	long len;

	if (k < first_chunk(t) || k >= (int64_t)(t->nspill + t->nres))
		return 0;
	if (k == -1) {
		*base = t->sbo;
		len = (long)(t->n < t->cfg.sbo_elems ? t->n : t->cfg.sbo_elems);
	} else if (k >= (int64_t)t->nspill) {
		s = it->node;
		it->node = it->reverse ? s->prev : s->next;
		*base = s->data;
		len = (long)s->used;
	} else {
		int rc = load_slot(t, (uint64_t)k);

		if (rc)
			return rc;
		*base = t->slot->data;
		len = (long)t->cfg.slab_elems;
	}
	it->next += it->reverse ? -1 : 1;
	prefetch_next(it);
	return len;
}

void dmo_tape_iter_end(struct dmo_tape_iter *it)
{
	struct dmo_tape *t = it->t;

	if (it->readahead_busy)
		t->ops->io_wait(t->ctx);
	it->readahead_busy = 0;
}
