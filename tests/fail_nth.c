/* fail_nth.c - an LD_PRELOAD shim for the tests: in a process named dmo,
 * the Nth call (DMO_FAIL_AT, from 1) of the function DMO_FAIL_CALL (calloc,
 * fork or execv) fails as the system fails it (NULL or -1, errno ENOMEM,
 * EAGAIN or ENOENT); every other call goes through.  With DMO_FAIL_COUNT=FILE
 * the process appends to FILE how many calls it made, so that a test can
 * fail each of them in turn.  Other processes (the libtool wrapper's shell,
 * valgrind) are left alone, so that only dmo's own calls count. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static long calls, fail_at = -1;
static const char *fail_call;
static int active = -1;

static int counts(const char *name)
{
	if (active < 0) {
		const char *at = getenv("DMO_FAIL_AT");
		active = !strcmp(program_invocation_short_name, "dmo") ||
			 !strcmp(program_invocation_short_name, "lt-dmo");
		fail_call = getenv("DMO_FAIL_CALL");
		fail_at = at ? atol(at) : -1;
	}
	return active && fail_call && !strcmp(fail_call, name) && ++calls == fail_at;
}

static __attribute__((destructor)) void report(void)
{
	const char *file = getenv("DMO_FAIL_COUNT");
	FILE *f;

	if (active > 0 && file && (f = fopen(file, "a"))) {
		fprintf(f, "%ld\n", calls);
		fclose(f);
	}
}

/* dlsym may itself call calloc: those calls are served from here. */
static unsigned char early[4096];
static size_t early_used;
static int resolving;

void *calloc(size_t n, size_t size)
{
	static void *(*real)(size_t, size_t);

	if (!real) {
		if (resolving) {
			size_t bytes = (n * size + 15) & ~(size_t)15;
			if (bytes > sizeof early - early_used)
				return NULL;
			early_used += bytes;
			return early + early_used - bytes; /* static: already zero */
		}
		resolving = 1;
		*(void **)&real = dlsym(RTLD_NEXT, "calloc");
		resolving = 0;
	}
	if (counts("calloc")) {
		errno = ENOMEM;
		return NULL;
	}
	return real(n, size);
}

/* Memory from EARLY is never handed to the real free. */
void free(void *p)
{
	static void (*real)(void *);

	if (!p || ((unsigned char *)p >= early && (unsigned char *)p < early + sizeof early))
		return;
	if (!real) {
		if (resolving)
			return; /* dlsym freeing while we resolve: leak it */
		resolving = 1;
		*(void **)&real = dlsym(RTLD_NEXT, "free");
		resolving = 0;
	}
	real(p);
}

pid_t fork(void)
{
	static pid_t (*real)(void);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "fork");
	if (counts("fork")) {
		errno = EAGAIN;
		return -1;
	}
	return real();
}

int execv(const char *path, char *const argv[])
{
	static int (*real)(const char *, char *const[]);

	if (!real)
		*(void **)&real = dlsym(RTLD_NEXT, "execv");
	if (counts("execv")) {
		errno = ENOENT;
		return -1;
	}
	return real(path, argv);
}
