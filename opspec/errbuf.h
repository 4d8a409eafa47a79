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

/* As dmo_errf, the message after WHERE and ": " (the file, or the step, a
 * reader or runner reports on).  Each module's fail() is this, a macro
 * over it, so no module writes the prefixing again. */
static inline int dmo_errf_at(char *err, size_t err_len, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static inline int dmo_errf_at(char *err, size_t err_len, const char *where, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return dmo_errf(err, err_len, "%s: %s", where, msg);
}

#endif
