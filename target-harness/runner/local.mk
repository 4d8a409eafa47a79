# target-harness/runner/local.mk
