/* summary.h - the per-layer result record the tool appends to
 * `tool-layers.bin` in the run directory as soon as a layer completes, so a
 * later crash loses nothing.  `dmo profile` turns the file into layers.csv.
 * Fixed size, little-endian, versioned.  Freestanding: no libc. */
#ifndef DMO_SUMMARY_H
#define DMO_SUMMARY_H

#include <stdint.h>

#define DMO_SUMMARY_MAGIC 0x534f4d44u /* "DMOS" */
/* 2: threads, os_any_bytes, per-thread counts; 3: alive_threads,
 * os_split_bytes */
#define DMO_SUMMARY_VERSION 3u
#define DMO_SUMMARY_FILE "tool-layers.bin"
#define DMO_SUMMARY_THREADS 8
/* A child of the profiled program traced by its own tool instance
 * (Valgrind's --trace-children=yes) records into a run folder of its own
 * inside the run's: proc-PID, PID its process id (docs/protocol.md). */
#define DMO_CHILD_DIR_PREFIX "proc-"
/* `instructions` of a layer the tool did not count (a summary without
 * --dmo-count=yes); layers.csv leaves the field empty. */
#define DMO_NOT_COUNTED UINT64_MAX

enum dmo_layer_status {
	DMO_STATUS_OK = 0,
	DMO_STATUS_INCOMPLETE = 1, /* the program ended while the layer was open */
	DMO_STATUS_ERROR = 2,      /* protocol misuse; `reason` says which */
};

struct dmo_layer_summary {
	uint32_t magic, version;
	uint32_t layer;  /* the target's sequence number; 0 when none applies */
	uint32_t status; /* enum dmo_layer_status */
	uint64_t in_bytes, out_bytes;
	uint64_t counts[4]; /* in_reads, in_writes, out_reads, out_writes */
	uint64_t steps, instructions, os_bytes; /* instructions: DMO_NOT_COUNTED */
	uint64_t trace_events; /* events in layer-NNNN.events; 0 = no trace */
	char name[256];   /* NUL-terminated */
	char spec[1024];  /* NUL-terminated; empty = no op spec */
	char reason[64];  /* NUL-terminated, [a-z-]: error:<reason> */
	/* Threads that touched I or O (0 when no event), and the O_s that
	 * holds for every interleaving of their events (docs/formulas.md 1b). */
	uint32_t threads, listed_threads; /* listed: entries of thread_counts used */
	uint64_t os_any_bytes;
	struct dmo_thread_counts {
		uint32_t tid, lumped; /* lumped: several threads' events (tid >= 255) */
		uint64_t counts[4];
	} thread_counts[DMO_SUMMARY_THREADS]; /* the first threads to touch I or O */
	/* The most threads of the process alive at once while the layer was
	 * open (touching its buffers or not), and the O_s that holds for any
	 * split of its events over threads (docs/formulas.md 1c). */
	uint32_t alive_threads, pad;
	uint64_t os_split_bytes;
};

#endif
