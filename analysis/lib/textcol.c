/* textcol.c - columns that fit their cells (textcol.h). */
#include "textcol.h"

#include <string.h>

/* A UTF-8 continuation byte: not the start of a character. */
static int continuation(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

size_t dmo_text_width(const char *text)
{
	size_t n = 0;

	for (const unsigned char *p = (const unsigned char *)text; *p; p++)
		n += !continuation(*p);
	return n;
}

void dmo_text_column_init(struct dmo_text_column *c, const char *header, size_t cap)
{
	c->cap = cap;
	c->width = 0;
	dmo_text_column_see(c, header);
}

void dmo_text_column_see(struct dmo_text_column *c, const char *cell)
{
	size_t w = dmo_text_width(cell);

	if (w > c->width)
		c->width = w < c->cap ? w : c->cap;
}

void dmo_text_cell(FILE *out, const struct dmo_text_column *c, const char *text, const char *sep)
{
	size_t w = dmo_text_width(text), shown = 0;
	const char *p = text;

	if (w <= c->width) {
		fputs(text, out);
		shown = w;
	} else {
		/* width - 1 characters, whole ones, then the ellipsis. */
		while (*p && shown + 1 < c->width) {
			const char *next = p + 1;
			while (*next && continuation((unsigned char)*next))
				next++;
			fwrite(p, 1, (size_t)(next - p), out);
			p = next;
			shown++;
		}
		fputs("\xe2\x80\xa6", out);
		shown++;
	}
	fprintf(out, "%*s%s", (int)(c->width - shown), "", sep);
}
