/* trace.c - event-file reader and CSV export (trace.h), for version 1's
 * 16-byte events and version 2's coded ones.  The file may come from a run
 * that was killed, or be damaged: every header field and every event is
 * checked before it is believed. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"

/* Version 2's coded bytes, fetched as needed: afterwards at least
 * DMO_EVENT_CODE_MAX bytes wait in the buffer, or all that the file has
 * left.  -1 on a read error. */
static int fill_coded(struct dmo_trace *t)
{
	size_t have = t->coded_len - t->coded_at, want;
	if (have >= DMO_EVENT_CODE_MAX || t->coded_left == 0)
		return 0;
	memmove(t->coded, t->coded + t->coded_at, have);
	t->coded_at = 0;
	t->coded_len = have;
	want = sizeof t->coded - have;
	if (want > t->coded_left)
		want = (size_t)t->coded_left;
	if (fread(t->coded + have, 1, want, t->file) != want)
		return -1;
	t->coded_len += want;
	t->coded_left -= want;
	return 0;
}

/* Decode the next version-2 event into *E: 1, 0 at the end of the coded
 * bytes (a whole event can no longer start), -1 with ERR set. */
static int decode_next(struct dmo_trace *t, uint64_t index, struct dmo_event *e, char *err,
		       size_t err_len)
{
	int got;
	if (fill_coded(t) != 0) {
		snprintf(err, err_len, "%s: read error at event %" PRIu64, t->path, index);
		return -1;
	}
	got = dmo_event_decode(&t->code, t->coded + t->coded_at, t->coded_len - t->coded_at, e);
	if (got == DMO_CODE_SHORT)
		return 0;
	if (got < 0) {
		snprintf(err, err_len, "%s: event %" PRIu64 " is malformed (flags %u, offset %u, size %u)",
			 t->path, index, e->flags, e->offset, e->size);
		return -1;
	}
	t->coded_at += (size_t)got;
	return 1;
}

/* Back to the first event, for a read from the start. */
static int rewind_coded(struct dmo_trace *t, uint64_t data_bytes)
{
	memset(&t->code, 0, sizeof t->code);
	t->coded_at = t->coded_len = 0;
	t->coded_left = data_bytes;
	return fseek(t->file, (long)sizeof t->header, SEEK_SET);
}

/* The events of a version-2 file the tool never finished: as many whole
 * events as its bytes hold (the last may be cut short). */
static int count_coded(struct dmo_trace *t, uint64_t data_bytes, char *err, size_t err_len)
{
	struct dmo_event e;
	int got;
	t->count = 0;
	while ((got = decode_next(t, t->count, &e, err, err_len)) > 0)
		t->count++;
	if (got < 0)
		return -1;
	if (rewind_coded(t, data_bytes) != 0) {
		snprintf(err, err_len, "%s: %s", t->path, strerror(errno));
		return -1;
	}
	return 0;
}

/* Version 1: event_count records of 16 bytes. */
static int open_fixed(struct dmo_trace *trace, uint64_t body, char *err, size_t err_len)
{
	const struct dmo_trace_header *h = &trace->header;
	if (h->event_count == UINT64_MAX) {
		/* The run ended before the tool finished this file: keep the
		 * whole events that made it to disk. */
		trace->incomplete = 1;
		trace->count = body / sizeof(struct dmo_event);
	} else if (body != h->event_count * sizeof(struct dmo_event) ||
		   h->event_count > body / sizeof(struct dmo_event)) {
		snprintf(err, err_len, "%s: header says %" PRIu64 " events but the file holds %" PRIu64
			 " bytes of events", trace->path, h->event_count, body);
		return -1;
	} else {
		trace->count = h->event_count;
	}
	return 0;
}

/* Version 2: data_bytes coded bytes holding event_count events, each 1 to
 * DMO_EVENT_CODE_MAX bytes long. */
static int open_compact(struct dmo_trace *trace, uint64_t body, char *err, size_t err_len)
{
	const struct dmo_trace_header *h = &trace->header;
	trace->compact = 1;
	if (h->event_count == UINT64_MAX) {
		trace->incomplete = 1;
		rewind_coded(trace, body);
		return count_coded(trace, body, err, err_len);
	}
	if (h->data_bytes != body || h->event_count > body ||
	    (body + DMO_EVENT_CODE_MAX - 1) / DMO_EVENT_CODE_MAX > h->event_count) {
		snprintf(err, err_len, "%s: header says %" PRIu64 " events in %" PRIu64 " bytes but "
			 "the file holds %" PRIu64 " bytes of events", trace->path, h->event_count,
			 h->data_bytes, body);
		return -1;
	}
	trace->count = h->event_count;
	rewind_coded(trace, body);
	return 0;
}

