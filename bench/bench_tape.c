/* bench_tape.c - push, reverse-iteration and pop throughput and peak RSS of
 * the tape against a doubling-realloc array and a preallocated array, for
 * 10^3 .. 10^max 16-byte events, and the spilling tape's write rate against
 * dd writing the same bytes to the same folder.
 *
 *   bench_tape [--max N] [--dir DIR] [--resident R] [--slab ELEMS]
 *              [--sbo ELEMS] [--mem-limit MB] [--rounds K] [--dd-rounds K]
 *              [--no-write-behind]
 *
 * Each measurement runs in a child process, so its peak RSS is its own
 * (reported over the child's RSS when it starts, which is the parent's).
 * Inside it the whole life of a structure (create, push, walk, pop,
 * destroy) repeats until about 10^7 elements have gone through, and each
 * figure is the median over the repetitions after the first: a single
 * pass over 10^3 elements lasts microseconds and would measure the VM's
 * page faults, not the structure.  The first repetition's push is given
 * too, as "cold": what a fresh process pays, fresh memory included.
 * All structures, and dd, run once per round, alternating; the table keeps
 * each one's best round (docs/tape.md, "Benchmark").  Last, the spilling
 * tape and dd alternate alone, --dd-rounds times, for the spill bar. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_clock.h"
#include "bench_event.h"
#include "tape_libc.h"

enum impl { PREALLOC, DOUBLING, TAPE, TAPE_SPILL, NIMPL };
static const char *impl_name[NIMPL] = { "prealloc", "doubling", "tape",
					"tape+spill" };

/* LIFE is push + rev + pop of one repetition, element by element: the
 * structure's whole use as a trace store.  BULK_LIFE is the tape's same
 * life by its bulk calls (reserve/commit, the walk, pop_chunk), the way
 * dmo analyze uses it. */
enum metric { PUSH, PUSH_CHUNK, REV, REV_PF, POP, POP_CHUNK, LIFE, BULK_LIFE,
	      NMETRIC };

/* Seconds per repetition; a metric an implementation lacks stays < 0. */
struct times {
	double s[NMETRIC];
};

struct result {
	long base_kb;              /* the child's peak RSS before any work */
	double cold_push;          /* the first repetition's push */
	double s[NMETRIC];         /* medians over the later ones */
	int ok, spilled, reps;
};

#define MAX_REPS 1000

/* The SBO default, 4096 events (64 KiB), keeps the tape object under
 * glibc's 128 KiB mmap threshold, so malloc's heap serves it as it serves
 * the arrays; a tape that stays in it never maps a slab, which costs a
 * fresh mapping (about 40-60 us on this VM, bench/README.md). */
static struct {
	uint64_t max, mem_limit;
	const char *dir;
	size_t resident, slab, sbo;
	int rounds, dd_rounds, write_behind;
} opt = { 10000000ull, 0, NULL, 8, 131072, 4096, 3, 7, 1 };

/* Where every measured loop leaves a result, so none is optimised away.
 * Loops sum into a local first, as a real consumer would: a global updated
 * in a loop that may call out (the tape's slow path) stays in memory. */
static uint64_t sink;

static int run_array(uint64_t n, int doubling, struct times *r)
{
	uint64_t cap = doubling ? 16 : n, len = 0, sum = 0;
	struct dmo_event *a = malloc(cap * sizeof *a), e;
	double t0;

	if (!a)
		return -1;
	t0 = bench_now();
	for (uint64_t i = 0; i < n; i++) {
		if (len == cap) {
			struct dmo_event *b = realloc(a, 2 * cap * sizeof *a);

			if (!b)
				return -1;
			a = b;
			cap *= 2;
		}
		make_event(&a[len++], i);
	}
	r->s[PUSH] = bench_now() - t0;
	t0 = bench_now();
	sink += min_offset_backwards(a, len);
	r->s[REV] = bench_now() - t0;
	t0 = bench_now();
	while (len) {
		e = a[--len];
		sum += e.time;
	}
	r->s[POP] = bench_now() - t0;
	r->s[LIFE] = r->s[PUSH] + r->s[REV] + r->s[POP];
	sink += sum;
	free(a);
	return 0;
}

