/* os_reducer.c - online exact O_s: the cold parts (see os_reducer.h; the
 * per-event fold is inline there, since the tool runs it for every access). */
#include "os_reducer.h"
#include "event.h"

void dmo_reducer_init(struct dmo_reducer *r, uint64_t in_bytes,
		      uint64_t out_bytes)
{
	struct dmo_reducer zero = { 0 };
	*r = zero;
	r->in_bytes = in_bytes;
	r->out_bytes = out_bytes;
}

uint64_t dmo_os_clamp(int have_bound, int64_t bound, uint64_t in_bytes, uint64_t out_bytes)
{
	uint64_t limit = in_bytes < out_bytes ? in_bytes : out_bytes;
	if (!have_bound || bound >= (int64_t)limit)
		return limit;
	return bound < 0 ? 0 : (uint64_t)bound;
}

uint64_t dmo_reducer_os(const struct dmo_reducer *r)
{
	return dmo_os_clamp(r->have_bound, r->min_bound, r->in_bytes, r->out_bytes);
}

void dmo_any_init(struct dmo_any_reducer *a, uint64_t in_bytes, uint64_t out_bytes,
		  struct dmo_thread_acc *threads, uint32_t capacity)
{
	struct dmo_any_reducer zero = { 0 };
	*a = zero;
	dmo_reducer_init(&a->ran, in_bytes, out_bytes);
	a->threads = threads;
	a->capacity = capacity;
	a->only_tid = DMO_ANY_NO_TID;
}

/* The slot of TID, made if new. */
static struct dmo_thread_acc *thread_slot(struct dmo_any_reducer *a, uint32_t tid)
{
	uint32_t key = tid < DMO_TID_LUMPED ? tid : DMO_TID_LUMPED;
	struct dmo_thread_acc *t = 0;
	for (uint32_t i = 0; i < a->n_threads; i++)
		if (a->threads[i].tid == key) {
			t = &a->threads[i];
			break;
		}
	if (t == 0 && a->n_threads == a->capacity) {
		/* No slot left: lump into the last one. */
		t = &a->threads[a->capacity - 1];
		t->unordered = 1;
	} else if (t == 0) {
		if (a->n_threads == 1)
			a->ran = a->threads[0].own; /* all events so far were its */
		t = &a->threads[a->n_threads++];
		t->tid = key;
		t->unordered = key == DMO_TID_LUMPED;
		dmo_reducer_init(&t->own, a->ran.in_bytes, a->ran.out_bytes);
		t->min_in_start = UINT64_MAX;
		t->max_out_read_end = 0;
	}
	a->current = t;
	a->current_tid = tid;
	return t;
}

unsigned dmo_any_add_other(struct dmo_any_reducer *a, uint32_t tid, unsigned flags,
			   uint64_t offset, uint64_t size)
{
	struct dmo_thread_acc *t = a->current;
	unsigned moved = 0, own;
	if (t == 0 || tid != a->current_tid)
		t = thread_slot(a, tid);
	/* Only a first, unlumped thread takes the inline path. */
	a->only_tid = a->n_threads == 1 && !t->unordered ? tid : DMO_ANY_NO_TID;
	if (a->n_threads > 1)
		moved = dmo_reducer_add(&a->ran, flags, offset, size);
	own = dmo_any_fold(t, flags, offset, size);
	/* With one thread its own reducer is the one that ran. */
	return a->n_threads == 1 ? own : moved;
}

static void tighten(int *have, int64_t *best, int64_t bound)
{
	if (!*have || bound < *best) {
		*best = bound;
		*have = 1;
	}
}

uint64_t dmo_any_os(const struct dmo_any_reducer *a)
{
	int64_t ob = (int64_t)a->ran.out_bytes, best = 0;
	int have = 0;
	for (uint32_t t = 0; t < a->n_threads; t++) {
		const struct dmo_thread_acc *o = &a->threads[t];
		if (o->own.have_bound) /* its own pairs, in program order */
			tighten(&have, &best, o->own.min_bound);
		/* Cross pairs with O-side event in O and I-side in S, either
		 * order; within an unordered slot too. */
		for (uint32_t s = 0; s < a->n_threads; s++) {
			const struct dmo_thread_acc *i = &a->threads[s];
			if (s == t && !o->unordered)
				continue;
			if (o->own.counts[3] > 0 && i->own.counts[0] + i->own.counts[1] > 0)
				tighten(&have, &best, ob + (int64_t)i->min_in_start -
							      (int64_t)o->own.max_out_write_end);
			if (o->own.counts[2] > 0 && i->own.counts[1] > 0)
				tighten(&have, &best, ob + (int64_t)i->own.min_in_write_start -
							      (int64_t)o->max_out_read_end);
		}
	}
	return dmo_os_clamp(have, best, a->ran.in_bytes, a->ran.out_bytes);
}

void dmo_split_init(struct dmo_split_reducer *r, uint64_t in_bytes, uint64_t out_bytes)
{
	struct dmo_split_reducer zero = { 0 };
	*r = zero;
	r->in_bytes = in_bytes;
	r->out_bytes = out_bytes;
	r->min_in_start = r->min_in_write_start = UINT64_MAX;
}

/* Both terms of section 1c, each when both of its events exist. */
uint64_t dmo_split_os(const struct dmo_split_reducer *r)
{
	int64_t ob = (int64_t)r->out_bytes, best = 0;
	int have = 0;
	unsigned in_any = 1u << DMO_COUNT_IN_READS | 1u << DMO_COUNT_IN_WRITES;
	if ((r->kinds_seen & 1u << DMO_COUNT_OUT_WRITES) && (r->kinds_seen & in_any))
		tighten(&have, &best, ob + (int64_t)r->min_in_start - (int64_t)r->max_out_write_end);
	if ((r->kinds_seen & 1u << DMO_COUNT_OUT_READS) &&
	    (r->kinds_seen & 1u << DMO_COUNT_IN_WRITES))
		tighten(&have, &best,
			ob + (int64_t)r->min_in_write_start - (int64_t)r->max_out_read_end);
	return dmo_os_clamp(have, best, r->in_bytes, r->out_bytes);
}

uint64_t dmo_any_split_os(const struct dmo_any_reducer *a)
{
	struct dmo_split_reducer r;
	dmo_split_init(&r, a->ran.in_bytes, a->ran.out_bytes);
	for (uint32_t t = 0; t < a->n_threads; t++) {
		const struct dmo_thread_acc *s = &a->threads[t];
		const uint64_t *n = s->own.counts;
		for (unsigned k = 0; k < DMO_COUNT_KINDS; k++)
			r.kinds_seen |= (n[k] > 0) << k;
		if (s->min_in_start < r.min_in_start)
			r.min_in_start = s->min_in_start;
		if (n[DMO_COUNT_IN_WRITES] > 0 && s->own.min_in_write_start < r.min_in_write_start)
			r.min_in_write_start = s->own.min_in_write_start;
		if (n[DMO_COUNT_OUT_WRITES] > 0 && s->own.max_out_write_end > r.max_out_write_end)
			r.max_out_write_end = s->own.max_out_write_end;
		if (s->max_out_read_end > r.max_out_read_end)
			r.max_out_read_end = s->max_out_read_end;
	}
	return dmo_split_os(&r);
}
