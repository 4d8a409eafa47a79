/* fuzz_trace.c - libFuzzer target for the event-file reader: a trace may
 * come from a killed run or be damaged, so any bytes must be read or
 * rejected with a message.  Every event handed out must lie inside its
 * buffer, and the CSV export must succeed exactly when reading does. */
#include <assert.h>
#include <stdint.h>

#include "input_file.h"
#include "trace.h"

/* Read the whole trace a few events at a time; 0 when every event is good. */
static int read_all(struct dmo_trace *t)
{
	struct dmo_event events[7];
	char err[1024] = "";
	uint64_t total = 0;
	size_t got;

	for (;;) {
		if (dmo_trace_read(t, events, 7, &got, err, sizeof err) != 0) {
			assert(err[0] != '\0');
			return -1;
		}
		if (got == 0)
			break;
		assert(got <= 7);
		for (size_t i = 0; i < got; i++) {
			const struct dmo_event *e = &events[i];
			uint64_t limit = (e->flags & DMO_EV_OUT) ? t->header.out_bytes : t->header.in_bytes;
			assert(e->size > 0 && (uint64_t)e->offset + e->size <= limit);
		}
		total += got;
	}
	assert(total == t->count);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("layer-0001.events", data, size);
	struct dmo_trace t;
	char err[1024] = "";
	FILE *null;
	int good;

	if (dmo_trace_open(path, &t, err, sizeof err) != 0) {
		assert(err[0] != '\0' && t.file == NULL);
		return 0;
	}
	/* An event takes 16 bytes in version 1, at least one in version 2. */
	assert(t.count <= (size - sizeof t.header) / (t.compact ? 1 : sizeof(struct dmo_event)));
	good = read_all(&t);
	dmo_trace_close(&t);

	/* What opened once opens again; the export sees the same events. */
	int reopened = dmo_trace_open(path, &t, err, sizeof err);
	assert(reopened == 0);
	null = fopen("/dev/null", "w");
	if (null == NULL)
		abort();
	int exported = dmo_trace_export_csv(&t, null, err, sizeof err);
	assert((exported == 0) == (good == 0));
	fclose(null);
	dmo_trace_close(&t);
	return 0;
}