/* The spill file's descriptor, caught by wrapping the open op, so the
 * reverse walks can start with the file out of the page cache, as it is
 * when a trace is much larger than RAM. */
static intptr_t spill_fd = -1;

static int catch_open(void *ctx, const char *dir, intptr_t *file)
{
	int rc = dmo_tape_libc_ops.spill_open(ctx, dir, file);

	if (!rc)
		spill_fd = *file;
	return rc;
}

static void drop_cache(void)
{
	if (spill_fd < 0)
		return;
	fdatasync((int)spill_fd);
	posix_fadvise((int)spill_fd, 0, 0, POSIX_FADV_DONTNEED);
}

static double walk(struct dmo_tape *t, int prefetch)
{
	struct dmo_tape_iter it;
	const void *base;
	long len;
	double t0;

	drop_cache();
	t0 = bench_now();
	if (dmo_tape_iter_begin(&it, t, 1, prefetch))
		return -1;
	while ((len = dmo_tape_iter_next(&it, &base)) > 0)
		sink += min_offset_backwards(base, (uint64_t)len);
	dmo_tape_iter_end(&it);
	return len < 0 ? -1 : bench_now() - t0;
}

static struct dmo_tape *new_tape(int spill)
{
	static struct dmo_tape_ops ops;
	struct dmo_tape_config cfg = {
		.elem_size = sizeof(struct dmo_event), .sbo_elems = opt.sbo,
		.slab_elems = opt.slab, .max_resident = spill ? opt.resident : 0,
		.spill_dir = opt.dir, .write_behind = opt.write_behind,
	};

	ops = dmo_tape_libc_ops;
	ops.spill_open = catch_open;
	return dmo_tape_create(&cfg, &ops, dmo_tape_libc_ctx_new());
}

static int tape_failed(struct dmo_tape *t)
{
	fprintf(stderr, "bench_tape: %s\n", dmo_tape_error(t));
	dmo_tape_libc_delete(t);
	return -1;
}

/* Fill T with events 0..N-1, one push each: seconds, or -1. */
static double fill_elements(struct dmo_tape *t, uint64_t n)
{
	struct dmo_event e;
	double t0 = bench_now();

	for (uint64_t i = 0; i < n; i++) {
		make_event(&e, i);
		if (dmo_tape_push(t, &e))
			return -1;
	}
	return bench_now() - t0;
}

/* The same by reserve/commit, the events written in place. */
static double fill_chunks(struct dmo_tape *t, uint64_t n)
{
	double t0 = bench_now();

	for (uint64_t i = 0; i < n;) {
		size_t room;
		struct dmo_event *dst = dmo_tape_reserve(t, &room);

		if (!dst)
			return -1;
		if (room > n - i)
			room = (size_t)(n - i);
		for (size_t j = 0; j < room; j++)
			make_event(&dst[j], i + j);
		if (dmo_tape_commit(t, room))
			return -1;
		i += room;
	}
	return bench_now() - t0;
}

/* Set by spill_vs_dd to PUSH or PUSH_CHUNK: a life is then one fill of
 * the tape that way and nothing else, so that neither a walk's fdatasync
 * of a 1.6 GB spill file nor another fill comes before it in the child. */
static int fill_only = -1;

static int run_fill(uint64_t n, int spill, struct times *r)
{
	struct dmo_tape *t = new_tape(spill);
	int spilled;

	if (!t)
		return -1;
	r->s[fill_only] = fill_only == PUSH_CHUNK ? fill_chunks(t, n)
						  : fill_elements(t, n);
	if (r->s[fill_only] < 0)
		return tape_failed(t);
	spilled = dmo_tape_spilled(t) > 0;
	dmo_tape_libc_delete(t);
	return spilled;
}

