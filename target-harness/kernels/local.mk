# target-harness/kernels/local.mk - libdmokernels, the reference kernels dmo
# profiles as a black box: a shared library of its own (no dmo headers),
# optimised like a real deployment and exporting only its dk_* API.
lib_LTLIBRARIES += target-harness/kernels/libdmokernels.la
dmokernelsincludedir = $(includedir)
dmokernelsinclude_HEADERS = target-harness/kernels/dmokernels.h
target_harness_kernels_libdmokernels_la_SOURCES = \
	target-harness/kernels/kernels.c target-harness/kernels/kernels_body.h \
	target-harness/kernels/kernels_internal.h target-harness/kernels/kernels_rows.c \
	target-harness/kernels/kernels_layout.c target-harness/kernels/kernels_nchw.c \
	target-harness/kernels/kernels_nchw_quant.c \
	target-harness/kernels/kernels_onnx_ew.c \
	target-harness/kernels/kernels_convt.c \
	target-harness/kernels/kernels_matmul.c \
	target-harness/kernels/kernels_qlinear.c
target_harness_kernels_libdmokernels_la_CPPFLAGS = $(KERNELS_CPPFLAGS)
target_harness_kernels_libdmokernels_la_CFLAGS = $(AM_CFLAGS) -O2
target_harness_kernels_libdmokernels_la_LDFLAGS = -export-symbols-regex '^dk_' -version-info 0:0:0
target_harness_kernels_libdmokernels_la_LIBADD = -lm

check_PROGRAMS += tests/test_kernels
TESTS += tests/test_kernels
tests_test_kernels_SOURCES = tests/test_kernels.c
tests_test_kernels_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(AX_PTHREAD_LIBS)
tests_test_kernels_LDADD = target-harness/kernels/libdmokernels.la $(CHECK_LIBS) $(AX_PTHREAD_LIBS) -lm

check_PROGRAMS += tests/test_quant
TESTS += tests/test_quant
tests_test_quant_SOURCES = tests/test_quant.c
tests_test_quant_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_quant_LDADD = target-harness/kernels/libdmokernels.la $(CHECK_LIBS) -lm
