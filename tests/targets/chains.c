/* chains.c - test target: loops whose accesses the tool's chains
 * (dmo-tool/dmo_chain.h) take two at a time, through each way a
 * follower taken ahead is settled, for tests/tool_chains.sh, which checks
 * that a run with chains writes the run directory a run without them
 * (--dmo-chains=no) writes, byte for byte.  VEX unrolls each loop below
 * into blocks of two or more iterations, so an iteration's access leads
 * the next one's.  Each case is one layer over an input and an output of
 * N floats:
 *   odd     sums and fills of 1 to 9 floats, forwards and backwards, at
 *           offsets 0 to 8: a loop with an odd count leaves its block
 *           between a lead and its follower, which is given back
 *   edges   a sum and a fill over the buffers and one float more on each
 *           side, both ways: a lead outside a buffer with its follower
 *           inside, and the other way round, where the follower is no
 *           access the stream could take and its own helper takes it
 *   fault   a sum running into a page it may not read (from the layer's
 *           begin on), the input's second half: the load that faults
 *           counts as read, with chains as without (a read's check comes
 *           before it), and the handler leaves the loop
 * Built -O2 as users build, with each loop kept one access an iteration
 * (KERNEL below), as in streams.c.  Run as `chains NAME...`. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dmo/harness.h"

enum { N = 64 };

#define KERNEL __attribute__((noinline, optimize("no-tree-vectorize", "no-unroll-loops"))) static

static volatile float sink;

KERNEL float sum(const float *p, int n)
{
	float s = 0;
	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

KERNEL float sum_back(const float *p, int n)
{
	float s = 0;
	for (int i = n - 1; i >= 0; i--)
		s += p[i];
	return s;
}

KERNEL void fill(float *p, int n, float v)
{
	for (int i = 0; i < n; i++)
		p[i] = v;
}

KERNEL void fill_back(float *p, int n, float v)
{
	for (int i = n - 1; i >= 0; i--)
		p[i] = v;
}

static void odd(float *in, float *out)
{
	for (int n = 1; n <= 9; n++) {
		sink = sum(in + n - 1, n) + sum_back(in + 2 * n, n);
		fill(out + n - 1, n, 1.0f);
		fill_back(out + 2 * n, n, 2.0f);
	}
}

/* IN and OUT have a float before and after them. */
static void edges(float *in, float *out)
{
	sink = sum(in - 1, N + 2) + sum_back(in - 1, N + 2);
	fill(out - 1, N + 2, 3.0f);
	fill_back(out - 1, N + 2, 4.0f);
}

static sigjmp_buf out_of_loop;

static void leave_loop(int sig)
{
	(void)sig;
	siglongjmp(out_of_loop, 1);
}

/* Two runs over the page's last N / 2 floats and on into the next page,
 * which may not be read, starting at an even and an odd float, so that
 * in one of them the fault is a lead's and in the other a follower's. */
static int fault(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			 -1, 0);
	float *in, *out;
	struct sigaction sa;
	int rc = 0;
	if (map == MAP_FAILED)
		return 1;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = leave_loop;
	sigaction(SIGSEGV, &sa, NULL);
	/* The output at the map's start, close to the input: one range
	 * over both (chains need it, dmo_chain.h). */
	in = (float *)(map + page) - N / 2;
	out = (float *)map;
	for (int start = 0; start < 2; start++) {
		/* The layer's buffers must be mapped when it begins. */
		rc |= dmo_layer_begin(start ? "fault_odd" : "fault_even", NULL, in, N * 4, out, N * 4);
		rc |= mprotect(map + page, (size_t)page, PROT_NONE);
		if (sigsetjmp(out_of_loop, 1) == 0)
			sink = sum(in + start, N);
		rc |= mprotect(map + page, (size_t)page, PROT_READ | PROT_WRITE);
		rc |= dmo_layer_end();
	}
	return rc != 0;
}

static int run(const char *name)
{
	float *in_alloc = calloc(N + 2, sizeof(float)), *out_alloc = calloc(N + 2, sizeof(float));
	float *in = in_alloc + 1, *out = out_alloc + 1;
	int rc;
	if (in_alloc == NULL || out_alloc == NULL)
		return 1;
	if (strcmp(name, "fault") == 0)
		return fault();
	rc = dmo_layer_begin(name, NULL, in, N * 4, out, N * 4);
	if (strcmp(name, "odd") == 0) {
		odd(in, out);
	} else if (strcmp(name, "edges") == 0) {
		edges(in, out);
	} else {
		fprintf(stderr, "chains: unknown case %s\n", name);
		return 2;
	}
	rc |= dmo_layer_end();
	free(in_alloc);
	free(out_alloc);
	return rc != 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		if (run(argv[i]) != 0)
			return 1;
	return 0;
}