/* Two lives of a tape: element by element (push, walks, pop), then by
 * chunks (reserve/commit, a walk, pop_chunk), the tape's bulk counterparts
 * of the array's loops.  Both pops come after a walk, as the array's does,
 * so that each starts with the same end of the data out of the cache. */
static int run_tape(uint64_t n, int spill, struct times *r)
{
	struct dmo_tape *t;
	const void *base;
	uint64_t sum = 0;
	double t0, bulk_walk;
	int spilled;

	if (fill_only >= 0)
		return run_fill(n, spill, r);
	if (!(t = new_tape(spill)))
		return -1;
	if ((r->s[PUSH] = fill_elements(t, n)) < 0)
		return tape_failed(t);
	spilled = dmo_tape_spilled(t) > 0;
	r->s[REV] = walk(t, 0);
	if (spill)
		r->s[REV_PF] = walk(t, 1);
	t0 = bench_now();
	for (const struct dmo_event *p; (p = dmo_tape_pop(t));)
		sum += p->time;
	r->s[POP] = bench_now() - t0;
	r->s[LIFE] = r->s[PUSH] + r->s[REV] + r->s[POP];
	dmo_tape_libc_delete(t);
	if (r->s[REV] < 0 || (spill && r->s[REV_PF] < 0) || !(t = new_tape(spill)))
		return -1;

	if ((r->s[PUSH_CHUNK] = fill_chunks(t, n)) < 0)
		return tape_failed(t);
	if ((bulk_walk = walk(t, 0)) < 0)
		return tape_failed(t);
	t0 = bench_now();
	for (long len; (len = dmo_tape_pop_chunk(t, &base)) > 0;) {
		const struct dmo_event *chunk = base;
		for (long i = len - 1; i >= 0; i--)
			sum += chunk[i].time;
	}
	r->s[POP_CHUNK] = bench_now() - t0;
	r->s[BULK_LIFE] = r->s[PUSH_CHUNK] + bulk_walk + r->s[POP_CHUNK];
	sink += sum;
	dmo_tape_libc_delete(t);
	return spilled;
}

/* Repetitions for N elements: about 10^7 elements in all. */
static int reps_for(uint64_t n)
{
	uint64_t k = 10000000 / n;

	return k < 1 ? 1 : k > MAX_REPS ? MAX_REPS : (int)k;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* In the child: every repetition, then the summary of them. */
static void run_reps(enum impl im, uint64_t n, struct result *res)
{
	static struct times rep[MAX_REPS];
	int reps = reps_for(n), first = reps > 1 ? 1 : 0;
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	res->base_kb = ru.ru_maxrss;
	res->reps = reps;
	for (int k = 0; k < reps; k++) {
		int rc;

		for (int m = 0; m < NMETRIC; m++)
			rep[k].s[m] = -1;
		if (im == PREALLOC || im == DOUBLING)
			rc = run_array(n, im == DOUBLING, &rep[k]);
		else
			rc = run_tape(n, im == TAPE_SPILL, &rep[k]);
		if (rc < 0)
			return;
		res->spilled |= rc > 0;
	}
	res->cold_push = rep[0].s[PUSH];
	for (int m = 0; m < NMETRIC; m++) {
		double v[MAX_REPS];
		int count = reps - first; /* >= 1 */

		for (int k = 0; k < count; k++)
			v[k] = rep[first + k].s[m];
		qsort(v, (size_t)count, sizeof *v, cmp_double);
		res->s[m] = v[count / 2];
	}
	res->ok = 1;
}

/* Run one measurement in a child; its peak RSS comes back through wait4. */
static int measure(enum impl im, uint64_t n, struct result *r, long *rss_kb)
{
	int fd[2], status;
	struct rusage ru;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct result res = { 0 };

		close(fd[0]);
		run_reps(im, n, &res);
		if (write(fd[1], &res, sizeof res) != sizeof res)
			_exit(1);
		_exit(0);
	}
	close(fd[1]);
	if (pid < 0 || read(fd[0], r, sizeof *r) != sizeof *r)
		r->ok = 0;
	close(fd[0]);
	if (pid > 0 && wait4(pid, &status, 0, &ru) == pid)
		*rss_kb = ru.ru_maxrss;
	return r->ok ? 0 : -1;
}


