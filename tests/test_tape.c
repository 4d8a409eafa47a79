/* test_tape.c - the tape: round trips across the inline-buffer, slab and
 * spill boundaries, random access, slab reuse, iteration both ways with and
 * without prefetch, random mixes of every operation against an array,
 * many threads pushing (and popping) at once, and the two spill failures (dir not writable, disk
 * full). */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_main.h"
#include "event.h"
#include "tape_libc.h"

static char spill_dir[64];

static void make_dir(void)
{
	strcpy(spill_dir, "/tmp/test_tape.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(spill_dir));
}

static void remove_dir(void)
{
	rmdir(spill_dir);
}

static struct dmo_event ev(uint64_t i)
{
	return (struct dmo_event){
		.time = i * 3 + 1, .offset = (uint32_t)(i * 7),
		.size = (uint16_t)i, .flags = (uint8_t)(i & 3),
		.tid = (uint8_t)(i >> 8),
	};
}

static int ev_eq(const void *p, uint64_t i)
{
	struct dmo_event e = ev(i);

	return memcmp(p, &e, sizeof e) == 0;
}

/* Counting wrappers around the libc ops: live slab-sized blocks, a byte
 * budget for the spill file (a simulated full disk). */
static size_t live_bytes, peak_bytes, allocs, tape_bytes;
static long write_budget = -1;

static void *count_alloc(void *ctx, size_t n)
{
	allocs++;
	live_bytes += n;
	if (live_bytes > peak_bytes)
		peak_bytes = live_bytes;
	return dmo_tape_libc_ops.alloc(ctx, n);
}

static void count_free(void *ctx, void *p, size_t n)
{
	live_bytes -= n;
	dmo_tape_libc_ops.free(ctx, p, n);
}

static long budget_write(void *ctx, intptr_t f, const void *buf, size_t n,
			 uint64_t off)
{
	if (write_budget >= 0) {
		if ((long)n > write_budget)
			return -ENOSPC;
		write_budget -= (long)n;
	}
	return dmo_tape_libc_ops.spill_write(ctx, f, buf, n, off);
}

/* The same budget for writes done in the background (write-behind): a
 * refused one "completes" at once with ENOSPC. */
static int refused_pending;

static int budget_io_start(void *ctx, intptr_t f, void *buf, size_t n,
			   uint64_t off, int what)
{
	if (what == DMO_TAPE_IO_WRITE && write_budget >= 0) {
		if ((long)n > write_budget) {
			refused_pending = 1;
			return 0;
		}
		write_budget -= (long)n;
	}
	return dmo_tape_libc_ops.io_start(ctx, f, buf, n, off, what);
}

static long budget_io_wait(void *ctx)
{
	if (refused_pending) {
		refused_pending = 0;
		return -ENOSPC;
	}
	return dmo_tape_libc_ops.io_wait(ctx);
}

static struct dmo_tape_ops test_ops;

/* How a test tape does its I/O: all in the calling thread; with the I/O
 * thread for read-ahead (dmo's own tapes); and with write-behind too. */
enum io_mode { IO_NONE, IO_THREAD, IO_WRITE_BEHIND, IO_MODES };

static struct dmo_tape *open_tape(size_t sbo, size_t slab, size_t resident,
				  enum io_mode io)
{
	struct dmo_tape_config cfg = {
		.elem_size = sizeof(struct dmo_event), .sbo_elems = sbo,
		.slab_elems = slab, .max_resident = resident,
		.spill_dir = spill_dir, .write_behind = io == IO_WRITE_BEHIND,
	};
	struct dmo_tape *t;

	test_ops = dmo_tape_libc_ops;
	test_ops.alloc = count_alloc;
	test_ops.free = count_free;
	test_ops.spill_write = budget_write;
	test_ops.io_start = io != IO_NONE ? budget_io_start : NULL;
	test_ops.io_wait = io != IO_NONE ? budget_io_wait : NULL;
	live_bytes = peak_bytes = allocs = 0;
	write_budget = -1;
	t = dmo_tape_create(&cfg, &test_ops, dmo_tape_libc_ctx_new());
	ck_assert_ptr_nonnull(t);
	tape_bytes = live_bytes;
	return t;
}

/* RAM stays within max_resident + 1 slabs besides the tape object: the
 * bound of docs/tape.md, whatever ran (spills, walks with prefetch, pops
 * that reload, reserves).  A slab costs its elements and a 32-byte header. */
static void check_ram_bound(size_t slab, size_t resident)
{
	ck_assert_uint_le(peak_bytes - tape_bytes, (resident + 1) * (slab * 16 + 32));
}

static void close_tape(struct dmo_tape *t)
{
	struct dmo_tape_libc *c = dmo_tape_ctx(t);

	dmo_tape_destroy(t);
	dmo_tape_libc_ctx_free(c);
	ck_assert_uint_eq(live_bytes, 0);
}

static void push_range(struct dmo_tape *t, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++) {
		struct dmo_event e = ev(i);

		ck_assert_int_eq(dmo_tape_push(t, &e), 0);
	}
}

