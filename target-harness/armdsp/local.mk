# target-harness/armdsp/local.mk - dmo's C definitions of the Arm DSP
# instructions CMSIS-NN's ARM_MATH_DSP path calls, force-included where
# CMSIS-NN is compiled for a host (the cmsis-nn-dsp backends, the TFLM
# runner), and their test against the architecture's definitions, built
# as gcc and as Arm Compiler 6 see CMSIS-NN.
ARMDSP_HEADER = $(top_srcdir)/target-harness/armdsp/arm_dsp_intrinsics.h
EXTRA_DIST += target-harness/armdsp/arm_dsp_intrinsics.h

check_PROGRAMS += tests/test_arm_dsp tests/test_arm_dsp_ac6
TESTS += tests/test_arm_dsp tests/test_arm_dsp_ac6
tests_test_arm_dsp_SOURCES = tests/test_arm_dsp.c tests/check_main.h
tests_test_arm_dsp_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_test_arm_dsp_LDADD = $(CHECK_LIBS)
tests_test_arm_dsp_ac6_SOURCES = $(tests_test_arm_dsp_SOURCES)
tests_test_arm_dsp_ac6_CPPFLAGS = $(AM_CPPFLAGS) -D__ARMCC_VERSION=6190004
tests_test_arm_dsp_ac6_CFLAGS = $(tests_test_arm_dsp_CFLAGS)
tests_test_arm_dsp_ac6_LDADD = $(tests_test_arm_dsp_LDADD)
