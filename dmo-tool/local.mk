# dmo-tool/local.mk - the Valgrind tool.  It is a static executable with no
# libc, linked at Valgrind's load address against Debian's core libraries
# (../shared/notes/valgrind-out-of-tree.md), so it has its own link rule.
# `dmo profile` points VALGRIND_LIB at the folder holding the tool and a
# link to the core's preload object.  The tool replaces no guest function,
# so it has no preload object of its own.
pkglibexec_PROGRAMS += dmo-tool/dmo-amd64-linux
dmo_tool_dmo_amd64_linux_SOURCES = dmo-tool/dmo_main.c dmo-tool/dmo_layers.c \
	dmo-tool/dmo_layers.h dmo-tool/dmo_trace.c dmo-tool/dmo_trace.h \
	dmo-tool/dmo_bare.c dmo-tool/dmo_bare.h common/event_code.h \
	dmo-tool/dmo_where.c dmo-tool/dmo_where.h dmo-tool/dmo_stream.c dmo-tool/dmo_stream.h \
	dmo-tool/dmo_entry.c dmo-tool/dmo_entry.h dmo-tool/dmo_hull.c dmo-tool/dmo_hull.h \
	dmo-tool/dmo_sum.c dmo-tool/dmo_sum.h dmo-tool/dmo_chain.c dmo-tool/dmo_chain.h \
	dmo-tool/dmo_threads.c dmo-tool/dmo_threads.h \
	common/os_reducer.c common/wire_parse.c common/protocol.c common/tape.c common/layer_list.c
dmo_tool_dmo_amd64_linux_CPPFLAGS = $(CORE_CPPFLAGS) $(FREESTANDING_CPPFLAGS) $(VALGRIND_CFLAGS) \
	-DVGA_amd64=1 -DVGO_linux=1 -DVGP_amd64_linux=1 -DVGPV_amd64_linux_vanilla=1
dmo_tool_dmo_amd64_linux_CFLAGS = $(FREESTANDING_CFLAGS) -m64 -O2 -g -fno-strict-aliasing -fno-builtin \
	-fno-stack-protector -fomit-frame-pointer -Wall -Wno-unused-parameter
dmo_tool_dmo_amd64_linux_LDADD = $(VALGRIND_LIBDIR)/libcoregrind-amd64-linux.a \
	$(VALGRIND_LIBDIR)/libvex-amd64-linux.a -lgcc
dmo_tool_dmo_amd64_linux_LINK = $(CC) -m64 -static -nodefaultlibs -nostartfiles \
	-u _start -Wl,--build-id=none -Wl,-Ttext-segment=$(VALGRIND_LOAD_ADDRESS) -o $@

VG_PRELOAD = vgpreload_core-amd64-linux.so

# In the build tree dmo-tool/ itself is the VALGRIND_LIB folder.
all-local: dmo-tool/$(VG_PRELOAD)
dmo-tool/$(VG_PRELOAD):
	$(AM_V_at)$(MKDIR_P) dmo-tool
	$(AM_V_GEN)ln -sf $(VALGRIND_LIBEXECDIR)/$(VG_PRELOAD) $@
CLEANFILES += dmo-tool/$(VG_PRELOAD)

# Installed, the tool is also linked into $(valgrindtooldir) (configure
# --with-valgrind-tooldir; `no` skips it), the folder where the installed
# valgrind looks for tools, so that `valgrind --tool=dmo` works (docs/install.md).
# Only an install to the configured prefix does so, or one given
# valgrindtooldir=DIR on make's command line: a throw-away
# `make install prefix=DIR` writes nothing outside DIR (a link from the
# system's folder into DIR would dangle once DIR is deleted).
VG_TOOL = dmo-amd64-linux
CONFIGURED_PREFIX = @prefix@
CONFIGURED_VALGRINDTOOLDIR = @valgrindtooldir@
# The folder to link the tool into for this install, or nothing.
VG_TOOL_LINK_DIR = `if test -z '$(valgrindtooldir)' || test '$(valgrindtooldir)' = no; then :; \
	elif test '$(prefix)' = '$(CONFIGURED_PREFIX)' || \
	     test '$(valgrindtooldir)' != '$(CONFIGURED_VALGRINDTOOLDIR)'; then \
	  echo '$(DESTDIR)$(valgrindtooldir)'; fi`
# make distcheck installs as whoever runs it: keep its link in its own tree.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-valgrind-tooldir='$${libexecdir}/valgrind'
install-exec-hook:
	ln -sf $(VALGRIND_LIBEXECDIR)/$(VG_PRELOAD) $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
	@dir=$(VG_TOOL_LINK_DIR); \
	if test -n "$$dir"; then \
	  echo " ln -sf $(pkglibexecdir)/$(VG_TOOL) $$dir/$(VG_TOOL)"; \
	  { $(MKDIR_P) "$$dir" && ln -sf '$(pkglibexecdir)/$(VG_TOOL)' "$$dir/$(VG_TOOL)"; } || { \
	    echo "make install: cannot link the tool into valgrind's folder $$dir;" >&2; \
	    echo "  install as root, or choose another with make install valgrindtooldir=DIR" >&2; \
	    echo "  (valgrind then needs VALGRIND_LIB=DIR), or skip it with valgrindtooldir=no" >&2; \
	    exit 1; }; \
	elif test '$(valgrindtooldir)' != no; then \
	  echo "make install: prefix $(prefix) is not the configured $(CONFIGURED_PREFIX):"; \
	  echo "  valgrind's folder $(valgrindtooldir) is left alone; valgrind --tool=dmo needs"; \
	  echo "  VALGRIND_LIB=$(pkglibexecdir) (or make install valgrindtooldir=DIR)"; \
	fi
uninstall-hook:
	rm -f $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
	@dir=$(VG_TOOL_LINK_DIR); \
	if test -n "$$dir"; then \
	  echo " rm -f $$dir/$(VG_TOOL)"; \
	  rm -f "$$dir/$(VG_TOOL)"; \
	fi
