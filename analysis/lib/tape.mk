# analysis/lib/tape.mk (filled in by its own commit)