/* Both walks, with and without prefetch, yield exactly the elements of
 * IDS[0..N-1] in order (IDS NULL: the ids 0..N-1). */
static void check_walks(struct dmo_tape *t, const uint64_t *ids, uint64_t n)
{
	struct dmo_tape_iter it;
	const void *base;
	long len;

	for (int reverse = 0; reverse < 2; reverse++) {
		for (int pf = 0; pf < 2; pf++) {
			uint64_t seen = 0;

			ck_assert_int_eq(dmo_tape_iter_begin(&it, t, reverse, pf), 0);
			while ((len = dmo_tape_iter_next(&it, &base)) > 0) {
				for (long j = 0; j < len; j++) {
					long at = reverse ? len - 1 - j : j;
					uint64_t want = reverse ? n - 1 - seen : seen;

					ck_assert(seen < n);
					ck_assert_msg(ev_eq((const char *)base + at * 16,
							    ids ? ids[want] : want),
						      "iter rev=%d pf=%d elem %lu",
						      reverse, pf, (unsigned long)want);
					seen++;
				}
			}
			ck_assert_int_eq(len, 0);
			dmo_tape_iter_end(&it);
			ck_assert_uint_eq(seen, n);
		}
	}
}

/* Every element 0..N-1 through every read path. */
static void check_contents(struct dmo_tape *t, uint64_t n)
{
	ck_assert_uint_eq(dmo_tape_size(t), n);
	for (uint64_t i = 0; i < n; i++)
		ck_assert_msg(ev_eq(dmo_tape_at(t, i), i), "at(%lu)",
			      (unsigned long)i);
	ck_assert_ptr_null(dmo_tape_at(t, n));
	if (n)
		ck_assert(ev_eq(dmo_tape_back(t), n - 1));
	check_walks(t, NULL, n);
}

/* Pop a tape of N elements down to KEEP. */
static void pop_to(struct dmo_tape *t, uint64_t n, uint64_t keep)
{
	while (n-- > keep) {
		const struct dmo_event *e = dmo_tape_pop(t);

		ck_assert_ptr_nonnull(e);
		ck_assert_msg(ev_eq(e, n), "pop %lu", (unsigned long)n);
	}
	ck_assert_uint_eq(dmo_tape_size(t), keep);
}

static void pop_all(struct dmo_tape *t, uint64_t n)
{
	pop_to(t, n, 0);
	ck_assert_ptr_null(dmo_tape_pop(t));
	ck_assert_int_eq(dmo_tape_error_code(t), DMO_TAPE_EEMPTY);
	ck_assert_ptr_null(dmo_tape_back(t));
}

START_TEST(round_trip_every_boundary)
{
	/* Sizes straddle the inline buffer (5), a slab (7) and the resident
	 * limit (3 slabs): 0, 5, 6, 12, 13, 26, 27 and well past.  A tape
	 * without an inline buffer starts in its first slab. */
	static const uint64_t sizes[] = { 0, 1, 5, 6, 12, 13, 26, 27, 28, 300 };

	for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
		/* No spill; one slab in RAM (the head is the tail, so no
		 * write-behind); three. */
		for (size_t resident = 0; resident < 4; resident += 1 + resident)
		for (size_t sbo = 0; sbo <= 5; sbo += 5) {
			size_t slab = 7 + (size_t)(_i / IO_MODES); /* odd, even */
			struct dmo_tape *t = open_tape(sbo, slab, resident,
						       _i % IO_MODES);

			push_range(t, 0, sizes[s]);
			check_contents(t, sizes[s]);
			pop_all(t, sizes[s]);
			push_range(t, 0, sizes[s]);
			check_contents(t, sizes[s]);
			if (resident)
				check_ram_bound(slab, resident);
			close_tape(t);
		}
	}
}
END_TEST

