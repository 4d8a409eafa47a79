/* test_protocol.c - the layer-protocol engine (common/protocol.h) without
 * Valgrind: every row of docs/protocol.md's misuse table, and the cases of
 * issue 14 (duplicate numbers, orphan rows, several records in one write,
 * UTF-8 names, the name/spec limits, fork).  The world is a fake one: the
 * program's memory is [MAPPED_LO, MAPPED_HI), and every message, row,
 * status answer and open/close is recorded for the checks. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_main.h"
#include "protocol.h"

enum { MAPPED_LO = 0x10000, MAPPED_HI = 0x100000, MARKERS = 0x10000, IN = 0x20000,
       OUT = 0x40000 };

struct world {
	struct dmo_layer_summary rows[128];
	size_t nrows;
	char said[64][700];
	size_t nsaid;
	long long status; /* last answer; 99 = none */
	size_t opens, closes;
	uint64_t markers;
};

static struct world w;
static struct dmo_protocol *p;

static void *op_alloc(void *ctx, size_t bytes)
{
	(void)ctx;
	return malloc(bytes);
}

static void op_free(void *ctx, void *q, size_t bytes)
{
	(void)ctx; (void)bytes;
	free(q);
}

static int op_mapped(void *ctx, uint64_t addr, uint64_t len, int writable)
{
	(void)ctx; (void)writable;
	return addr >= MAPPED_LO && len <= MAPPED_HI - addr;
}

static void op_say(void *ctx, const char *line)
{
	(void)ctx;
	ck_assert_uint_lt(w.nsaid, 64);
	ck_assert_ptr_null(strchr(line, '\n'));
	snprintf(w.said[w.nsaid++], sizeof w.said[0], "%s", line);
}

static void op_markers(void *ctx, uint64_t addr)
{
	(void)ctx;
	w.markers = addr;
}

static void op_open(void *ctx, const struct dmo_protocol_layer *l)
{
	(void)ctx; (void)l;
	w.opens++;
}

static void add_row(const struct dmo_layer_summary *row)
{
	ck_assert_uint_lt(w.nrows, 128);
	ck_assert_uint_eq(row->magic, DMO_SUMMARY_MAGIC);
	ck_assert_uint_eq(row->version, DMO_SUMMARY_VERSION);
	w.rows[w.nrows++] = *row;
}

static void op_close(void *ctx, struct dmo_layer_summary *row)
{
	(void)ctx;
	w.closes++;
	add_row(row);
}

static void op_error_row(void *ctx, const struct dmo_layer_summary *row)
{
	(void)ctx;
	ck_assert_uint_eq(row->status, DMO_STATUS_ERROR);
	add_row(row);
}

static void op_status(void *ctx, int64_t value)
{
	(void)ctx;
	w.status = value;
}

static const struct dmo_protocol_ops ops = {
	.alloc = op_alloc, .free = op_free, .mapped = op_mapped, .say = op_say,
	.markers = op_markers, .open = op_open, .close = op_close,
	.error_row = op_error_row, .status = op_status,
};

static void setup(void)
{
	memset(&w, 0, sizeof w);
	w.status = 99;
	p = dmo_protocol_create(&ops, NULL);
	ck_assert_ptr_nonnull(p);
}

/* Every described layer is in at most one row under its number: rows with
 * a nonzero number never repeat it (orphans carry 0). */
static void teardown(void)
{
	for (size_t i = 0; i < w.nrows; i++)
		for (size_t j = i + 1; j < w.nrows; j++)
			if (w.rows[i].layer != 0)
				ck_assert_uint_ne(w.rows[i].layer, w.rows[j].layer);
	dmo_protocol_destroy(p);
}

/* ---- records, as a program writes them ---- */

static void put16(uint8_t *b, uint16_t v) { b[0] = v & 0xff; b[1] = v >> 8; }
static void put32(uint8_t *b, uint32_t v) { put16(b, v & 0xffff); put16(b + 2, v >> 16); }
static void put64(uint8_t *b, uint64_t v) { put32(b, (uint32_t)v); put32(b + 4, v >> 32); }

