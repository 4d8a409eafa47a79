/* backend_vs_ref.c - run op specs on a backend and on the ref backend
 * (dmo's reference kernels) natively, separate buffers, same input and the
 * same derived weights and quantisation, and print one line per spec:
 *
 *   SPEC<TAB>IMPLEMENTATION<TAB>SCRATCH_BYTES<TAB>equal|DIFFER n
 *
 * where n counts the output bytes that differ.  Three inputs per spec.
 * Exit 0 when every spec ran, 1 when an output differed, 2 on misuse or a
 * refused spec.  Used by tests/backend_cmsis_nn.sh.
 *
 *   backend_vs_ref BACKEND SPEC... */
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

int main(int argc, char **argv)
{
	char err[512];
	struct dmo_backend_handle *ref, *own;
	int status = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: backend_vs_ref BACKEND SPEC...\n");
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