START_TEST(odd_element_size)
{
	struct dmo_tape_config cfg = {
		.elem_size = 3, .sbo_elems = 2, .slab_elems = 5,
		.max_resident = 2, .spill_dir = spill_dir,
	};
	struct dmo_tape *t = dmo_tape_libc_new(&cfg);
	unsigned char b[3];
	struct dmo_event wrong = { 0 };

	for (unsigned i = 0; i < 100; i++) {
		b[0] = (unsigned char)i, b[1] = (unsigned char)~i, b[2] = 7;
		ck_assert_int_eq(dmo_tape_push_sized(t, b, 3), 0);
	}
	ck_assert_uint_gt(dmo_tape_spilled(t), 0);
	/* An element of another size is refused and changes nothing. */
	ck_assert_int_eq(dmo_tape_push(t, &wrong), DMO_TAPE_EINVAL);
	ck_assert_str_eq(dmo_tape_error(t), "tape: an element of 16 bytes on a tape of 3-byte elements");
	ck_assert_uint_eq(dmo_tape_size(t), 100);
	for (unsigned i = 0; i < 100; i++) {
		const unsigned char *p = dmo_tape_at(t, i);

		ck_assert_uint_eq(p[0], (unsigned char)i);
		ck_assert_uint_eq(p[1], (unsigned char)~i);
	}
	for (unsigned i = 100; i--;) {
		const unsigned char *p = dmo_tape_pop(t);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(p[0], (unsigned char)i);
	}
	dmo_tape_libc_delete(t);
}
END_TEST

START_TEST(random_access_spilled)
{
	struct dmo_tape *t = open_tape(4, 16, 2, IO_NONE);
	uint64_t n = 5000, x = 12345;

	push_range(t, 0, n);
	ck_assert_uint_eq(dmo_tape_spilled(t), (n - 4) / 16 - 1);
	for (int k = 0; k < 20000; k++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t i = (x >> 33) % n;

		ck_assert(ev_eq(dmo_tape_at(t, i), i));
	}
	close_tape(t);
}
END_TEST

START_TEST(pop_then_push_reuses_slabs)
{
	struct dmo_tape *t = open_tape(4, 10, 0, IO_NONE);
	size_t before;

	push_range(t, 0, 504);
	before = allocs;
	pop_all(t, 504);
	push_range(t, 0, 504);
	ck_assert_uint_eq(allocs, before);
	check_contents(t, 504);
	close_tape(t);

	/* With spill: popping into the spilled part reloads slabs, pushing
	 * again rewrites them in place, memory stays bounded. */
	t = open_tape(4, 10, 3, IO_WRITE_BEHIND);
	push_range(t, 0, 1000);
	pop_all(t, 1000);
	push_range(t, 0, 700);
	pop_to(t, 700, 350);
	push_range(t, 350, 1004);
	check_contents(t, 1004);
	check_ram_bound(10, 3);
	close_tape(t);
}
END_TEST

/* Popping whole chunks yields every element exactly once, last first,
 * through the inline buffer, resident slabs and spilled ones; single pops
 * and pushes in between keep working. */
START_TEST(pop_chunks_in_reverse)
{
	struct dmo_tape *t = open_tape(4, 10, 3, IO_WRITE_BEHIND);
	const void *base;
	long len;
	uint64_t next = 1000;

	push_range(t, 0, 1000);
	ck_assert_ptr_nonnull(dmo_tape_pop(t)); /* a partial tail chunk */
	next--;
	while ((len = dmo_tape_pop_chunk(t, &base)) > 0) {
		const struct dmo_event *chunk = base;
		for (long i = len - 1; i >= 0; i--)
			ck_assert_msg(ev_eq(&chunk[i], --next), "element %lu", (unsigned long)next);
		ck_assert_uint_eq(dmo_tape_size(t), next);
	}
	ck_assert_int_eq(len, 0);
	ck_assert_uint_eq(next, 0);
	push_range(t, 0, 57);
	check_contents(t, 57);
	close_tape(t);
}
END_TEST

/* Reserve/commit across every boundary, mixed with single pushes: partial
 * commits, a commit of nothing on a fresh chunk, a commit over the room;
 * with spill, RAM holds at most one slab more than max_resident. */
