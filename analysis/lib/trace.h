/* trace.h - reading a per-layer event file (docs/trace-format.md), either
 * version, with full validation, and exporting it as CSV. */
#ifndef DMO_TRACE_H
#define DMO_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "event.h"
#include "event_code.h"
#include "rundir.h"
#include "trace_format.h"

struct dmo_trace {
	FILE *file;
	struct dmo_trace_header header;
	uint64_t count;     /* events in the file */
	uint64_t next;      /* index of the next event read_events returns */
	int incomplete;     /* the tool never finished the file */
	char path[4096];
	/* Version 2: the decoder's state, the coded bytes read from the
	 * file but not yet decoded (coded[coded_at .. coded_len)), and the
	 * coded bytes still in the file. */
	int compact;
	struct dmo_event_code_state code;
	uint8_t coded[16384];
	size_t coded_at, coded_len;
	uint64_t coded_left;
};

int dmo_trace_open(const char *path, struct dmo_trace *trace, char *err, size_t err_len);

/* 0 when TRACE's header is ROW's layer (number and buffer sizes), else -1
 * with ERR saying how they differ. */
int dmo_trace_matches(const struct dmo_trace *trace, const struct dmo_layer_row *row,
		      char *err, size_t err_len);

/* Read up to MAX events in order; *GOT is 0 at the end.  Each event is
 * checked against the header's buffer sizes. */
int dmo_trace_read(struct dmo_trace *trace, struct dmo_event *events, size_t max,
		   size_t *got, char *err, size_t err_len);

void dmo_trace_close(struct dmo_trace *trace);

/* Write the whole trace as CSV: index,time,tid,kind,buffer,offset,size. */
int dmo_trace_export_csv(struct dmo_trace *trace, FILE *out, char *err, size_t err_len);

#endif
