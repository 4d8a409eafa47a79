/* fail_nth.c - an LD_PRELOAD shim for the tests: in a process named dmo
 * (or DMO_FAIL_IN, for instance dmo-harness), the Nth call (DMO_FAIL_AT,
 * from 1) of the function DMO_FAIL_CALL fails as the system fails it: NULL
 * or -1 with the errno of its row in CALLS below.  Every other call goes
 * through.  A stdio write that fails drops its bytes and sets the stream's
 * error indicator, as a full disk does; fflush and fclose do their work and
 * then report the error.  Writes to stderr never fail: they carry the
 * message the test reads.  With DMO_FAIL_COUNT=FILE the process appends to
 * FILE one line "CALL COUNT" per function it called, so that a test can
 * fail each call in turn.  Other processes (the libtool wrapper's shell,
 * valgrind, gnuplot) are left alone, so that only dmo's own calls count. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Every call the shim can fail, with the errno its failure sets. */
#define CALLS(X)                                                              \
	X(malloc, ENOMEM) X(calloc, ENOMEM) X(realloc, ENOMEM)                \
	X(posix_memalign, ENOMEM) X(mmap, ENOMEM) X(pthread_create, EAGAIN)   \
	X(fork, EAGAIN) X(execv, ENOENT) X(dlopen, ENOMEM)                    \
	X(fopen, EMFILE) X(fdopen, EMFILE) X(open, EMFILE) X(opendir, EMFILE) \
	X(open_memstream, ENOMEM) X(mkostemp, EMFILE) X(mkdtemp, ENOSPC)      \
	X(mkdir, ENOSPC) X(mkfifo, ENOSPC) X(rename, EIO) X(unlink, EIO)      \
	X(rmdir, EIO) X(ftruncate, ENOSPC) X(fsync, EIO) X(read, EIO)         \
	X(pread, EIO) X(write, ENOSPC) X(pwrite, ENOSPC) X(fread, EIO)        \
	X(fwrite, ENOSPC) X(fputs, ENOSPC) X(fputc, ENOSPC) X(putc, ENOSPC)   \
	X(fprintf, ENOSPC) X(vfprintf, ENOSPC) X(printf, ENOSPC)              \
	X(puts, ENOSPC) X(putchar, ENOSPC) X(fflush, ENOSPC) X(fclose, ENOSPC)

#define AS_ENUM(name, err) CALL_##name,
#define AS_NAME(name, err) #name,
#define AS_ERRNO(name, err) err,
enum call { CALLS(AS_ENUM) N_CALLS };
static const char *const call_name[] = { CALLS(AS_NAME) };
static const int call_errno[] = { CALLS(AS_ERRNO) };

static unsigned long counted[N_CALLS];
static long fail_at = -1;
static int fail_call = -1, active = -1;

static void setup(void)
{
	const char *in = getenv("DMO_FAIL_IN"), *call = getenv("DMO_FAIL_CALL");
	const char *at = getenv("DMO_FAIL_AT"), *me = program_invocation_short_name;

	in = in ? in : "dmo";
	for (int c = 0; call && c < N_CALLS; c++)
		if (!strcmp(call, call_name[c]))
			fail_call = c;
	fail_at = at ? atol(at) : -1;
	active = !strcmp(me, in) || (!strncmp(me, "lt-", 3) && !strcmp(me + 3, in));
}

/* Counts call C; true (with errno set) when it is the one to fail. */
static int fails(enum call c)
{
	if (active < 0)
		setup();
	if (active <= 0)
		return 0;
	if ((long)__atomic_add_fetch(&counted[c], 1, __ATOMIC_RELAXED) != fail_at || (int)c != fail_call)
		return 0;
	errno = call_errno[c];
	return 1;
}

/* Called when dmo's main returns or dmo calls exit: the calls libgcov makes
 * later to write a coverage build's counters are not dmo's, nor are the
 * report's own. */
