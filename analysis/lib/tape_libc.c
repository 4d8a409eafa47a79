/* tape_libc.c - the tape's libc world: ops table, slab cache, a background
 * I/O thread (write-behind and read-ahead), and the thread-safe variant.
 * The Valgrind tool has its own ops table and no threads; everything here
 * is what only a libc process can offer. */
#define _GNU_SOURCE
#include "tape_libc.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "slab_pool.h"

/* One outstanding background transfer, as the core's io_start promises. */
struct dmo_tape_libc {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	pthread_t io_thread;
	int started, stop;
	int posted, done; /* request waiting for the thread; result ready */
	int fd, what;
	unsigned big_allocs; /* huge-page-sized slabs handed out */
	void *buf;
	size_t n;
	uint64_t off;
	long result;
};

/* Slabs of a huge page or more get their own mapping, aligned so the kernel
 * can back it with huge pages: first touch of fresh memory is what a push
 * mostly pays for, and one 2 MiB fault is far cheaper than 512 small ones.
 * Not a tape's first such slab, though: a short trace uses a sliver of it,
 * and getting a huge page can cost the kernel milliseconds of compaction. */
#define HUGE_PAGE ((size_t)2 << 20)

/* Big slabs a destroyed tape gave back, for the next tape in this process
 * (dmo analyze makes one per layer): malloc keeps freed memory the same
 * way, but these slabs bypass malloc to get their alignment.  Bounded like
 * glibc's largest dynamic mmap threshold. */
static struct {
	pthread_mutex_t mu;
	struct dmo_slab_pool pool;
} cache = { .mu = PTHREAD_MUTEX_INITIALIZER, .pool.max_bytes = (size_t)32 << 20 };

static void *cache_take(size_t len)
{
	void *p;

	pthread_mutex_lock(&cache.mu);
	p = dmo_slab_pool_take(&cache.pool, len);
	pthread_mutex_unlock(&cache.mu);
	return p;
}

static int cache_give(void *p, size_t len)
{
	int kept;

	pthread_mutex_lock(&cache.mu);
	kept = dmo_slab_pool_give(&cache.pool, p, len);
	pthread_mutex_unlock(&cache.mu);
	return kept;
}

static size_t page_round(size_t bytes)
{
	return (bytes + 4095) & ~(size_t)4095;
}

static void *libc_alloc(void *ctx, size_t bytes)
{
	struct dmo_tape_libc *c = ctx;
	size_t len = page_round(bytes);
	char *p, *q;

	if (bytes < HUGE_PAGE)
		return malloc(bytes);
	if ((p = cache_take(len)))
		return p;
	if (c->big_allocs++ == 0) {
		/* The first: a plain mapping, one system call. */
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		return p == MAP_FAILED ? NULL : p;
	}
	p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	q = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
	if (q > p)
		munmap(p, (size_t)(q - p));
	munmap(q + len, (size_t)(p + HUGE_PAGE - q));
	madvise(q, len, MADV_HUGEPAGE);
	return q;
}

static void libc_free(void *ctx, void *p, size_t bytes)
{
	(void)ctx;
	if (bytes < HUGE_PAGE)
		free(p);
	else if (!cache_give(p, page_round(bytes)))
		munmap(p, page_round(bytes));
}

/* The file is unlinked at once, so a crashed process leaves nothing in the
 * spill dir. */
static int libc_open(void *ctx, const char *dir, intptr_t *file)
{
	char path[4096];
	int fd;

	(void)ctx;
	if (snprintf(path, sizeof path, "%s/dmo-tape-XXXXXX", dir) >=
	    (int)sizeof path)
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	*file = fd;
	return 0;
}

