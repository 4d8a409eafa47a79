/* tflite_plan.c - the offline memory plan of a .tflite, read and written
 * (tflite_plan.h).
 *
 * Writing: a FlatBuffer's offsets are relative (a uoffset counts forward
 * from its own position, a table's soffset back to its vtable), so the old
 * file moved as one block keeps all of them.  The copy is: a new root
 * offset and the identifier, a new Model (its vtable, with every field of
 * the schema's Model, ids 0-7), a new buffers vector (the old entries,
 * then the plan's and the kernels' Buffers), a new metadata vector (the old
 * entries but ours, then ours), the new tables, strings and data, padding,
 * then the old file, whole, at a multiple of 16 (the largest alignment a
 * .tflite asks for, Buffer.data's).  Every new uoffset points forward into
 * what follows, as the format requires; the old Model stays behind,
 * unreferenced. */
#include "tflite_plan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "flatbuf.h"

/* Model fields (schema.fbs). */
enum { MODEL_VERSION, MODEL_OPERATOR_CODES, MODEL_SUBGRAPHS, MODEL_DESCRIPTION,
       MODEL_BUFFERS, MODEL_METADATA_BUFFER, MODEL_METADATA, MODEL_SIGNATURE_DEFS,
       MODEL_FIELDS };
enum { METADATA_NAME, METADATA_BUFFER };
enum { BUFFER_DATA };

/* Plan words ahead of the offsets: version, subgraph, N (TFLM's own tests
 * write version 1, subgraph 0; TFLM reads neither). */
#define PLAN_HEADER_WORDS 3
#define PLAN_VERSION 1

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static void put_u16(unsigned char *p, uint16_t v)
{
	p[0] = (unsigned char)v;
	p[1] = (unsigned char)(v >> 8);
}

/* The metadata entry NAME of a model: its buffer's data vector, or one
 * of length 0.  Returns 1 when found. */
static int find_entry(struct fb_reader *r, const struct fb_table *root, const char *name,
		      struct fb_vector *data)
{
	struct fb_vector meta = fb_vector_field(r, root, MODEL_METADATA, 4, "Model.metadata");
	struct fb_vector buffers = fb_vector_field(r, root, MODEL_BUFFERS, 4, "Model.buffers");
	char text[64];

	memset(data, 0, sizeof *data);
	for (uint32_t i = 0; i < meta.len && !fb_failed(r); i++) {
		struct fb_table m = fb_vec_table(r, &meta, i, "Metadata");
		uint32_t b;

		fb_string_field(r, &m, METADATA_NAME, text, sizeof text, "Metadata.name");
		if (strcmp(text, name) != 0)
			continue;
		b = fb_u32(r, &m, METADATA_BUFFER, 0);
		if (b >= buffers.len) {
			fb_charge(r, UINT64_MAX); /* fails the reader */
			return 0;
		}
		struct fb_table buf = fb_vec_table(r, &buffers, b, "Buffer");
		*data = fb_vector_field(r, &buf, BUFFER_DATA, 1, "Buffer.data");
		return !fb_failed(r);
	}
	return 0;
}

int dmo_tflite_plan_read(const unsigned char *data, size_t len, struct dmo_tflite_plan *plan,
			 char *err, size_t err_len)
{
	struct fb_reader r;
	struct fb_table root;
	struct fb_vector v;

	memset(plan, 0, sizeof *plan);
	fb_init(&r, data, len);
	root = fb_root(&r);
	if (find_entry(&r, &root, DMO_TFLITE_KERNELS_NAME, &v)) {
		size_t n = v.len < sizeof plan->kernels ? v.len : sizeof plan->kernels - 1;

		memcpy(plan->kernels, data + v.pos, n);
		plan->kernels[n] = '\0';
		for (size_t i = 0; i < n; i++)
			if (plan->kernels[i] == '\0' || (plan->kernels[i] < ' ' && plan->kernels[i] != '\n'))
				plan->kernels[i] = '?';
	}
	if (find_entry(&r, &root, DMO_TFLITE_PLAN_NAME, &v)) {
		uint32_t words = v.len / 4;

		if (v.len % 4 != 0 || words < PLAN_HEADER_WORDS ||
		    get_u32(data + v.pos + 8) != words - PLAN_HEADER_WORDS)
			return dmo_errf(err, err_len, "the %s metadata is %u bytes, not int32 [version, "
					"subgraph, N, N offsets]", DMO_TFLITE_PLAN_NAME, v.len);
		plan->present = 1;
		plan->version = (int32_t)get_u32(data + v.pos);
		plan->subgraph = (int32_t)get_u32(data + v.pos + 4);
		plan->n = words - PLAN_HEADER_WORDS;
		plan->offsets = calloc(plan->n + 1, sizeof *plan->offsets);
		if (plan->offsets == NULL)
			return dmo_errf(err, err_len, "out of memory");
		for (uint32_t i = 0; i < plan->n; i++)
			plan->offsets[i] = (int32_t)get_u32(data + v.pos + 4 * (PLAN_HEADER_WORDS + i));
	}
	if (fb_failed(&r)) {
		dmo_tflite_plan_free(plan);
		return dmo_errf(err, err_len, "malformed TFLite file: %s", r.error);
	}
	return 0;
}

