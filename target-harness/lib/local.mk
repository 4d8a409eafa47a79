# target-harness/lib/local.mk - libdmo-harness, the client library any
# program links to mark its layers, and its pkg-config file.
lib_LTLIBRARIES += target-harness/lib/libdmo-harness.la
target_harness_lib_libdmo_harness_la_SOURCES = target-harness/lib/harness.c common/wire.h
# The op-spec parser is linked in (libc only), so that begin checks specs
# with the same grammar as the rest of dmo; only dmo_layer_* is exported.
target_harness_lib_libdmo_harness_la_LIBADD = opspec/libdmo-opspec.la
target_harness_lib_libdmo_harness_la_LDFLAGS = -version-info 1:0:1 -export-symbols-regex '^dmo_layer_'
dmoincludedir = $(includedir)/dmo
dmoinclude_HEADERS = target-harness/include/dmo/harness.h target-harness/include/dmo/backend.h \
	target-harness/include/dmo/formula.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = target-harness/lib/dmo-harness.pc
