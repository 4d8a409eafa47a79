# tests/local.mk - end-to-end tests: target programs run under the tool.
