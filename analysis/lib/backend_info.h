/* backend_info.h - reading a run directory's backend.csv: which backend ran
 * each layer (dmo run writes it through dmo-harness --info).  A run
 * directory of `dmo profile` has none: its kernels are unknown. */
#ifndef DMO_BACKEND_INFO_H
#define DMO_BACKEND_INFO_H

#include <stddef.h>

#include "backend.h" /* DMO_BACKEND_INFO_CSV */

struct dmo_backend_info {
	char name[256];   /* the layer's name */
	char backend[32]; /* one of DMO_BACKEND_NAMES_TEXT */
	char version[96];
	char isa_cap[16];
	char isa[64];
	char implementation[128];
	char cpu[128];    /* x86 features the program saw */
	/* Outside Valgrind, from the dmo front end: the ISA the backend
	 * dispatches to natively (with the same cap) and the host CPU's
	 * widest; "" when not recorded (an older backend.csv). */
	char native_isa[64], host_isa[16];
	char scratch_bytes[24]; /* the kernel's scratch memory; "" in older files */
};

struct dmo_backend_info_table {
	struct dmo_backend_info *rows;
	size_t count;
};

/* Read DIR/backend.csv; a missing file is an empty table, a malformed one
 * an error (0, or -1 with ERR). */
int dmo_backend_info_read(const char *dir, struct dmo_backend_info_table *table, char *err,
			  size_t err_len);

/* The row of layer NAME, or NULL. */
const struct dmo_backend_info *dmo_backend_info_find(const struct dmo_backend_info_table *table,
						     const char *name);

void dmo_backend_info_free(struct dmo_backend_info_table *table);

#endif
