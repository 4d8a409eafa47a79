/* fuzz_protocol.c - libFuzzer target for the layer-protocol engine
 * (common/protocol.h): the input is a program of FIFO writes and marker
 * stores, interleaved as a guest makes them.  Besides raw bytes it can
 * write well-formed HELLO, LAYER and REFUSED records, so the fuzzer reaches every
 * state of the engine, not only the wire parser's rejections.
 *
 * Contract checked after every step: a store is always answered (0 or -1);
 * opens and closes alternate; every row is well formed (reason [a-z0-9-],
 * texts terminated); no two rows share a nonzero layer number; after
 * finish no layer is open. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol.h"

enum { LO = 0x10000, HI = 0x100000 };

static struct {
	uint32_t *layers; /* nonzero numbers in rows so far */
	size_t nlayers, cap;
	int open, forked;
	long long status;
} w;

static void *op_alloc(void *ctx, size_t bytes) { (void)ctx; return malloc(bytes); }
static void op_free(void *ctx, void *p, size_t bytes) { (void)ctx; (void)bytes; free(p); }

static int op_mapped(void *ctx, uint64_t addr, uint64_t len, int writable)
{
	(void)ctx; (void)writable;
	return addr >= LO && len <= HI - addr;
}

static void op_say(void *ctx, const char *line)
{
	(void)ctx;
	assert(line[0] != '\0' && strchr(line, '\n') == NULL);
}

static void op_markers(void *ctx, uint64_t addr)
{
	(void)ctx;
	assert(addr >= LO && addr % 8 == 0);
}

static void op_open(void *ctx, const struct dmo_protocol_layer *l)
{
	(void)ctx;
	assert(!w.open && l->seq != 0 && l->in_bytes > 0 && l->out_bytes > 0);
	w.open = 1;
}

static void check_row(const struct dmo_layer_summary *row)
{
	assert(row->magic == DMO_SUMMARY_MAGIC && row->version == DMO_SUMMARY_VERSION);
	assert(memchr(row->name, 0, sizeof row->name) && memchr(row->spec, 0, sizeof row->spec));
	assert(memchr(row->reason, 0, sizeof row->reason));
	for (const char *r = row->reason; *r; r++)
		assert((*r >= 'a' && *r <= 'z') || (*r >= '0' && *r <= '9') || *r == '-');
	assert((row->status == DMO_STATUS_ERROR) == (row->reason[0] != '\0'));
	if (row->layer == 0)
		return;
	for (size_t i = 0; i < w.nlayers; i++)
		assert(w.layers[i] != row->layer);
	if (w.nlayers == w.cap) {
		w.cap = w.cap ? 2 * w.cap : 64;
		w.layers = realloc(w.layers, w.cap * sizeof *w.layers);
		assert(w.layers != NULL);
	}
	w.layers[w.nlayers++] = row->layer;
}

static void op_close(void *ctx, struct dmo_layer_summary *row)
{
	(void)ctx;
	assert(w.open);
	assert(row->status != DMO_STATUS_ERROR || strcmp(row->reason, "end-mismatch") == 0);
	w.open = 0;
	check_row(row);
}

static void op_error_row(void *ctx, const struct dmo_layer_summary *row)
{
	(void)ctx;
	assert(row->status == DMO_STATUS_ERROR);
	check_row(row);
}

static void op_status(void *ctx, int64_t value)
{
	(void)ctx;
	assert(value == 0 || value == -1);
	w.status = value;
}

static const struct dmo_protocol_ops ops = {
	.alloc = op_alloc, .free = op_free, .mapped = op_mapped, .say = op_say,
	.markers = op_markers, .open = op_open, .close = op_close,
	.error_row = op_error_row, .status = op_status,
};

static void put(uint8_t *b, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		b[i] = (uint8_t)(v >> (8 * i));
}

static size_t header(uint8_t *b, uint16_t type, uint32_t length)
{
	memcpy(b, "DMOR", 4);
	put(b + 4, 1, 2);
	put(b + 6, type, 2);
	put(b + 8, length, 4);
	put(b + 12, 0, 4);
	return 16;
}

/* Addresses and sizes the fuzzer picks from: mapped or not, overlapping
 * or not, zero, huge, wrapping. */
