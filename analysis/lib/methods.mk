# analysis/lib/methods.mk - algorithmic and analytic O_s