static double best(const struct result *r, enum metric a, enum metric b)
{
	return r->s[b] >= 0 && r->s[b] < r->s[a] ? r->s[b] : r->s[a];
}

/* The tape's throughput over the doubling array's, for the bar: push and
 * pop judged by the better of the tape's two ways (one element at a time,
 * or by chunks) against the array's one. */
static void print_ratios(const struct result *got)
{
	const struct result *a = &got[DOUBLING], *t = &got[TAPE];

	if (!a->ok || !t->ok)
		return;
	printf("%11s tape/doubling: cold push %.2fx | push %.2fx, reserve "
	       "%.2fx, best %.2fx | rev %.2fx | pop %.2fx, popchunk %.2fx, "
	       "best %.2fx | life %.2fx, bulk %.2fx\n", "",
	       a->cold_push / t->cold_push,
	       a->s[PUSH] / t->s[PUSH], a->s[PUSH] / t->s[PUSH_CHUNK],
	       a->s[PUSH] / best(t, PUSH, PUSH_CHUNK), a->s[REV] / t->s[REV],
	       a->s[POP] / t->s[POP], a->s[POP] / t->s[POP_CHUNK],
	       a->s[POP] / best(t, POP, POP_CHUNK), a->s[LIFE] / t->s[LIFE],
	       a->s[LIFE] / t->s[BULK_LIFE]);
}

static uint64_t mem_available_mb(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb / 1024;
}


/* Seconds dd takes to write BYTES from /dev/zero to a file in the spill
 * dir (the file is removed after), or -1. */
