/* dmo_fold_ir.c - the O_s rule of common/os_fold_rule.h instantiated as
 * VEX IR, so that an access the inline checks find wholly inside a buffer,
 * made by the layer's only thread, updates that thread's state in tool
 * memory with no helper call.  The state's fields are at fixed addresses,
 * which the IR holds as constants; every store is guarded by the caller's
 * condition, so code that runs the IR for another access changes
 * nothing. */
#include "pub_tool_basics.h"
#include "pub_tool_tooliface.h"

#include "dmo_fold_ir.h"

struct fold_ir {
	IRSB *sb;
	IRExpr *guard;
};

static IRExpr *fold_tmp(struct fold_ir *c, IRType ty, IRExpr *e)
{
	IRTemp t = newIRTemp(c->sb->tyenv, ty);
	addStmtToIRSB(c->sb, IRStmt_WrTmp(t, e));
	return IRExpr_RdTmp(t);
}

static IRExpr *fold_bin(struct fold_ir *c, IRType ty, IROp op, IRExpr *a, IRExpr *b)
{
	return fold_tmp(c, ty, IRExpr_Binop(op, a, b));
}

#define FOLD_NAME(x) dmo_ir_##x
#define FOLD_CTX struct fold_ir *
#define FOLD_V IRExpr *
#define FOLD_B IRExpr *
#define FOLD_GET(c, p) \
	fold_tmp(c, Ity_I64, IRExpr_Load(Iend_LE, Ity_I64, mkIRExpr_HWord((HWord)(p))))
#define FOLD_PUT(c, p, v) \
	addStmtToIRSB((c)->sb, IRStmt_StoreG(Iend_LE, mkIRExpr_HWord((HWord)(p)), v, (c)->guard))
#define FOLD_K(c, k) IRExpr_Const(IRConst_U64(k))
#define FOLD_ADD(c, a, b) fold_bin(c, Ity_I64, Iop_Add64, a, b)
#define FOLD_SUB(c, a, b) fold_bin(c, Ity_I64, Iop_Sub64, a, b)
#define FOLD_LTU(c, a, b) fold_bin(c, Ity_I1, Iop_CmpLT64U, a, b)
#define FOLD_LTS(c, a, b) fold_bin(c, Ity_I1, Iop_CmpLT64S, a, b)
#define FOLD_NE0(c, a) fold_bin(c, Ity_I1, Iop_CmpNE64, a, FOLD_K(c, 0))
#define FOLD_AND(c, a, b) fold_bin(c, Ity_I1, Iop_And1, a, b)
#define FOLD_OR(c, a, b) fold_bin(c, Ity_I1, Iop_Or1, a, b)
#define FOLD_NOT(c, a) fold_tmp(c, Ity_I1, IRExpr_Unop(Iop_Not1, a))
#define FOLD_B2V(c, b) fold_tmp(c, Ity_I64, IRExpr_Unop(Iop_1Uto64, b))
#define FOLD_ITE(c, b, x, y) fold_tmp(c, Ity_I64, IRExpr_ITE(b, x, y))
#include "os_fold_rule.h"

void dmo_fold_ir(IRSB *sb, IRExpr *guard, struct dmo_thread_acc *t, UInt flags,
		 IRExpr *offset, UInt size)
{
	struct fold_ir c = { sb, guard };
	dmo_ir_thread_add(&c, t, flags, offset, IRExpr_Const(IRConst_U64(size)));
}
