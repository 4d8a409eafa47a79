/* where.h - reading a layer's code locations, layer-NNNN-where.csv
 * (common/where_format.h, docs/rundir.md), as the tool wrote them. */
#ifndef DMO_WHERE_H
#define DMO_WHERE_H

#include <stddef.h>
#include <stdint.h>

enum dmo_where_role { DMO_WHERE_SITE, DMO_WHERE_FIRST, DMO_WHERE_SECOND };

struct dmo_where_row {
	enum dmo_where_role role;
	uint64_t ip;
	/* A pair row's access: dmo_event_kind, first byte, bytes. */
	unsigned kind;
	uint64_t offset, size;
	uint64_t counts[4]; /* a site row's accesses by dmo_event_kind */
	char *function, *file, *object, *inlined_into; /* "" when unknown */
	/* A pair row's access with no source here (no line, or a file not
	 * on this machine: libc's memcpy): the nearest caller with source,
	 * "FUNCTION (FILE:LINE)"; "" otherwise. */
	char *called_from;
	unsigned line;                                  /* 0 when unknown */
	/* The instruction's address in OBJECT's file (for objdump and
	 * addr2line), when known. */
	int in_object;
	uint64_t object_address;
};

struct dmo_where {
	struct dmo_where_row *rows;
	size_t count;
	/* The tightest forbidding pair, earlier access first; NULL when the
	 * layer had none. */
	const struct dmo_where_row *pair[2];
};

/* The file name of LAYER's code locations in DIR. */
void dmo_where_path(const char *dir, unsigned layer, char *path, size_t len);

/* Read PATH into *W.  Returns 0, or -1 with ERR naming the file and the
 * line of the first problem (W is then empty): a file is taken whole or
 * not at all. */
int dmo_where_read(const char *path, struct dmo_where *w, char *err, size_t err_len);

void dmo_where_free(struct dmo_where *w);

/* The name of dmo_event_kind KIND as the file spells it ("in-read"...). */
const char *dmo_where_kind_name(unsigned kind);

#endif
