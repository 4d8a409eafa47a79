# target-harness/lib/local.mk - libdmo-harness, the client library any
# program links to mark its layers, and its pkg-config file.
lib_LTLIBRARIES += target-harness/lib/libdmo-harness.la
target_harness_lib_libdmo_harness_la_SOURCES = target-harness/lib/harness.c common/wire.h
target_harness_lib_libdmo_harness_la_CPPFLAGS = $(CLIENT_CPPFLAGS)
target_harness_lib_libdmo_harness_la_LDFLAGS = -version-info 0:0:0 -export-symbols-regex '^dmo_layer_'
dmoincludedir = $(includedir)/dmo
dmoinclude_HEADERS = target-harness/include/dmo/harness.h target-harness/include/dmo/backend.h \
	target-harness/include/dmo/formula.h
pkgconfigdir = $(libdir)/pkgconfig
pkgconfig_DATA = target-harness/lib/dmo-harness.pc
