/* protocol.c - the layer-protocol engine (protocol.h).  The bytes and the
 * stores come from the profiled program and may be anything: every value
 * is checked before it is used, and no input makes the engine stop
 * listening or lose a row already made. */
#include "protocol.h"
#include "text.h"
#include "wire_parse.h"

struct dmo_protocol {
	const struct dmo_protocol_ops *ops;
	void *ctx;
	uint64_t marker;
	int forked;
	/* The traced process (0: unknown, every record taken), and the last
	 * other process whose records were set aside (said once each). */
	uint32_t own_pid, foreign_said;
	/* Bytes read from the FIFO and not yet parsed: at most one partial
	 * record (< DMO_WIRE_MAX_RECORD) before new bytes are added. */
	uint8_t stream[2 * DMO_WIRE_MAX_RECORD];
	size_t stream_len;
	/* Descriptors waiting for their begin stores, oldest first. */
	struct dmo_protocol_layer pending[DMO_PROTOCOL_MAX_PENDING];
	size_t npending;
	int have_active;
	struct dmo_protocol_layer active;
	/* The layer whose begin store was refused last, so its end store is
	 * refused quietly; 0 = none. */
	uint32_t refused;
	/* Every layer number described so far, sorted, for duplicate-seq. */
	uint32_t *seqs;
	size_t nseqs, seqs_cap;
};

struct dmo_protocol *dmo_protocol_create(const struct dmo_protocol_ops *ops, void *ctx)
{
	struct dmo_protocol *p = ops->alloc(ctx, sizeof *p);
	unsigned char *bytes = (unsigned char *)p;

	if (p == 0)
		return 0;
	for (size_t i = 0; i < sizeof *p; i++)
		bytes[i] = 0;
	p->ops = ops;
	p->ctx = ctx;
	return p;
}

void dmo_protocol_destroy(struct dmo_protocol *p)
{
	if (p == 0)
		return;
	if (p->seqs)
		p->ops->free(p->ctx, p->seqs, p->seqs_cap * sizeof *p->seqs);
	p->ops->free(p->ctx, p, sizeof *p);
}

uint64_t dmo_protocol_marker_addr(const struct dmo_protocol *p)
{
	return p->marker;
}

const struct dmo_protocol_layer *dmo_protocol_active(const struct dmo_protocol *p)
{
	return p->have_active ? &p->active : 0;
}

/* ---- the set of layer numbers ---- */

/* Where SEQ is or would go in the sorted set. */
static size_t seq_slot(const struct dmo_protocol *p, uint32_t seq)
{
	size_t lo = 0, hi = p->nseqs;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->seqs[mid] < seq)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int seq_described(const struct dmo_protocol *p, uint32_t seq)
{
	size_t at = seq_slot(p, seq);
	return at < p->nseqs && p->seqs[at] == seq;
}

/* Numbers usually come in increasing order, so the insert is an append.
 * Without memory the number is not remembered: a later duplicate then
 * goes unnoticed, which loses nothing already recorded. */
static void seq_remember(struct dmo_protocol *p, uint32_t seq)
{
	size_t at = seq_slot(p, seq);
	if (p->nseqs == p->seqs_cap) {
		size_t cap = p->seqs_cap ? 2 * p->seqs_cap : 64;
		uint32_t *grown = p->ops->alloc(p->ctx, cap * sizeof *grown);
		if (grown == 0)
			return;
		for (size_t i = 0; i < p->nseqs; i++)
			grown[i] = p->seqs[i];
		if (p->seqs)
			p->ops->free(p->ctx, p->seqs, p->seqs_cap * sizeof *p->seqs);
		p->seqs = grown;
		p->seqs_cap = cap;
	}
	for (size_t i = p->nseqs; i > at; i--)
		p->seqs[i] = p->seqs[i - 1];
	p->seqs[at] = seq;
	p->nseqs++;
}

/* ---- rows and messages ---- */

