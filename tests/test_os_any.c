/* test_os_any.c - checks the any-interleaving reducer (common/os_reducer.h)
 * against a brute force that knows nothing of it: every interleaving of
 * small per-thread event sequences is enumerated, each interleaving's O_s is
 * taken literally from docs/definitions.md's pair definition (every ordered pair, no
 * running extremes), and O_s^any must be the minimum over them.  That
 * minimum is the largest placement safe for every interleaving, so the
 * test checks both safety and that nothing is given away.  The any-split
 * value is checked the same way, over every assignment of the events to
 * two or three threads as well. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "check_main.h"
#include "event.h"
#include "os_reducer.h"

enum { MAX_THREADS = 3, MAX_PER_THREAD = 4, MAX_EVENTS = MAX_THREADS * MAX_PER_THREAD };

struct ev {
	unsigned flags;
	uint64_t offset, size;
};

struct layer {
	uint64_t in_bytes, out_bytes;
	unsigned n_threads;
	uint32_t tid[MAX_THREADS];
	unsigned len[MAX_THREADS];
	struct ev ev[MAX_THREADS][MAX_PER_THREAD];
};

/* docs/definitions.md, literally: E1 before E2 on different buffers, W(O)->R(I),
 * W(O)->W(I) or W(I)->R(O), forbids X > OB + i - o_end. */
static uint64_t literal_os(const struct layer *l, const struct ev *const *seq, unsigned n)
{
	int have = 0;
	int64_t best = 0;
	uint64_t limit = l->in_bytes < l->out_bytes ? l->in_bytes : l->out_bytes;
	for (unsigned a = 0; a < n; a++)
		for (unsigned b = a + 1; b < n; b++) {
			const struct ev *e1 = seq[a], *e2 = seq[b];
			int w1 = e1->flags & DMO_EV_WRITE, w2 = e2->flags & DMO_EV_WRITE;
			int o1 = e1->flags & DMO_EV_OUT, o2 = e2->flags & DMO_EV_OUT;
			const struct ev *in_side, *out_side;
			if (o1 && w1 && !o2) { /* W(O) then R(I) or W(I) */
				out_side = e1;
				in_side = e2;
			} else if (!o1 && w1 && o2 && !w2) { /* W(I) then R(O) */
				in_side = e1;
				out_side = e2;
			} else {
				continue;
			}
			int64_t bound = (int64_t)l->out_bytes + (int64_t)in_side->offset -
					(int64_t)(out_side->offset + out_side->size);
			if (!have || bound < best)
				best = bound;
			have = 1;
		}
	if (!have || best >= (int64_t)limit)
		return limit;
	return best < 0 ? 0 : (uint64_t)best;
}

struct walk {
	const struct layer *l;
	unsigned pos[MAX_THREADS];
	const struct ev *seq[MAX_EVENTS];
	unsigned n;
	uint64_t min_os;
	unsigned long interleavings;
};

/* Every interleaving: at each point, any thread with events left goes next. */
static void enumerate(struct walk *w)
{
	int any = 0;
	for (unsigned t = 0; t < w->l->n_threads; t++) {
		if (w->pos[t] == w->l->len[t])
			continue;
		any = 1;
		w->seq[w->n++] = &w->l->ev[t][w->pos[t]++];
		enumerate(w);
		w->pos[t]--;
		w->n--;
	}
	if (!any) {
		uint64_t os = literal_os(w->l, w->seq, w->n);
		if (w->interleavings++ == 0 || os < w->min_os)
			w->min_os = os;
	}
}

static uint64_t brute_force_any(const struct layer *l)
{
	struct walk w = { .l = l };
	enumerate(&w);
	return w.min_os;
}

/* Feed the layer to the reducer in one interleaving, chosen by SEED
 * (0: thread by thread), and return its O_s^any; *RAN_OS gets the O_s of
 * that interleaving, and RAN_LITERAL the literal O_s of the same order. */
static uint64_t reduce(const struct layer *l, unsigned seed, uint32_t capacity,
		       uint64_t *ran_os, uint64_t *ran_literal)
{
	struct dmo_thread_acc slots[MAX_THREADS];
	struct dmo_any_reducer a;
	const struct ev *seq[MAX_EVENTS];
	unsigned pos[MAX_THREADS] = { 0 }, n = 0, total = 0;
	for (unsigned t = 0; t < l->n_threads; t++)
		total += l->len[t];
	dmo_any_init(&a, l->in_bytes, l->out_bytes, slots, capacity);
	srand(seed);
	while (n < total) {
		unsigned t = 0;
		if (seed == 0)
			while (pos[t] == l->len[t])
				t++;
		else
			do
				t = (unsigned)rand() % l->n_threads;
			while (pos[t] == l->len[t]);
		const struct ev *e = &l->ev[t][pos[t]++];
		seq[n++] = e;
		dmo_any_add(&a, l->tid[t], e->flags, e->offset, e->size);
	}
	*ran_os = dmo_reducer_os(dmo_any_ran(&a));
	*ran_literal = literal_os(l, seq, n);
	return dmo_any_os(&a);
}

