# target-harness/lib/local.mk - libdmo-harness, the client library any
# program links to mark its layers, and its pkg-config file.
lib_LTLIBRARIES += target-harness/lib/libdmo-harness.la
target_harness_lib_libdmo_harness_la_SOURCES = target-harness/lib/harness.c common/wire.h
target_harness_lib_libdmo_harness_la_CPPFLAGS = $(CLIENT_CPPFLAGS)
# The op-spec parser is linked in (libc only), so that begin checks specs
# with the same grammar as the rest of dmo; only dmo_layer_* is exported.
target_harness_lib_libdmo_harness_la_LIBADD = opspec/libdmo-opspec.la
target_harness_lib_libdmo_harness_la_LDFLAGS = -version-info 1:0:1 -export-symbols-regex '^dmo_layer_'
dmoincludedir = $(includedir)/dmo
dmoinclude_HEADERS = target-harness/include/dmo/harness.h target-harness/include/dmo/backend.h \
	target-harness/include/dmo/formula.h
# dmo-harness.pc is written when it is installed, from the directories
# make install is given, so `make install prefix=DIR` gets DIR in it; DESTDIR
# is a staging area and stays out of it.
pkgconfigdir = $(libdir)/pkgconfig
EXTRA_DIST += target-harness/lib/dmo-harness.pc.in
install-data-local: install-dmo-harness-pc
install-dmo-harness-pc:
	$(MKDIR_P) '$(DESTDIR)$(pkgconfigdir)'
	sed -e 's|@prefix[@]|$(prefix)|' -e 's|@exec_prefix[@]|$(exec_prefix)|' \
		-e 's|@libdir[@]|$(libdir)|' -e 's|@includedir[@]|$(includedir)|' \
		-e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|' \
		$(srcdir)/target-harness/lib/dmo-harness.pc.in >'$(DESTDIR)$(pkgconfigdir)/dmo-harness.pc'
uninstall-local:
	rm -f '$(DESTDIR)$(pkgconfigdir)/dmo-harness.pc'
.PHONY: install-dmo-harness-pc
