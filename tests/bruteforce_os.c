/* bruteforce_os.c - test oracle: the safe overlap of a recorded layer,
 * found without the O_s reducer.  For each placement X = 0, 1, 2, ... it
 * lays the two buffers out in one simulated arena, replays every event
 * byte by byte, and stops at the first X where docs/definitions.md's conflict occurs:
 * a byte read or overwritten through the input after the output wrote it,
 * or read through the output after the input wrote it.  O_s = X - 1.
 * Quadratic, so only for the small layers of the tests.
 *
 * With --any, the O_s for every interleaving of the threads' events: at
 * each X, each thread's own events are replayed as above (their order is
 * fixed), and across threads a byte is a conflict if one thread's output
 * writes it and another's input touches it, or one thread's input writes
 * it and another's output reads it: some interleaving puts those two
 * accesses in the harmful order.  Thread id 255 lumps several threads, so
 * its own events also conflict in either order.
 * usage: bruteforce_os [--any] EVENTFILE  -> prints O_s in bytes */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

static struct dmo_event *load(const char *path, struct dmo_trace *trace, size_t *count)
{
	char err[1024];
	struct dmo_event *events;
	size_t got;
	if (dmo_trace_open(path, trace, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	events = malloc((trace->count + 1) * sizeof *events);
	if (events == NULL || dmo_trace_read(trace, events, trace->count, &got, err, sizeof err) != 0 ||
	    got != trace->count) {
		fprintf(stderr, "%s: cannot read events\n", path);
		exit(2);
	}
	*count = got;
	return events;
}

/* Arena bytes: output at [0, OB), input at [OB - X, OB - X + IB). */
static int conflicts(const struct dmo_event *events, size_t count, uint64_t in_bytes,
		     uint64_t out_bytes, uint64_t x, unsigned char *written_by)
{
	enum { BY_OUT = 1, BY_IN = 2 };
	memset(written_by, 0, out_bytes + in_bytes);
	for (size_t k = 0; k < count; k++) {
		const struct dmo_event *e = &events[k];
		int out_side = (e->flags & DMO_EV_OUT) != 0, write = (e->flags & DMO_EV_WRITE) != 0;
		uint64_t base = out_side ? 0 : out_bytes - x;
		for (uint64_t b = base + e->offset; b < base + e->offset + e->size; b++) {
			if (!out_side && (written_by[b] & BY_OUT))
				return 1;  /* W(O) then R(I) or W(I) */
			if (out_side && !write && (written_by[b] & BY_IN))
				return 1;  /* W(I) then R(O) */
			if (write)
				written_by[b] |= out_side ? BY_OUT : BY_IN;
		}
	}
	(void)in_bytes;
	return 0;
}

enum { TIDS = 256, LUMPED = 255 };

/* Bits per arena byte and thread: what the thread did to it. */
enum { OUT_W = 1, IN_ANY = 2, IN_W = 4, OUT_R = 8 };

static int conflicts_any(const struct dmo_event *events, size_t count, uint64_t in_bytes,
			 uint64_t out_bytes, uint64_t x, unsigned char *written_by,
			 unsigned char *touched, const int *slot, int n_slots)
{
	uint64_t arena = in_bytes + out_bytes;
	struct dmo_event *own = malloc((count + 1) * sizeof *own);
	int hit = 0;
	if (own == NULL)
		exit(2);
	memset(touched, 0, arena * (size_t)n_slots);
	for (int tid = 0; tid < TIDS && !hit; tid++) {
		size_t n = 0;
		if (slot[tid] < 0)
			continue;
		for (size_t k = 0; k < count; k++)
			if (events[k].tid == tid)
				own[n++] = events[k];
		hit = conflicts(own, n, in_bytes, out_bytes, x, written_by);
		for (size_t k = 0; k < n; k++) {
			const struct dmo_event *e = &own[k];
			int out_side = (e->flags & DMO_EV_OUT) != 0, write = (e->flags & DMO_EV_WRITE) != 0;
			uint64_t base = out_side ? 0 : out_bytes - x;
			unsigned char bit = out_side ? (write ? OUT_W : OUT_R) : (write ? IN_W | IN_ANY : IN_ANY);
			for (uint64_t b = base + e->offset; b < base + e->offset + e->size; b++)
				touched[(size_t)slot[tid] * arena + b] |= bit;
		}
	}
	for (int s = 0; s < n_slots && !hit; s++)
		for (int t = 0; t < n_slots && !hit; t++) {
			if (s == t && slot[LUMPED] != s)
				continue;
			for (uint64_t b = 0; b < arena && !hit; b++) {
				unsigned char a = touched[(size_t)s * arena + b], o = touched[(size_t)t * arena + b];
				hit = ((a & IN_ANY) && (o & OUT_W)) || ((a & IN_W) && (o & OUT_R));
			}
		}
	free(own);
	return hit;
}

int main(int argc, char **argv)
{
	struct dmo_trace trace;
	size_t count;
	struct dmo_event *events;
	uint64_t in_bytes, out_bytes, limit, x;
	unsigned char *written_by;

	int any = argc == 3 && strcmp(argv[1], "--any") == 0;
	int slot[TIDS], n_slots = 0;
	unsigned char *touched = NULL;

	if (argc != 2 + any) {
		fprintf(stderr, "usage: bruteforce_os [--any] EVENTFILE\n");
		return 2;
	}
	events = load(argv[1 + any], &trace, &count);
	in_bytes = trace.header.in_bytes;
	out_bytes = trace.header.out_bytes;
	limit = in_bytes < out_bytes ? in_bytes : out_bytes;
	written_by = malloc(in_bytes + out_bytes);
	if (written_by == NULL)
		return 2;
	for (int t = 0; t < TIDS; t++)
		slot[t] = -1;
	for (size_t k = 0; k < count; k++)
		if (slot[events[k].tid] < 0)
			slot[events[k].tid] = n_slots++;
	if (any && (touched = malloc((in_bytes + out_bytes) * (size_t)(n_slots + 1))) == NULL)
		return 2;
	for (x = 1; x <= limit; x++)
		if (any ? conflicts_any(events, count, in_bytes, out_bytes, x, written_by, touched,
					slot, n_slots)
			: conflicts(events, count, in_bytes, out_bytes, x, written_by))
			break;
	printf("%llu\n", (unsigned long long)(x - 1));
	return 0;
}
