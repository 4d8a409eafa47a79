/* fault.c - test target: a layer whose kernel takes a fault and goes on,
 * for tests/tool_fault.sh.  The kernel reads 40 input floats in one
 * block of straight code, then stores with movaps to a misaligned
 * address: Valgrind checks the alignment at the store, before it, and
 * raises SIGSEGV in the guest.  The handler sends the thread past the
 * store, and the kernel reads 40 more floats and writes four.
 *
 * The tool counts a block's instructions at its side exits, but not at
 * one that raises a signal (dmo_main.c, raises_signal): the 40 reads'
 * events were timed by instructions the fault leaves uncounted, so the
 * events after the handler would come earlier than them, were the tool
 * not to count a block's worth on the signal.  Run as `fault`. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#include "dmo/harness.h"

enum { N = 80 };

/* Where the handler sends the thread: past the faulting store. */
static void *volatile resume;

static void skip_store(int sig, siginfo_t *info, void *context)
{
	ucontext_t *uc = context;
	(void)sig; (void)info;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)resume;
}

/* READS(t): 40 reads of in[40t..40t+39], each an instruction of its own
 * whose value is used (VEX drops a load whose value is not). */
#define READ(t, k) "addss 160*" #t "+4*" #k "(%[in]), %%xmm1\n\t"
#define READS10(t, d) READ(t, d##0) READ(t, d##1) READ(t, d##2) READ(t, d##3) READ(t, d##4) \
	READ(t, d##5) READ(t, d##6) READ(t, d##7) READ(t, d##8) READ(t, d##9)
#define READS(t) READS10(t, ) READS10(t, 1) READS10(t, 2) READS10(t, 3)

__attribute__((noinline)) static void kernel(const float *in, float *out)
{
	/* out is calloc's, 16-byte aligned: out + 1 is not. */
	__asm__ volatile("xorps %%xmm1, %%xmm1\n\t"
			 "lea 1f(%%rip), %%rax\n\t"
			 "mov %%rax, %[resume]\n\t"
			 READS(0)
			 "movaps %%xmm1, 4(%[out])\n"
			 "1:\n\t"
			 READS(1)
			 : [resume] "=m"(resume)
			 : [in] "r"(in), [out] "r"(out)
			 : "rax", "xmm1", "memory");
	for (int i = 0; i < 4; i++)
		((volatile float *)out)[i] = 1.0f;
}

int main(void)
{
	struct sigaction on_segv = { .sa_sigaction = skip_store, .sa_flags = SA_SIGINFO };
	float *in = calloc(N, sizeof *in), *out = calloc(N, sizeof *out);
	int rc;
	if (in == NULL || out == NULL || sigaction(SIGSEGV, &on_segv, NULL) != 0) {
		perror("fault");
		return 1;
	}
	rc = dmo_layer_begin("fault", NULL, in, N * sizeof *in, out, N * sizeof *out);
	kernel(in, out);
	rc |= dmo_layer_end();
	return rc != 0;
}
