/* harness.c - libdmo-harness: the client side of the dmo protocol
 * (docs/protocol.md).
 *
 * A layer is described by one LAYER record on the FIFO named by $DMO_FIFO,
 * then opened and closed by 8-byte stores of its number into the marker
 * region.  The region is a hidden global so the compiler addresses it
 * directly: the tool recognises the stores by their constant address while
 * translating, at no run-time cost.  Without $DMO_FIFO (or with no tool
 * reading it) nothing is sent and each call costs a few branches.
 *
 * What it refuses agrees with the tool (wire.h's limits and rules): a name
 * or spec the wire cannot carry is refused here and never sent, so the tool
 * opens no layer the caller believes refused; buffers the tool would refuse
 * are sent anyway, so the tool reports and records them. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmo/harness.h"
#include "wire.h"

__attribute__((visibility("hidden"), aligned(64)))
struct dmo_marker_region dmo_marker_region;

enum { FIFO_UNKNOWN = -2, FIFO_NONE = -1 };

static int fifo_fd = FIFO_UNKNOWN;
static pid_t connected_pid;    /* the process that sent HELLO */
static uint32_t next_seq = 1;
static uint32_t open_seq;      /* 0 = no layer open */
static int begin_failed;       /* the matching end must fail quietly */

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
	h->reserved = 0;
}

/* Open the FIFO on first use.  O_NONBLOCK makes open fail with ENXIO, not
 * hang, when no tool holds the other end; writes are then made blocking,
 * which is safe because the tool drains after every write.  Only a FIFO
 * is used: $DMO_FIFO naming a regular file (or anything else) must never
 * get records written over it. */
static void connect_once(void)
{
	const char *path = getenv(DMO_FIFO_ENV);
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

static int send_layer(uint32_t seq, const char *name, size_t name_len,
		      const char *spec, size_t spec_len, const void *input,
		      size_t input_bytes, const void *output, size_t output_bytes)
{
	unsigned char record[DMO_WIRE_MAX_RECORD];
	struct dmo_wire_layer fixed;
	size_t length = sizeof fixed + name_len + spec_len;

	header(&fixed.header, DMO_WIRE_LAYER, (uint32_t)length);
	fixed.seq = seq;
	fixed.name_len = (uint16_t)name_len;
	fixed.spec_len = (uint16_t)spec_len;
	fixed.in_addr = (uint64_t)(uintptr_t)input;
	fixed.in_bytes = input_bytes;
	fixed.out_addr = (uint64_t)(uintptr_t)output;
	fixed.out_bytes = output_bytes;
	memcpy(record, &fixed, sizeof fixed);
	memcpy(record + sizeof fixed, name, name_len);
	memcpy(record + sizeof fixed + name_len, spec, spec_len);
	return write_all(record, length);
}

int dmo_layer_begin(const char *name, const char *op_spec, const void *input,
		    size_t input_bytes, const void *output, size_t output_bytes)
{
	size_t name_len, spec_len;
	uint32_t seq = next_seq++;
	int nested = open_seq != 0, bad_buffers, bad_text, rejected = 0;

	if (name == NULL)
		name = "";
	name_len = strlen(name);
	spec_len = op_spec ? strlen(op_spec) : 0;
	bad_buffers = input == NULL || output == NULL ||
		      dmo_wire_buffers_bad((uintptr_t)input, input_bytes, (uintptr_t)output,
					   output_bytes) != NULL;
	bad_text = name_len > DMO_WIRE_MAX_NAME || spec_len > DMO_WIRE_MAX_SPEC ||
		   !dmo_wire_text_ok(name, (uint32_t)name_len) ||
		   !dmo_wire_text_ok(op_spec ? op_spec : "", (uint32_t)spec_len);
	if (fifo_fd == FIFO_UNKNOWN)
		connect_once();
	leave_if_forked();
	if (fifo_fd >= 0 && !bad_text) {
		/* Even a layer with bad buffers is described, so that the tool
		 * reports it and records it in the run directory. */
		if (send_layer(seq, name, name_len, op_spec, spec_len, input,
			       input_bytes, output, output_bytes) < 0)
			return -DMO_EIO;
		dmo_marker_region.status = 0;
		dmo_marker_region.begin = seq;
		rejected = dmo_marker_region.status != 0;
	}
	if (nested)
		return -DMO_ENESTED;
	if (bad_buffers || bad_text || rejected) {
		begin_failed = 1;
		return bad_buffers || bad_text ? -DMO_EINVAL : -DMO_EREJECTED;
	}
	begin_failed = 0;
	open_seq = seq;
	return 0;
}

int dmo_layer_end(void)
{
	uint32_t seq = open_seq;
	leave_if_forked();
	if (seq == 0) {
		if (begin_failed) {
			begin_failed = 0;
			return -DMO_EINVAL;
		}
		/* Tell the tool, so the misuse is on record too. */
		if (fifo_fd >= 0)
			dmo_marker_region.end = next_seq;
		return -DMO_ENOTOPEN;
	}
	open_seq = 0;
	if (fifo_fd < 0)
		return 0;
	dmo_marker_region.status = 0;
	dmo_marker_region.end = seq;
	return dmo_marker_region.status != 0 ? -DMO_EREJECTED : 0;
}