START_TEST(reserve_and_commit)
{
	static const size_t residents[] = { 0, 3, 1 };
	size_t resident = residents[_i / IO_MODES];
	struct dmo_tape *t = open_tape(5, 8, resident, _i % IO_MODES);
	uint64_t n = 0;
	size_t room;

	for (int round = 0; n < 400; round++) {
		struct dmo_event *dst = dmo_tape_reserve(t, &room);
		size_t k = (size_t)round % 4 == 3 ? 0 : 1 + (size_t)round % room;

		ck_assert_ptr_nonnull(dst);
		ck_assert_uint_ge(room, 1);
		if (k > room)
			k = room;
		for (size_t j = 0; j < room; j++) /* garbage past K is not kept */
			dst[j] = ev(j < k ? n + j : 999999);
		if (round % 5 == 0)
			ck_assert_int_eq(dmo_tape_commit(t, room + 1), DMO_TAPE_EINVAL);
		ck_assert_int_eq(dmo_tape_commit(t, k), 0);
		n += k;
		ck_assert_uint_eq(dmo_tape_size(t), n);
		if (round % 7 == 0) {
			push_range(t, n, n + 3);
			n += 3;
		}
	}
	check_contents(t, n);
	/* After walks (the slot is allocated), more reserves open slabs: the
	 * bound still holds. */
	for (int round = 0; round < 40; round++) {
		struct dmo_event *dst = dmo_tape_reserve(t, &room);

		ck_assert_ptr_nonnull(dst);
		dst[0] = ev(n);
		ck_assert_int_eq(dmo_tape_commit(t, 1), 0);
		n++;
		if (round % 9 == 0)
			check_contents(t, n);
	}
	check_contents(t, n);
	pop_all(t, n);
	if (resident)
		check_ram_bound(8, resident);
	close_tape(t);
}
END_TEST

/* A random mix of every operation, checked after each against a plain
 * array of the element ids (the model), over small configurations where
 * every chunk boundary, spill and reload comes often: no inline buffer or
 * a short one, slabs of 1 to 5 elements, 0 to 3 resident. */
static uint64_t rng_state;

static uint64_t rng(void) /* xorshift64 */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

START_TEST(random_ops_match_an_array)
{
	enum { OPS = 2000, MAX_N = 4096 };
	static uint64_t model[MAX_N];
	static const size_t sbos[] = { 0, 1, 3 }, slabs[] = { 1, 2, 5 };

	rng_state = 0x9e3779b97f4a7c15ull + (uint64_t)_i;
	for (size_t c = 0; c < 3 * 3 * 4; c++) {
		size_t sbo = sbos[c % 3], slab = slabs[c / 3 % 3], resident = c / 9;
		struct dmo_tape *t = open_tape(sbo, slab, resident, _i);
		uint64_t n = 0, next_id = 0;

		for (int op = 0; op < OPS; op++) {
			uint64_t r = rng(), pick = r % 100;

			if (pick < 35 && n < MAX_N) {
				struct dmo_event e = ev(next_id);

				ck_assert_int_eq(dmo_tape_push(t, &e), 0);
				model[n++] = next_id++;
			} else if (pick < 50) {
				size_t room, k;
				struct dmo_event *dst = dmo_tape_reserve(t, &room);

				ck_assert_ptr_nonnull(dst);
				k = (size_t)(r >> 8) % (room + 1);
				if (n + k > MAX_N)
					k = 0;
				for (size_t j = 0; j < k; j++)
					dst[j] = ev(next_id + j);
				ck_assert_int_eq(dmo_tape_commit(t, k), 0);
				for (size_t j = 0; j < k; j++)
					model[n++] = next_id++;
			} else if (pick < 80) {
				const void *p = dmo_tape_pop(t);

				if (!n) {
					ck_assert_ptr_null(p);
					ck_assert_int_eq(dmo_tape_error_code(t),
							 DMO_TAPE_EEMPTY);
				} else {
					ck_assert_ptr_nonnull(p);
					ck_assert(ev_eq(p, model[--n]));
				}
			} else if (pick < 88) {
				const void *base;
				long len = dmo_tape_pop_chunk(t, &base);

				ck_assert_int_ge(len, n ? 1 : 0);
				ck_assert_uint_le((uint64_t)len, n);
				n -= (uint64_t)len;
				for (long j = 0; j < len; j++)
					ck_assert(ev_eq((const char *)base + j * 16,
							model[n + (uint64_t)j]));
			} else if (pick < 97) {
				uint64_t i = n ? (r >> 8) % n : 0;
				const void *p = dmo_tape_at(t, i);

				if (n)
					ck_assert(ev_eq(p, model[i]));
				else
					ck_assert_ptr_null(p);
			} else {
				check_walks(t, model, n);
			}
			ck_assert_uint_eq(dmo_tape_size(t), n);
			if (n)
				ck_assert(ev_eq(dmo_tape_back(t), model[n - 1]));
			else
				ck_assert_ptr_null(dmo_tape_back(t));
		}
		check_walks(t, model, n);
		if (resident)
			check_ram_bound(slab, resident);
		close_tape(t);
	}
}
END_TEST