static size_t header(uint8_t *b, uint16_t type, uint32_t length)
{
	memcpy(b, "DMOR", 4);
	put16(b + 4, 1);
	put16(b + 6, type);
	put32(b + 8, length);
	put32(b + 12, 0);
	return 16;
}

static size_t hello_at(uint8_t *b, uint64_t markers)
{
	header(b, DMO_WIRE_HELLO, 32);
	put64(b + 16, markers);
	put32(b + 24, 1234);
	put32(b + 28, 0);
	return 32;
}

static size_t layer_rec(uint8_t *b, uint32_t seq, const char *name, const char *spec,
			uint64_t in, uint64_t in_bytes, uint64_t out, uint64_t out_bytes)
{
	size_t nl = strlen(name), sl = spec ? strlen(spec) : 0, len = 56 + nl + sl;
	header(b, DMO_WIRE_LAYER, (uint32_t)len);
	put32(b + 16, seq);
	put16(b + 20, (uint16_t)nl);
	put16(b + 22, (uint16_t)sl);
	put64(b + 24, in);
	put64(b + 32, in_bytes);
	put64(b + 40, out);
	put64(b + 48, out_bytes);
	memcpy(b + 56, name, nl);
	if (sl)
		memcpy(b + 56 + nl, spec, sl);
	return len;
}

/* A REFUSED record: a LAYER's fields, the reason, then the message. */
static size_t refused_rec(uint8_t *b, uint32_t seq, const char *name, uint16_t reason,
			  const char *message)
{
	const char *spec = "relu:in=64,k=3";
	size_t nl = strlen(name), sl = strlen(spec), ml = strlen(message);
	size_t len = 64 + nl + sl + ml;

	layer_rec(b, seq, name, spec, IN, 256, OUT, 512);
	header(b, DMO_WIRE_REFUSED, (uint32_t)len);
	put16(b + 56, reason);
	put16(b + 58, (uint16_t)ml);
	put32(b + 60, 0);
	memcpy(b + 64, name, nl);
	memcpy(b + 64 + nl, spec, sl);
	memcpy(b + 64 + nl + sl, message, ml);
	return len;
}

static void send(const uint8_t *b, size_t len)
{
	dmo_protocol_bytes(p, b, len);
}

static void hello(void)
{
	uint8_t b[32];
	send(b, hello_at(b, MARKERS));
	ck_assert_uint_eq(w.markers, MARKERS);
}

static void describe(uint32_t seq, const char *name, uint64_t in, uint64_t in_bytes,
		     uint64_t out, uint64_t out_bytes)
{
	uint8_t b[DMO_WIRE_MAX_RECORD];
	send(b, layer_rec(b, seq, name, "relu:in=64", in, in_bytes, out, out_bytes));
}

static void begin(uint64_t v) { dmo_protocol_marker(p, DMO_MARKER_BEGIN, v); }
static void end(uint64_t v) { dmo_protocol_marker(p, DMO_MARKER_END, v); }

/* A whole good layer SEQ NAME, described, begun and ended. */
static void good_layer(uint32_t seq, const char *name)
{
	describe(seq, name, IN, 256, OUT, 256);
	begin(seq);
	ck_assert_int_eq(w.status, 0);
	end(seq);
	ck_assert_int_eq(w.status, 0);
}

static void expect_row(size_t i, uint32_t layer, uint32_t status, const char *reason)
{
	ck_assert_uint_gt(w.nrows, i);
	ck_assert_uint_eq(w.rows[i].layer, layer);
	ck_assert_uint_eq(w.rows[i].status, status);
	ck_assert_str_eq(w.rows[i].reason, reason);
}

/* The one message said names REASON as docs/protocol.md spells it. */
static void expect_said(const char *reason)
{
	char tag[80];
	snprintf(tag, sizeof tag, "[error:%s]", reason);
	for (size_t i = 0; i < w.nsaid; i++)
		if (strstr(w.said[i], tag) && strncmp(w.said[i], "dmo: protocol error: ", 21) == 0)
			return;
	ck_abort_msg("no message with %s", tag);
}

