# dmo-tool/local.mk - the Valgrind tool.  It is a static executable with no
# libc, linked at Valgrind's load address against Debian's core libraries
# (../shared/notes/valgrind-out-of-tree.md), so it has its own link rule.
# `dmo profile` points VALGRIND_LIB at the folder holding the tool and a
# link to the core's preload object.  The tool replaces no guest function,
# so it has no preload object of its own.
pkglibexec_PROGRAMS += dmo-tool/dmo-amd64-linux
dmo_tool_dmo_amd64_linux_SOURCES = dmo-tool/dmo_main.c dmo-tool/dmo_layers.c \
	dmo-tool/dmo_layers.h dmo-tool/dmo_trace.c dmo-tool/dmo_trace.h \
	common/os_reducer.c common/wire_parse.c common/protocol.c common/tape.c
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
VG_TOOL = dmo-amd64-linux
# make distcheck installs as whoever runs it: keep its link in its own tree.
AM_DISTCHECK_CONFIGURE_FLAGS = --with-valgrind-tooldir='$${libexecdir}/valgrind'
install-exec-hook:
	ln -sf $(VALGRIND_LIBEXECDIR)/$(VG_PRELOAD) $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
	@if test -n '$(valgrindtooldir)' && test '$(valgrindtooldir)' != no; then \
	  echo " ln -sf $(pkglibexecdir)/$(VG_TOOL) $(DESTDIR)$(valgrindtooldir)/$(VG_TOOL)"; \
	  { $(MKDIR_P) '$(DESTDIR)$(valgrindtooldir)' && \
	    ln -sf '$(pkglibexecdir)/$(VG_TOOL)' '$(DESTDIR)$(valgrindtooldir)/$(VG_TOOL)'; } || { \
	    echo "make install: cannot link the tool into valgrind's folder $(DESTDIR)$(valgrindtooldir);" >&2; \
	    echo "  install as root, or choose another with make install valgrindtooldir=DIR" >&2; \
	    echo "  (valgrind then needs VALGRIND_LIB=DIR), or skip it with valgrindtooldir=no" >&2; \
	    exit 1; }; \
	fi
uninstall-hook:
	rm -f $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
	@if test -n '$(valgrindtooldir)' && test '$(valgrindtooldir)' != no; then \
	  echo " rm -f $(DESTDIR)$(valgrindtooldir)/$(VG_TOOL)"; \
	  rm -f '$(DESTDIR)$(valgrindtooldir)/$(VG_TOOL)'; \
	fi
