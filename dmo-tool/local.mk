# dmo-tool/local.mk - the Valgrind tool.  It is a static executable with no
# libc, linked at Valgrind's load address against Debian's core libraries
# (../shared/notes/valgrind-out-of-tree.md), so it has its own link rule.
# Valgrind finds it through VALGRIND_LIB, a folder holding the tool and a
# link to the core's preload object; `dmo profile` sets that up.
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

install-exec-hook:
	ln -sf $(VALGRIND_LIBEXECDIR)/$(VG_PRELOAD) $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
uninstall-hook:
	rm -f $(DESTDIR)$(pkglibexecdir)/$(VG_PRELOAD)
