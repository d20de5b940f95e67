"""Slow, plain-Python twins of the kernels, for tests.  No numba here."""
