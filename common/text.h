/* text.h - composing messages without libc: the freestanding core (tape,
 * protocol engine) has no printf, yet its errors must say what happened.
 * Each function appends to [P, END) and returns the new end; text that
 * does not fit is cut, never overrun.  The caller terminates. */
#ifndef DMO_TEXT_H
#define DMO_TEXT_H

#include <stddef.h>
#include <stdint.h>

static inline char *dmo_text_append(char *p, char *end, const char *s)
{
	while (*s && p < end)
		*p++ = *s++;
	return p;
}

/* At most LEN bytes of S, stopping at a NUL. */
static inline char *dmo_text_append_n(char *p, char *end, const char *s, size_t len)
{
	for (size_t i = 0; i < len && s[i] && p < end; i++)
		*p++ = s[i];
	return p;
}

/* V in decimal. */
static inline char *dmo_text_append_u64(char *p, char *end, uint64_t v)
{
	char num[24], *q = num + sizeof num - 1;

	*q = 0;
	do
		*--q = (char)('0' + v % 10);
	while (v /= 10);
	return dmo_text_append(p, end, q);
}

/* V as 0x followed by lowercase hex digits. */
static inline char *dmo_text_append_hex(char *p, char *end, uint64_t v)
{
	char num[24], *q = num + sizeof num - 1;

	*q = 0;
	do
		*--q = "0123456789abcdef"[v & 15];
	while (v >>= 4);
	p = dmo_text_append(p, end, "0x");
	return dmo_text_append(p, end, q);
}

#endif
