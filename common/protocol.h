/* protocol.h - the layer-protocol engine (docs/protocol.md): FIFO bytes and
 * marker stores in, in program order; layer open/close decisions, misuse
 * reports and result rows out.
 *
 * Freestanding (no libc, no Valgrind): the tool is a thin adapter that
 * hands it what the guest writes and stores and carries out its decisions
 * through struct dmo_protocol_ops; the unit tests and the fuzzer drive the
 * same code without Valgrind.  Every rule of the protocol lives here.
 *
 * Rules the engine keeps, beyond docs/protocol.md's misuse table:
 * - every described layer ends up in exactly one row, under its number;
 *   rows that belong to no described layer (orphans: a store nobody
 *   described, garbage on the FIFO) carry layer number 0;
 * - a layer number is described once per run: a second LAYER with a number
 *   already described is refused as duplicate-seq;
 * - several LAYER records may wait for their begin stores at once (records
 *   written together in one write, say); a begin store opens its own,
 *   and those described before it whose begin never came are reported;
 * - an end store for the layer whose begin store was just refused is
 *   refused too, without a second report: the begin's row says why. */
#ifndef DMO_PROTOCOL_H
#define DMO_PROTOCOL_H

#include <stddef.h>
#include <stdint.h>

#include "summary.h"
#include "wire.h"

/* Descriptors that may wait for their begin stores; one more drops the
 * oldest as no-begin-marker. */
#define DMO_PROTOCOL_MAX_PENDING 16u

/* A layer as its LAYER record described it, NUL-terminated texts. */
struct dmo_protocol_layer {
	uint32_t seq;
	uint64_t in_addr, in_bytes, out_addr, out_bytes;
	char name[DMO_WIRE_MAX_NAME + 1];
	char spec[DMO_WIRE_MAX_SPEC + 1];
};

/* Everything the engine needs from its world; each op gets the CTX given
 * to dmo_protocol_create().  All are required. */
struct dmo_protocol_ops {
	void *(*alloc)(void *ctx, size_t bytes);
	void (*free)(void *ctx, void *p, size_t bytes);
	/* Whether [ADDR, ADDR+LEN) is the program's readable memory, and
	 * writable too when WRITABLE. */
	int (*mapped)(void *ctx, uint64_t addr, uint64_t len, int writable);
	/* One line for the user, no newline ("dmo: protocol error: ..."). */
	void (*say)(void *ctx, const char *line);
	/* The marker region is at ADDR from now on. */
	void (*markers)(void *ctx, uint64_t addr);
	/* LAYER begins: start measuring it. */
	void (*open)(void *ctx, const struct dmo_protocol_layer *layer);
	/* The open layer ends.  ROW holds what the engine knows (number,
	 * name, spec, buffer sizes, status, reason); the adapter adds what it
	 * measured, may turn an ok into an error of its own, and stores it. */
	void (*close)(void *ctx, struct dmo_layer_summary *row);
	/* A misuse's row, complete: store it. */
	void (*error_row)(void *ctx, const struct dmo_layer_summary *row);
	/* The answer to the program's last marker store: 0 accepted, -1
	 * refused (the marker region's status word). */
	void (*status)(void *ctx, int64_t value);
};

struct dmo_protocol;

/* NULL when the alloc op fails. */
struct dmo_protocol *dmo_protocol_create(const struct dmo_protocol_ops *ops, void *ctx);
void dmo_protocol_destroy(struct dmo_protocol *p);

/* LEN bytes the program wrote to the FIFO, in order; any split. */
void dmo_protocol_bytes(struct dmo_protocol *p, const uint8_t *bytes, size_t len);

/* The program stored VALUE into marker word WORD (DMO_MARKER_BEGIN or
 * DMO_MARKER_END).  The caller hands over the FIFO's bytes first. */
void dmo_protocol_marker(struct dmo_protocol *p, unsigned word, uint64_t value);

/* The program ended (exit, crash): a partial record, descriptors whose
 * begin never came and the open layer are reported and recorded. */
void dmo_protocol_finish(struct dmo_protocol *p);

/* The program forked and this is the child, PID: say once that it is not
 * profiled and ignore everything from now on (the parent records). */
void dmo_protocol_forked(struct dmo_protocol *p, uint32_t pid);

/* The traced process's id: records another process sent (their header's
 * sender) are set aside, said once per process, and never mix with this
 * process's layers. */
void dmo_protocol_set_pid(struct dmo_protocol *p, uint32_t pid);

/* The marker region's address, 0 before an accepted HELLO. */
uint64_t dmo_protocol_marker_addr(const struct dmo_protocol *p);

/* The open layer, or NULL. */
const struct dmo_protocol_layer *dmo_protocol_active(const struct dmo_protocol *p);

#endif
