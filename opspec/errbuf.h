/* errbuf.h - how dmo's libraries report an error: a message formatted
 * into the caller's buffer (which may be NULL), and -1 for the caller to
 * return.  One helper, so every parser and planner words failures alike. */
#ifndef DMO_ERRBUF_H
#define DMO_ERRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

static inline int dmo_errf(char *err, size_t err_len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static inline int dmo_errf(char *err, size_t err_len, const char *fmt, ...)
{
	va_list ap;

	if (err && err_len) {
		va_start(ap, fmt);
		vsnprintf(err, err_len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

#endif
