"""Numba flags in one place (numba code over arrays lives in the *_nb modules)."""

import numba

CACHE = True
jit = numba.njit(cache=CACHE, nogil=True)          # small helpers, inlined by LLVM
pjit = numba.njit(cache=CACHE, parallel=True, nogil=True)  # replica-parallel drivers

# Replicas per independent chunk of a batch.  Chunk boundaries depend only on this and on
# the batch partition (never on the thread count), so tallies are identical for any
# NUMBA_NUM_THREADS.
CHUNK = 512
