# opspec/local.mk (filled in by its own commit)