/* ---- the good path ---- */

START_TEST(one_good_layer)
{
	hello();
	good_layer(1, "relu");
	ck_assert_uint_eq(w.opens, 1);
	ck_assert_uint_eq(w.closes, 1);
	ck_assert_uint_eq(w.nrows, 1);
	expect_row(0, 1, DMO_STATUS_OK, "");
	ck_assert_str_eq(w.rows[0].name, "relu");
	ck_assert_str_eq(w.rows[0].spec, "relu:in=64");
	ck_assert_uint_eq(w.rows[0].in_bytes, 256);
	ck_assert_uint_eq(w.rows[0].out_bytes, 256);
	ck_assert_uint_eq(w.nsaid, 0);
	dmo_protocol_finish(p);
	ck_assert_uint_eq(w.nrows, 1);
}
END_TEST

/* A pipe may deliver a record in any pieces. */
START_TEST(records_byte_by_byte)
{
	uint8_t b[2 * DMO_WIRE_MAX_RECORD];
	size_t n = hello_at(b, MARKERS);
	n += layer_rec(b + n, 1, "split", NULL, IN, 64, OUT, 64);
	for (size_t i = 0; i < n; i++)
		send(b + i, 1);
	begin(1);
	end(1);
	expect_row(0, 1, DMO_STATUS_OK, "");
	ck_assert_uint_eq(w.nrows, 1);
}
END_TEST

/* Issue 14: two records in one write lost the first layer with three
 * errors; both layers are kept now. */
START_TEST(several_records_in_one_write)
{
	uint8_t b[3 * DMO_WIRE_MAX_RECORD];
	size_t n = hello_at(b, MARKERS);
	n += layer_rec(b + n, 1, "first", NULL, IN, 64, OUT, 64);
	n += layer_rec(b + n, 2, "second", NULL, IN, 64, OUT, 64);
	send(b, n);
	begin(1);
	end(1);
	begin(2);
	end(2);
	ck_assert_uint_eq(w.nrows, 2);
	expect_row(0, 1, DMO_STATUS_OK, "");
	expect_row(1, 2, DMO_STATUS_OK, "");
	ck_assert_uint_eq(w.nsaid, 0);
}
END_TEST

/* Issue 14: UTF-8 names were refused by a signed char comparison. */
START_TEST(utf8_name_accepted)
{
	/* ünïcødé_层 */
	const char *name = "\xc3\xbc" "n" "\xc3\xaf" "c" "\xc3\xb8" "d" "\xc3\xa9" "_\xe5\xb1\x82";
	hello();
	good_layer(1, name);
	expect_row(0, 1, DMO_STATUS_OK, "");
	ck_assert_str_eq(w.rows[0].name, name);
}
END_TEST

