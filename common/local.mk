# common/local.mk - the freestanding core (event layout, wire records, O_s
# reducer, tape core), compiled once for libc users here and again, with the
# tool's flags, in dmo-tool/local.mk.
noinst_LTLIBRARIES += common/libdmo-core.la
common_libdmo_core_la_SOURCES = common/event.h common/wire.h common/os_reducer.h common/os_reducer.c \
	common/wire_parse.h common/wire_parse.c common/summary.h common/trace_format.h \
	common/protocol.h common/protocol.c common/text.h common/size_text.h \
	common/event_code.h common/event_code.c common/layer_list.h common/layer_list.c
common_libdmo_core_la_CPPFLAGS = $(CORE_CPPFLAGS) $(FREESTANDING_CPPFLAGS)
common_libdmo_core_la_CFLAGS = $(AM_CFLAGS) $(FREESTANDING_CFLAGS)
check_PROGRAMS += tests/test_os_any
TESTS += tests/test_os_any
tests_test_os_any_SOURCES = tests/test_os_any.c
tests_test_os_any_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_os_any_LDADD = common/libdmo-core.la $(CHECK_LIBS)

check_PROGRAMS += tests/test_protocol
TESTS += tests/test_protocol
tests_test_protocol_SOURCES = tests/test_protocol.c tests/check_main.h
tests_test_protocol_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_protocol_LDADD = common/libdmo-core.la $(CHECK_LIBS)

# Issue 31: the compact events' coding and the --layers lists.
check_PROGRAMS += tests/test_event_code tests/test_layer_list
TESTS += tests/test_event_code tests/test_layer_list
tests_test_event_code_SOURCES = tests/test_event_code.c tests/check_main.h
tests_test_layer_list_SOURCES = tests/test_layer_list.c tests/check_main.h
tests_test_event_code_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_layer_list_CFLAGS = $(tests_test_event_code_CFLAGS)
tests_test_event_code_LDADD = common/libdmo-core.la $(CHECK_LIBS)
tests_test_layer_list_LDADD = $(tests_test_event_code_LDADD)
