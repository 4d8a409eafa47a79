/* bench_tape.c - push, reverse-iteration and pop throughput and peak RSS of
 * the tape against a doubling-realloc array and a preallocated array, for
 * 10^3 .. 10^max 16-byte events.  Run through bench/tape.sh, which adds a dd
 * write of the same bytes to the same disk for the spill columns.
 *
 *   bench_tape [--max N] [--dir DIR] [--resident R] [--slab ELEMS]
 *              [--mem-limit MB] [--dd N=MBPS,...]
 *
 * Each measurement runs in a child process, so its peak RSS is its own. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "event.h"
#include "tape_libc.h"

enum impl { PREALLOC, DOUBLING, TAPE, TAPE_SPILL, NIMPL };
static const char *impl_name[NIMPL] = { "prealloc", "doubling", "tape",
					"tape+spill" };

struct result {
	/* seconds; rev_pf, pop_chunk < 0: not measured */
	double push, rev, rev_pf, pop, pop_chunk;
	int ok, spilled;
};

static struct {
	uint64_t max, mem_limit;
	const char *dir, *dd;
	size_t resident, slab;
} opt = { 100000000ull, 0, NULL, "", 8, 131072 };

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The consumer of a reverse walk: the suffix minimum of read offsets that
 * the analysis computes, so the walk is not optimised away. */
static uint64_t sink;

static void consume(const struct dmo_event *e, uint64_t n)
{
	uint32_t lo = UINT32_MAX;

	while (n--)
		if (e[n].offset < lo)
			lo = e[n].offset;
	sink += lo;
}

static struct dmo_event event(uint64_t i)
{
	return (struct dmo_event){ .time = i, .offset = (uint32_t)(i * 2654435761u),
				   .size = 4, .flags = (uint8_t)(i & 3) };
}

static void run_array(uint64_t n, int doubling, struct result *r)
{
	uint64_t cap = doubling ? 16 : n, len = 0;
	struct dmo_event *a = malloc(cap * sizeof *a), e;
	double t0;

	if (!a)
		return;
	t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		if (len == cap) {
			struct dmo_event *b = realloc(a, 2 * cap * sizeof *a);

			if (!b)
				return;
			a = b;
			cap *= 2;
		}
		a[len++] = event(i);
	}
	r->push = now() - t0;
	t0 = now();
	consume(a, len);
	r->rev = now() - t0;
	t0 = now();
	while (len) {
		e = a[--len];
		sink += e.time;
	}
	r->pop = now() - t0;
	free(a);
	r->ok = 1;
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
	t0 = now();
	if (dmo_tape_iter_begin(&it, t, 1, prefetch))
		return -1;
	while ((len = dmo_tape_iter_next(&it, &base)) > 0)
		consume(base, (uint64_t)len);
	dmo_tape_iter_end(&it);
	return len < 0 ? -1 : now() - t0;
}

