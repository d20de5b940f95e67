"""Numba flags in one place (numba code over arrays lives in the *_nb modules)."""

import numba

CACHE = True
jit = numba.njit(cache=CACHE, nogil=True)          # small helpers, inlined by LLVM
pjit = numba.njit(cache=CACHE, parallel=True, nogil=True)  # replica-parallel drivers
# Inlined at numba-IR level into the caller: for small helpers called per replica inside a
# prange loop, where a real call's reference-count updates on shared arrays contend between
# threads.
ijit = numba.njit(cache=CACHE, nogil=True, inline="always")

# Replicas per independent chunk of a batch.  Chunk boundaries depend only on this and on
# the batch partition (never on the thread count), so tallies are identical for any
# NUMBA_NUM_THREADS.
CHUNK = 512