int dmo_trace_open(const char *path, struct dmo_trace *trace, char *err, size_t err_len)
{
	struct stat info;
	struct dmo_trace_header *h = &trace->header;
	uint64_t body;
	int rc;

	memset(trace, 0, sizeof *trace);
	snprintf(trace->path, sizeof trace->path, "%s", path);
	trace->file = dmo_rundir_open(path, err, err_len);
	if (trace->file == NULL)
		return -1;
	if (fstat(fileno(trace->file), &info) != 0) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		dmo_trace_close(trace);
		return -1;
	}
	if (fread(h, sizeof *h, 1, trace->file) != 1 ||
	    memcmp(h->magic, DMO_TRACE_MAGIC, 8) != 0) {
		snprintf(err, err_len, "%s: not a dmo event file", path);
		goto bad;
	}
	body = (uint64_t)info.st_size - sizeof *h;
	if (h->header_bytes == sizeof *h && h->version == DMO_TRACE_VERSION_FIXED &&
	    h->event_bytes == sizeof(struct dmo_event))
		rc = open_fixed(trace, body, err, err_len);
	else if (h->header_bytes == sizeof *h && h->version == DMO_TRACE_VERSION &&
		 h->event_bytes == 0)
		rc = open_compact(trace, body, err, err_len);
	else {
		snprintf(err, err_len, "%s: unsupported event-file version %u (header %u, event %u bytes)",
			 path, h->version, h->header_bytes, h->event_bytes);
		rc = -1;
	}
	if (rc == 0)
		return 0;
bad:
	dmo_trace_close(trace);
	return -1;
}

int dmo_trace_matches(const struct dmo_trace *trace, const struct dmo_layer_row *row,
		      char *err, size_t err_len)
{
	const struct dmo_trace_header *h = &trace->header;
	if (h->layer == row->layer && h->in_bytes == row->in_bytes &&
	    h->out_bytes == row->out_bytes)
		return 0;
	snprintf(err, err_len, "%s: header is layer %u, %" PRIu64 " -> %" PRIu64 " bytes, but "
		 "layers.csv says layer %u, %" PRIu64 " -> %" PRIu64 " bytes", trace->path, h->layer,
		 h->in_bytes, h->out_bytes, row->layer, row->in_bytes, row->out_bytes);
	return -1;
}

/* Version 2: decode WANT events into EVENTS; after a finished file's
 * last event no coded byte may be left. */
static int read_compact(struct dmo_trace *trace, struct dmo_event *events, size_t want,
			char *err, size_t err_len)
{
	for (size_t i = 0; i < want; i++) {
		int got = decode_next(trace, trace->next + i, &events[i], err, err_len);
		if (got < 0)
			return -1;
		if (got == 0) {
			snprintf(err, err_len, "%s: the events end inside event %" PRIu64, trace->path,
				 trace->next + i);
			return -1;
		}
	}
	if (!trace->incomplete && trace->next + want == trace->count &&
	    (trace->coded_at != trace->coded_len || trace->coded_left != 0)) {
		snprintf(err, err_len, "%s: bytes after the last of its %" PRIu64 " events",
			 trace->path, trace->count);
		return -1;
	}
	return 0;
}

int dmo_trace_read(struct dmo_trace *trace, struct dmo_event *events, size_t max,
		   size_t *got, char *err, size_t err_len)
{
	uint64_t left = trace->count - trace->next;
	size_t want = left < max ? (size_t)left : max;
	const struct dmo_trace_header *h = &trace->header;

	*got = 0;
	if (want == 0)
		return 0;
	if (trace->compact) {
		if (read_compact(trace, events, want, err, err_len) != 0)
			return -1;
	} else if (fread(events, sizeof *events, want, trace->file) != want) {
		snprintf(err, err_len, "%s: read error at event %" PRIu64, trace->path, trace->next);
		return -1;
	}
	for (size_t i = 0; i < want; i++) {
		const struct dmo_event *e = &events[i];
		uint64_t limit = (e->flags & DMO_EV_OUT) ? h->out_bytes : h->in_bytes;
		if (e->flags > (DMO_EV_WRITE | DMO_EV_OUT) || e->size == 0 ||
		    (uint64_t)e->offset + e->size > limit) {
			snprintf(err, err_len, "%s: event %" PRIu64 " is malformed (flags %u, offset %u, size %u)",
				 trace->path, trace->next + i, e->flags, e->offset, e->size);
			return -1;
		}
	}
	trace->next += want;
	*got = want;
	return 0;
}

void dmo_trace_close(struct dmo_trace *trace)
{
	if (trace->file != NULL)
		fclose(trace->file);
	trace->file = NULL;
}

int dmo_trace_export_csv(struct dmo_trace *trace, FILE *out, char *err, size_t err_len)
{
	struct dmo_event events[4096];
	size_t got;
	uint64_t index = 0;

	fputs("index,time,tid,kind,buffer,offset,size\n", out);
	while (dmo_trace_read(trace, events, 4096, &got, err, err_len) == 0 && got > 0) {
		for (size_t i = 0; i < got; i++, index++) {
			const struct dmo_event *e = &events[i];
			char line[160];
			/* All fields are numbers or single letters: csv_fwrite
			 * would add nothing, so the line is written as is. */
			snprintf(line, sizeof line, "%" PRIu64 ",%" PRIu64 ",%u,%c,%c,%u,%u\n", index,
				 e->time, e->tid, (e->flags & DMO_EV_WRITE) ? 'W' : 'R',
				 (e->flags & DMO_EV_OUT) ? 'O' : 'I', e->offset, e->size);
			fputs(line, out);
		}
	}
	if (index != trace->count)
		return -1;
	return ferror(out) ? -1 : 0;
}