static void run_tape(uint64_t n, int spill, struct result *r)
{
	static struct dmo_tape_ops ops;
	struct dmo_tape_config cfg = {
		.elem_size = sizeof(struct dmo_event), .sbo_elems = 256,
		.slab_elems = opt.slab, .max_resident = spill ? opt.resident : 0,
		.spill_dir = opt.dir,
	};
	struct dmo_tape *t;
	struct dmo_event e;
	const void *base;
	double t0;

	ops = dmo_tape_libc_ops;
	ops.spill_open = catch_open;
	t = dmo_tape_create(&cfg, &ops, dmo_tape_libc_ctx_new());
	if (!t)
		return;
	t0 = now();
	for (uint64_t i = 0; i < n; i++) {
		e = event(i);
		if (dmo_tape_push(t, &e)) {
			fprintf(stderr, "bench_tape: %s\n", dmo_tape_error(t));
			return;
		}
	}
	r->push = now() - t0;
	r->spilled = dmo_tape_spilled(t) > 0;
	r->rev = walk(t, 0);
	r->rev_pf = spill ? walk(t, 1) : -1;
	t0 = now();
	while (!dmo_tape_pop(t, &e))
		sink += e.time;
	r->pop = now() - t0;
	/* Again, popping whole chunks, the tape's way of consuming from the
	 * end (as the array's pop loop is the array's). */
	for (uint64_t i = 0; i < n; i++) {
		e = event(i);
		if (dmo_tape_push(t, &e))
			return;
	}
	t0 = now();
	for (long len; (len = dmo_tape_pop_chunk(t, &base)) > 0;) {
		const struct dmo_event *chunk = base;
		for (long i = len - 1; i >= 0; i--)
			sink += chunk[i].time;
	}
	r->pop_chunk = now() - t0;
	dmo_tape_libc_delete(t);
	r->ok = r->rev >= 0;
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
		struct result res = { .rev_pf = -1, .pop_chunk = -1 };

		close(fd[0]);
		if (im == PREALLOC || im == DOUBLING)
			run_array(n, im == DOUBLING, &res);
		else
			run_tape(n, im == TAPE_SPILL, &res);
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

/* MB/s of dd for N elements, from --dd "N=MBPS,...", or 0. */
static double dd_rate(uint64_t n)
{
	const char *p = opt.dd;

	while (*p) {
		char *end;
		unsigned long long k = strtoull(p, &end, 10);
		double v = *end == '=' ? strtod(end + 1, &end) : 0;

		if (k == n)
			return v;
		p = strchr(end, ',') ? strchr(end, ',') + 1 : "";
	}
	return 0;
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

static void usage(void)
{
	fprintf(stderr, "usage: bench_tape [--max N] [--dir DIR] [--resident R] "
		"[--slab ELEMS] [--mem-limit MB] [--dd N=MBPS,...]\n");
	exit(2);
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			usage();
		if (!strcmp(argv[i], "--max"))
			opt.max = (uint64_t)strtod(v, NULL);
		else if (!strcmp(argv[i], "--dir"))
			opt.dir = v;
		else if (!strcmp(argv[i], "--resident"))
			opt.resident = strtoul(v, NULL, 10);
		else if (!strcmp(argv[i], "--slab"))
			opt.slab = strtoul(v, NULL, 10);
		else if (!strcmp(argv[i], "--mem-limit"))
			opt.mem_limit = strtoull(v, NULL, 10);
		else if (!strcmp(argv[i], "--dd"))
			opt.dd = v;
		else
			usage();
		i++;
	}
	if (!opt.dir)
		opt.dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	if (!opt.mem_limit)
		opt.mem_limit = mem_available_mb() / 2;
	if (!opt.resident || !opt.slab)
		usage();

	double slab_mb = opt.slab * 16.0 / 1048576;
	printf("16-byte events; slab %zu elems (%.1f MiB); spill keeps %zu slabs "
	       "in RAM, in %s\n", opt.slab, slab_mb, opt.resident, opt.dir);
	printf("RSS bound with spill: (N+1) slabs + SBO + const = %.0f MiB + "
	       "const (N+2 during a prefetching walk)\n",
	       (opt.resident + 1) * slab_mb);
	printf("in-RAM structures skipped above %llu MiB of data\n",
	       (unsigned long long)opt.mem_limit);
	printf("throughput in M elem/s; rev = reverse walk (spill: file dropped "
	       "from page cache first), +pf = with prefetch\n\n");
	printf("%11s %-10s %8s %8s %8s %8s %8s %9s %9s %8s %6s\n", "n", "impl",
	       "push", "rev", "rev+pf", "pop", "popchunk", "peakMiB", "spillMB/s",
	       "ddMB/s", "%dd");
	for (uint64_t n = 1000; n <= opt.max; n *= 10) {
		for (int im = 0; im < NIMPL; im++) {
			struct result r;
			long rss = 0;
			double mb = n * 16.0 / 1e6;

			if (im != TAPE_SPILL && mb * 1e6 / 1048576 > opt.mem_limit)
				continue;
			printf("%11llu %-10s ", (unsigned long long)n, impl_name[im]);
			fflush(stdout);
			if (measure(im, n, &r, &rss)) {
				printf("failed\n");
				continue;
			}
			printf("%8.1f %8.1f ", n / r.push / 1e6, n / r.rev / 1e6);
			if (r.rev_pf >= 0)
				printf("%8.1f ", n / r.rev_pf / 1e6);
			else
				printf("%8s ", "-");
			printf("%8.1f ", n / r.pop / 1e6);
			if (r.pop_chunk >= 0)
				printf("%8.1f ", n / r.pop_chunk / 1e6);
			else
				printf("%8s ", "-");
			printf("%9.1f", rss / 1024.0);
			if (r.spilled) {
				double dd = dd_rate(n);

				printf(" %9.1f", mb / r.push);
				if (dd > 0)
					printf(" %8.1f %5.0f%%", dd, 100 * mb / r.push / dd);
			}
			printf("\n");
		}
	}
	return sink == 42 ? 1 : 0;
}
