/* steal_pool.c - test target: a small work-stealing pool of its own, whose
 * split of a layer's work changes with a seed, and a layer run by one
 * thread while another sleeps (tests/threads_split.sh).
 *
 * The kernel: out[i] = in[i + SKIP] + in[i + SKIP + 1] for i < N, in 16
 * chunks of 16 elements.  The pool has two threads: thread 0 owns the
 * chunks and takes them from the front, thread 1 steals from the back.
 * They take turns, one chunk at a time, in an order drawn from the seed
 * (seed 0: thread 0 does all the work, in order), so a split and its
 * interleaving repeat exactly for one seed, natively and under Valgrind.
 *
 *   steal_pool sleeper        the kernel on the main thread while a second
 *                             thread sleeps in read(2): one layer
 *   steal_pool steal SEED     the kernel through the pool: one layer
 *   steal_pool native X S..   natively, input at overlap X bytes with the
 *                             output, for each seed S: prints "S same" or
 *                             "S differs" against separate buffers
 *
 * Hand derivation (docs/formulas.md, sections 1 and 1c): OB = 4N = 1024,
 * IB = 4(N + SKIP + 1) = 1060.  The input's first SKIP elements are never
 * read and every output byte is written, so for any split O_s^split =
 * OB + 4 SKIP - OB = 32.  In thread 0's order every input element is read
 * before the output element over it is written: O_s = min(IB, OB) = 1024. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmo/harness.h"

enum { N = 256, SKIP = 8, CHUNK = 16, CHUNKS = N / CHUNK, IN_N = N + SKIP + 1 };

struct pool {
	pthread_mutex_t lock;
	pthread_cond_t turn_changed;
	const float *in;
	float *out;
	int front, back;  /* chunks [front, back) are left */
	int actor;        /* whose turn it is; -1 when the work is done, -2
			   * before it starts */
	unsigned long rng; /* the seed's turn order */
	unsigned seed;
};

__attribute__((noinline)) static void run_chunk(const float *in, float *out, int chunk)
{
	for (int i = chunk * CHUNK; i < (chunk + 1) * CHUNK; i++)
		out[i] = in[i + SKIP] + in[i + SKIP + 1];
}

static int next_actor(struct pool *p)
{
	if (p->front == p->back)
		return -1;
	if (p->seed == 0)
		return 0;
	p->rng = p->rng * 6364136223846793005ul + 1442695040888963407ul;
	return (int)((p->rng >> 33) & 1);
}

/* Thread ME's share: wait for its turn, take one chunk (the owner from
 * the front, the thief from the back), run it, pass the turn on. */
static void take_turns(struct pool *p, int me)
{
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (p->actor != me && p->actor != -1)
			pthread_cond_wait(&p->turn_changed, &p->lock);
		if (p->actor == -1)
			break;
		run_chunk(p->in, p->out, me == 0 ? p->front++ : --p->back);
		p->actor = next_actor(p);
		pthread_cond_broadcast(&p->turn_changed);
	}
	pthread_mutex_unlock(&p->lock);
}

static void *thief(void *arg)
{
	take_turns(arg, 1);
	return NULL;
}

/* The kernel through the pool with the split of SEED.  The thief starts
 * before BEGIN (if any) is called, so it is alive during the layer, and
 * waits for the first turn, given after it. */
static int run_pool(const float *in, float *out, unsigned seed, int (*begin)(const float *, float *))
{
	struct pool p = { .in = in, .out = out, .front = 0, .back = CHUNKS, .seed = seed,
			  .rng = seed };
	pthread_t t;
	pthread_mutex_init(&p.lock, NULL);
	pthread_cond_init(&p.turn_changed, NULL);
	p.actor = -2;
	if (pthread_create(&t, NULL, thief, &p) != 0)
		return 1;
	if (begin != NULL && begin(in, out) != 0)
		return 1;
	pthread_mutex_lock(&p.lock);
	p.actor = next_actor(&p);
	pthread_cond_broadcast(&p.turn_changed);
	pthread_mutex_unlock(&p.lock);
	take_turns(&p, 0);
	pthread_join(t, NULL);
	return 0;
}

static int begin_layer(const float *in, float *out)
{
	return dmo_layer_begin("steal", NULL, in, IN_N * sizeof *in, out, N * sizeof *out);
}

static void fill(float *in)
{
	for (int k = 0; k < IN_N; k++)
		in[k] = (float)(k % 13) + 0.5f;
}

static void *sleep_in_read(void *arg)
{
	char byte;
	return read(*(int *)arg, &byte, 1) == 1 ? NULL : arg;
}

/* One thread runs the kernel (thread 0's order) while another sleeps. */
static int sleeper(const float *in, float *out)
{
	int fds[2];
	pthread_t t;
	if (pipe(fds) != 0 || pthread_create(&t, NULL, sleep_in_read, &fds[0]) != 0)
		return 1;
	if (begin_layer(in, out) != 0)
		return 1;
	for (int c = 0; c < CHUNKS; c++)
		run_chunk(in, out, c);
	if (dmo_layer_end() != 0 || write(fds[1], "x", 1) != 1)
		return 1;
	pthread_join(t, NULL);
	return 0;
}

/* Natively, at overlap X: the output starts the arena and the input its
 * last IB bytes less X, as dmo verify lays them out. */
static int native(unsigned long x, char **seeds, int n_seeds)
{
	float reference[N], *in = malloc(IN_N * sizeof *in);
	size_t ob = N * sizeof(float), ib = IN_N * sizeof(float);
	char *arena;
	if (in == NULL || x > ob || (x % sizeof(float)) != 0 || (arena = malloc(ob - x + ib)) == NULL)
		return 2;
	fill(in);
	for (int c = 0; c < CHUNKS; c++)
		run_chunk(in, reference, c);
	for (int k = 0; k < n_seeds; k++) {
		float *out = (float *)arena, *arena_in = (float *)(arena + ob - x);
		memset(arena, 0, ob - x);
		memcpy(arena_in, in, ib);
		if (run_pool(arena_in, out, (unsigned)strtoul(seeds[k], NULL, 10), NULL) != 0)
			return 2;
		printf("%s %s\n", seeds[k], memcmp(out, reference, ob) == 0 ? "same" : "differs");
	}
	free(arena);
	free(in);
	return 0;
}

int main(int argc, char **argv)
{
	float *in = malloc(IN_N * sizeof *in), *out = malloc(N * sizeof *out);
	if (in == NULL || out == NULL)
		return 2;
	fill(in);
	if (argc == 2 && strcmp(argv[1], "sleeper") == 0)
		return sleeper(in, out);
	if (argc == 3 && strcmp(argv[1], "steal") == 0)
		return run_pool(in, out, (unsigned)strtoul(argv[2], NULL, 10), begin_layer) != 0 ||
		       dmo_layer_end() != 0;
	if (argc >= 4 && strcmp(argv[1], "native") == 0)
		return native(strtoul(argv[2], NULL, 10), argv + 3, argc - 3);
	fprintf(stderr, "usage: steal_pool sleeper | steal SEED | native X SEED...\n");
	return 2;
}