static const uint64_t addrs[] = { 0x20000, 0x40000, 0x20040, 0x1000, 0xfff00, ~0ull - 8 };
static const uint64_t sizes[] = { 64, 256, 0, 1ull << 32, 0x40000, 1 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dmo_protocol *p = dmo_protocol_create(&ops, NULL);
	size_t i = 0;

	assert(p != NULL);
	memset(&w, 0, sizeof w);
	while (i < size) {
		uint8_t op = data[i++], arg = i < size ? data[i] : 0;
		uint8_t rec[DMO_WIRE_MAX_RECORD];
		switch (op % 7) {
		case 0: { /* raw bytes: ARG of them */
			size_t n;
			if (++i > size)
				i = size;
			n = arg < size - i ? arg : size - i;
			dmo_protocol_bytes(p, data + i, n);
			i += n;
			break;
		}
		case 1: /* a HELLO, maybe at a bad address */
			i++;
			header(rec, DMO_WIRE_HELLO, 32);
			put(rec + 16, arg & 1 ? 0x10000 : 0x8 * arg, 8);
			put(rec + 24, 1, 4);
			put(rec + 28, 0, 4);
			dmo_protocol_bytes(p, rec, 32);
			break;
		case 2: { /* a LAYER: seq, name and buffers from the next bytes */
			uint8_t sel = i + 1 < size ? data[i + 1] : 0;
			size_t nl = (sel >> 6) * 3, len = 56 + nl;
			i += 2;
			header(rec, DMO_WIRE_LAYER, (uint32_t)len);
			put(rec + 16, arg % 8, 4); /* seq 0 is refused by the parser */
			put(rec + 20, nl, 2);
			put(rec + 22, 0, 2);
			put(rec + 24, addrs[sel % 6], 8);
			put(rec + 32, sizes[(sel / 6) % 6], 8);
			put(rec + 40, addrs[(sel + 1) % 6], 8);
			put(rec + 48, sizes[(sel / 36) % 6], 8);
			memcpy(rec + 56, "\xe5\xb1\x82nm\tabc", nl); /* UTF-8, then a tab */
			/* Sometimes two or three in one write. */
			if (sel & 0x20) {
				memcpy(rec + len, rec, len);
				put(rec + len + 16, arg % 8 + 1, 4);
				len *= 2;
			}
			dmo_protocol_bytes(p, rec, len);
			break;
		}
		case 3: case 4: { /* a store: small numbers mostly, 0 and 2^32 too */
			uint64_t v = arg == 255 ? 1ull << 32 : arg % 9;
			i++;
			w.status = 99;
			dmo_protocol_marker(p, op % 7 == 3 ? DMO_MARKER_BEGIN : DMO_MARKER_END, v);
			/* A forked child's stores are not the tool's to answer. */
			assert(w.status == 0 || w.status == -1 || (w.forked && w.status == 99));
			break;
		}
		case 5: /* a store to the status word: not the program's to make */
			dmo_protocol_marker(p, DMO_MARKER_STATUS, arg);
			i++;
			break;
		case 6:
			if (arg == 0xfd) {
				dmo_protocol_forked(p, 77);
				w.open = 0;
				w.forked = 1;
			} else if (arg >= 0xf0) {
				/* A REFUSED (a layer the program refused itself):
				 * seq and reason from ARG, buffers from the next byte. */
				uint8_t sel = i + 1 < size ? data[i + 1] : 0;
				size_t len = 64 + 4 + 3 + 9;
				i++;
				header(rec, DMO_WIRE_REFUSED, (uint32_t)len);
				put(rec + 16, arg % 8, 4);
				put(rec + 20, 4, 2);
				put(rec + 22, 3, 2);
				put(rec + 24, addrs[sel % 6], 8);
				put(rec + 32, sizes[(sel / 6) % 6], 8);
				put(rec + 40, addrs[(sel + 1) % 6], 8);
				put(rec + 48, sizes[(sel / 36) % 6], 8);
				put(rec + 56, arg % 3, 2); /* 0 is no reason: bad record */
				put(rec + 58, 9, 2);
				put(rec + 60, 0, 4);
				memcpy(rec + 64, "nameopsbad spec", 16);
				dmo_protocol_bytes(p, rec, len);
			}
			i++;
			break;
		}
		assert((dmo_protocol_active(p) != NULL) == w.open);
	}
	dmo_protocol_finish(p);
	assert(dmo_protocol_active(p) == NULL);
	dmo_protocol_destroy(p);
	free(w.layers);
	return 0;
}