static void random_layer(struct layer *l, unsigned n_threads)
{
	l->in_bytes = 1 + (uint64_t)rand() % 12;
	l->out_bytes = 1 + (uint64_t)rand() % 12;
	l->n_threads = n_threads;
	for (unsigned t = 0; t < n_threads; t++) {
		l->tid[t] = 1 + t;
		l->len[t] = 1 + (unsigned)rand() % MAX_PER_THREAD;
		for (unsigned k = 0; k < l->len[t]; k++) {
			struct ev *e = &l->ev[t][k];
			uint64_t len;
			e->flags = (unsigned)rand() % 4;
			len = (e->flags & DMO_EV_OUT) ? l->out_bytes : l->in_bytes;
			e->offset = (uint64_t)rand() % len;
			e->size = 1 + (uint64_t)rand() % 3;
			if (e->size > len - e->offset)
				e->size = len - e->offset;
		}
	}
}

START_TEST(random_layers_match_brute_force)
{
	unsigned long multi = 0, differs = 0;
	srand(1234);
	for (int trial = 0; trial < 3000; trial++) {
		struct layer l;
		unsigned n_threads = 1 + (unsigned)(trial % MAX_THREADS);
		uint64_t expect, got, ran, ran_literal;
		unsigned state;
		random_layer(&l, n_threads);
		state = (unsigned)rand();
		expect = brute_force_any(&l);
		for (unsigned seed = 0; seed < 3; seed++) {
			got = reduce(&l, seed ? state + seed : 0, MAX_THREADS, &ran, &ran_literal);
			ck_assert_msg(got == expect, "trial %d seed %u: any %llu, brute force %llu",
				      trial, seed, (unsigned long long)got,
				      (unsigned long long)expect);
			ck_assert_uint_eq(ran, ran_literal);
			ck_assert_uint_le(got, ran);
			if (n_threads == 1)
				ck_assert_uint_eq(got, ran);
			else if (got != ran)
				differs++;
			/* Too few slots lump threads: safe, maybe smaller. */
			if (n_threads > 1)
				ck_assert_uint_le(reduce(&l, seed, 1, &ran, &ran_literal), expect);
			/* srand() was reseeded by reduce(); keep the trials apart. */
			srand(state + 7919u * (unsigned)trial + seed);
		}
		multi += n_threads > 1;
	}
	/* The random layers must exercise the cross-thread rule at all. */
	ck_assert_msg(differs > multi / 10, "only %lu of %lu multi-thread layers differ",
		      differs, multi);
}
END_TEST

/* The case, by hand (IB = OB = 16): thread 1 reads input bytes
 * [0,4) and [8,12), then writes output [0,4) and [4,8); thread 2 writes
 * output [8,12) and [12,16).  Run thread 1 first, no input access follows
 * any write: O_s = 16.  But thread 2 may write [12,16) before thread 1
 * reads input 0: OB + 0 - 16 = 0, so O_s^any = 0. */
START_TEST(second_thread_writes_end_first)
{
	struct layer l = { .in_bytes = 16, .out_bytes = 16, .n_threads = 2,
			   .tid = { 1, 2 }, .len = { 4, 2 } };
	uint64_t ran, ran_literal;
	for (unsigned k = 0; k < 2; k++) {
		l.ev[0][k] = (struct ev){ 0, 8 * k, 4 };
		l.ev[0][k + 2] = (struct ev){ DMO_EV_OUT | DMO_EV_WRITE, 4 * k, 4 };
		l.ev[1][k] = (struct ev){ DMO_EV_OUT | DMO_EV_WRITE, 8 + 4 * k, 4 };
	}
	ck_assert_uint_eq(reduce(&l, 0, 2, &ran, &ran_literal), 0);
	ck_assert_uint_eq(ran, 16);
	ck_assert_uint_eq(brute_force_any(&l), 0);
}
END_TEST

/* Event files keep 8-bit tids: ids from DMO_TID_LUMPED up are one slot,
 * whose pairs count in either order even when one thread made them. */
START_TEST(lumped_tids_count_either_order)
{
	struct dmo_thread_acc slots[4];
	struct dmo_any_reducer a;
	/* W(I) at 0 after R(O) ending at 8: harmless in this order. */
	dmo_any_init(&a, 8, 8, slots, 4);
	dmo_any_add(&a, 300, DMO_EV_OUT, 0, 8);
	dmo_any_add(&a, 300, DMO_EV_WRITE, 0, 4);
	ck_assert_uint_eq(dmo_reducer_os(dmo_any_ran(&a)), 8);
	ck_assert_uint_eq(dmo_any_os(&a), 0);
	/* The same from an ordinary thread keeps its order. */
	dmo_any_init(&a, 8, 8, slots, 4);
	dmo_any_add(&a, 7, DMO_EV_OUT, 0, 8);
	dmo_any_add(&a, 7, DMO_EV_WRITE, 0, 4);
	ck_assert_uint_eq(dmo_any_os(&a), 8);
	ck_assert_uint_eq(a.n_threads, 1);
}
END_TEST