void dmo_tflite_plan_free(struct dmo_tflite_plan *plan)
{
	free(plan->offsets);
	memset(plan, 0, sizeof *plan);
}

/* The new head being laid out: bytes, and where each piece starts. */
struct head {
	unsigned char *d;
	size_t len;
};

/* Reserve N zero bytes at an offset whose (offset + SKEW) is a multiple
 * of ALIGN; returns the offset. */
static size_t take(struct head *h, size_t n, size_t align, size_t skew)
{
	while ((h->len + skew) % align != 0)
		h->len++;
	size_t at = h->len;
	h->len += n;
	return at;
}

/* The old Model's field ID as an absolute position in the old file (0 when
 * absent). */
static size_t field_pos(const unsigned char *data, const struct fb_table *t, unsigned id)
{
	size_t entry = 4 + 2 * (size_t)id;
	uint16_t at;

	if (entry + 2 > t->vtable_size)
		return 0;
	at = (uint16_t)(data[t->vtable + entry] | data[t->vtable + entry + 1] << 8);
	return at ? t->pos + at : 0;
}

int dmo_tflite_plan_write(const unsigned char *data, size_t len, const int32_t *offsets,
			  uint32_t n, const char *kernels, unsigned char **out, size_t *out_len,
			  char *err, size_t err_len)
{
	struct fb_reader r;
	struct fb_table root;
	struct fb_vector buffers, meta;
	struct head h = { 0 };
	char name[64];
	size_t model_vt, meta_vt, buffer_vt, model, buf_vec, meta_vec, entry[2], entry_name[2], buffer[2], body[2];
	size_t kept_meta = 0, kernels_len = strlen(kernels), shift, target[MODEL_FIELDS] = { 0 };
	static const char *const names[2] = { DMO_TFLITE_PLAN_NAME, DMO_TFLITE_KERNELS_NAME };
	uint32_t *kept;

	*out = NULL;
	fb_init(&r, data, len);
	root = fb_root(&r);
	buffers = fb_vector_field(&r, &root, MODEL_BUFFERS, 4, "Model.buffers");
	meta = fb_vector_field(&r, &root, MODEL_METADATA, 4, "Model.metadata");
	if (fb_failed(&r))
		return dmo_errf(err, err_len, "malformed TFLite file: %s", r.error);
	if (len < 8 || memcmp(data + 4, "TFL3", 4) != 0)
		return dmo_errf(err, err_len, "not a TFLite file (no TFL3 identifier)");
	if (root.vtable_size > 4 + 2 * MODEL_FIELDS) {
		for (unsigned id = MODEL_FIELDS; 4 + 2 * (size_t)id + 2 <= root.vtable_size; id++)
			if (field_pos(data, &root, id))
				return dmo_errf(err, err_len, "the Model has field %u, newer than the "
						"schema dmo writes (fields 0-%d)", id, MODEL_FIELDS - 1);
	}
	/* Where the kept offset fields point in the old file. */
	for (unsigned id = MODEL_OPERATOR_CODES; id < MODEL_FIELDS; id++) {
		size_t at = field_pos(data, &root, id);

		if (at == 0 || id == MODEL_BUFFERS || id == MODEL_METADATA)
			continue;
		if (at + 4 > len || get_u32(data + at) == 0 || get_u32(data + at) > len - at)
			return dmo_errf(err, err_len, "malformed TFLite file: Model field %u points "
					"outside the file", id);
		target[id] = at + get_u32(data + at);
	}
	kept = calloc(meta.len + 1, sizeof *kept);
	if (kept == NULL)
		return dmo_errf(err, err_len, "out of memory");
	for (uint32_t i = 0; i < meta.len && !fb_failed(&r); i++) {
		struct fb_table m = fb_vec_table(&r, &meta, i, "Metadata");

		fb_string_field(&r, &m, METADATA_NAME, name, sizeof name, "Metadata.name");
		if (strcmp(name, names[0]) != 0 && strcmp(name, names[1]) != 0)
			kept[kept_meta++] = i;
	}
	if (fb_failed(&r)) {
		free(kept);
		return dmo_errf(err, err_len, "malformed TFLite file: %s", r.error);
	}

	/* Lay the head out (positions only), then write it.  The two Metadata
	 * tables share one vtable, and so do the two Buffers. */
	h.len = 8; /* root offset, "TFL3" */
	model_vt = take(&h, 4 + 2 * MODEL_FIELDS, 2, 0);
	meta_vt = take(&h, 4 + 2 * 2, 2, 0);
	buffer_vt = take(&h, 4 + 2 * 1, 2, 0);
	model = take(&h, 4 + 4 * MODEL_FIELDS, 4, 0);
	buf_vec = take(&h, 4 + 4 * ((size_t)buffers.len + 2), 4, 0);
	meta_vec = take(&h, 4 + 4 * (kept_meta + 2), 4, 0);
	for (int e = 0; e < 2; e++) {
		entry[e] = take(&h, 4 + 4 + 4, 4, 0); /* soffset, name, buffer */
		entry_name[e] = take(&h, 4 + strlen(names[e]) + 1, 4, 0);
		buffer[e] = take(&h, 4 + 4, 4, 0);    /* soffset, data */
		/* Buffer.data's elements 16-aligned (its count just before) */
		body[e] = take(&h, 4 + (e == 0 ? 4 * ((size_t)n + PLAN_HEADER_WORDS) : kernels_len),
			       16, 4);
	}
	shift = take(&h, 0, 16, 0);
	h.d = calloc(shift + len, 1);
	if (h.d == NULL) {
		free(kept);
		return dmo_errf(err, err_len, "out of memory");
	}
	put_u32(h.d, (uint32_t)model);
	memcpy(h.d + 4, "TFL3", 4);
	/* The Model: a vtable of 8 fields, each in a 4-byte slot. */
	put_u16(h.d + model_vt, 4 + 2 * MODEL_FIELDS);
	put_u16(h.d + model_vt + 2, 4 + 4 * MODEL_FIELDS);
	put_u32(h.d + model, (uint32_t)(model - model_vt));
	for (unsigned id = 0; id < MODEL_FIELDS; id++) {
		size_t slot = model + 4 + 4 * id, at = field_pos(data, &root, id);

		if (id == MODEL_VERSION && at != 0 && at + 4 <= len)
			put_u32(h.d + slot, get_u32(data + at));
		else if (id == MODEL_BUFFERS)
			put_u32(h.d + slot, (uint32_t)(buf_vec - slot));
		else if (id == MODEL_METADATA)
			put_u32(h.d + slot, (uint32_t)(meta_vec - slot));
		else if (id != MODEL_VERSION && target[id] != 0)
			put_u32(h.d + slot, (uint32_t)(target[id] + shift - slot));
		else
			continue;
		put_u16(h.d + model_vt + 4 + 2 * id, (uint16_t)(4 + 4 * id));
	}
	/* buffers: the old entries (each old target moved by SHIFT), then ours */
	put_u32(h.d + buf_vec, buffers.len + 2);
	for (uint32_t i = 0; i < buffers.len; i++) {
		size_t at = buffers.pos + 4 * (size_t)i, slot = buf_vec + 4 + 4 * (size_t)i;

		put_u32(h.d + slot, (uint32_t)(at + get_u32(data + at) + shift - slot));
	}
	/* metadata: the other old entries, then ours */
	put_u32(h.d + meta_vec, (uint32_t)kept_meta + 2);
	for (size_t i = 0; i < kept_meta; i++) {
		size_t at = meta.pos + 4 * (size_t)kept[i], slot = meta_vec + 4 + 4 * i;

		put_u32(h.d + slot, (uint32_t)(at + get_u32(data + at) + shift - slot));
	}
	free(kept);
	put_u16(h.d + meta_vt, 4 + 2 * 2);
	put_u16(h.d + meta_vt + 2, 12);
	put_u16(h.d + meta_vt + 4, 4);  /* name */
	put_u16(h.d + meta_vt + 6, 8);  /* buffer */
	put_u16(h.d + buffer_vt, 4 + 2 * 1);
	put_u16(h.d + buffer_vt + 2, 8);
	put_u16(h.d + buffer_vt + 4, 4); /* data */
	for (int e = 0; e < 2; e++) {
		size_t slot = meta_vec + 4 + 4 * (kept_meta + (size_t)e);

		put_u32(h.d + slot, (uint32_t)(entry[e] - slot));
		slot = buf_vec + 4 + 4 * ((size_t)buffers.len + (size_t)e);
		put_u32(h.d + slot, (uint32_t)(buffer[e] - slot));
		put_u32(h.d + entry[e], (uint32_t)(entry[e] - meta_vt));
		put_u32(h.d + entry[e] + 4, (uint32_t)(entry_name[e] - (entry[e] + 4)));
		put_u32(h.d + entry[e] + 8, buffers.len + (uint32_t)e);
		put_u32(h.d + entry_name[e], (uint32_t)strlen(names[e]));
		memcpy(h.d + entry_name[e] + 4, names[e], strlen(names[e])); /* NUL from calloc */
		put_u32(h.d + buffer[e], (uint32_t)(buffer[e] - buffer_vt));
		put_u32(h.d + buffer[e] + 4, (uint32_t)(body[e] - (buffer[e] + 4)));
	}
	put_u32(h.d + body[0], 4 * (n + PLAN_HEADER_WORDS));
	put_u32(h.d + body[0] + 4, PLAN_VERSION);
	put_u32(h.d + body[0] + 8, 0); /* subgraph 0 */
	put_u32(h.d + body[0] + 12, n);
	for (uint32_t i = 0; i < n; i++)
		put_u32(h.d + body[0] + 16 + 4 * (size_t)i, (uint32_t)offsets[i]);
	put_u32(h.d + body[1], (uint32_t)kernels_len);
	memcpy(h.d + body[1] + 4, kernels, kernels_len);
	/* The old file, whole, SHIFT bytes on. */
	memcpy(h.d + shift, data, len);
	*out = h.d;
	*out_len = shift + len;
	return 0;
}
