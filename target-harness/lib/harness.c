/* harness.c - libdmo-harness: the client side of the dmo protocol
 * (docs/protocol.md).
 *
 * A layer is described by one LAYER record on the tool's FIFO, then opened
 * and closed by 8-byte stores of its number into the marker region.  The
 * region is a hidden global so the compiler addresses it directly: the
 * tool recognises the stores by their constant address while translating,
 * at no run-time cost.  The FIFO is the one the tool names when asked by a
 * client request (so a bare `valgrind --tool=dmo PROG` works), else
 * $DMO_FIFO's.  Without either (or with no tool reading it) nothing is
 * sent and each call costs a few branches.
 *
 * What it refuses agrees with the tool (wire.h's limits and rules): a name
 * or spec the wire cannot carry is refused here and never sent, so the tool
 * opens no layer the caller believes refused; buffers the tool would refuse
 * are sent anyway, so the tool reports and records them.  The op spec is
 * checked here, with the one op-spec parser (the tool has no libc to parse
 * it): a spec that does not parse, or whose input/output bytes are not the
 * buffers', is refused with or without the tool, and under it a REFUSED
 * record puts the refusal on record. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <valgrind/valgrind.h>

#include "dmo/harness.h"
#include "opspec.h"
#include "wire.h"

__attribute__((visibility("hidden"), aligned(64)))
struct dmo_marker_region dmo_marker_region;

enum { FIFO_UNKNOWN = -2, FIFO_NONE = -1 };

static int fifo_fd = FIFO_UNKNOWN;
static pid_t connected_pid;    /* the process that sent HELLO */
static uint32_t next_seq = 1;
static uint32_t open_seq;      /* 0 = no layer open */
static int begin_failed;       /* the matching end must fail quietly */
static char last_error[DMO_WIRE_MAX_MESSAGE + 1]; /* dmo_layer_error() */
/* Op specs that passed, with their buffer sizes, so that a program that
 * runs the same layers over and over parses each spec once (parsing costs
 * about 10 times a begin+end pair; bench/harness_cost): a direct-mapped
 * table on a hash of the three, holding a copy of the text to compare. */
#define PASSED_SLOTS 64
static struct passed_spec {
	uint64_t hash;
	size_t in_bytes, out_bytes;
	char *text; /* NULL: empty slot */
} passed[PASSED_SLOTS];

/* Fail with CODE (a DMO_E* value), saying why in last_error. */
__attribute__((format(printf, 2, 3))) static int failure(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof last_error, fmt, ap);
	va_end(ap);
	return -code;
}

