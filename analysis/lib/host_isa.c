/* host_isa.c - host.csv and the notes on native kernels (host_isa.h). */
#include "host_isa.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend_info.h"
#include "cpu_features.h"

int dmo_host_csv_write(const char *dir, char *err, size_t err_len)
{
	char path[4096], cpu[128];
	FILE *out;

	snprintf(path, sizeof path, "%s/%s", dir, DMO_HOST_CSV);
	out = fopen(path, "w");
	if (out == NULL) {
		snprintf(err, err_len, "%s: %s", path, strerror(errno));
		return -1;
	}
	dmo_cpu_features(cpu, sizeof cpu);
	fprintf(out, "host_isa,host_cpu\n%s,%s\n", dmo_cpu_widest_isa(), cpu);
	if (fclose(out) != 0) {
		snprintf(err, err_len, "%s: write failed", path);
		return -1;
	}
	return 0;
}

int dmo_isa_note(char *text, size_t len, const char *backend, const char *tool_isa,
		 const char *native_isa, const char *host_isa)
{
	if (native_isa[0] == '\0' || strcmp(tool_isa, native_isa) == 0)
		return 0;
	snprintf(text, len, "%s ran %s kernels under the tool but picks %s natively on this CPU "
		 "(%s): the native kernels were not measured; cap both sides with --isa avx2, or "
		 "check natively with dmo verify --backend %s", backend, tool_isa, native_isa,
		 host_isa, backend);
	return 1;
}

int dmo_rundir_isa_note(const char *dir, char *text, size_t len)
{
	struct dmo_backend_info_table table;
	char err[256];
	int noted = 0;

	if (dmo_backend_info_read(dir, &table, err, sizeof err) != 0)
		return 0; /* dmo analyze reports a damaged backend.csv */
	for (size_t i = 0; i < table.count && !noted; i++) {
		const struct dmo_backend_info *b = &table.rows[i];
		noted = dmo_isa_note(text, len, b->backend, b->isa, b->native_isa, b->host_isa);
	}
	dmo_backend_info_free(&table);
	return noted;
}

int dmo_host_isa_note(char *text, size_t len)
{
	const char *host = dmo_cpu_widest_isa();

	if (!dmo_isa_beyond_valgrind(host))
		return 0;
	snprintf(text, len, "this CPU offers %s natively, Valgrind's at most avx2: a library "
		 "that picks kernels by CPUID may run other kernels natively than were measured "
		 "(host.csv)", host);
	return 1;
}
