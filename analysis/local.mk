# analysis/local.mk - the analysis library and the `dmo` command.