/* ---- Any split (section 1c): every assignment of a layer's events to
 * threads, and for each every interleaving, by the brute force above. ---- */

/* The minimum over all assignments of L's events, in L's order, to
 * N_THREADS threads (each keeps the events it gets in that order) of the
 * brute force over their interleavings. */
static uint64_t brute_force_split(const struct layer *l, unsigned n_threads)
{
	struct ev flat[MAX_EVENTS];
	unsigned n = 0, assignments = 1;
	uint64_t best = UINT64_MAX;
	for (unsigned t = 0; t < l->n_threads; t++)
		for (unsigned k = 0; k < l->len[t]; k++)
			flat[n++] = l->ev[t][k];
	for (unsigned i = 0; i < n; i++)
		assignments *= n_threads;
	for (unsigned code = 0; code < assignments; code++) {
		struct layer split = { .in_bytes = l->in_bytes, .out_bytes = l->out_bytes,
				       .n_threads = n_threads };
		unsigned rest = code;
		for (unsigned i = 0; i < n; i++, rest /= n_threads) {
			unsigned t = rest % n_threads;
			split.ev[t][split.len[t]++] = flat[i];
		}
		uint64_t os = brute_force_any(&split);
		if (os < best)
			best = os;
	}
	return best;
}

START_TEST(split_matches_brute_force)
{
	unsigned long below_any = 0;
	srand(4321);
	for (int trial = 0; trial < 400; trial++) {
		struct layer l;
		struct dmo_split_reducer r;
		struct dmo_thread_acc slots[MAX_THREADS];
		struct dmo_any_reducer a;
		/* One observed thread of at most 4 events, so a split over
		 * three threads has room for every assignment. */
		random_layer(&l, 1);
		dmo_split_init(&r, l.in_bytes, l.out_bytes);
		dmo_any_init(&a, l.in_bytes, l.out_bytes, slots, MAX_THREADS);
		/* The fold ignores order: feed it backwards. */
		for (unsigned k = l.len[0]; k-- > 0;)
			dmo_split_add(&r, l.ev[0][k].flags, l.ev[0][k].offset, l.ev[0][k].size);
		for (unsigned k = 0; k < l.len[0]; k++)
			dmo_any_add(&a, 1, l.ev[0][k].flags, l.ev[0][k].offset, l.ev[0][k].size);
		uint64_t got = dmo_split_os(&r);
		for (unsigned n_threads = 2; n_threads <= MAX_THREADS; n_threads++)
			ck_assert_msg(got == brute_force_split(&l, n_threads),
				      "trial %d, %u threads: split %llu, brute force %llu", trial,
				      n_threads, (unsigned long long)got,
				      (unsigned long long)brute_force_split(&l, n_threads));
		/* The tool's form, from the thread slots, is the same value. */
		ck_assert_uint_eq(dmo_any_split_os(&a), got);
		/* Any split includes the observed one. */
		ck_assert_uint_le(got, dmo_any_os(&a));
		below_any += got < dmo_any_os(&a);
	}
	/* The random layers must exercise order at all. */
	ck_assert_msg(below_any > 40, "only %lu of 400 layers lose by any split", below_any);
}
END_TEST

/* By hand: IB = OB = 16, one thread reads input [0,4) then writes output
 * [12,16).  As run, no input access follows a write: O_s = 16.  Split
 * over two threads, the write may come first: OB + 0 - 16 = 0. */
START_TEST(split_by_hand)
{
	struct dmo_split_reducer r;
	dmo_split_init(&r, 16, 16);
	ck_assert_uint_eq(dmo_split_os(&r), 16); /* no events: nothing forbidden */
	dmo_split_add(&r, 0, 0, 4);
	ck_assert_uint_eq(dmo_split_os(&r), 16);
	dmo_split_add(&r, DMO_EV_OUT | DMO_EV_WRITE, 12, 4);
	ck_assert_uint_eq(dmo_split_os(&r), 0);
	/* An R(O) ending at 8 and a W(I) at 10: 16 + 10 - 8 = 18, above the
	 * clamp; with the W(O) the minimum stays 0. */
	dmo_split_init(&r, 16, 16);
	dmo_split_add(&r, DMO_EV_WRITE, 10, 2);
	dmo_split_add(&r, DMO_EV_OUT, 4, 4);
	ck_assert_uint_eq(dmo_split_os(&r), 16);
	dmo_split_add(&r, DMO_EV_WRITE, 0, 2); /* 16 + 0 - 8 = 8 */
	ck_assert_uint_eq(dmo_split_os(&r), 8);
}
END_TEST

int main(void)
{
	Suite *suite = suite_create("os_any");
	TCase *tc = tcase_create("reducer");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, random_layers_match_brute_force);
	tcase_add_test(tc, second_thread_writes_end_first);
	tcase_add_test(tc, lumped_tids_count_either_order);
	tcase_add_test(tc, split_matches_brute_force);
	tcase_add_test(tc, split_by_hand);
	suite_add_tcase(suite, tc);
	return dmo_run_suite(suite);
}
