/* dmo_fold_ir.h - the O_s rule as inline IR (dmo_fold_ir.c). */
#ifndef DMO_FOLD_IR_H
#define DMO_FOLD_IR_H

#include "pub_tool_basics.h"
#include "libvex_ir.h"
#include "os_reducer.h"

/* Append to SB the IR of one access by thread state T (FLAGS of event.h,
 * known now; OFFSET an I64 atom, clipped; SIZE bytes), with every store
 * guarded by GUARD (I1). */
void dmo_fold_ir(IRSB *sb, IRExpr *guard, struct dmo_thread_acc *t, UInt flags,
		 IRExpr *offset, UInt size);

#endif
