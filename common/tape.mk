# common/tape.mk - the tape core, built once for libc users; the Valgrind tool
# compiles common/tape.c again with its own flags.
noinst_LTLIBRARIES += common/libdmo-tape-core.la
common_libdmo_tape_core_la_SOURCES = common/tape.h common/tape.c common/slab_pool.h
common_libdmo_tape_core_la_CPPFLAGS = $(CORE_CPPFLAGS) $(FREESTANDING_CPPFLAGS)
common_libdmo_tape_core_la_CFLAGS = $(AM_CFLAGS) $(FREESTANDING_CFLAGS)