#define THREADS 8
#define PER_THREAD 20000

static struct dmo_tape_mt *mt;

/* A thread-safe tape of CFG in MT, and THREADS threads running BODY(id)
 * on it at once, joined. */
static void run_threads(const struct dmo_tape_config *cfg, void *(*body)(void *))
{
	pthread_t th[THREADS];

	mt = dmo_tape_mt_new(cfg);
	ck_assert_ptr_nonnull(mt);
	for (uintptr_t i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, body, (void *)i), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
}

static void *pusher(void *arg)
{
	uint64_t id = (uintptr_t)arg;

	for (uint64_t s = 0; s < PER_THREAD; s++) {
		struct dmo_event e = { .time = id << 32 | s, .tid = (uint8_t)id };
		struct dmo_event back;

		ck_assert_int_eq(dmo_tape_mt_push(mt, &e), 0);
		ck_assert_int_eq(dmo_tape_mt_back(mt, &back), 0);
	}
	return NULL;
}

START_TEST(threads_push_concurrently)
{
	struct dmo_tape_config cfg = {
		.elem_size = sizeof(struct dmo_event), .sbo_elems = 16,
		.slab_elems = 1024, .max_resident = 4, .spill_dir = spill_dir,
	};
	uint64_t next[THREADS] = { 0 };
	struct dmo_tape *t;
	struct dmo_event e;

	run_threads(&cfg, pusher);
	ck_assert_uint_eq(dmo_tape_mt_size(mt), THREADS * PER_THREAD);
	/* Each thread's elements appear complete and in its own order. */
	t = dmo_tape_mt_tape(mt);
	for (uint64_t i = 0; i < THREADS * PER_THREAD; i++) {
		const struct dmo_event *p = dmo_tape_at(t, i);
		uint64_t id = p->time >> 32;

		ck_assert_uint_lt(id, THREADS);
		ck_assert_uint_eq(p->tid, id);
		ck_assert_uint_eq(p->time & 0xffffffffu, next[id]++);
	}
	for (int i = 0; i < THREADS; i++)
		ck_assert_uint_eq(next[i], PER_THREAD);
	for (uint64_t i = 0; i < THREADS * PER_THREAD; i++)
		ck_assert_int_eq(dmo_tape_mt_pop(mt, &e), 0);
	ck_assert_int_eq(dmo_tape_mt_back(mt, &e), DMO_TAPE_EEMPTY);
	dmo_tape_mt_delete(mt);
}
END_TEST

/* Push until the tape refuses; the refusal must be clean: the right code,
 * a message naming the cause, everything before it still readable, and
 * the tape still usable. */
static void push_until_error(struct dmo_tape *t, int code, const char *why)
{
	uint64_t n = 0;
	int rc;

	for (;;) {
		struct dmo_event e = ev(n);

		rc = dmo_tape_push(t, &e);
		if (rc)
			break;
		n++;
		ck_assert_uint_lt(n, 1u << 26);
	}
	ck_assert_int_eq(rc, code);
	ck_assert_msg(strstr(dmo_tape_error(t), why), "error '%s' lacks '%s'",
		      dmo_tape_error(t), why);
	check_contents(t, n);
	pop_all(t, n);
}

/* These three run in every I/O mode (_i): the write that fails is the
 * pushing thread's own, or the I/O thread's. */
START_TEST(unwritable_spill_dir)
{
	struct dmo_tape *t;

	strcpy(spill_dir, "/nonexistent/dmo-tape");
	t = open_tape(4, 8, 2, _i);
	push_until_error(t, DMO_TAPE_EOPEN, strerror(ENOENT));
	close_tape(t);

	/* Permission bits do not stop root, so only test them otherwise. */
	if (geteuid() != 0) {
		make_dir();
		chmod(spill_dir, 0500);
		t = open_tape(4, 8, 2, _i);
		push_until_error(t, DMO_TAPE_EOPEN, strerror(EACCES));
		close_tape(t);
	}
}
END_TEST