START_TEST(control_character_refused)
{
	hello();
	describe(1, "tab\there", IN, 64, OUT, 64);
	expect_row(0, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	expect_said("bad-fifo-record");
	good_layer(2, "after");
	expect_row(1, 2, DMO_STATUS_OK, "");
}
END_TEST

/* The limits are the wire's (wire.h), which the client library checks
 * before it sends: a name of 255 bytes and a spec of 1023 pass, one byte
 * more is a bad record, and the next layer is intact. */
START_TEST(name_and_spec_limits)
{
	char name[DMO_WIRE_MAX_NAME + 2], spec[DMO_WIRE_MAX_SPEC + 2];
	uint8_t b[DMO_WIRE_MAX_RECORD];
	memset(name, 'n', sizeof name - 1);
	memset(spec, 's', sizeof spec - 1);
	name[DMO_WIRE_MAX_NAME] = spec[DMO_WIRE_MAX_SPEC] = 0;
	hello();
	send(b, layer_rec(b, 1, name, spec, IN, 64, OUT, 64));
	begin(1);
	end(1);
	expect_row(0, 1, DMO_STATUS_OK, "");
	ck_assert_uint_eq(strlen(w.rows[0].name), DMO_WIRE_MAX_NAME);
	ck_assert_uint_eq(strlen(w.rows[0].spec), DMO_WIRE_MAX_SPEC);

	name[DMO_WIRE_MAX_NAME] = 'n';
	name[DMO_WIRE_MAX_NAME + 1] = 0;
	send(b, layer_rec(b, 2, name, NULL, IN, 64, OUT, 64));
	expect_row(1, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	spec[DMO_WIRE_MAX_SPEC] = 's';
	spec[DMO_WIRE_MAX_SPEC + 1] = 0;
	send(b, layer_rec(b, 3, "x", spec, IN, 64, OUT, 64));
	expect_row(2, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	good_layer(4, "next");
	expect_row(3, 4, DMO_STATUS_OK, "");
	ck_assert_uint_eq(w.opens, 2);
}
END_TEST

/* ---- docs/protocol.md's misuse table, row by row ---- */

START_TEST(bad_fifo_record)
{
	static const uint8_t garbage[] = "this is not a dmo record";
	hello();
	send(garbage, sizeof garbage);
	expect_row(0, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	expect_said("bad-fifo-record");
	ck_assert_ptr_nonnull(strstr(w.said[0], "bad magic"));
	good_layer(1, "after_garbage");
	expect_row(1, 1, DMO_STATUS_OK, "");
}
END_TEST

START_TEST(truncated_fifo_record)
{
	uint8_t b[DMO_WIRE_MAX_RECORD];
	size_t n;
	hello();
	good_layer(1, "before");
	n = layer_rec(b, 2, "cut", NULL, IN, 64, OUT, 64);
	send(b, n - 5);
	dmo_protocol_finish(p);
	ck_assert_uint_eq(w.nrows, 2);
	expect_row(1, 0, DMO_STATUS_ERROR, "truncated-fifo-record");
	expect_said("truncated-fifo-record");
}
END_TEST

START_TEST(unmapped_marker_region)
{
	uint8_t b[32];
	send(b, hello_at(b, 0x8));
	expect_row(0, 0, DMO_STATUS_ERROR, "unmapped-marker-region");
	ck_assert_uint_eq(dmo_protocol_marker_addr(p), 0);
	/* The marker region's 24 bytes must all be mapped. */
	send(b, hello_at(b, MAPPED_HI - 16));
	expect_row(1, 0, DMO_STATUS_ERROR, "unmapped-marker-region");
	send(b, hello_at(b, MAPPED_HI - 24));
	ck_assert_uint_eq(dmo_protocol_marker_addr(p), MAPPED_HI - 24);
	ck_assert_uint_eq(w.nrows, 2);
}
END_TEST

START_TEST(no_descriptor)
{
	hello();
	begin(5);
	ck_assert_int_eq(w.status, -1);
	expect_row(0, 0, DMO_STATUS_ERROR, "no-descriptor");
	expect_said("no-descriptor");
	/* Its end is refused without a second report. */
	w.status = 99;
	end(5);
	ck_assert_int_eq(w.status, -1);
	ck_assert_uint_eq(w.nrows, 1);
	good_layer(6, "after");
	expect_row(1, 6, DMO_STATUS_OK, "");
}
END_TEST

START_TEST(no_begin_marker)
{
	hello();
	describe(1, "lost", IN, 64, OUT, 64);
	good_layer(2, "next");
	expect_row(0, 1, DMO_STATUS_ERROR, "no-begin-marker");
	ck_assert_str_eq(w.rows[0].name, "lost");
	expect_row(1, 2, DMO_STATUS_OK, "");
	describe(3, "never", IN, 64, OUT, 64);
	dmo_protocol_finish(p);
	expect_row(2, 3, DMO_STATUS_ERROR, "no-begin-marker");
	expect_said("no-begin-marker");
}
END_TEST

START_TEST(nested_begin)
{
	hello();
	describe(1, "outer", IN, 64, OUT, 64);
	begin(1);
	describe(2, "inner", IN, 64, OUT, 64);
	begin(2);
	ck_assert_int_eq(w.status, -1);
	expect_row(0, 2, DMO_STATUS_ERROR, "nested-begin");
	ck_assert_str_eq(w.rows[0].name, "inner");
	expect_said("nested-begin");
	end(1);
	ck_assert_int_eq(w.status, 0);
	expect_row(1, 1, DMO_STATUS_OK, "");
	ck_assert_uint_eq(w.opens, 1);
}
END_TEST

/* Issue 14: the row said the *next* layer's number; now 0, like every
 * orphan row, so no two rows share a number. */
START_TEST(end_without_begin)
{
	hello();
	good_layer(1, "before");
	end(2);
	ck_assert_int_eq(w.status, -1);
	expect_row(1, 0, DMO_STATUS_ERROR, "end-without-begin");
	expect_said("end-without-begin");
	good_layer(2, "after");
	expect_row(2, 2, DMO_STATUS_OK, "");
}
END_TEST

START_TEST(end_mismatch)
{
	hello();
	describe(1, "open", IN, 64, OUT, 64);
	begin(1);
	end(7);
	ck_assert_int_eq(w.status, -1);
	expect_row(0, 1, DMO_STATUS_ERROR, "end-mismatch");
	ck_assert_uint_eq(w.closes, 1);
	ck_assert_ptr_null(dmo_protocol_active(p));
	expect_said("end-mismatch");
}
END_TEST

START_TEST(bad_marker_value)
{
	hello();
	begin(0);
	ck_assert_int_eq(w.status, -1);
	end(1ull << 32);
	expect_row(0, 0, DMO_STATUS_ERROR, "bad-marker-value");
	expect_row(1, 0, DMO_STATUS_ERROR, "bad-marker-value");
	expect_said("bad-marker-value");
}
END_TEST

/* The buffer rows: each refuses the begin, and carries the layer's
 * number and name. */
static void buffer_case(uint64_t in, uint64_t in_bytes, uint64_t out, uint64_t out_bytes,
			const char *reason)
{
	hello();
	describe(1, "bad", in, in_bytes, out, out_bytes);
	begin(1);
	ck_assert_int_eq(w.status, -1);
	end(1); /* refused quietly: the begin's row says why */
	ck_assert_uint_eq(w.nrows, 1);
	expect_row(0, 1, DMO_STATUS_ERROR, reason);
	ck_assert_str_eq(w.rows[0].name, "bad");
	expect_said(reason);
	ck_assert_uint_eq(w.opens, 0);
	good_layer(2, "after");
	expect_row(1, 2, DMO_STATUS_OK, "");
}

START_TEST(zero_size_buffer) { buffer_case(IN, 0, OUT, 64, "zero-size-buffer"); }
END_TEST
START_TEST(buffer_over_4gib) { buffer_case(IN, 1ull << 32, OUT, 64, "buffer-over-4gib"); }
END_TEST
START_TEST(buffer_wraps) { buffer_case(~0ull - 8, 64, OUT, 64, "buffer-wraps"); }
END_TEST
START_TEST(overlapping_buffers) { buffer_case(IN, 128, IN + 64, 64, "overlapping-buffers"); }
END_TEST
START_TEST(unmapped_buffer) { buffer_case(0x1000, 64, OUT, 64, "unmapped-buffer"); }
END_TEST

START_TEST(incomplete_at_exit)
{
	hello();
	good_layer(1, "before");
	describe(2, "dying", IN, 64, OUT, 64);
	begin(2);
	dmo_protocol_finish(p);
	expect_row(1, 2, DMO_STATUS_INCOMPLETE, "");
	ck_assert_uint_eq(w.closes, 2);
	ck_assert_ptr_nonnull(strstr(w.said[0], "ended inside layer 2 'dying'"));
}
END_TEST

/* ---- issue 14's other cases ---- */

/* The second layer 1 used to be profiled and overwrite the first's event
 * file; now it is refused, its begin and end quietly too. */
START_TEST(duplicate_seq)
{
	hello();
	good_layer(1, "first");
	describe(1, "again", IN, 64, OUT, 64);
	expect_row(1, 0, DMO_STATUS_ERROR, "duplicate-seq");
	ck_assert_str_eq(w.rows[1].name, "again");
	expect_said("duplicate-seq");
	begin(1);
	ck_assert_int_eq(w.status, -1);
	end(1);
	ck_assert_int_eq(w.status, -1);
	ck_assert_uint_eq(w.nrows, 2);
	ck_assert_uint_eq(w.opens, 1);
	good_layer(2, "next");
	expect_row(2, 2, DMO_STATUS_OK, "");
}
END_TEST

/* Described twice before its begin: the first description is used. */
START_TEST(duplicate_seq_while_pending)
{
	hello();
	describe(1, "first", IN, 64, OUT, 64);
	describe(1, "again", IN, 64, OUT, 64);
	begin(1);
	end(1);
	expect_row(0, 0, DMO_STATUS_ERROR, "duplicate-seq");
	expect_row(1, 1, DMO_STATUS_OK, "");
	ck_assert_str_eq(w.rows[1].name, "first");
}
END_TEST

START_TEST(pending_overflow)
{
	hello();
	for (uint32_t s = 1; s <= DMO_PROTOCOL_MAX_PENDING + 1; s++)
		describe(s, "waiting", IN, 64, OUT, 64);
	expect_row(0, 1, DMO_STATUS_ERROR, "no-begin-marker");
	ck_assert_uint_eq(w.nrows, 1);
	begin(DMO_PROTOCOL_MAX_PENDING + 1);
	end(DMO_PROTOCOL_MAX_PENDING + 1);
	/* 2..MAX_PENDING never began: one row each, then the layer. */
	ck_assert_uint_eq(w.nrows, DMO_PROTOCOL_MAX_PENDING + 1);
	expect_row(DMO_PROTOCOL_MAX_PENDING, DMO_PROTOCOL_MAX_PENDING + 1, DMO_STATUS_OK, "");
}
END_TEST

START_TEST(forked_child)
{
	hello();
	describe(1, "open", IN, 64, OUT, 64);
	begin(1);
	dmo_protocol_forked(p, 4321);
	dmo_protocol_forked(p, 4321);
	ck_assert_uint_eq(w.nsaid, 1);
	ck_assert_str_eq(w.said[0], "dmo: child pid 4321 is not profiled: its layers are "
				    "not recorded (unless it execs, traced with "
				    "--trace-children=yes)");
	end(1);
	good_layer(2, "child");
	dmo_protocol_finish(p);
	ck_assert_uint_eq(w.nrows, 0);
	ck_assert_uint_eq(w.closes, 0);
}
END_TEST

START_TEST(markers_before_hello_and_other_words)
{
	/* Without HELLO the tool sees no stores; the engine copes anyway. */
	describe(1, "early", IN, 64, OUT, 64);
	dmo_protocol_marker(p, DMO_MARKER_STATUS, 1);
	ck_assert_uint_eq(w.nrows, 0);
	begin(1);
	end(1);
	expect_row(0, 1, DMO_STATUS_OK, "");
}
END_TEST


/* ---- layers the program refused itself (REFUSED records) ---- */

/* The row says why and keeps the buffer sizes; the message carries the
 * program's explanation; the layer's markers are refused quietly, and the
 * layers around it are intact. */
START_TEST(refused_by_program)
{
	uint8_t b[DMO_WIRE_MAX_RECORD];
	hello();
	good_layer(1, "before");
	send(b, refused_rec(b, 2, "bad", DMO_REFUSED_BAD_SPEC, "bad op spec: key 'k' does not apply to relu"));
	expect_row(1, 2, DMO_STATUS_ERROR, "bad-op-spec");
	ck_assert_str_eq(w.rows[1].name, "bad");
	ck_assert_str_eq(w.rows[1].spec, "relu:in=64,k=3");
	ck_assert_uint_eq(w.rows[1].in_bytes, 256);
	ck_assert_uint_eq(w.rows[1].out_bytes, 512);
	expect_said("bad-op-spec");
	ck_assert_ptr_nonnull(strstr(w.said[0], "layer 2 'bad': refused by the program: bad op spec: "
						"key 'k' does not apply to relu [error:bad-op-spec]"));
	begin(2);
	ck_assert_int_eq(w.status, -1);
	end(2);
	ck_assert_int_eq(w.status, -1);
	send(b, refused_rec(b, 3, "size", DMO_REFUSED_SPEC_SIZE, "sizes"));
	expect_row(2, 3, DMO_STATUS_ERROR, "op-spec-size");
	good_layer(4, "after");
	expect_row(3, 4, DMO_STATUS_OK, "");
	ck_assert_uint_eq(w.nrows, 4);
	ck_assert_uint_eq(w.opens, 2);
}
END_TEST

/* A REFUSED number is a described number: reusing it is a duplicate. */
START_TEST(refused_duplicate_seq)
{
	uint8_t b[DMO_WIRE_MAX_RECORD];
	hello();
	good_layer(1, "first");
	send(b, refused_rec(b, 1, "again", DMO_REFUSED_BAD_SPEC, "x"));
	expect_row(1, 0, DMO_STATUS_ERROR, "duplicate-seq");
	send(b, refused_rec(b, 2, "refused", DMO_REFUSED_BAD_SPEC, "x"));
	describe(2, "reused", IN, 64, OUT, 64);
	expect_row(3, 0, DMO_STATUS_ERROR, "duplicate-seq");
	ck_assert_str_eq(w.rows[3].name, "reused");
}
END_TEST

/* Malformed REFUSED records are bad FIFO records; the next write is read. */
START_TEST(refused_malformed)
{
	uint8_t b[DMO_WIRE_MAX_RECORD];
	size_t len;
	hello();
	len = refused_rec(b, 1, "a", 7, "unknown reason");
	send(b, len);
	len = refused_rec(b, 2, "b", DMO_REFUSED_BAD_SPEC, "tab\there");
	send(b, len);
	len = refused_rec(b, 3, "c", DMO_REFUSED_BAD_SPEC, "long");
	put16(b + 58, (uint16_t)(len - 64 + 1)); /* message past the record */
	send(b, len);
	len = refused_rec(b, 4, "d", DMO_REFUSED_BAD_SPEC, "short");
	put16(b + 58, 2); /* the name/spec lengths no longer add up */
	send(b, len);
	ck_assert_uint_eq(w.nrows, 4);
	for (size_t i = 0; i < 4; i++)
		expect_row(i, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	good_layer(5, "after");
	expect_row(4, 5, DMO_STATUS_OK, "");
}
END_TEST

/* Headers that parse but describe no record the protocol has: each a
 * bad-fifo-record with wire_parse's reason, the next write read anew. */
START_TEST(malformed_headers)
{
	static const struct {
		uint16_t type;
		uint32_t length;
		const char *why;
	} cases[] = {
		{ DMO_WIRE_LAYER, 8, "record length out of range" },
		{ DMO_WIRE_HELLO, 40, "HELLO record has the wrong length" },
		{ DMO_WIRE_LAYER, 40, "LAYER record shorter than its fixed part" },
		{ DMO_WIRE_REFUSED, 56, "REFUSED record shorter than its fixed part" },
		{ 9, 16, "unknown record type" },
	};
	const size_t n = sizeof cases / sizeof cases[0];
	uint8_t b[64] = { 0 };

	hello();
	for (size_t i = 0; i < n; i++) {
		header(b, cases[i].type, cases[i].length);
		send(b, cases[i].length < 16 ? 16 : cases[i].length);
		expect_row(i, 0, DMO_STATUS_ERROR, "bad-fifo-record");
		ck_assert_msg(strstr(w.said[i], cases[i].why) != NULL, "said '%s', not '%s'",
			      w.said[i], cases[i].why);
	}
	/* A second HELLO with its marker address not 8-byte aligned. */
	send(b, hello_at(b, MARKERS + 4));
	expect_row(n, 0, DMO_STATUS_ERROR, "bad-fifo-record");
	ck_assert_ptr_nonnull(strstr(w.said[n], "HELLO marker address is null or unaligned"));
	good_layer(1, "after");
	expect_row(n + 1, 1, DMO_STATUS_OK, "");
}
END_TEST

/* A begin for a layer nobody described, while another is open: an orphan
 * row (number 0, no name), and the open layer still ends well. */
START_TEST(nested_begin_undescribed)
{
	hello();
	describe(1, "outer", IN, 64, OUT, 64);
	begin(1);
	begin(9);
	ck_assert_int_eq(w.status, -1);
	expect_row(0, 0, DMO_STATUS_ERROR, "nested-begin");
	ck_assert_str_eq(w.rows[0].name, "");
	ck_assert_ptr_nonnull(strstr(w.said[0], "layer 9 begins while layer 1 'outer' is open"));
	end(1);
	expect_row(1, 1, DMO_STATUS_OK, "");
}
END_TEST

/* The numbers seen are kept sorted in a table that starts at 64 entries:
 * 70 layers numbered 2..71, then 1 (inserted in front), and a duplicate of
 * each of 1, 2 and 71 is still recognised after the table grew. */
START_TEST(many_numbers_out_of_order)
{
	char name[16];

	hello();
	for (uint32_t seq = 2; seq <= 71; seq++) {
		snprintf(name, sizeof name, "l%u", seq);
		good_layer(seq, name);
	}
	good_layer(1, "first_number_last");
	ck_assert_uint_eq(w.nrows, 71);
	describe(1, "again1", IN, 64, OUT, 64);
	describe(2, "again2", IN, 64, OUT, 64);
	describe(71, "again71", IN, 64, OUT, 64);
	ck_assert_uint_eq(w.nrows, 74);
	for (size_t i = 71; i < 74; i++)
		expect_row(i, 0, DMO_STATUS_ERROR, "duplicate-seq");
	good_layer(72, "next");
	expect_row(74, 72, DMO_STATUS_OK, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("protocol");
	TCase *good = tcase_create("good"), *misuse = tcase_create("misuse"),
	      *issue = tcase_create("issue14");
	TCase *cases[] = { good, misuse, issue };

	for (size_t i = 0; i < 3; i++) {
		tcase_add_checked_fixture(cases[i], setup, teardown);
		suite_add_tcase(s, cases[i]);
	}
	tcase_add_test(good, one_good_layer);
	tcase_add_test(good, records_byte_by_byte);
	tcase_add_test(good, markers_before_hello_and_other_words);
	tcase_add_test(misuse, bad_fifo_record);
	tcase_add_test(misuse, truncated_fifo_record);
	tcase_add_test(misuse, unmapped_marker_region);
	tcase_add_test(misuse, no_descriptor);
	tcase_add_test(misuse, no_begin_marker);
	tcase_add_test(misuse, nested_begin);
	tcase_add_test(misuse, end_without_begin);
	tcase_add_test(misuse, end_mismatch);
	tcase_add_test(misuse, bad_marker_value);
	tcase_add_test(misuse, zero_size_buffer);
	tcase_add_test(misuse, buffer_over_4gib);
	tcase_add_test(misuse, buffer_wraps);
	tcase_add_test(misuse, overlapping_buffers);
	tcase_add_test(misuse, unmapped_buffer);
	tcase_add_test(misuse, incomplete_at_exit);
	tcase_add_test(issue, several_records_in_one_write);
	tcase_add_test(issue, utf8_name_accepted);
	tcase_add_test(issue, control_character_refused);
	tcase_add_test(issue, name_and_spec_limits);
	tcase_add_test(issue, duplicate_seq);
	tcase_add_test(issue, duplicate_seq_while_pending);
	tcase_add_test(issue, pending_overflow);
	tcase_add_test(issue, forked_child);
	tcase_add_test(misuse, refused_by_program);
	tcase_add_test(misuse, refused_duplicate_seq);
	tcase_add_test(misuse, refused_malformed);
	tcase_add_test(misuse, malformed_headers);
	tcase_add_test(misuse, nested_begin_undescribed);
	tcase_add_test(issue, many_numbers_out_of_order);
	return dmo_run_suite(s);
}
