/* trace_format.h - header of a per-layer event file `layer-NNNN.events`
 * (docs/trace-format.md).  A header, then `event_count` events in program
 * order: version 2 codes them in data_bytes bytes (event_code.h), version 1
 * stores struct dmo_event records.  Freestanding: no libc. */
#ifndef DMO_TRACE_FORMAT_H
#define DMO_TRACE_FORMAT_H

#include <stdint.h>

#define DMO_TRACE_MAGIC "DMOTRACE"
#define DMO_TRACE_VERSION 2u
#define DMO_TRACE_VERSION_FIXED 1u /* 16-byte records, still read */
/* A layer's event file in the run directory, for printf with the layer
 * number; what a run directory's other per-layer files are called starts
 * with DMO_LAYER_FILE_PREFIX and the same number. */
#define DMO_TRACE_FILE_FORMAT "layer-%04u.events"
#define DMO_LAYER_FILE_PREFIX "layer-"
#define DMO_TRACE_FILE_SUFFIX ".events"

/* RAM a full trace may hold before its events go straight to the file
 * (--max-mem), in MiB, and as the option's text. */
#define DMO_MAX_MEM_DEFAULT_MIB 64
#define DMO_MAX_MEM_STR_(n) #n
#define DMO_MAX_MEM_STR(n) DMO_MAX_MEM_STR_(n)
#define DMO_MAX_MEM_DEFAULT_TEXT DMO_MAX_MEM_STR(DMO_MAX_MEM_DEFAULT_MIB) "M"

struct dmo_trace_header {
	char magic[8];           /* DMO_TRACE_MAGIC, no NUL */
	uint32_t version;        /* DMO_TRACE_VERSION */
	uint32_t header_bytes;   /* sizeof(struct dmo_trace_header) */
	uint32_t event_bytes;    /* version 1: sizeof(struct dmo_event); 2: 0 */
	uint32_t layer;
	uint64_t in_bytes, out_bytes;
	uint64_t event_count;    /* UINT64_MAX while the layer is being written */
	uint64_t data_bytes;     /* version 2: bytes of coded events; 1: 0 */
	uint64_t reserved[2];
};

#endif