START_TEST(full_disk_simulated)
{
	struct dmo_tape *t = open_tape(4, 8, 2, _i);

	write_budget = 10 * 8 * 16;
	push_until_error(t, DMO_TAPE_EWRITE, strerror(ENOSPC));
	close_tape(t);
}
END_TEST

/* Ops with no strerror (the tool's have no libc to ask) name the error by
 * its number, and a report op hears the same text the tape keeps. */
static char reported[160];

static void record_report(void *ctx, const char *msg)
{
	(void)ctx;
	snprintf(reported, sizeof reported, "%s", msg);
}

START_TEST(full_disk_errno_number)
{
	struct dmo_tape *t = open_tape(4, 8, 2, IO_NONE);
	char want[32];

	test_ops.strerror = NULL;
	test_ops.report = record_report;
	reported[0] = '\0';
	write_budget = 10 * 8 * 16;
	snprintf(want, sizeof want, ": errno %d", ENOSPC);
	push_until_error(t, DMO_TAPE_EWRITE, want);
	ck_assert_str_eq(reported, dmo_tape_error(t));
	close_tape(t);
}
END_TEST

/* A real full disk: a 1 MiB tmpfs, when we may mount one. */
START_TEST(full_disk_tmpfs)
{
	struct dmo_tape *t;

	if (mount("tmpfs", spill_dir, "tmpfs", 0, "size=1m") != 0) {
		fprintf(stderr, "test_tape: cannot mount a tmpfs (%s); only the "
			"simulated full disk was tested\n", strerror(errno));
		return;
	}
	t = open_tape(4, 1000, 4, _i);
	push_until_error(t, DMO_TAPE_EWRITE, strerror(ENOSPC));
	close_tape(t);
	ck_assert_int_eq(umount(spill_dir), 0);
}
END_TEST

/* Pushers that also pop: every third step a thread pops one element,
 * whoever pushed it.  In the end each element pushed was popped once or is
 * still on the tape, intact, and none twice. */
static struct dmo_event popped[THREADS][PER_THREAD / 3 + 1];
static size_t npopped[THREADS];

static void *push_popper(void *arg)
{
	uint64_t id = (uintptr_t)arg;

	for (uint64_t s = 0; s < PER_THREAD; s++) {
		struct dmo_event e = { .time = id << 32 | s, .tid = (uint8_t)id };

		ck_assert_int_eq(dmo_tape_mt_push(mt, &e), 0);
		if (s % 3 == 2)
			ck_assert_int_eq(dmo_tape_mt_pop(mt, &popped[id][npopped[id]++]), 0);
	}
	return NULL;
}

static void account(uint8_t *seen, const struct dmo_event *e)
{
	uint64_t id = e->time >> 32, s = e->time & 0xffffffffu;

	ck_assert_uint_lt(id, THREADS);
	ck_assert_uint_lt(s, PER_THREAD);
	ck_assert_uint_eq(e->tid, id);
	ck_assert_msg(!seen[id * PER_THREAD + s]++, "element %lu/%lu twice",
		      (unsigned long)id, (unsigned long)s);
}

START_TEST(threads_push_and_pop_concurrently)
{
	struct dmo_tape_config cfg = {
		.elem_size = sizeof(struct dmo_event), .sbo_elems = 16,
		.slab_elems = 64, .max_resident = 2, .spill_dir = spill_dir,
	};
	static uint8_t seen[THREADS * PER_THREAD];
	uint64_t n, total = 0;
	struct dmo_tape *t;

	run_threads(&cfg, push_popper);
	t = dmo_tape_mt_tape(mt);
	n = dmo_tape_mt_size(mt);
	for (int i = 0; i < THREADS; i++) {
		for (size_t k = 0; k < npopped[i]; k++)
			account(seen, &popped[i][k]);
		total += npopped[i];
	}
	for (uint64_t i = 0; i < n; i++)
		account(seen, dmo_tape_at(t, i));
	ck_assert_uint_eq(total + n, THREADS * PER_THREAD);
	dmo_tape_mt_delete(mt);
}
END_TEST

/* Slabs of a huge page (2 MiB) or more bypass malloc (tape_libc.c): the
 * first is a plain mapping, later ones start on a 2 MiB boundary, and a
 * freed one is kept (up to 32 MiB) for the next request of its length. */
