/* flatbuf.c - bounds-checked FlatBuffers reading; see flatbuf.h.
 *
 * Layout facts used (FlatBuffers internals): a table starts with an int32
 * soffset, vtable = table - soffset; the vtable holds uint16 vtable size,
 * uint16 table size, then one uint16 offset per field (0 or past the
 * vtable's end = absent), relative to the table.  An offset field holds a
 * uint32 relative to its own position.  A vector is a uint32 count then the
 * elements; a string the same with a NUL after the bytes. */
#include "flatbuf.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static void fb_fail(struct fb_reader *r, const char *fmt, ...)
{
	va_list ap;

	if (r->failed)
		return;
	r->failed = 1;
	va_start(ap, fmt);
	vsnprintf(r->error, sizeof r->error, fmt, ap);
	va_end(ap);
}

void fb_init(struct fb_reader *r, const unsigned char *data, size_t size)
{
	memset(r, 0, sizeof *r);
	r->data = data;
	r->size = size;
	/* Honest files visit each element a few times at most. */
	r->budget = 16 * (uint64_t)size + 4096;
}

int fb_failed(const struct fb_reader *r)
{
	return r->failed;
}

void fb_charge(struct fb_reader *r, uint64_t n)
{
	if (n > r->budget) {
		r->budget = 0;
		fb_fail(r, "references the same data more often than a file of %zu bytes can (a loop or a forged offset)",
			r->size);
	} else {
		r->budget -= n;
	}
}

/* Can LEN bytes be read at POS? */
static int in_bounds(const struct fb_reader *r, size_t pos, size_t len)
{
	return pos <= r->size && len <= r->size - pos;
}

static int need(struct fb_reader *r, size_t pos, size_t len, const char *what)
{
	if (r->failed)
		return 0;
	if (!in_bounds(r, pos, len)) {
		fb_fail(r, "%s: %zu bytes at offset %zu lie outside the file (%zu bytes)", what,
			len, pos, r->size);
		return 0;
	}
	return 1;
}

static uint16_t get_u16(const struct fb_reader *r, size_t pos)
{
	return (uint16_t)(r->data[pos] | r->data[pos + 1] << 8);
}

static uint32_t get_u32(const struct fb_reader *r, size_t pos)
{
	return (uint32_t)r->data[pos] | (uint32_t)r->data[pos + 1] << 8 |
	       (uint32_t)r->data[pos + 2] << 16 | (uint32_t)r->data[pos + 3] << 24;
}

static uint64_t get_u64(const struct fb_reader *r, size_t pos)
{
	return (uint64_t)get_u32(r, pos) | (uint64_t)get_u32(r, pos + 4) << 32;
}

static struct fb_table table_at(struct fb_reader *r, size_t pos, const char *what)
{
	struct fb_table t = { 0 };
	int64_t vtable;

	if (!need(r, pos, 4, what))
		return t;
	vtable = (int64_t)pos - (int32_t)get_u32(r, pos);
	if (vtable < 0 || !need(r, (size_t)vtable, 4, what))
		return (fb_fail(r, "%s: vtable offset out of the file", what), t);
	t.pos = pos;
	t.vtable = (size_t)vtable;
	t.vtable_size = get_u16(r, t.vtable);
	if (t.vtable_size < 4 || (t.vtable_size & 1) || !need(r, t.vtable, t.vtable_size, what))
		return (fb_fail(r, "%s: malformed vtable at offset %zu", what, t.vtable),
			(struct fb_table){ 0 });
	t.present = 1;
	return t;
}

struct fb_table fb_root(struct fb_reader *r)
{
	if (!need(r, 0, 8, "root offset"))
		return (struct fb_table){ 0 };
	return table_at(r, get_u32(r, 0), "root table");
}

/* Position of field ID's value (WIDTH bytes) in T, or 0 when absent. */
static size_t field_pos(struct fb_reader *r, const struct fb_table *t, unsigned id,
			size_t width)
{
	size_t entry = 4 + 2 * (size_t)id;
	uint16_t off;

	if (r->failed || !t->present || entry + 2 > t->vtable_size)
		return 0;
	off = get_u16(r, t->vtable + entry);
	if (off == 0)
		return 0;
	if (!need(r, t->pos + off, width, "table field"))
		return 0;
	return t->pos + off;
}

int fb_has(struct fb_reader *r, const struct fb_table *t, unsigned id)
{
	return field_pos(r, t, id, 1) != 0;
}

uint8_t fb_u8(struct fb_reader *r, const struct fb_table *t, unsigned id, uint8_t def)
{
	size_t pos = field_pos(r, t, id, 1);

	return pos ? r->data[pos] : def;
}

int8_t fb_i8(struct fb_reader *r, const struct fb_table *t, unsigned id, int8_t def)
{
	return (int8_t)fb_u8(r, t, id, (uint8_t)def);
}

