/* flatbuf.h - a bounds-checked reader of the FlatBuffers binary format
 * (tables through their vtables, scalars with defaults, offsets to tables,
 * vectors and strings, unions), written from the format's documentation
 * ("FlatBuffers internals") for the TFLite reader.  Little-endian; every
 * position is checked against the buffer's size before it is read.
 *
 * Errors are sticky: the first bad offset is recorded in the reader with
 * what was being read, every later call returns a default (0, empty), and
 * the caller checks fb_failed() once after a batch of reads.  A work
 * budget on vector elements visited keeps a file whose vectors all point
 * at one huge vector from turning into a hang. */
#ifndef DMO_FLATBUF_H
#define DMO_FLATBUF_H

#include <stddef.h>
#include <stdint.h>

struct fb_reader {
	const unsigned char *data;
	size_t size;
	uint64_t budget;        /* vector elements that may still be visited */
	int failed;
	char error[160];
};

/* A table: its position and its vtable's. */
struct fb_table {
	size_t pos, vtable;
	uint16_t vtable_size;
	int present;            /* 0 for an absent table (all fields default) */
};

/* A vector (or string): LEN elements of ELEM_SIZE bytes from POS. */
struct fb_vector {
	size_t pos;
	uint32_t len;
	size_t elem_size;
};

void fb_init(struct fb_reader *r, const unsigned char *data, size_t size);
int fb_failed(const struct fb_reader *r);

/* The root table (the uint32 at offset 0). */
struct fb_table fb_root(struct fb_reader *r);

/* Is field ID stored in T (not defaulted)? */
int fb_has(struct fb_reader *r, const struct fb_table *t, unsigned id);

/* Scalar fields, DEF when absent. */
uint8_t fb_u8(struct fb_reader *r, const struct fb_table *t, unsigned id, uint8_t def);
int8_t fb_i8(struct fb_reader *r, const struct fb_table *t, unsigned id, int8_t def);
uint32_t fb_u32(struct fb_reader *r, const struct fb_table *t, unsigned id, uint32_t def);
int32_t fb_i32(struct fb_reader *r, const struct fb_table *t, unsigned id, int32_t def);
uint64_t fb_u64(struct fb_reader *r, const struct fb_table *t, unsigned id, uint64_t def);

/* Offset fields: a sub-table (union values too), a vector of ELEM_SIZE
 * scalars or of tables (ELEM_SIZE 4, read with fb_vec_table), a string.
 * Absent fields give an absent table or an empty vector.  WHAT names the
 * field in error messages. */
struct fb_table fb_table_field(struct fb_reader *r, const struct fb_table *t, unsigned id,
			       const char *what);
struct fb_vector fb_vector_field(struct fb_reader *r, const struct fb_table *t, unsigned id,
				 size_t elem_size, const char *what);

/* A string field copied into BUF (NUL-terminated, cut to LEN - 1 bytes,
 * non-printable bytes shown as '?').  Returns 1 if present, else 0 (BUF
 * then ""). */
int fb_string_field(struct fb_reader *r, const struct fb_table *t, unsigned id, char *buf,
		    size_t len, const char *what);

/* Element I of a vector. */
struct fb_table fb_vec_table(struct fb_reader *r, const struct fb_vector *v, uint32_t i,
			     const char *what);
int32_t fb_vec_i32(struct fb_reader *r, const struct fb_vector *v, uint32_t i);
int64_t fb_vec_i64(struct fb_reader *r, const struct fb_vector *v, uint32_t i);
float fb_vec_f32(struct fb_reader *r, const struct fb_vector *v, uint32_t i);

/* Charge N units of work; fails the reader when the budget is spent. */
void fb_charge(struct fb_reader *r, uint64_t n);

#endif
