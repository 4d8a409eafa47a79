/* backend_vs_ref.c - two native checks of a backend, written apart from
 * dmo verify so that the tests have an independent oracle
 * (tests/backend_cmsis_nn.sh):
 *
 *   backend_vs_ref BACKEND SPEC...
 *     runs each op spec on BACKEND and on the ref backend (dmo's reference
 *     kernels), separate buffers, the same inputs (three) and the same
 *     derived weights and quantisation, and prints per spec
 *       SPEC<TAB>IMPLEMENTATION<TAB>SCRATCH_BYTES<TAB>equal|DIFFER n
 *     (n: output bytes that differ); exit 1 when an output differed.
 *
 *   backend_vs_ref --overlap BACKEND <LINES
 *     reads lines "SPEC X" and runs each SPEC on BACKEND with its input and
 *     output really overlapped by X bytes (one arena of OB + IB - X bytes,
 *     output at its start, input at OB - X) and apart, on SEEDS inputs;
 *     prints "SPEC X same" when every overlapped output equals the
 *     separate one, else "SPEC X differs".
 *
 * Exit 2 on misuse, a refused spec or a failed run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "opspec.h"
#include "runner.h"

/* Outputs of SPEC on A and B differing, over a few inputs; -1 on failure. */
static long compare(struct dmo_backend_run *a, struct dmo_backend_run *b,
		    const struct dmo_opspec *spec)
{
	size_t in_bytes = dmo_opspec_in_bytes(spec), out_bytes = dmo_opspec_out_bytes(spec);
	unsigned char *in = malloc(in_bytes), *want = malloc(out_bytes), *got = malloc(out_bytes);
	long differ = 0;

	for (uint64_t seed = 1; seed <= 3 && differ >= 0; seed++) {
		if (in == NULL || want == NULL || got == NULL) {
			differ = -1;
			break;
		}
		dmo_op_fill_input(spec, in, seed);
		memset(want, 0x55, out_bytes);
		memset(got, 0xAA, out_bytes);
		if (dmo_backend_execute(a, in, want) != 0 || dmo_backend_execute(b, in, got) != 0) {
			differ = -1;
			break;
		}
		for (size_t i = 0; i < out_bytes; i++)
			differ += want[i] != got[i];
	}
	free(in);
	free(want);
	free(got);
	return differ;
}

/* Inputs tried by --overlap: a wrong overlap shows only when a clobbered
 * input byte differs from the value written over it, so several. */
#define SEEDS 16

/* "same" or "differs" for RUN overlapped by X bytes; -1 when a run failed. */
static int overlapped(struct dmo_backend_run *run, const struct dmo_opspec *spec, uint64_t x)
{
	size_t in_bytes = dmo_opspec_in_bytes(spec), out_bytes = dmo_opspec_out_bytes(spec);
	unsigned char *arena = malloc(out_bytes + in_bytes - x), *in = malloc(in_bytes);
	unsigned char *want = malloc(out_bytes);
	int differs = 0;

	for (uint64_t seed = 1; seed <= SEEDS && differs == 0; seed++) {
		if (arena == NULL || in == NULL || want == NULL) {
			differs = -1;
			break;
		}
		dmo_op_fill_input(spec, in, seed);
		memcpy(arena + out_bytes - x, in, in_bytes);
		if (dmo_backend_execute(run, in, want) != 0 ||
		    dmo_backend_execute(run, arena + out_bytes - x, arena) != 0) {
			differs = -1;
			break;
		}
		differs = memcmp(arena, want, out_bytes) != 0;
	}
	free(arena);
	free(in);
	free(want);
	return differs;
}

static int overlap_main(const char *backend)
{
	char err[512], line[1024], text[1000];
	struct dmo_backend_handle *h = dmo_backend_load(backend, NULL, err, sizeof err);
	unsigned long long x;

	if (h == NULL) {
		fprintf(stderr, "backend_vs_ref: %s\n", err);
		return 2;
	}
	while (fgets(line, sizeof line, stdin) != NULL) {
		struct dmo_opspec spec;
		struct dmo_backend_run *run;
		int differs;

		if (sscanf(line, "%999s %llu", text, &x) != 2 ||
		    dmo_opspec_parse(text, &spec, err, sizeof err) != 0 ||
		    x > dmo_opspec_in_bytes(&spec) || x > dmo_opspec_out_bytes(&spec)) {
			fprintf(stderr, "backend_vs_ref: not 'SPEC X' with X <= min(IB, OB): %s", line);
			return 2;
		}
		run = dmo_backend_prepare(h, &spec, NULL, err, sizeof err);
		differs = run != NULL ? overlapped(run, &spec, x) : -1;
		dmo_backend_release(run);
		if (differs < 0) {
			fprintf(stderr, "backend_vs_ref: %s: %s\n", text, run ? "a run failed" : err);
			return 2;
		}
		printf("%s %llu %s\n", text, x, differs ? "differs" : "same");
	}
	return 0;
}

int main(int argc, char **argv)
{
	char err[512];
	struct dmo_backend_handle *ref, *own;
	int status = 0;

	if (argc == 3 && strcmp(argv[1], "--overlap") == 0)
		return overlap_main(argv[2]);
	if (argc < 3 || argv[1][0] == '-') {
		fprintf(stderr, "usage: backend_vs_ref BACKEND SPEC...\n"
			"       backend_vs_ref --overlap BACKEND <LINES_OF_SPEC_AND_X\n");
		return 2;
	}
	ref = dmo_backend_load("ref", NULL, err, sizeof err);
	own = ref != NULL ? dmo_backend_load(argv[1], NULL, err, sizeof err) : NULL;
	if (own == NULL) {
		fprintf(stderr, "backend_vs_ref: %s\n", err);
		return 2;
	}
	for (int i = 2; i < argc; i++) {
		struct dmo_opspec spec;
		struct dmo_backend_run *a = NULL, *b = NULL;
		long differ;

		if (dmo_opspec_parse(argv[i], &spec, err, sizeof err) != 0 ||
		    (a = dmo_backend_prepare(ref, &spec, NULL, err, sizeof err)) == NULL ||
		    (b = dmo_backend_prepare(own, &spec, NULL, err, sizeof err)) == NULL) {
			fprintf(stderr, "backend_vs_ref: %s: %s\n", argv[i], err);
			dmo_backend_release(a);
			return 2;
		}
		differ = compare(a, b, &spec);
		if (differ < 0) {
			fprintf(stderr, "backend_vs_ref: %s: a run failed\n", argv[i]);
			status = 2;
		} else if (differ > 0 && status == 0) {
			status = 1;
		}
		printf("%s\t%s\t%zu\t", argv[i], dmo_backend_implementation(b),
		       dmo_backend_scratch_bytes(b));
		if (differ == 0)
			printf("equal\n");
		else
			printf("DIFFER %ld\n", differ);
		dmo_backend_release(a);
		dmo_backend_release(b);
	}
	return status;
}
