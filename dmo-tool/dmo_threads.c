/* dmo_threads.c - a number for each thread of a layer (dmo_threads.h):
 * per ThreadId, the layer its number was given in, and the number.
 * O(1) a call, made when a thread starts to run, never per access. */
#include "pub_tool_basics.h"
#include "pub_tool_libcassert.h"
#include "pub_tool_mallocfree.h"
#include "pub_tool_threadstate.h"

#include "dmo_threads.h"

UInt dmo_running_tid = 0;

struct thread_number {
	UInt layer;  /* the stamp of the layer NUMBER was given in; 0: none */
	UInt number;
};

/* Indexed by ThreadId; VG_N_THREADS of them, made on first use (the
 * core sets VG_N_THREADS from --max-threads before any thread runs). */
static struct thread_number *numbers;
static UInt layer_stamp = 1; /* the current layer's; never 0 */
static UInt numbers_given;   /* in the current layer */

static struct thread_number *number_of(ThreadId tid)
{
	tl_assert(tid != VG_INVALID_THREADID && tid < VG_N_THREADS);
	if (numbers == NULL)
		numbers = VG_(calloc)("dmo.threads", VG_N_THREADS, sizeof *numbers);
	return &numbers[tid];
}

void dmo_threads_created(ThreadId child)
{
	number_of(child)->layer = 0;
}

UInt dmo_threads_number(ThreadId tid)
{
	struct thread_number *n = number_of(tid);
	if (n->layer != layer_stamp) {
		n->layer = layer_stamp;
		n->number = ++numbers_given;
	}
	return n->number;
}

void dmo_threads_layer_opened(void)
{
	if (++layer_stamp == 0)
		layer_stamp = 1;
	numbers_given = 0;
	dmo_running_tid = dmo_threads_number(VG_(get_running_tid)());
}
