# core/tape.mk - the tape core, built once for libc users; the Valgrind tool
# compiles core/tape.c again with its own flags.
noinst_LTLIBRARIES += core/libdmo-tape-core.la
core_libdmo_tape_core_la_SOURCES = core/tape.h core/tape.c