static int write_all(const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fifo_fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void header(struct dmo_wire_header *h, uint16_t type, uint32_t length)
{
	h->magic = DMO_WIRE_MAGIC;
	h->version = DMO_WIRE_VERSION;
	h->type = type;
	h->length = length;
	h->sender = (uint32_t)getpid(); /* children keep apart (wire.h) */
}

/* Open the FIFO on first use.  O_NONBLOCK makes open fail with ENXIO, not
 * hang, when no tool holds the other end; writes are then made blocking,
 * which is safe because the tool drains after every write.  Only a FIFO
 * is used: $DMO_FIFO naming a regular file (or anything else) must never
 * get records written over it. */
static void connect_once(void)
{
	/* The tool's own answer first: it knows which FIFO it reads.  Without
	 * Valgrind, or under another tool, the request returns 0. */
	static char tool_fifo[4096];
	const char *path = VALGRIND_DO_CLIENT_REQUEST_EXPR(0, DMO_WIRE_REQ_FIFO_PATH, tool_fifo,
							   sizeof tool_fifo, 0, 0, 0) > 0
				   ? tool_fifo
				   : getenv(DMO_FIFO_ENV);
	struct dmo_wire_hello hello;
	struct stat st;
	int fd;

	fifo_fd = FIFO_NONE;
	/* stat first, so that a device (a tape rewinds when opened) is not
	 * even opened; fstat after, for what open really reached. */
	if (path == NULL || *path == '\0' || stat(path, &st) != 0 || !S_ISFIFO(st.st_mode))
		return;
	fd = open(path, O_WRONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return;
	if (fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode) || fcntl(fd, F_SETFL, 0) < 0) {
		close(fd);
		return;
	}
	fifo_fd = fd;
	connected_pid = getpid();
	memset(&hello, 0, sizeof hello);
	header(&hello.header, DMO_WIRE_HELLO, sizeof hello);
	hello.marker_addr = (uint64_t)(uintptr_t)&dmo_marker_region;
	hello.pid = (uint32_t)connected_pid;
	if (write_all(&hello, sizeof hello) < 0) {
		close(fd);
		fifo_fd = FIFO_NONE;
	}
}

/* A child made by fork inherits the FIFO, but its records would be read
 * as the parent's: it is not profiled (the tool says so once), and its
 * calls cost what they cost without the tool. */
static void leave_if_forked(void)
{
	if (fifo_fd >= 0 && getpid() != connected_pid) {
		close(fifo_fd);
		fifo_fd = FIFO_NONE;
	}
}

/* A LAYER record, or with REASON != 0 a REFUSED one carrying last_error. */
static int send_layer(uint32_t seq, const char *name, size_t name_len,
		      const char *spec, size_t spec_len, const void *input,
		      size_t input_bytes, const void *output, size_t output_bytes,
		      int reason)
{
	unsigned char record[DMO_WIRE_MAX_RECORD];
	struct dmo_wire_refused fixed;
	size_t message_len = reason ? strlen(last_error) : 0;
	size_t head = reason ? sizeof fixed : sizeof fixed.layer;
	size_t length = head + name_len + spec_len + message_len;

	memset(&fixed, 0, sizeof fixed);
	header(&fixed.layer.header, reason ? DMO_WIRE_REFUSED : DMO_WIRE_LAYER, (uint32_t)length);
	fixed.layer.seq = seq;
	fixed.layer.name_len = (uint16_t)name_len;
	fixed.layer.spec_len = (uint16_t)spec_len;
	fixed.layer.in_addr = (uint64_t)(uintptr_t)input;
	fixed.layer.in_bytes = input_bytes;
	fixed.layer.out_addr = (uint64_t)(uintptr_t)output;
	fixed.layer.out_bytes = output_bytes;
	fixed.reason = (uint16_t)reason;
	fixed.message_len = (uint16_t)message_len;
	memcpy(record, &fixed, head);
	memcpy(record + head, name, name_len);
	memcpy(record + head + name_len, spec, spec_len);
	memcpy(record + head + name_len + spec_len, last_error, message_len);
	return write_all(record, length);
}

/* FNV-1a over the spec's text and its two sizes. */
static uint64_t spec_hash(const char *spec, size_t len, size_t in_bytes, size_t out_bytes)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)spec[i]) * 0x100000001b3ull;
	h = (h ^ in_bytes) * 0x100000001b3ull;
	return (h ^ out_bytes) * 0x100000001b3ull;
}

/* 0 when SPEC (LEN bytes, LEN > 0) parses and describes buffers of
 * IN_BYTES and OUT_BYTES; else the DMO_REFUSED_* reason, with last_error
 * saying why.  The parser's messages hold only the spec's own characters
 * and printable text, so they may go on the wire as they are. */
static int spec_refusal(const char *spec, size_t len, size_t in_bytes, size_t out_bytes)
{
	uint64_t hash = spec_hash(spec, len, in_bytes, out_bytes);
	struct passed_spec *slot = &passed[hash % PASSED_SLOTS];
	struct dmo_opspec parsed;
	char why[DMO_WIRE_MAX_MESSAGE - 32], *copy;
	uint64_t want_in, want_out;

	if (slot->text != NULL && slot->hash == hash && slot->in_bytes == in_bytes &&
	    slot->out_bytes == out_bytes && strcmp(slot->text, spec) == 0)
		return 0;
	if (dmo_opspec_parse(spec, &parsed, why, sizeof why) != 0) {
		failure(0, "bad op spec: %s", why);
		return DMO_REFUSED_BAD_SPEC;
	}
	want_in = dmo_opspec_in_bytes(&parsed);
	want_out = dmo_opspec_out_bytes(&parsed);
	if (want_in != in_bytes || want_out != out_bytes) {
		failure(0, "the op spec describes %" PRIu64 " input and %" PRIu64
			" output bytes, the buffers hold %zu and %zu",
			want_in, want_out, in_bytes, out_bytes);
		return DMO_REFUSED_SPEC_SIZE;
	}
	/* Without memory the spec is simply parsed again next time. */
	if ((copy = malloc(len + 1)) != NULL) {
		memcpy(copy, spec, len + 1);
		free(slot->text);
		*slot = (struct passed_spec){ hash, in_bytes, out_bytes, copy };
	}
	return 0;
}

/* What a buffer refusal (wire.h's reason, or null-buffer) means, and what
 * to do, for dmo_layer_error(); the reason itself follows in brackets, as
 * the tool's row names it. */
