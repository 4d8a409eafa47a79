/* unmap_walk.c - why the doubling array's first reverse walk is slow on
 * this VM: the first read of memory after a large munmap anywhere in the
 * process.
 *
 *   unmap_walk [--events N] [--unmap MIB]
 *
 * bench_tape finds a doubling array's first reverse walk at 10^7 events
 * and up 15-25x slower than its second walk, with no page faults counted.
 * This program walks an array of N 16-byte events three ways, twice each:
 *
 *   prealloc        written once, then walked;
 *   prealloc+unmap  the same, but a MIB-MiB mapping elsewhere is touched
 *                   and unmapped between the writes and the walk;
 *   realloc         grown by realloc doubling, as bench_tape's array is
 *                   (glibc moves a large block with mremap, unmapping the
 *                   old range);
 *   huge+unmap      like prealloc+unmap, in 2 MiB-aligned MADV_HUGEPAGE
 *                   memory, as the tape's slabs are.
 *
 * On a machine whose hypervisor shadows the guest's page tables (this one
 * runs under PVM, `dmesg | grep PVM`), a large unmap makes it drop its
 * shadow entries, and the next access to every 4 KiB page exits to it;
 * the guest counts no fault.  With hardware-assisted paging all rows walk
 * alike.  docs/tape.md says what this means for the tape's figures. */
#define _GNU_SOURCE
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bench_clock.h"
#include "bench_event.h"

static void fill(struct dmo_event *a, uint64_t from, uint64_t to)
{
	for (uint64_t i = from; i < to; i++)
		make_event(&a[i], i);
}

/* The reverse walk of bench_tape, timed. */
static uint32_t walk(const struct dmo_event *a, uint64_t n, double *rate)
{
	double t0 = bench_now();
	uint32_t lo = min_offset_backwards(a, n);

	*rate = n / (bench_now() - t0) / 1e6;
	return lo;
}

static void unmap_elsewhere(size_t mib)
{
	size_t len = mib << 20;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return;
	memset(p, 1, len);
	munmap(p, len);
}

static struct dmo_event *grow_by_realloc(uint64_t n)
{
	uint64_t cap = 16, len = 0;
	struct dmo_event *a = malloc(cap * sizeof *a);

	while (a && len < n) {
		if (len == cap) {
			struct dmo_event *b = realloc(a, 2 * cap * sizeof *a);

			if (!b) {
				free(a);
				return NULL;
			}
			a = b;
			cap *= 2;
		}
		fill(a, len, len + 1);
		len++;
	}
	return a;
}

static struct dmo_event *huge_array(uint64_t n, void **map, size_t *map_len)
{
	size_t huge = (size_t)2 << 20, len = n * sizeof(struct dmo_event);
	char *p = mmap(NULL, len + huge, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *aligned;

	if (p == MAP_FAILED)
		return NULL;
	aligned = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	madvise(aligned, len, MADV_HUGEPAGE);
	*map = p;
	*map_len = len + huge;
	return (struct dmo_event *)aligned;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "events", required_argument, NULL, 'n' },
		{ "unmap", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	static const char *const row[] = { "prealloc", "prealloc+unmap",
					   "realloc", "huge+unmap" };
	uint64_t n = 10000000;
	size_t unmap_mib = 64;
	uint32_t sink = 0;
	int c;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		char *end;
		double v;

		if (c != 'n' && c != 'u')
			goto usage;
		v = strtod(optarg, &end);
		if (*end || !(v >= 1) || v > 1e10)
			goto usage;
		if (c == 'n')
			n = (uint64_t)v;
		else
			unmap_mib = (size_t)v;
	}
	if (optind != argc)
		goto usage;

	printf("reverse walk of %llu 16-byte events, M events/s "
	       "(unmap: %zu MiB elsewhere first)\n%-16s %10s %10s\n",
	       (unsigned long long)n, unmap_mib, "array", "1st walk",
	       "2nd walk");
	for (int way = 0; way < 4; way++) {
		struct dmo_event *a;
		void *map = NULL;
		size_t map_len = 0;
		double first, second;

		if (way == 2)
			a = grow_by_realloc(n);
		else if (way == 3)
			a = huge_array(n, &map, &map_len);
		else
			a = malloc(n * sizeof *a);
		if (!a) {
			fprintf(stderr, "unmap_walk: out of memory\n");
			return 1;
		}
		if (way != 2)
			fill(a, 0, n);
		if (way == 1 || way == 3)
			unmap_elsewhere(unmap_mib);
		sink += walk(a, n, &first);
		sink += walk(a, n, &second);
		printf("%-16s %10.0f %10.0f\n", row[way], first, second);
		if (map)
			munmap(map, map_len);
		else
			free(a);
	}
	return sink == 42 ? 2 : 0;
usage:
	fprintf(stderr, "usage: unmap_walk [--events N] [--unmap MIB]\n");
	return 2;
}
