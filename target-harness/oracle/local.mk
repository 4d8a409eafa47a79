# target-harness/oracle/local.mk - dmo-armnn-run, the independent runtime
# dmo's inference is compared with (Arm NN's TfLite parser on CpuRef), built
# only when configure finds Arm NN; its tests skip (77) otherwise.
if HAVE_ARMNN_TFLITE
pkglibexec_PROGRAMS += target-harness/oracle/dmo-armnn-run
target_harness_oracle_dmo_armnn_run_SOURCES = target-harness/oracle/armnn_run.cpp
target_harness_oracle_dmo_armnn_run_CPPFLAGS =
target_harness_oracle_dmo_armnn_run_CXXFLAGS = -std=c++14 -O2 -Wall -Wextra
target_harness_oracle_dmo_armnn_run_LDADD = -larmnnTfLiteParser -larmnn
endif
EXTRA_DIST += target-harness/oracle/armnn_run.cpp

TESTS += tests/armnn_oracle.sh
EXTRA_DIST += tests/armnn_oracle.sh
EXTRA_DIST += tests/models/NOTICE $(wildcard $(srcdir)/tests/models/*.tflite)
TESTS += tests/armnn_compare.sh
EXTRA_DIST += tests/armnn_compare.sh
TESTS += tests/armnn_mobilenet.sh
EXTRA_DIST += tests/armnn_mobilenet.sh tests/armnn_layers.py
