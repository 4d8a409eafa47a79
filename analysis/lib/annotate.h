/* annotate.h - `dmo annotate`: a layer's loads and stores per source
 * line, and the two lines whose accesses bind its O_s, from the code
 * locations the tool wrote (where.h). */
#ifndef DMO_ANNOTATE_H
#define DMO_ANNOTATE_H

#include <stddef.h>
#include <stdio.h>

#include "rundir.h"

/* The table's columns, one row per source line (or per instruction with
 * no line information), for --csv and --json. */
#define DMO_ANNOTATE_CSV_HEADER \
	"layer,name,file,line,function,loads,stores,in_reads,in_writes,out_reads,out_writes," \
	"binds,ip,object,object_address,called_from"

/* Annotate layer ROW of run directory DIR on OUT: as text (the binding
 * pair, then each source file's lines with their counts, CONTEXT lines
 * around each counted one, when the file is readable), or as rows of
 * DMO_ANNOTATE_CSV_HEADER (CSV: the caller writes the header).  Returns
 * 0, or -1 with ERR when the layer's where file is missing or bad. */
int dmo_annotate_layer(FILE *out, const char *dir, const struct dmo_layer_row *row, int csv,
		       unsigned context, char *err, size_t err_len);

#endif
