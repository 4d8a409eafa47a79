/* trace.c - event-file reader and CSV export (trace.h).  The file may come
 * from a run that was killed, or be damaged: every header field and every
 * event is checked before it is believed. */
#include <csv.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/stat.h>

#include "trace.h"

int dmo_trace_open(const char *path, struct dmo_trace *trace, char *err, size_t err_len)
{
	struct stat info;
	struct dmo_trace_header *h = &trace->header;
	uint64_t body;

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
	if (h->version != DMO_TRACE_VERSION || h->header_bytes != sizeof *h ||
	    h->event_bytes != sizeof(struct dmo_event)) {
		snprintf(err, err_len, "%s: unsupported event-file version %u (header %u, event %u bytes)",
			 path, h->version, h->header_bytes, h->event_bytes);
		goto bad;
	}
	body = (uint64_t)info.st_size - sizeof *h;
	if (h->event_count == UINT64_MAX) {
		/* The run ended before the tool finished this file: keep the
		 * whole events that made it to disk. */
		trace->incomplete = 1;
		trace->count = body / sizeof(struct dmo_event);
	} else if (body != h->event_count * sizeof(struct dmo_event) ||
		   h->event_count > body / sizeof(struct dmo_event)) {
		snprintf(err, err_len, "%s: header says %" PRIu64 " events but the file holds %" PRIu64
			 " bytes of events", path, h->event_count, body);
		goto bad;
	} else {
		trace->count = h->event_count;
	}
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

int dmo_trace_read(struct dmo_trace *trace, struct dmo_event *events, size_t max,
		   size_t *got, char *err, size_t err_len)
{
	uint64_t left = trace->count - trace->next;
	size_t want = left < max ? (size_t)left : max;
	const struct dmo_trace_header *h = &trace->header;

	*got = 0;
	if (want == 0)
		return 0;
	if (fread(events, sizeof *events, want, trace->file) != want) {
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
