/* rundir.h - a run directory: the tool's tool-layers.bin, the layers.csv
 * dmo writes from it (docs/definitions.md's column order), and reading layers.csv back. */
#ifndef DMO_RUNDIR_H
#define DMO_RUNDIR_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "summary.h"

#define DMO_LAYERS_CSV "layers.csv"
#define DMO_ANALYSIS_CSV "analysis.csv" /* dmo analyze's table */
/* dmo run --runtime: what the runtime did (kernels, versions, offline plan,
 * arena_used_bytes), one `key value` a line, as its runner printed it. */
#define DMO_RUNTIME_INFO_FILE "runtime.txt"

struct dmo_layer_row {
	unsigned layer;
	char name[256];
	char op[1024];      /* the op spec, empty when the target gave none */
	uint64_t in_bytes, out_bytes;
	uint64_t counts[4]; /* in_reads, in_writes, out_reads, out_writes */
	uint64_t steps, instructions, os_bytes; /* instructions: DMO_NOT_COUNTED */
	/* ok, ok:threads=N (N threads touched I or O), ok:alive=N (one did,
	 * N were alive), incomplete or error:<reason> */
	char status[80];
	/* Threads that touched I or O (0: none, or a layers.csv from before
	 * threads were counted) and the O_s safe for every interleaving of
	 * their events; os_bytes holds for the interleaving that ran. */
	unsigned threads;
	uint64_t os_any_bytes;
	/* Threads of the process alive while the layer was open (0: not
	 * counted, a file from before), the O_s that holds for any split of
	 * the events over threads (docs/formulas.md 1c), and the value dmo
	 * calls safe, by RULE (dmo_layer_set_safe). */
	unsigned alive_threads;
	uint64_t os_split_bytes;
	uint64_t safe_os_bytes;
	enum dmo_safe_rule {
		DMO_SAFE_AS_RUN,       /* one thread alive: os_bytes */
		DMO_SAFE_ANY_SPLIT,    /* several alive: os_split_bytes */
		DMO_SAFE_STATIC_SPLIT, /* several, split declared static: os_any_bytes */
		DMO_SAFE_OBSERVED,     /* a file from before threads alive were counted:
					* os_any_bytes, as dmo then used */
	} safe_rule;
	/* The process that recorded the layer, when more than one did (a
	 * child traced with --trace-children=yes); 0 in a run of one. */
	unsigned pid;
	/* From tool-layers.bin only: the first threads' own event counts. */
	unsigned listed_threads;
	struct dmo_thread_counts thread_counts[DMO_SUMMARY_THREADS];
};

struct dmo_layer_table {
	struct dmo_layer_row *rows;
	size_t count;
};

void dmo_layer_table_free(struct dmo_layer_table *table);

/* Every reader here returns 0 when all was read, 1 when some records or
 * rows were bad and skipped (the others are in *TABLE, ERR says what the
 * first problem was, with its line and column for CSV), -1 when nothing
 * usable was read (ERR says why, *TABLE is empty).  Files are opened only
 * if they are regular files, so a FIFO never hangs a reader. */

/* Read DIR/tool-layers.bin.  A missing file is an empty table (the program
 * described no layers); a partial last record (a run killed or out of
 * disk while the tool wrote it) is dropped. */
int dmo_summary_read(const char *dir, struct dmo_layer_table *table, char *err,
		     size_t err_len);

/* Write layers.csv atomically (a temporary file renamed over PATH).  When
 * a row cannot be written (disk full), PATH keeps the whole rows before it
 * and ERR names the layer; -1 either way. */
int dmo_layers_csv_write(const char *path, const struct dmo_layer_table *table,
			 char *err, size_t err_len);
/* Whether TABLE's rows come from more than one process: layers.csv and
 * the printed table then have a pid column. */
int dmo_layers_by_process(const struct dmo_layer_table *table);

/* DIR/threads.csv: per layer, the event counts of each thread listed in
 * tool-layers.bin (the first DMO_SUMMARY_THREADS to touch I or O). */
#define DMO_THREADS_CSV "threads.csv"
int dmo_threads_csv_write(const char *path, const struct dmo_layer_table *table, char *err,
			  size_t err_len);

/* Rows with values out of range (os_bytes > min(in_bytes, out_bytes), a
 * bad number or status) are skipped. */
int dmo_layers_csv_read(const char *path, struct dmo_layer_table *table, char *err,
			size_t err_len);

/* PATH opened for reading if it is a regular file, else NULL with ERR set
 * (errno ENOENT when it does not exist). */
FILE *dmo_rundir_open(const char *path, char *err, size_t err_len);

/* The lock a run holds on its run directory (profile.c). */
#define DMO_LOCK_FILE ".dmo-lock"

/* Whether LEAF is a file dmo writes into a run directory: tool-layers.bin,
 * layers.csv, analysis.csv, runtime.txt, layer-NNNN.events, layer-NNNN.csv,
 * layer-NNNN-curves.csv, layer-NNNN-KIND.png|svg and their temporaries
 * (fs.h's NAME.XXXXXXXX.tmp).
 * A new run removes these, and only these. */
int dmo_rundir_owns(const char *leaf);

/* 0 when DIR is a folder; else -1 with ERR saying it does not exist or is
 * not a folder, and what a run directory is. */
int dmo_rundir_exists(const char *dir, char *err, size_t err_len);

/* Whether ROW's os_bytes is the layer's O_s: not for a layer cut short
 * ("incomplete"), whose value reduces only the events seen before the
 * program died.  (A failed trace write keeps the exact O_s.) */
int dmo_layer_os_known(const struct dmo_layer_row *row);

/* Whether ROW completed without error: status ok, ok:threads=N or
 * ok:alive=N. */
int dmo_layer_ok(const struct dmo_layer_row *row);

/* "The" O_s of a measured layer, the one every consumer uses:
 * safe_os_bytes (docs/threads.md). */
uint64_t dmo_layer_safe_os(const struct dmo_layer_row *row);

/* Choose ROW's safe value and rule from its threads alive: os_bytes for
 * one, else os_split_bytes, or os_any_bytes when STATIC_SPLIT (the user
 * declared the library's split of work fixed per thread). */
void dmo_layer_set_safe(struct dmo_layer_row *row, int static_split);

/* The rule's name in layers.csv's safe_os_rule and in messages. */
const char *dmo_safe_rule_name(enum dmo_safe_rule rule);

/* ROW's status after its threads: ok:threads=N, ok:alive=N or ok, when
 * it is ok at all. */
void dmo_layer_set_thread_status(struct dmo_layer_row *row);

/* One phrase for the consumers of a run directory (plan, plot): which
 * value they take as O_s, and by which rule, e.g. "safe_os_bytes (3
 * as-run, 2 any-split)". */
void dmo_layers_rule_text(const struct dmo_layer_table *table, char *text, size_t len);

/* The per-layer table `dmo profile` prints. */
void dmo_layers_print(FILE *out, const struct dmo_layer_table *table);

/* One line on OUT, after "WHO: ", when some layer ran on several threads:
 * which value is safe for what. */
void dmo_layers_warn_threads(FILE *out, const char *who, const struct dmo_layer_table *table);

#endif
