# docs/man.mk - the manual pages: dmo(1) and dmo-CMD(1) for each command,
# made by help2man from the --help text analysis/cmd/options.c generates
# out of each command's option table, so pages, help and parser agree.
# dmo(1) also documents the Valgrind tool's --dmo-* options, taken from
# the tool's own `valgrind --tool=dmo --help` (the Valgrind way: a tool's
# options are in its --help and in the manual's tool section).
# tests/man_pages.sh checks that every command has its page and that
# `man -l` renders each one without a warning.
DMO_MAN_COMMANDS = profile export analyze demo run formula plot plan report model infer \
	verify compare sweep ops annotate
DMO_MAN_PAGES = docs/man/dmo.1 docs/man/dmo-profile.1 docs/man/dmo-export.1 \
	docs/man/dmo-analyze.1 docs/man/dmo-demo.1 docs/man/dmo-run.1 \
	docs/man/dmo-formula.1 docs/man/dmo-plot.1 docs/man/dmo-plan.1 docs/man/dmo-report.1 \
	docs/man/dmo-model.1 docs/man/dmo-infer.1 docs/man/dmo-verify.1 \
	docs/man/dmo-compare.1 docs/man/dmo-sweep.1 docs/man/dmo-ops.1 \
	docs/man/dmo-annotate.1
# dmo_layer_begin(3), and its other names: written by hand, as the C API
# has no --help to generate it from.
man_MANS = $(DMO_MAN_PAGES)
dist_man3_MANS = docs/man/dmo_layer_begin.3 docs/man/dmo_layer_end.3 \
	docs/man/dmo_layer_error.3
# Each command's EXAMPLES section: docs/man/examples/CMD.h2m.
DMO_MAN_EXAMPLES = $(DMO_MAN_COMMANDS:%=docs/man/examples/%.h2m)
EXTRA_DIST += docs/man/dmo.h2m docs/man/commands.h2m $(DMO_MAN_EXAMPLES)
CLEANFILES += $(DMO_MAN_PAGES) docs/man/tool-options.h2m docs/man/stamp

$(DMO_MAN_PAGES): docs/man/stamp

# One rule for every page: each is cheap, and one stamp keeps the list of
# commands in one place.  A page's NAME line is the command's summary in
# `dmo --help`.
docs/man/stamp: analysis/dmo$(EXEEXT) dmo-tool/dmo-amd64-linux $(srcdir)/docs/man/dmo.h2m \
		$(srcdir)/docs/man/commands.h2m $(DMO_MAN_EXAMPLES:%=$(srcdir)/%)
	$(AM_V_GEN)$(MKDIR_P) docs/man && \
	VALGRIND_LIB=$(abs_top_builddir)/dmo-tool $(VALGRIND) --tool=dmo --help 2>&1 | \
	$(AWK) 'BEGIN { print "[VALGRIND TOOL OPTIONS]"; \
		print "dmo profile and dmo run start Valgrind with these options themselves; give"; \
		print "them to valgrind --tool=dmo to run a program under the tool directly."; \
		print "Other Valgrind options reach Valgrind through \\fB\\-\\-vg\\-opt\\fR." } \
		/^  user options for dmo:/ { on = 1; next } \
		on && /^ *$$/ { exit } \
		on && /^    --/ { sub(/^ +/, ""); split($$0, f, /  +/); opt = f[1]; \
			gsub(/-/, "\\-", opt); sub(/=/, "\\fR=\\fI", opt); \
			print ".TP"; print "\\fB" opt "\\fR"; if (f[2] != "") print f[2]; next } \
		on { sub(/^ +/, ""); if (substr($$0, 1, 1) == "[") $$0 = "\\&" $$0; print }' \
		>docs/man/tool-options.h2m && \
	grep -q 'dmo\\-max\\-mem' docs/man/tool-options.h2m && \
	$(HELP2MAN) --no-info --no-discard-stderr --version-string='dmo $(VERSION)' \
		--name='find how far a kernel'"'"'s input and output buffers may overlap' \
		--include=$(srcdir)/docs/man/dmo.h2m --include=docs/man/tool-options.h2m \
		--include=$(srcdir)/docs/man/commands.h2m \
		--output=docs/man/dmo.1 analysis/dmo$(EXEEXT) && \
	for cmd in $(DMO_MAN_COMMANDS); do \
		summary=$$(analysis/dmo$(EXEEXT) --help | $(AWK) -v c=$$cmd '$$1 == c { $$1 = ""; sub(/^ /, ""); print }'); \
		test -n "$$summary" || { echo "dmo --help has no command $$cmd" >&2; exit 1; }; \
		$(HELP2MAN) --no-info --version-string="dmo-$$cmd (dmo) $(VERSION)" \
			--name="$$summary" --include=$(srcdir)/docs/man/examples/$$cmd.h2m \
			--include=$(srcdir)/docs/man/commands.h2m \
			--output=docs/man/dmo-$$cmd.1 "analysis/dmo$(EXEEXT) $$cmd" || exit 1; \
	done && touch $@