static const char *buffers_text(const char *reason)
{
	static const struct {
		const char *reason, *text;
	} texts[] = {
		{ "null-buffer", "the input or output pointer is NULL" },
		{ "zero-size-buffer", "the input or output size is 0 bytes" },
		{ "buffer-over-4gib", "a buffer is over 4 GiB (the tool's offsets are 32-bit)" },
		{ "buffer-wraps", "a buffer runs past the end of the address space" },
		{ "overlapping-buffers",
		  "the input and output share memory; give two separate buffers, and dmo "
		  "measures how far they could overlap" },
	};
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		if (strcmp(reason, texts[i].reason) == 0)
			return texts[i].text;
	return reason;
}

int dmo_layer_begin(const char *name, const char *op_spec, const void *input,
		    size_t input_bytes, const void *output, size_t output_bytes)
{
	size_t name_len, spec_len;
	uint32_t seq = next_seq++;
	int rejected = 0, refusal = 0, rc = 0;
	const char *bad_buffers, *bad_text = NULL;

	last_error[0] = '\0';
	if (name == NULL)
		name = "";
	if (op_spec == NULL)
		op_spec = "";
	name_len = strlen(name);
	spec_len = strlen(op_spec);
	if (name_len > DMO_WIRE_MAX_NAME)
		bad_text = "the name is over 255 bytes";
	else if (spec_len > DMO_WIRE_MAX_SPEC)
		bad_text = "the op spec is over 1023 bytes";
	else if (!dmo_wire_text_ok(name, (uint32_t)name_len) ||
		 !dmo_wire_text_ok(op_spec, (uint32_t)spec_len))
		bad_text = "a control character in the name or op spec";
	bad_buffers = input == NULL || output == NULL ? "null-buffer" :
		      dmo_wire_buffers_bad((uintptr_t)input, input_bytes, (uintptr_t)output,
					   output_bytes);
	/* The first reason, in this order, is the one told. */
	if (open_seq != 0)
		rc = failure(DMO_ENESTED, "layer %" PRIu32 " is still open (layers do not nest)",
			     open_seq);
	else if (bad_text)
		rc = failure(DMO_EINVAL, "%s", bad_text);
	else if (bad_buffers)
		rc = failure(DMO_EINVAL, "bad buffers: %s [%s]", buffers_text(bad_buffers),
			     bad_buffers);
	else if (spec_len > 0 &&
		 (refusal = spec_refusal(op_spec, spec_len, input_bytes, output_bytes)) != 0)
		rc = -(refusal == DMO_REFUSED_BAD_SPEC ? DMO_ESPEC : DMO_ESPECSIZE);

	if (fifo_fd == FIFO_UNKNOWN)
		connect_once();
	leave_if_forked();
	/* Whatever the wire can carry is sent: a layer the tool will refuse
	 * (nested, bad buffers) so that it reports and records it, and a spec
	 * refused here as a REFUSED record, so that the refusal is on record. */
	if (fifo_fd >= 0 && !bad_text) {
		if (send_layer(seq, name, name_len, op_spec, spec_len, input, input_bytes, output,
			       output_bytes, refusal) < 0)
			return failure(DMO_EIO, "writing to the dmo FIFO failed: %s", strerror(errno));
		if (!refusal) {
			dmo_marker_region.status = 0;
			dmo_marker_region.begin = seq;
			rejected = dmo_marker_region.status != 0;
		}
	}
	if (rc == -DMO_ENESTED) /* the open layer stays open; its end closes it */
		return rc;
	if (rc == 0 && rejected)
		rc = failure(DMO_EREJECTED, "the dmo tool refused the layer (its message says why)");
	if (rc != 0) {
		begin_failed = 1;
		return rc;
	}
	begin_failed = 0;
	open_seq = seq;
	return 0;
}

int dmo_layer_end(void)
{
	uint32_t seq = open_seq;

	last_error[0] = '\0';
	leave_if_forked();
	if (seq == 0) {
		if (begin_failed) {
			begin_failed = 0;
			return failure(DMO_EINVAL, "its dmo_layer_begin failed");
		}
		/* Tell the tool, so the misuse is on record too. */
		if (fifo_fd >= 0)
			dmo_marker_region.end = next_seq;
		return failure(DMO_ENOTOPEN, "no layer is open");
	}
	open_seq = 0;
	if (fifo_fd < 0)
		return 0;
	dmo_marker_region.status = 0;
	dmo_marker_region.end = seq;
	return dmo_marker_region.status != 0
		       ? failure(DMO_EREJECTED, "the dmo tool refused the end (its message says why)")
		       : 0;
}

const char *dmo_layer_error(void)
{
	return last_error;
}
