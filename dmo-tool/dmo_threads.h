/* dmo_threads.h - the threads of a layer as the tool tells them apart:
 * one number for each thread, not Valgrind's ThreadId.
 *
 * Valgrind gives the ThreadId of a thread that has exited to the next
 * thread created.  Two threads of one layer that Valgrind ran one after
 * the other (a worker that exited, then another) may then share an id,
 * though natively they may run at the same time: dmo's multi-thread rule
 * (docs/threads.md) must see them as two threads, or it would take one
 * order of their accesses as the only one.  So each thread gets a number
 * of its own in each layer: 1 for the thread that opened the layer, then
 * 2, 3, ... in the order the others first run in it, and a thread
 * created while the layer is open gets a new number even under a
 * ThreadId that has one already.  The reducer keys its threads by these
 * numbers, and event files and threads.csv call them `tid`. */
#ifndef DMO_THREADS_H
#define DMO_THREADS_H

#include "pub_tool_basics.h"

/* The running thread's number in the open layer (or, between layers, in
 * the last one), set when it starts to run (dmo_main.c), so the helpers
 * need no call to learn it. */
extern UInt dmo_running_tid;

/* Valgrind's pre_thread_ll_create: CHILD is a new thread, whatever
 * number its ThreadId had. */
void dmo_threads_created(ThreadId child);

/* Thread TID's number in the layer, given now if it has none. */
UInt dmo_threads_number(ThreadId tid);

/* A layer opens on the running thread: the numbers start again, that
 * thread's is 1, and dmo_running_tid says so. */
void dmo_threads_layer_opened(void);

#endif
