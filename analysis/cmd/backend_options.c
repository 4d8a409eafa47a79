/* backend_options.c - checking and describing --backend and --isa
 * (backend_options.h). */
#include "backend_options.h"

#include <assert.h>

#include "backend.h"

int dmo_backend_options_check(const char *who, const char **backend, const char *isa,
			      int threads)
{
	char err[512];

	if (isa != NULL && !dmo_backend_isa_valid(isa)) {
		fprintf(stderr, "%s: --isa '%s' is not one of sse4, avx, avx2\n", who, isa);
		return -1;
	}
	if (isa != NULL && *backend == NULL)
		*backend = "ref";
	if (*backend == NULL)
		return 0;
	struct dmo_backend_handle *h = dmo_backend_load(*backend, isa, err, sizeof err);
	/* With --threads, the library's own pool must exist (the harness and
	 * dmo verify set it again, to the same count). */
	if (h == NULL || dmo_backend_set_threads(h, threads, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", who, err);
		return -1;
	}
	return 0;
}

const char *backend_native_isa(const char *name, const char *isa)
{
	char err[512];
	struct dmo_backend_handle *h = dmo_backend_load(name ? name : "ref", isa, err, sizeof err);

	return h != NULL ? dmo_backend_desc(h)->isa() : "";
}

void print_backend(const char *name, const char *isa)
{
	char err[512];
	struct dmo_backend_handle *h = dmo_backend_load(name, isa, err, sizeof err);
	const struct dmo_backend *b;

	/* dmo_backend_options_check loaded it with this cap: loading it again
	 * returns that handle. */
	assert(h != NULL);
	b = dmo_backend_desc(h);
	printf("%-20s %s (%s), ISA %s (cap %s)\n", "backend:", b->name, b->version(), b->isa(),
	       isa != NULL ? isa : "none");
}