uint32_t fb_u32(struct fb_reader *r, const struct fb_table *t, unsigned id, uint32_t def)
{
	size_t pos = field_pos(r, t, id, 4);

	return pos ? get_u32(r, pos) : def;
}

int32_t fb_i32(struct fb_reader *r, const struct fb_table *t, unsigned id, int32_t def)
{
	return (int32_t)fb_u32(r, t, id, (uint32_t)def);
}

uint64_t fb_u64(struct fb_reader *r, const struct fb_table *t, unsigned id, uint64_t def)
{
	size_t pos = field_pos(r, t, id, 8);

	return pos ? get_u64(r, pos) : def;
}

/* Follow the uint32 offset stored at POS. */
static size_t follow(struct fb_reader *r, size_t pos, const char *what)
{
	uint64_t target;

	if (!need(r, pos, 4, what))
		return 0;
	target = (uint64_t)pos + get_u32(r, pos);
	if (target >= r->size) {
		fb_fail(r, "%s: offset %llu lies outside the file (%zu bytes)", what,
			(unsigned long long)target, r->size);
		return 0;
	}
	return (size_t)target;
}

struct fb_table fb_table_field(struct fb_reader *r, const struct fb_table *t, unsigned id,
			       const char *what)
{
	size_t pos = field_pos(r, t, id, 4);

	if (!pos)
		return (struct fb_table){ 0 };
	pos = follow(r, pos, what);
	return r->failed ? (struct fb_table){ 0 } : table_at(r, pos, what);
}

static struct fb_vector vector_at(struct fb_reader *r, size_t pos, size_t elem_size,
				  const char *what)
{
	struct fb_vector v = { .elem_size = elem_size };
	uint32_t len;

	if (!need(r, pos, 4, what))
		return v;
	len = get_u32(r, pos);
	if ((uint64_t)len * elem_size > r->size - pos - 4) {
		fb_fail(r, "%s: %u elements of %zu bytes at offset %zu run past the end of the file (%zu bytes)",
			what, len, elem_size, pos, r->size);
		return v;
	}
	fb_charge(r, len);
	v.pos = pos + 4;
	v.len = r->failed ? 0 : len;
	return v;
}

struct fb_vector fb_vector_field(struct fb_reader *r, const struct fb_table *t, unsigned id,
				 size_t elem_size, const char *what)
{
	size_t pos = field_pos(r, t, id, 4);

	if (!pos)
		return (struct fb_vector){ .elem_size = elem_size };
	pos = follow(r, pos, what);
	if (r->failed)
		return (struct fb_vector){ .elem_size = elem_size };
	return vector_at(r, pos, elem_size, what);
}

int fb_string_field(struct fb_reader *r, const struct fb_table *t, unsigned id, char *buf,
		    size_t len, const char *what)
{
	struct fb_vector v;
	size_t n;

	buf[0] = '\0';
	if (!fb_has(r, t, id))
		return 0;
	v = fb_vector_field(r, t, id, 1, what);
	if (r->failed)
		return 0;
	n = v.len < len - 1 ? v.len : len - 1;
	for (size_t i = 0; i < n; i++) {
		unsigned char c = r->data[v.pos + i];
		buf[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	buf[n] = '\0';
	return 1;
}

/* Callers index below the length they were given, and read elements of
 * the vector's own width: a miss is a bug in the reader, not the file. */
static int vec_elem(struct fb_reader *r, const struct fb_vector *v, uint32_t i, size_t width)
{
	if (r->failed)
		return 0;
	assert(i < v->len && width <= v->elem_size);
	return 1;
}

struct fb_table fb_vec_table(struct fb_reader *r, const struct fb_vector *v, uint32_t i,
			     const char *what)
{
	size_t pos;

	if (!vec_elem(r, v, i, 4))
		return (struct fb_table){ 0 };
	pos = follow(r, v->pos + 4 * (size_t)i, what);
	return r->failed ? (struct fb_table){ 0 } : table_at(r, pos, what);
}

int32_t fb_vec_i32(struct fb_reader *r, const struct fb_vector *v, uint32_t i)
{
	return vec_elem(r, v, i, 4) ? (int32_t)get_u32(r, v->pos + 4 * (size_t)i) : 0;
}

int64_t fb_vec_i64(struct fb_reader *r, const struct fb_vector *v, uint32_t i)
{
	return vec_elem(r, v, i, 8) ? (int64_t)get_u64(r, v->pos + 8 * (size_t)i) : 0;
}

float fb_vec_f32(struct fb_reader *r, const struct fb_vector *v, uint32_t i)
{
	uint32_t bits;
	float f;

	if (!vec_elem(r, v, i, 4))
		return 0;
	bits = get_u32(r, v->pos + 4 * (size_t)i);
	memcpy(&f, &bits, sizeof f);
	return f;
}