#define HUGE_PAGE ((size_t)2 << 20)
#define POOL_MAX ((size_t)32 << 20)

START_TEST(huge_slabs_aligned_and_kept)
{
	struct dmo_tape_libc *c = dmo_tape_libc_ctx_new();
	const size_t len = HUGE_PAGE + 3 * 4096;
	char *first, *second, *again, *blocks[POOL_MAX / HUGE_PAGE + 1], *back[POOL_MAX / HUGE_PAGE];
	size_t n = sizeof blocks / sizeof *blocks, kept = 0;

	first = dmo_tape_libc_ops.alloc(c, len);
	second = dmo_tape_libc_ops.alloc(c, len - 100); /* rounds up to LEN */
	ck_assert_ptr_nonnull(first);
	ck_assert_ptr_nonnull(second);
	ck_assert_uint_eq((uintptr_t)second % HUGE_PAGE, 0);
	memset(second, 0x5a, len); /* all LEN bytes are mapped */
	dmo_tape_libc_ops.free(c, second, len - 100);
	again = dmo_tape_libc_ops.alloc(c, len);
	ck_assert_ptr_eq(again, second);
	/* 17 blocks of 2 MiB: the pool keeps 16 (32 MiB) and unmaps the last;
	 * the next 16 requests of that length get kept blocks back. */
	for (size_t i = 0; i < n; i++)
		ck_assert_ptr_nonnull(blocks[i] = dmo_tape_libc_ops.alloc(c, HUGE_PAGE));
	for (size_t i = 0; i < n; i++)
		dmo_tape_libc_ops.free(c, blocks[i], HUGE_PAGE);
	for (size_t i = 0; i + 1 < n; i++) {
		char *p = dmo_tape_libc_ops.alloc(c, HUGE_PAGE);

		for (size_t j = 0; j + 1 < n; j++)
			kept += p == blocks[j];
		back[i] = p;
	}
	ck_assert_uint_eq(kept, n - 1);
	for (size_t i = 0; i + 1 < n; i++)
		dmo_tape_libc_ops.free(c, back[i], HUGE_PAGE);
	dmo_tape_libc_ops.free(c, again, len);
	dmo_tape_libc_ops.free(c, first, len);
	dmo_tape_libc_ctx_free(c);
}
END_TEST

/* A tape with 2 MiB slabs, destroyed, and a second one that reuses them:
 * both read back every element. */
START_TEST(huge_slab_tapes_in_turn)
{
	const size_t slab = HUGE_PAGE / sizeof(struct dmo_event);
	const uint64_t n = 2 * slab + 5;

	for (int round = 0; round < 2; round++) {
		struct dmo_tape *t = open_tape(64, slab, 8, IO_NONE);

		push_range(t, 0, n);
		ck_assert_uint_eq(dmo_tape_size(t), n);
		for (uint64_t i = 0; i < n; i += 4099)
			ck_assert(ev_eq(dmo_tape_at(t, i), i));
		ck_assert(ev_eq(dmo_tape_back(t), n - 1));
		close_tape(t);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("tape");
	TCase *tc = tcase_create("tape");

	tcase_add_checked_fixture(tc, make_dir, remove_dir);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, round_trip_every_boundary, 0, 2 * IO_MODES);
	tcase_add_test(tc, odd_element_size);
	tcase_add_test(tc, random_access_spilled);
	tcase_add_test(tc, pop_then_push_reuses_slabs);
	tcase_add_test(tc, pop_chunks_in_reverse);
	tcase_add_loop_test(tc, reserve_and_commit, 0, 3 * IO_MODES);
	tcase_add_loop_test(tc, random_ops_match_an_array, 0, IO_MODES);
	tcase_add_test(tc, threads_push_concurrently);
	tcase_add_test(tc, threads_push_and_pop_concurrently);
	tcase_add_loop_test(tc, unwritable_spill_dir, 0, IO_MODES);
	tcase_add_loop_test(tc, full_disk_simulated, 0, IO_MODES);
	tcase_add_test(tc, full_disk_errno_number);
	tcase_add_loop_test(tc, full_disk_tmpfs, 0, IO_MODES);
	tcase_add_test(tc, huge_slabs_aligned_and_kept);
	tcase_add_test(tc, huge_slab_tapes_in_turn);
	suite_add_tcase(s, tc);
	return dmo_run_suite(s);
}