static double dd_seconds(uint64_t bytes)
{
	char of[4200], count[32];
	double t0 = bench_now();
	int status;
	pid_t pid;

	snprintf(of, sizeof of, "of=%s/dmo-dd.%d", opt.dir, (int)getpid());
	snprintf(count, sizeof count, "count=%llu", (unsigned long long)bytes);
	pid = fork();
	if (pid == 0) {
		execlp("dd", "dd", "if=/dev/zero", of, "bs=1M", count,
		       "iflag=count_bytes", "status=none", (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	t0 = bench_now() - t0;
	unlink(of + 3);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? t0 : -1;
}

/* Rounds: every structure once per round, alternating, so slow spells of
 * a shared machine fall on all of them; each figure is the best round. */
static int rounds_for(uint64_t n)
{
	return n >= 1000000000ull ? 1 : opt.rounds;
}

static void keep_best(struct result *best_r, long *best_rss,
		      const struct result *r, long rss)
{
	if (!best_r->ok) {
		*best_r = *r;
	} else {
		if (r->cold_push < best_r->cold_push)
			best_r->cold_push = r->cold_push;
		for (int m = 0; m < NMETRIC; m++)
			if (r->s[m] >= 0 && r->s[m] < best_r->s[m])
				best_r->s[m] = r->s[m];
	}
	if (rss > *best_rss)
		*best_rss = rss;
}

static void print_row(uint64_t n, enum impl im, const struct result *r,
		      long rss, double dd)
{
	double mb = n * 16.0 / 1e6;

	printf("%11llu %-10s ", (unsigned long long)n, impl_name[im]);
	if (!r->ok) {
		printf("failed\n");
		return;
	}
	printf("%4d %8.1f", r->reps, n / r->cold_push / 1e6);
	for (int m = 0; m < NMETRIC; m++)
		if (r->s[m] >= 0)
			printf(" %8.1f", n / r->s[m] / 1e6);
		else
			printf(" %8s", "-");
	printf(" %8.1f", (rss - r->base_kb) / 1024.0);
	if (r->spilled) {
		double fastest = best(r, PUSH, PUSH_CHUNK);

		printf(" %8.0f %8.0f", mb / r->s[PUSH], mb / r->s[PUSH_CHUNK]);
		if (dd > 0)
			printf(" %8.0f %5.0f%%", mb / dd, 100 * dd / fastest);
	}
	printf("\n");
}

/* The spill bar, judged apart from the table: this VM's page cache writes
 * at rates that vary 10x from one run to the next, and the first writer
 * after a large file's removal is often the slow one (bench/README.md).
 * So K rounds at one size alternate four children, each filling one
 * spilling tape (by push or by reserve/commit, writing in the pushing
 * thread or with write-behind; the order rotates from round to round),
 * and dd; the best and the median of each are given. */
enum { SYNC_PUSH, SYNC_RESERVE, WB_PUSH, WB_RESERVE, DD, NSPILLWAY };

static void spill_vs_dd(uint64_t n)
{
	static const char *const way[NSPILLWAY] = {
		"push", "reserve", "push, write-behind",
		"reserve, write-behind", "dd"
	};
	static double s[NSPILLWAY][MAX_REPS];
	double mb = n * 16.0 / 1e6;
	int k = 0, saved = opt.write_behind;

	for (int round = 0; round < opt.dd_rounds && k < MAX_REPS; round++) {
		int ok = 1;

		for (int i = 0; i < DD; i++) {
			int w = (i + round) % DD;
			struct result r = { 0 };
			long rss;

			opt.write_behind = w >= WB_PUSH;
			fill_only = w % 2 ? PUSH_CHUNK : PUSH;
			ok &= !measure(TAPE_SPILL, n, &r, &rss) && r.spilled;
			s[w][k] = r.s[fill_only];
		}
		if (ok && (s[DD][k] = dd_seconds(n * 16)) > 0)
			k++;
	}
	opt.write_behind = saved;
	fill_only = -1;
	printf("\nspill against dd, %llu events (%.0f MB), %d alternating "
	       "rounds:\n%24s %8s %8s %8s %8s\n", (unsigned long long)n, mb, k,
	       "MB/s", "best", "median", "%dd best", "median");
	if (!k)
		return;
	for (int w = 0; w < NSPILLWAY; w++)
		qsort(s[w], (size_t)k, sizeof s[w][0], cmp_double);
	for (int w = 0; w < NSPILLWAY; w++)
		printf("%24s %8.0f %8.0f %7.0f%% %7.0f%%\n", way[w],
		       mb / s[w][0], mb / s[w][k / 2], 100 * s[DD][0] / s[w][0],
		       100 * s[DD][k / 2] / s[w][k / 2]);
}

static void usage(void)
{
	fprintf(stderr, "usage: bench_tape [--max N] [--dir DIR] [--resident R] "
		"[--slab ELEMS] [--sbo ELEMS] [--mem-limit MB] [--rounds K]\n"
		"                  [--dd-rounds K] [--no-write-behind]\n");
	exit(2);
}

/* A count such as 1e7 or 10000000, > 0. */
static uint64_t count_arg(const char *v)
{
	char *end;
	double x = strtod(v, &end);

	if (*end || !(x >= 1) || x > 1e15)
		usage();
	return (uint64_t)x;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "max", required_argument, NULL, 'm' },
		{ "dir", required_argument, NULL, 'd' },
		{ "resident", required_argument, NULL, 'r' },
		{ "slab", required_argument, NULL, 's' },
		{ "sbo", required_argument, NULL, 'b' },
		{ "mem-limit", required_argument, NULL, 'l' },
		{ "rounds", required_argument, NULL, 'k' },
		{ "dd-rounds", required_argument, NULL, 'D' },
		{ "no-write-behind", no_argument, NULL, 'w' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (c) {
		case 'm': opt.max = count_arg(optarg); break;
		case 'd': opt.dir = optarg; break;
		case 'r': opt.resident = (size_t)count_arg(optarg); break;
		case 's': opt.slab = (size_t)count_arg(optarg); break;
		case 'b': opt.sbo = (size_t)count_arg(optarg); break;
		case 'l': opt.mem_limit = count_arg(optarg); break;
		case 'k': opt.rounds = (int)count_arg(optarg); break;
		case 'D': opt.dd_rounds = (int)count_arg(optarg); break;
		case 'w': opt.write_behind = 0; break;
		default: usage();
		}
	}
	if (optind != argc)
		usage();
	if (!opt.dir)
		opt.dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (!opt.mem_limit)
		opt.mem_limit = mem_available_mb() / 2;
	double slab_mb = opt.slab * 16.0 / 1048576;
	printf("16-byte events; SBO %zu elems; slab %zu elems (%.1f MiB); spill "
	       "keeps %zu slabs in RAM, in %s,\nwriting %s\n", opt.sbo, opt.slab,
	       slab_mb, opt.resident, opt.dir, opt.write_behind ?
	       "from the I/O thread (write-behind)" : "in the pushing thread");
	printf("RSS bound with spill: (N+1) slabs + SBO + const = %.1f MiB + "
	       "const; +peakMiB is the peak\nover the child's RSS at its start\n",
	       (opt.resident + 1) * slab_mb + opt.sbo * 16.0 / 1048576);
	printf("in-RAM structures skipped above %llu MiB of data\n",
	       (unsigned long long)opt.mem_limit);
	printf("throughput in M elem/s: the best of %d rounds (1 at 10^9) of "
	       "the median of\nthe repetitions after the first; cold = "
	       "the first repetition's push; rev = reverse\nwalk (spill: file "
	       "dropped from page cache first), +pf = with prefetch; reserve,\n"
	       "popchunk = the tape filled and emptied a chunk at a time "
	       "(dmo_tape_reserve/commit,\ndmo_tape_pop_chunk); life = push, rev and "
	       "pop of one repetition together;\nbulklife = reserve, rev and "
	       "popchunk together; when the tape spills,\n"
	       "MB/s of push and of reserve/commit, of dd writing as\nmany bytes "
	       "to the same folder, and %%dd = the faster of the tape's two "
	       "over dd's\n\n", opt.rounds);
	printf("%11s %-10s %4s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s %8s "
	       "%8s %6s\n", "n", "impl", "reps", "cold", "push", "reserve", "rev",
	       "rev+pf", "pop", "popchunk", "life", "bulklife", "+peakMiB",
	       "pushMB/s", "rsvMB/s", "ddMB/s", "%dd");
	for (uint64_t n = 1000; n <= opt.max; n *= 10) {
		struct result got[NIMPL] = { 0 };
		long rss[NIMPL] = { 0 };
		int run[NIMPL];
		double dd = -1;

		for (int im = 0; im < NIMPL; im++)
			run[im] = im == TAPE_SPILL ||
				  n * 16.0 / 1048576 <= opt.mem_limit;
		for (int round = 0; round < rounds_for(n); round++) {
			for (int im = 0; im < NIMPL; im++) {
				struct result r = { 0 };
				long r_rss = 0;

				if (run[im] && !measure(im, n, &r, &r_rss))
					keep_best(&got[im], &rss[im], &r, r_rss);
			}
			if (got[TAPE_SPILL].spilled) {
				double t = dd_seconds(n * 16);

				if (t > 0 && (dd < 0 || t < dd))
					dd = t;
			}
		}
		for (int im = 0; im < NIMPL; im++)
			if (run[im])
				print_row(n, im, &got[im], rss[im], dd);
		print_ratios(got);
		fflush(stdout);
	}
	if (opt.max >= 10000000ull) /* smaller tapes do not spill */
		spill_vs_dd(opt.max < 100000000ull ? opt.max : 100000000ull);
	return sink == 42 ? 1 : 0;
}
