/* dmo_entry.c - the probes' entry points (dmo_entry.h), written into
 * executable memory of Valgrind's own, a chunk at a time. */
#include "pub_tool_basics.h"
#include "pub_tool_aspacemgr.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_mallocfree.h"

#include "dmo_entry.h"

enum {
	ENTRY_BYTES = 32,  /* 22 used; a slot per entry keeps them aligned */
	CHUNK_BYTES = 1 << 16,
};

static UChar *chunk;
static SizeT used = CHUNK_BYTES;

void *dmo_entry_make(void *helper, const void *probe)
{
	ULong probe_word = (ULong)(Addr)probe, helper_word = (ULong)(Addr)helper;
	UChar *entry;
	if (used == CHUNK_BYTES) {
		/* Valgrind maps its own memory readable, writable and
		 * executable (its translations live in such memory too). */
		UChar *next = VG_(am_shadow_alloc)(CHUNK_BYTES);
		if (next == NULL)
			VG_(out_of_memory_NORETURN)("dmo.entry", CHUNK_BYTES);
		chunk = next;
		used = 0;
	}
	entry = chunk + used;
	used += ENTRY_BYTES;
	entry[0] = 0x48; /* movabs $probe, %rsi */
	entry[1] = 0xBE;
	VG_(memcpy)(entry + 2, &probe_word, 8);
	entry[10] = 0x48; /* movabs $helper, %rax */
	entry[11] = 0xB8;
	VG_(memcpy)(entry + 12, &helper_word, 8);
	entry[20] = 0xFF; /* jmp *%rax */
	entry[21] = 0xE0;
	return entry;
}