/* pread/pwrite may stop short; the core wants all or an error. */
static long transfer(int fd, void *buf, size_t n, uint64_t off, int write)
{
	size_t done = 0;

	while (done < n) {
		ssize_t r = write ? pwrite(fd, (char *)buf + done, n - done,
					   (off_t)(off + done))
				  : pread(fd, (char *)buf + done, n - done,
					  (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		done += (size_t)r;
	}
	return (long)done;
}

static long libc_write(void *ctx, intptr_t file, const void *buf, size_t n,
		       uint64_t off)
{
	(void)ctx;
	return transfer((int)file, (void *)buf, n, off, 1);
}

static long libc_read(void *ctx, intptr_t file, void *buf, size_t n,
		      uint64_t off)
{
	(void)ctx;
	return transfer((int)file, buf, n, off, 0);
}

static void libc_close(void *ctx, intptr_t file)
{
	(void)ctx;
	close((int)file);
}

static const char *libc_strerror(void *ctx, int err)
{
	(void)ctx;
	return strerror(err);
}

/* Read-ahead can block while the kernel allocates cache pages and queues
 * the reads, which is why it runs here and not in the walking thread. */
static long run_request(struct dmo_tape_libc *c)
{
	int e;

	if (c->what == DMO_TAPE_IO_WRITE)
		return transfer(c->fd, c->buf, c->n, c->off, 1);
	e = posix_fadvise(c->fd, (off_t)c->off, (off_t)c->n, POSIX_FADV_WILLNEED);
	return e ? -e : (long)c->n;
}

static void *io_main(void *arg)
{
	struct dmo_tape_libc *c = arg;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->posted && !c->stop)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->stop)
			break;
		c->posted = 0;
		pthread_mutex_unlock(&c->mu);
		long r = run_request(c);
		pthread_mutex_lock(&c->mu);
		c->result = r;
		c->done = 1;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

static int libc_io_start(void *ctx, intptr_t file, void *buf, size_t n,
			 uint64_t off, int what)
{
	struct dmo_tape_libc *c = ctx;
	int e;

	pthread_mutex_lock(&c->mu);
	if (!c->started) {
		e = pthread_create(&c->io_thread, NULL, io_main, c);
		if (e) {
			pthread_mutex_unlock(&c->mu);
			return -e;
		}
		c->started = 1;
	}
	c->fd = (int)file;
	c->what = what;
	c->buf = buf;
	c->n = n;
	c->off = off;
	c->done = 0;
	c->posted = 1;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	return 0;
}

static long libc_io_wait(void *ctx)
{
	struct dmo_tape_libc *c = ctx;
	long r;

	pthread_mutex_lock(&c->mu);
	while (!c->done)
		pthread_cond_wait(&c->cv, &c->mu);
	c->done = 0;
	r = c->result;
	pthread_mutex_unlock(&c->mu);
	return r;
}

const struct dmo_tape_ops dmo_tape_libc_ops = {
	.alloc = libc_alloc,
	.free = libc_free,
	.spill_open = libc_open,
	.spill_write = libc_write,
	.spill_read = libc_read,
	.spill_close = libc_close,
	.strerror = libc_strerror,
	.io_start = libc_io_start,
	.io_wait = libc_io_wait,
};

struct dmo_tape_libc *dmo_tape_libc_ctx_new(void)
{
	struct dmo_tape_libc *c = calloc(1, sizeof *c);

	if (!c)
		return NULL;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	return c;
}

void dmo_tape_libc_ctx_free(struct dmo_tape_libc *c)
{
	if (c->started) {
		pthread_mutex_lock(&c->mu);
		c->stop = 1;
		pthread_cond_broadcast(&c->cv);
		pthread_mutex_unlock(&c->mu);
		pthread_join(c->io_thread, NULL);
	}
	pthread_cond_destroy(&c->cv);
	pthread_mutex_destroy(&c->mu);
	free(c);
}

struct dmo_tape *dmo_tape_libc_new(const struct dmo_tape_config *cfg)
{
	struct dmo_tape_libc *c = dmo_tape_libc_ctx_new();
	struct dmo_tape *t;

	if (!c)
		return NULL;
	t = dmo_tape_create(cfg, &dmo_tape_libc_ops, c);
	if (!t)
		dmo_tape_libc_ctx_free(c);
	return t;
}

void dmo_tape_libc_delete(struct dmo_tape *t)
{
	struct dmo_tape_libc *c = dmo_tape_ctx(t);

	dmo_tape_destroy(t);
	dmo_tape_libc_ctx_free(c);
}

struct dmo_tape_mt {
	pthread_mutex_t mu;
	struct dmo_tape *t;
};

struct dmo_tape_mt *dmo_tape_mt_new(const struct dmo_tape_config *cfg)
{
	struct dmo_tape_mt *m = malloc(sizeof *m);

	if (!m)
		return NULL;
	m->t = dmo_tape_libc_new(cfg);
	if (!m->t) {
		free(m);
		return NULL;
	}
	pthread_mutex_init(&m->mu, NULL);
	return m;
}

void dmo_tape_mt_delete(struct dmo_tape_mt *m)
{
	dmo_tape_libc_delete(m->t);
	pthread_mutex_destroy(&m->mu);
	free(m);
}

int dmo_tape_mt_push(struct dmo_tape_mt *m, const void *elem)
{
	int rc;

	pthread_mutex_lock(&m->mu);
	rc = dmo_tape_push_sized(m->t, elem, dmo_tape_elem_size(m->t));
	pthread_mutex_unlock(&m->mu);
	return rc;
}

int dmo_tape_mt_pop(struct dmo_tape_mt *m, void *out)
{
	const void *p;
	int rc = 0;

	pthread_mutex_lock(&m->mu);
	if ((p = dmo_tape_pop(m->t)))
		memcpy(out, p, dmo_tape_elem_size(m->t));
	else
		rc = dmo_tape_error_code(m->t);
	pthread_mutex_unlock(&m->mu);
	return rc;
}

int dmo_tape_mt_back(struct dmo_tape_mt *m, void *out)
{
	const void *p;

	pthread_mutex_lock(&m->mu);
	p = dmo_tape_back(m->t);
	if (p)
		memcpy(out, p, dmo_tape_elem_size(m->t));
	pthread_mutex_unlock(&m->mu);
	return p ? 0 : DMO_TAPE_EEMPTY;
}

uint64_t dmo_tape_mt_size(struct dmo_tape_mt *m)
{
	uint64_t n;

	pthread_mutex_lock(&m->mu);
	n = dmo_tape_size(m->t);
	pthread_mutex_unlock(&m->mu);
	return n;
}

struct dmo_tape *dmo_tape_mt_tape(struct dmo_tape_mt *m)
{
	return m->t;
}
