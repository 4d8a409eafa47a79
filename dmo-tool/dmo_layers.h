/* dmo_layers.h - the tool's view of the target's layers: the FIFO drain,
 * the begin/end state machine, protocol-misuse checks, and the run
 * directory it writes (tool-layers.bin, layer-NNNN.events). */
#ifndef DMO_LAYERS_H
#define DMO_LAYERS_H

#include "pub_tool_basics.h"
#include "os_reducer.h"
#include "pub_tool_vki.h"
#include "libvex_guest_amd64.h"

/* Linux's O_NOFOLLOW, which Valgrind's vki headers give for Darwin only:
 * the files the tool creates are never opened through a symbolic link
 * left under their name (the open fails with ELOOP).  The tool is built
 * for amd64-linux only (dmo-tool/local.mk), whose value this is. */
#ifndef VKI_O_NOFOLLOW
#define VKI_O_NOFOLLOW 0400000
#endif

/* Why the tool could not create a file: Valgrind's own strerror, except
 * for the ELOOP of VKI_O_NOFOLLOW, which it does not know. */
const HChar *dmo_create_error(SysRes res);

/* The layer between its begin and end markers (dmo_active), or NULL. */
struct dmo_active_layer {
	Addr in_addr, out_addr;
	ULong in_bytes, out_bytes;
	struct dmo_any_reducer reducer; /* per thread, and as it ran */
	UInt alive_threads; /* the most threads of the process alive at once */
};
extern struct dmo_active_layer *dmo_active;

/* Non-NULL while code is translated with checks: from the first layer
 * on, the open layer, or the last one after it ended (the helpers then
 * see no open layer and return).  NULL before the first layer and after
 * the code went back to plain (dmo_layers_idle_access), when code is
 * translated with no checks at all.  Only a change between NULL and
 * non-NULL throws translations away. */
extern const struct dmo_active_layer *dmo_watched;

/* The ranges the checks compare each access with, read by the
 * instrumented code at this fixed address, so a layer over new buffers
 * needs no new translations.  Range k passes the accesses at addresses A
 * with A - lo[k] < span[k], unsigned.  lo is a buffer's start less
 * DMO_WATCH_SLACK, so one compare passes every access of up to
 * DMO_WATCH_SLACK + 1 bytes that touches the buffer; a wider one is
 * checked exactly (dmo_main.c).  An access that passes without touching a
 * buffer (just below one) costs a helper call that finds nothing; no
 * access that touches one is missed.  Two buffers close together are one
 * range (n_ranges 1, helpers that find the buffer); far apart, range 0 is
 * the input and range 1 the output.  The code is translated for one
 * n_ranges, so a change of it throws translations away.  Valid while
 * dmo_watched is non-NULL; set at each layer's begin, by the marker
 * helper, and read by the checks from a copy (below). */
#define DMO_WATCH_SLACK 31
struct dmo_watch_ranges {
	Addr lo[2];
	ULong span[2];
	UInt n_ranges;
};
extern struct dmo_watch_ranges dmo_watch;

/* The checks read lo and span from a copy in the running thread's guest
 * state, in its first shadow area, which this tool has no other use for:
 * at DMO_WATCH_SHADOW (an offset into VexGuestAMD64State), lo[0], lo[1],
 * span[0], span[1].  An instruction then reads each as a memory operand
 * off the guest state pointer, with no register held through the block
 * and no load of the words at its start (bench/README.md).  The copy is
 * made for the thread that runs the marker helper when a layer opens,
 * and for each thread when it starts to run (dmo_watch_publish), so a
 * thread in checked code always has the open layer's ranges: Valgrind
 * switches threads, delivers signals and returns from them only between
 * those points, a new thread starts with its parent's copy, and no other
 * code writes the area.  The area is the shadow of guest RAX to RBX (the
 * stack pointer's shadow, which Valgrind's core may use, comes after
 * them: dmo_layers.c checks it). */
#define DMO_WATCH_SHADOW offsetof(VexGuestAMD64State, guest_RAX)
#define DMO_WATCH_SHADOW_BYTES (4 * 8)

/* Copy dmo_watch's ranges to thread TID's shadow area. */
void dmo_watch_publish(UInt tid);

/* Guest instructions since the active layer's begin; the instrumented code
 * adds to it directly, when it counts (dmo_layers_init's COUNT). */
extern ULong dmo_instructions;

/* MAX_MEM bounds the RAM a full trace may hold (dmo_trace.h).  COUNT:
 * the code counts instructions; if not, rows say DMO_NOT_COUNTED. */
void dmo_layers_init(const HChar *fifo_path, const HChar *out_dir, Bool full_trace,
		     Bool count, ULong max_mem);
/* A full trace keeps only the layers on LIST (common/layer_list.h, checked
 * by the caller); the others get their summary rows as always, or with
 * SKIP are not measured at all (no row). */
void dmo_layers_trace_only(const HChar *list, Bool skip);
/* Ends the run; returns the rows it recorded (layers and refusals). */
ULong dmo_layers_fini(void);

/* Valgrind's strerror, for messages: the tool has no libc, and the
 * installed headers do not declare it (pub_core_libcbase.h). */
extern const HChar *VG_(strerror)(UWord errnum);

/* Read whatever the target has written to the FIFO.  Called after each of
 * the guest's write-family syscalls, so records arrive in program order and
 * the guest never blocks on a full pipe. */
void dmo_layers_drain(void);

/* A helper ran while no layer is open (see dmo_watched).  After enough of
 * them the translations are thrown away and made again without checks;
 * the current one may finish: its checks find no open layer. */
void dmo_layers_idle_access(void);

/* A thread of the process was created or has exited (Valgrind's
 * pre_thread_ll_create and pre_thread_ll_exit): the count of threads alive
 * while a layer is open, touching its buffers or not. */
void dmo_layers_thread_created(void);
void dmo_layers_thread_exited(void);

/* Address of the target's marker region; 0 until its HELLO arrives. */
Addr dmo_layers_marker_addr(void);

/* A store of VALUE hit marker word WORD (0 = begin, 1 = end).  Returns
 * True when the translations were thrown away, so the caller leaves the
 * current one, made with no checks or for another number of ranges. */
Bool dmo_layers_marker(UWord word, ULong value);

#endif
