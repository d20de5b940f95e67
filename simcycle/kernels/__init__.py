"""Numba kernels over arrays.  Importing anything here imports numba."""
