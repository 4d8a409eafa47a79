# core/local.mk - the freestanding core (event layout, wire records, O_s
# reducer, tape core), compiled once for libc users here and again, with the
# tool's flags, in dmo-tool/local.mk.
noinst_LTLIBRARIES += core/libdmo-core.la
core_libdmo_core_la_SOURCES = core/event.h core/wire.h core/os_reducer.h core/os_reducer.c \
	core/wire_parse.h core/wire_parse.c core/summary.h core/trace_format.h
