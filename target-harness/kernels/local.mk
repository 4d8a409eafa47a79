# target-harness/kernels/local.mk (filled in by its own commit)