static void report(void)
{
	const char *file = getenv("DMO_FAIL_COUNT");
	FILE *f;

	if (active <= 0)
		return;
	active = 0;
	if (!file)
		return;
	if ((f = fopen(file, "a"))) {
		for (int c = 0; c < N_CALLS; c++)
			if (counted[c])
				fprintf(f, "%s %lu\n", call_name[c], counted[c]);
		fclose(f);
	}
}

static void *next(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn)
		abort();
	return fn;
}

typedef int main_fn(int, char **, char **);
static main_fn *real_main;

static int main_then_report(int argc, char **argv, char **envp)
{
	int rc = real_main(argc, argv, envp);

	report();
	return rc;
}

int __libc_start_main(main_fn *main, int argc, char **argv, void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	int (*real)(main_fn *, int, char **, void (*)(void), void (*)(void), void (*)(void), void *) =
		next("__libc_start_main");

	real_main = main;
	return real(main_then_report, argc, argv, init, fini, rtld_fini, stack_end);
}

void exit(int status)
{
	void (*real)(int) = next("exit");

	report();
	real(status);
	__builtin_unreachable();
}

/* NAME with parameters PARAMS returns FAILED when it fails, else what the
 * next definition returns for ARGS. */
#define WRAP(type, name, failed, params, args)                               \
	type name params                                                      \
	{                                                                     \
		static type(*real) params;                                    \
		if (fails(CALL_##name))                                       \
			return failed;                                        \
		if (!real)                                                    \
			*(void **)&real = next(#name);                        \
		return real args;                                             \
	}

/* The allocator is glibc's own (__libc_*): dlsym allocates, so resolving
 * the next malloc with it would recurse.  glibc's internal allocations
 * (stdio buffers, fopen, strdup, open_memstream) come here too. */
extern void *__libc_malloc(size_t), *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t), *__libc_memalign(size_t, size_t);

void *malloc(size_t n) { return fails(CALL_malloc) ? NULL : __libc_malloc(n); }
void *calloc(size_t n, size_t size) { return fails(CALL_calloc) ? NULL : __libc_calloc(n, size); }
void *realloc(void *p, size_t n) { return fails(CALL_realloc) ? NULL : __libc_realloc(p, n); }

int posix_memalign(void **p, size_t align, size_t n)
{
	if (fails(CALL_posix_memalign))
		return ENOMEM;
	*p = __libc_memalign(align, n);
	return *p ? 0 : ENOMEM;
}

WRAP(void *, mmap, MAP_FAILED, (void *a, size_t n, int prot, int flags, int fd, off_t off),
     (a, n, prot, flags, fd, off))
WRAP(int, pthread_create, EAGAIN,
     (pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg), (t, attr, fn, arg))
WRAP(pid_t, fork, -1, (void), ())
WRAP(int, execv, -1, (const char *path, char *const argv[]), (path, argv))
WRAP(FILE *, fopen, NULL, (const char *path, const char *mode), (path, mode))
WRAP(FILE *, fdopen, NULL, (int fd, const char *mode), (fd, mode))
WRAP(DIR *, opendir, NULL, (const char *path), (path))
WRAP(FILE *, open_memstream, NULL, (char **buf, size_t *len), (buf, len))
WRAP(int, mkostemp, -1, (char *tmpl, int flags), (tmpl, flags))
WRAP(char *, mkdtemp, NULL, (char *tmpl), (tmpl))
WRAP(int, mkdir, -1, (const char *path, mode_t mode), (path, mode))
WRAP(int, mkfifo, -1, (const char *path, mode_t mode), (path, mode))
WRAP(int, rename, -1, (const char *from, const char *to), (from, to))
WRAP(int, unlink, -1, (const char *path), (path))
WRAP(int, rmdir, -1, (const char *path), (path))
WRAP(int, ftruncate, -1, (int fd, off_t n), (fd, n))
WRAP(int, fsync, -1, (int fd), (fd))
WRAP(ssize_t, read, -1, (int fd, void *buf, size_t n), (fd, buf, n))
WRAP(ssize_t, pread, -1, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off))
WRAP(ssize_t, write, -1, (int fd, const void *buf, size_t n), (fd, buf, n))
WRAP(ssize_t, pwrite, -1, (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off))

/* dlerror must describe the dlopen that failed here. */
static int dlopen_failed;

void *dlopen(const char *path, int flags)
{
	static void *(*real)(const char *, int);

	if (fails(CALL_dlopen)) {
		dlopen_failed = 1;
		return NULL;
	}
	if (!real)
		*(void **)&real = next("dlopen");
	return real(path, flags);
}

char *dlerror(void)
{
	static char *(*real)(void);

	if (dlopen_failed) {
		dlopen_failed = 0;
		return "cannot load: out of memory (injected)";
	}
	if (!real)
		*(void **)&real = next("dlerror");
	return real();
}

int open(const char *path, int flags, ...)
{
	static int (*real)(const char *, int, ...);
	mode_t mode = 0;
	va_list ap;

	if (fails(CALL_open))
		return -1;
	if (flags & (O_CREAT | __O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	if (!real)
		*(void **)&real = next("open");
	return real(path, flags, mode);
}

size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
	static size_t (*real)(void *, size_t, size_t, FILE *);

	if (fails(CALL_fread)) {
		f->_flags |= _IO_ERR_SEEN;
		return 0;
	}
	if (!real)
		*(void **)&real = next("fread");
	return real(buf, size, n, f);
}

/* A stdio write to F fails: its bytes are lost and F's error indicator is
 * set, as when the write(2) behind a buffer fails. */
static int write_fails(enum call c, FILE *f)
{
	if (f == stderr || !fails(c))
		return 0;
	f->_flags |= _IO_ERR_SEEN;
	return 1;
}

#define WRITE_WRAP(type, name, failed, stream, params, args)                \
	type name params                                                      \
	{                                                                     \
		static type(*real) params;                                    \
		if (write_fails(CALL_##name, stream))                         \
			return failed;                                        \
		if (!real)                                                    \
			*(void **)&real = next(#name);                        \
		return real args;                                             \
	}

WRITE_WRAP(size_t, fwrite, 0, f, (const void *p, size_t size, size_t n, FILE *f), (p, size, n, f))
WRITE_WRAP(int, fputs, EOF, f, (const char *s, FILE *f), (s, f))
WRITE_WRAP(int, fputc, EOF, f, (int ch, FILE *f), (ch, f))
WRITE_WRAP(int, putc, EOF, f, (int ch, FILE *f), (ch, f))
WRITE_WRAP(int, puts, EOF, stdout, (const char *s), (s))
WRITE_WRAP(int, putchar, EOF, stdout, (int ch), (ch))
WRITE_WRAP(int, vfprintf, -1, f, (FILE *f, const char *fmt, va_list ap), (f, fmt, ap))

/* fprintf and printf, as call C: glibc's vfprintf does the work (ours
 * would count the call again). */
static int formatted(enum call c, FILE *f, const char *fmt, va_list ap)
{
	static int (*real)(FILE *, const char *, va_list);

	if (write_fails(c, f))
		return -1;
	if (!real)
		*(void **)&real = next("vfprintf");
	return real(f, fmt, ap);
}

#define FORMATTED(call, stream)                                               \
	va_list ap;                                                           \
	va_start(ap, fmt);                                                    \
	int n = formatted(call, stream, fmt, ap);                             \
	va_end(ap);                                                           \
	return n

int fprintf(FILE *f, const char *fmt, ...) { FORMATTED(CALL_fprintf, f); }
int printf(const char *fmt, ...) { FORMATTED(CALL_printf, stdout); }

/* fflush and fclose do their work, then report the failure. */
int fflush(FILE *f)
{
	static int (*real)(FILE *);
	int rc;

	if (!real)
		*(void **)&real = next("fflush");
	rc = real(f);
	if (f && write_fails(CALL_fflush, f))
		return EOF;
	return rc;
}

int fclose(FILE *f)
{
	static int (*real)(FILE *);
	int failed = write_fails(CALL_fclose, f), rc;

	if (!real)
		*(void **)&real = next("fclose");
	rc = real(f);
	if (failed) {
		errno = call_errno[CALL_fclose];
		return EOF;
	}
	return rc;
}
