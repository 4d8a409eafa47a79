/* where_format.h - a layer's code locations, `layer-NNNN-where.csv`
 * (docs/rundir.md): which instructions touched the layer's buffers, how
 * often, and which two accesses bind its O_s, named by the tool from the
 * program's debug information.  Written by the tool, read by `dmo
 * annotate` (analysis/lib/where.c).  Freestanding: no libc. */
#ifndef DMO_WHERE_FORMAT_H
#define DMO_WHERE_FORMAT_H

/* The file of a layer, for printf with the layer number. */
#define DMO_WHERE_FILE_FORMAT "layer-%04u-where.csv"
#define DMO_WHERE_FILE_SUFFIX "-where.csv"

/* The header line, the file's first; its columns in this order. */
#define DMO_WHERE_HEADER \
	"role,ip,kind,offset,size,in_reads,in_writes,out_reads,out_writes," \
	"function,file,line,object,object_address,inlined_into,called_from"
#define DMO_WHERE_COLUMNS 16
/* The files of the first tool with code locations end at inlined_into:
 * read with called_from empty. */
#define DMO_WHERE_COLUMNS_V1 15

/* The role column: a site row gives one instruction's counts; the two
 * pair rows give the accesses of the tightest forbidding pair, the
 * earlier one first. */
#define DMO_WHERE_ROLE_SITE "site"
#define DMO_WHERE_ROLE_FIRST "first"
#define DMO_WHERE_ROLE_SECOND "second"

/* The kind column of a pair row, indexed by dmo_event_kind() (event.h). */
#define DMO_WHERE_KIND_NAMES { "in-read", "in-write", "out-read", "out-write" }

#endif
