/* dmo_bare.c - `valgrind --tool=dmo PROG` with nothing set up, as every
 * Valgrind tool runs: with no --dmo-fifo and no $DMO_FIFO the tool makes
 * its run folder (dmo.out.PID, as cachegrind writes cachegrind.out.PID)
 * and a FIFO inside it, and the program's libdmo-harness asks for the
 * FIFO's path with a client request (wire.h, DMO_WIRE_REQ_FIFO_PATH).
 * The run folder named by --dmo-out is made here too, or refused before
 * the program starts, so no run goes half-way for want of a folder. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcfile.h"
#include "pub_tool_libcprint.h"
#include "pub_tool_libcproc.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_options.h"
#include "pub_tool_vki.h"
#include "pub_tool_vkiscnums.h"

#include "dmo_bare.h"
#include "dmo_layers.h"
#include "summary.h"
#include "wire.h"

/* The core's system call, which the installed headers do not declare
 * (pub_core_syscall.h); it makes the run folder, the one call the public
 * file functions lack. */
extern SysRes VG_(do_syscall)(UWord sysno, RegWord a1, RegWord a2, RegWord a3, RegWord a4,
			      RegWord a5, RegWord a6, RegWord a7, RegWord a8);

#define DEFAULT_OUT "dmo.out.%p"
#define FIFO_LEAF "dmo.fifo"

static const HChar *fifo_path;  /* what the program is told */
static HChar *own_fifo;          /* the FIFO made here, removed at exit */
static const HChar *out_dir;

const HChar *dmo_bare_out_dir(const HChar *out, const HChar *fifo)
{
	struct vg_stat info;
	SysRes res;

	if (out == NULL && fifo != NULL)
		return NULL;
	out_dir = VG_(expand_file_name)("--dmo-out", out ? out : DEFAULT_OUT);
	res = VG_(stat)(out_dir, &info);
	if (!sr_isError(res) && VKI_S_ISDIR(info.mode))
		return out_dir;
	if (!sr_isError(res)) {
		VG_(fmsg)("dmo: --dmo-out=%s is not a folder\n", out_dir);
		VG_(exit)(1);
	}
	res = VG_(do_syscall)(__NR_mkdir, (RegWord)out_dir, 0755, 0, 0, 0, 0, 0, 0);
	if (sr_isError(res)) {
		VG_(fmsg)("dmo: cannot create the run folder %s: %s\n", out_dir,
			  VG_(strerror)(sr_Err(res)));
		VG_(fmsg)("dmo: (its parent must exist and be writable; choose another with "
			  "--dmo-out=DIR)\n");
		VG_(exit)(1);
	}
	return out_dir;
}

const HChar *dmo_bare_child_out_dir(const HChar *out)
{
	SizeT len = VG_(strlen)(out) + sizeof DMO_CHILD_DIR_PREFIX + 24;
	HChar *dir = VG_(malloc)("dmo.bare.child", len);
	SysRes res;

	VG_(snprintf)(dir, len, "%s/" DMO_CHILD_DIR_PREFIX "%d", out, VG_(getpid)());
	/* Present already: this process's before an exec. */
	res = VG_(do_syscall)(__NR_mkdir, (RegWord)dir, 0755, 0, 0, 0, 0, 0, 0);
	if (sr_isError(res) && sr_Err(res) != VKI_EEXIST) {
		VG_(umsg)("dmo: cannot create %s for traced child %d: %s; its layers are not "
			  "recorded\n", dir, VG_(getpid)(), VG_(strerror)(sr_Err(res)));
		VG_(free)(dir);
		return NULL;
	}
	out_dir = dir;
	return dir;
}

const HChar *dmo_bare_make_fifo(const HChar *dir)
{
	SizeT len = VG_(strlen)(dir) + sizeof FIFO_LEAF + 1;
	SysRes res;

	own_fifo = VG_(malloc)("dmo.bare.fifo", len);
	VG_(snprintf)(own_fifo, len, "%s/%s", dir, FIFO_LEAF);
	/* One left by a run that was killed outright is this run's to reuse. */
	VG_(unlink)(own_fifo);
	res = VG_(mknod)(own_fifo, VKI_S_IFIFO | 0600, 0);
	if (sr_isError(res)) {
		VG_(umsg)("dmo: cannot create the FIFO %s: %s; no layers will be seen\n", own_fifo,
			  VG_(strerror)(sr_Err(res)));
		VG_(free)(own_fifo);
		own_fifo = NULL;
	}
	return own_fifo;
}

void dmo_bare_set_fifo(const HChar *fifo)
{
	fifo_path = fifo;
}

Bool dmo_bare_client_request(ThreadId tid, UWord *args, UWord *ret)
{
	HChar *buf = (HChar *)args[1];
	SizeT size = args[2], len;

	(void)tid;
	if (args[0] != DMO_WIRE_REQ_FIFO_PATH)
		return False;
	*ret = 0;
	if (fifo_path == NULL)
		return True;
	len = VG_(strlen)(fifo_path);
	if (len < size && VG_(am_is_valid_for_client)((Addr)buf, len + 1,
						      VKI_PROT_READ | VKI_PROT_WRITE)) {
		VG_(memcpy)(buf, fifo_path, len + 1);
		*ret = len;
	}
	return True;
}

void dmo_bare_fini(ULong rows)
{
	if (own_fifo != NULL)
		VG_(unlink)(own_fifo);
	if (VG_(clo_verbosity) == 0)
		return;
	if (rows == 0)
		VG_(umsg)("dmo: no layer was marked: the program never called dmo_layer_begin, "
			  "is not linked with libdmo-harness (see ldd), or ended before its first "
			  "layer\n");
	else if (out_dir != NULL && own_fifo != NULL)
		VG_(umsg)("dmo: %llu layer%s recorded in %s; dmo analyze %s reads %s\n", rows,
			  rows == 1 ? "" : "s", out_dir, out_dir, rows == 1 ? "it" : "them");
}