static void copy_text(char *dst, size_t cap, const char *src)
{
	size_t i = 0;
	for (; i + 1 < cap && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
}

/* A row with what the engine knows of layer L (NULL: an orphan row). */
static void fill_row(struct dmo_layer_summary *row, const struct dmo_protocol_layer *l,
		     uint32_t seq, uint32_t status, const char *reason)
{
	unsigned char *bytes = (unsigned char *)row;
	for (size_t i = 0; i < sizeof *row; i++)
		bytes[i] = 0;
	row->magic = DMO_SUMMARY_MAGIC;
	row->version = DMO_SUMMARY_VERSION;
	row->layer = seq;
	row->status = status;
	if (l != 0) {
		copy_text(row->name, sizeof row->name, l->name);
		copy_text(row->spec, sizeof row->spec, l->spec);
	}
	copy_text(row->reason, sizeof row->reason, reason);
}

/* Report a misuse: its message, then its row.  SEQ is the described
 * layer's number, 0 for an orphan.  The row gets L's buffer sizes when
 * SIZES says they are valid. */
static void misuse_row(struct dmo_protocol *p, const struct dmo_protocol_layer *l,
		       uint32_t seq, const char *reason, const char *message, int sizes)
{
	struct dmo_layer_summary row;
	char line[1024], *end = line + sizeof line - 1, *q = line;

	q = dmo_text_append(q, end, "dmo: protocol error: ");
	q = dmo_text_append(q, end, message);
	q = dmo_text_append(q, end, " [error:");
	q = dmo_text_append(q, end, reason);
	q = dmo_text_append(q, end, "]");
	*q = 0;
	p->ops->say(p->ctx, line);
	fill_row(&row, l, seq, DMO_STATUS_ERROR, reason);
	if (sizes) {
		row.in_bytes = l->in_bytes;
		row.out_bytes = l->out_bytes;
	}
	p->ops->error_row(p->ctx, &row);
}

static void misuse(struct dmo_protocol *p, const struct dmo_protocol_layer *l, uint32_t seq,
		   const char *reason, const char *message)
{
	misuse_row(p, l, seq, reason, message, 0);
}

/* "layer N 'NAME'" into [q, end). */
static char *name_layer(char *q, char *end, uint32_t seq, const char *name)
{
	q = dmo_text_append(q, end, "layer ");
	q = dmo_text_append_u64(q, end, seq);
	if (name != 0) {
		q = dmo_text_append(q, end, " '");
		q = dmo_text_append(q, end, name);
		q = dmo_text_append(q, end, "'");
	}
	return q;
}

/* ---- begin and end ---- */

static void drop_pending(struct dmo_protocol *p, size_t k)
{
	char msg[400], *end = msg + sizeof msg - 1, *q = msg;
	struct dmo_protocol_layer *l = &p->pending[k];

	q = name_layer(q, end, l->seq, l->name);
	q = dmo_text_append(q, end, " was described but its begin marker never ran");
	*q = 0;
	misuse(p, l, l->seq, "no-begin-marker", msg);
}

/* Remove pending descriptor K, keeping the others in order. */
static void unqueue(struct dmo_protocol *p, size_t k)
{
	for (size_t i = k; i + 1 < p->npending; i++)
		p->pending[i] = p->pending[i + 1];
	p->npending--;
}

static long find_pending(const struct dmo_protocol *p, uint32_t seq)
{
	for (size_t i = 0; i < p->npending; i++)
		if (p->pending[i].seq == seq)
			return (long)i;
	return -1;
}

static void refuse(struct dmo_protocol *p, uint32_t seq)
{
	p->refused = seq;
	p->ops->status(p->ctx, -1);
}

static void begin(struct dmo_protocol *p, uint32_t seq)
{
	char msg[640], *end = msg + sizeof msg - 1, *q = msg;
	long k = find_pending(p, seq);
	struct dmo_protocol_layer l;
	const char *bad;

	if (p->have_active) {
		q = name_layer(q, end, seq, k >= 0 ? p->pending[k].name : 0);
		q = dmo_text_append(q, end, " begins while ");
		q = name_layer(q, end, p->active.seq, p->active.name);
		q = dmo_text_append(q, end, " is open; it is not profiled");
		*q = 0;
		if (k >= 0) {
			l = p->pending[k];
			unqueue(p, (size_t)k);
			misuse(p, &l, seq, "nested-begin", msg);
		} else {
			misuse(p, 0, 0, "nested-begin", msg);
		}
		refuse(p, seq);
		return;
	}
	if (k < 0) {
		if (seq == p->refused) { /* its LAYER was refused: reported then */
			refuse(p, seq);
			return;
		}
		q = dmo_text_append(q, end, "begin marker for layer ");
		q = dmo_text_append_u64(q, end, seq);
		q = dmo_text_append(q, end, ", but no LAYER record describes it");
		*q = 0;
		misuse(p, 0, 0, "no-descriptor", msg);
		refuse(p, seq);
		return;
	}
	/* Those described before this one will not begin now. */
	while (k > 0) {
		drop_pending(p, 0);
		unqueue(p, 0);
		k--;
	}
	l = p->pending[0];
	unqueue(p, 0);
	bad = dmo_wire_buffers_bad(l.in_addr, l.in_bytes, l.out_addr, l.out_bytes);
	if (bad == 0 && (!p->ops->mapped(p->ctx, l.in_addr, l.in_bytes, 0) ||
			 !p->ops->mapped(p->ctx, l.out_addr, l.out_bytes, 0)))
		bad = "unmapped-buffer";
	if (bad != 0) {
		q = name_layer(q, end, seq, l.name);
		q = dmo_text_append(q, end, ": input ");
		q = dmo_text_append_hex(q, end, l.in_addr);
		q = dmo_text_append(q, end, "+");
		q = dmo_text_append_u64(q, end, l.in_bytes);
		q = dmo_text_append(q, end, ", output ");
		q = dmo_text_append_hex(q, end, l.out_addr);
		q = dmo_text_append(q, end, "+");
		q = dmo_text_append_u64(q, end, l.out_bytes);
		q = dmo_text_append(q, end, ": ");
		q = dmo_text_append(q, end, bad);
		*q = 0;
		misuse(p, &l, seq, bad, msg);
		refuse(p, seq);
		return;
	}
	p->active = l;
	p->have_active = 1;
	p->refused = 0;
	p->ops->open(p->ctx, &p->active);
	p->ops->status(p->ctx, 0);
}

static void close_active(struct dmo_protocol *p, uint32_t status, const char *reason)
{
	struct dmo_layer_summary row;
	fill_row(&row, &p->active, p->active.seq, status, reason);
	row.in_bytes = p->active.in_bytes;
	row.out_bytes = p->active.out_bytes;
	p->have_active = 0;
	p->ops->close(p->ctx, &row);
}

static void end_layer(struct dmo_protocol *p, uint32_t seq)
{
	char msg[640], *end = msg + sizeof msg - 1, *q = msg;

	if (!p->have_active) {
		if (seq == p->refused) {
			p->refused = 0;
			p->ops->status(p->ctx, -1);
			return;
		}
		q = dmo_text_append(q, end, "end marker for layer ");
		q = dmo_text_append_u64(q, end, seq);
		q = dmo_text_append(q, end, ", but no layer is open");
		*q = 0;
		misuse(p, 0, 0, "end-without-begin", msg);
		p->ops->status(p->ctx, -1);
		return;
	}
	if (seq != p->active.seq) {
		q = dmo_text_append(q, end, "dmo: protocol error: end marker names layer ");
		q = dmo_text_append_u64(q, end, seq);
		q = dmo_text_append(q, end, ", but ");
		q = name_layer(q, end, p->active.seq, p->active.name);
		q = dmo_text_append(q, end, " is open; closing it [error:end-mismatch]");
		*q = 0;
		p->ops->say(p->ctx, msg);
		close_active(p, DMO_STATUS_ERROR, "end-mismatch");
		p->ops->status(p->ctx, -1);
		return;
	}
	close_active(p, DMO_STATUS_OK, "");
	p->ops->status(p->ctx, 0);
}

void dmo_protocol_marker(struct dmo_protocol *p, unsigned word, uint64_t value)
{
	if (p->forked || (word != DMO_MARKER_BEGIN && word != DMO_MARKER_END))
		return;
	if (value == 0 || value > 0xffffffffull) {
		misuse(p, 0, 0, "bad-marker-value",
		       "a marker store carries 0 or a value above 2^32-1, not a layer number");
		p->ops->status(p->ctx, -1);
		return;
	}
	if (word == DMO_MARKER_BEGIN)
		begin(p, (uint32_t)value);
	else
		end_layer(p, (uint32_t)value);
}

/* ---- the FIFO ---- */

/* The layer a LAYER or REFUSED record describes. */
static void layer_of(struct dmo_protocol_layer *l, const struct dmo_wire_record *rec)
{
	unsigned char *bytes = (unsigned char *)l;

	for (size_t i = 0; i < sizeof *l; i++)
		bytes[i] = 0;
	l->seq = rec->seq;
	for (size_t i = 0; i < rec->name_len; i++)
		l->name[i] = rec->name[i];
	for (size_t i = 0; i < rec->spec_len; i++)
		l->spec[i] = rec->spec[i];
	l->in_addr = rec->in_addr;
	l->in_bytes = rec->in_bytes;
	l->out_addr = rec->out_addr;
	l->out_bytes = rec->out_bytes;
}

/* A layer number described before is refused as duplicate-seq (and its
 * markers quietly), so no two rows share it.  Returns whether it was. */
static int duplicate(struct dmo_protocol *p, const struct dmo_protocol_layer *l)
{
	char msg[400], *end = msg + sizeof msg - 1, *q = msg;

	if (!seq_described(p, l->seq)) {
		seq_remember(p, l->seq);
		return 0;
	}
	q = name_layer(q, end, l->seq, l->name);
	q = dmo_text_append(q, end, " reuses the number of a layer described before; "
				    "it is not profiled");
	*q = 0;
	misuse(p, l, 0, "duplicate-seq", msg);
	p->refused = l->seq;
	return 1;
}

/* The program refused a layer itself (its op spec): the row says why and
 * keeps the buffer sizes (the library sends REFUSED only for good
 * buffers), the message adds the program's explanation.  Markers for it
 * are refused. */
static void take_refused(struct dmo_protocol *p, const struct dmo_wire_record *rec)
{
	struct dmo_protocol_layer l;
	char msg[900], *end = msg + sizeof msg - 1, *q = msg;
	const char *reason = rec->reason == DMO_REFUSED_BAD_SPEC ? "bad-op-spec" : "op-spec-size";

	layer_of(&l, rec);
	if (duplicate(p, &l))
		return;
	q = name_layer(q, end, l.seq, l.name);
	q = dmo_text_append(q, end, ": refused by the program: ");
	q = dmo_text_append_n(q, end, rec->message, rec->message_len);
	*q = 0;
	misuse_row(p, &l, l.seq, reason, msg,
		   dmo_wire_buffers_bad(l.in_addr, l.in_bytes, l.out_addr, l.out_bytes) == 0);
	p->refused = l.seq;
}

static void take_layer(struct dmo_protocol *p, const struct dmo_wire_record *rec)
{
	struct dmo_protocol_layer l;

	layer_of(&l, rec);
	if (duplicate(p, &l))
		return;
	if (p->npending == DMO_PROTOCOL_MAX_PENDING) {
		drop_pending(p, 0);
		unqueue(p, 0);
	}
	p->pending[p->npending++] = l;
}

/* A record of another process: a child that links the harness and
 * inherited $DMO_FIFO, but runs without this tool instance (not traced, or
 * traced by its own).  Its layer numbers are its own; taken as this
 * process's they made this process's layers duplicate-seq. */
static int foreign(struct dmo_protocol *p, const struct dmo_wire_record *rec)
{
	uint32_t sender = rec->sender ? rec->sender : rec->type == DMO_WIRE_HELLO ? rec->pid : 0;
	char msg[240], *end = msg + sizeof msg - 1, *q = msg;

	if (p->own_pid == 0 || sender == 0 || sender == p->own_pid)
		return 0;
	if (sender != p->foreign_said) {
		p->foreign_said = sender;
		q = dmo_text_append(q, end, "dmo: process ");
		q = dmo_text_append_u64(q, end, sender);
		q = dmo_text_append(q, end, " (a child of the profiled program) describes layers, but "
				    "is not traced by this tool: they are not recorded, and this "
				    "process's layers are kept apart from them");
		*q = 0;
		p->ops->say(p->ctx, msg);
	}
	return 1;
}

void dmo_protocol_set_pid(struct dmo_protocol *p, uint32_t pid)
{
	p->own_pid = pid;
}

static void take_record(struct dmo_protocol *p, const struct dmo_wire_record *rec)
{
	if (foreign(p, rec))
		return;
	if (rec->type == DMO_WIRE_LAYER) {
		take_layer(p, rec);
		return;
	}
	if (rec->type == DMO_WIRE_REFUSED) {
		take_refused(p, rec);
		return;
	}
	if (!p->ops->mapped(p->ctx, rec->marker_addr, DMO_MARKER_REGION_BYTES, 1)) {
		misuse(p, 0, 0, "unmapped-marker-region",
		       "HELLO names a marker region that is not writable memory");
		return;
	}
	p->marker = rec->marker_addr;
	p->ops->markers(p->ctx, p->marker);
}

/* Parse every whole record buffered.  After garbage the rest of what was
 * buffered is dropped: each record arrives in one write and is handed over
 * right after it, so the next write starts on a record again. */
static void parse_stream(struct dmo_protocol *p)
{
	size_t used = 0;
	while (used < p->stream_len) {
		struct dmo_wire_record rec;
		const char *why = 0;
		size_t skip = 0;
		int n = dmo_wire_parse(p->stream + used, p->stream_len - used, &rec, &why, &skip);
		if (n == DMO_WIRE_INCOMPLETE)
			break;
		if (n == DMO_WIRE_BAD) {
			char msg[256], *end = msg + sizeof msg - 1, *q = msg;
			size_t dropped = skip ? skip : p->stream_len - used;
			q = dmo_text_append(q, end, "bad FIFO record: ");
			q = dmo_text_append(q, end, why);
			q = dmo_text_append(q, end, "; ");
			q = dmo_text_append_u64(q, end, dropped);
			q = dmo_text_append(q, end, " bytes ignored");
			*q = 0;
			misuse(p, 0, 0, "bad-fifo-record", msg);
			used += dropped;
			continue;
		}
		take_record(p, &rec);
		used += (size_t)n;
	}
	for (size_t i = used; i < p->stream_len; i++)
		p->stream[i - used] = p->stream[i];
	p->stream_len -= used;
}

void dmo_protocol_bytes(struct dmo_protocol *p, const uint8_t *bytes, size_t len)
{
	if (p->forked)
		return;
	while (len > 0) {
		size_t room = sizeof p->stream - p->stream_len;
		size_t n = len < room ? len : room;
		for (size_t i = 0; i < n; i++)
			p->stream[p->stream_len + i] = bytes[i];
		p->stream_len += n;
		bytes += n;
		len -= n;
		parse_stream(p);
	}
}

void dmo_protocol_finish(struct dmo_protocol *p)
{
	if (p->forked)
		return;
	if (p->stream_len > 0) {
		misuse(p, 0, 0, "truncated-fifo-record",
		       "the program ended in the middle of a FIFO record");
		p->stream_len = 0;
	}
	while (p->npending > 0) {
		drop_pending(p, 0);
		unqueue(p, 0);
	}
	if (p->have_active) {
		char msg[400], *end = msg + sizeof msg - 1, *q = msg;
		q = dmo_text_append(q, end, "dmo: the program ended inside ");
		q = name_layer(q, end, p->active.seq, p->active.name);
		q = dmo_text_append(q, end, "; its counts so far are kept, marked incomplete");
		*q = 0;
		p->ops->say(p->ctx, msg);
		close_active(p, DMO_STATUS_INCOMPLETE, "");
	}
}

void dmo_protocol_forked(struct dmo_protocol *p, uint32_t pid)
{
	char msg[200], *end = msg + sizeof msg - 1, *q = msg;

	if (p->forked)
		return;
	p->forked = 1;
	p->have_active = 0;
	p->npending = 0;
	p->stream_len = 0;
	q = dmo_text_append(q, end, "dmo: child pid ");
	q = dmo_text_append_u64(q, end, pid);
	q = dmo_text_append(q, end, " is not profiled: its layers are not recorded (unless it "
			    "execs, traced with --trace-children=yes)");
	*q = 0;
	p->ops->say(p->ctx, msg);
}
