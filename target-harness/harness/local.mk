# target-harness/harness/local.mk
