/* bruteforce_os.c - test oracle: the safe overlap of a recorded layer,
 * found without the O_s reducer.  For each placement X = 0, 1, 2, ... it
 * lays the two buffers out in one simulated arena, replays every event
 * byte by byte, and stops at the first X where SPEC.md's conflict occurs:
 * a byte read or overwritten through the input after the output wrote it,
 * or read through the output after the input wrote it.  O_s = X - 1.
 * Quadratic, so only for the small layers of the tests.
 * usage: bruteforce_os EVENTFILE  -> prints O_s in bytes */
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

int main(int argc, char **argv)
{
	struct dmo_trace trace;
	size_t count;
	struct dmo_event *events;
	uint64_t in_bytes, out_bytes, limit, x;
	unsigned char *written_by;

	if (argc != 2) {
		fprintf(stderr, "usage: bruteforce_os EVENTFILE\n");
		return 2;
	}
	events = load(argv[1], &trace, &count);
	in_bytes = trace.header.in_bytes;
	out_bytes = trace.header.out_bytes;
	limit = in_bytes < out_bytes ? in_bytes : out_bytes;
	written_by = malloc(in_bytes + out_bytes);
	if (written_by == NULL)
		return 2;
	for (x = 1; x <= limit; x++)
		if (conflicts(events, count, in_bytes, out_bytes, x, written_by))
			break;
	printf("%llu\n", (unsigned long long)(x - 1));
	return 0;
}
