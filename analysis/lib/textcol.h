/* textcol.h - text tables whose columns fit the names they hold: a
 * column's width measured over its cells (in UTF-8 characters, not bytes),
 * capped, and a cell longer than its column cut with an ellipsis, so a
 * long real name neither pushes the columns after it out of line nor is
 * cut without a sign. */
#ifndef DMO_TEXTCOL_H
#define DMO_TEXTCOL_H

#include <stddef.h>
#include <stdio.h>

/* The widest a name column gets (layer and tensor names of real models
 * run to 60 characters and more); longer names are cut. */
#define DMO_TEXT_NAME_CAP 48

/* Characters (UTF-8 code points) of TEXT. */
size_t dmo_text_width(const char *text);

/* A column's width: the widest of HEADER and the cells seen so far, at
 * most CAP (the cells beyond it are cut). */
struct dmo_text_column {
	size_t width, cap;
};
void dmo_text_column_init(struct dmo_text_column *c, const char *header, size_t cap);
void dmo_text_column_see(struct dmo_text_column *c, const char *cell);

/* TEXT left-aligned in C's width, cut with "…" when wider, then SEP. */
void dmo_text_cell(FILE *out, const struct dmo_text_column *c, const char *text, const char *sep);

#endif
