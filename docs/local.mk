# docs/local.mk - the design notes, installed under $(docdir)
# (share/doc/dmo) so that the manual pages' SEE ALSO names files a user
# of an installed dmo has.  tests/install.sh checks that each is there.
dist_doc_DATA = README.md docs/backends.md docs/cli.md docs/coverage.md \
	docs/figures.md docs/formulas.md docs/install.md docs/kernels.md \
	docs/layering.md docs/models.md docs/plan.md docs/protocol.md \
	docs/rundir.md docs/sweep.md docs/tape.md docs/threads.md \
	docs/trace-format.md docs/verify.md docs/opspec.md docs/definitions.md \
	docs/annotate.md
