"""Numba flags in one place (numba code over arrays lives in the ``*_nb`` and ``nb`` modules).

Importing this module prepares numba for simcycle's kernels:

* Compiled kernels are cached on disk (``cache=True``) so a command pays compilation once per
  machine.  Where no cache directory is writable (a read-only install and no writable home
  or ``NUMBA_CACHE_DIR``), numba would refuse to decorate a cached function; we then compile
  without the cache and say so in one warning line.
* Numba looks for a BLAS (for ``np.dot``) the first time it loads anything, by importing
  ``scipy.linalg`` when SciPy is installed: about 0.16 s of every command's start-up.  No
  kernel uses BLAS, so that probe is answered "no BLAS" without importing SciPy.
"""

import sys

import numba


def _cache_works() -> bool:
    def probe():   # pragma: no cover - never called, only decorated
        return 0
    try:
        numba.njit(cache=True)(probe)
    except RuntimeError:   # "cannot cache function ...: no locator available"
        return False
    return True


def _skip_blas_probe() -> None:
    blas = "scipy.linalg.cython_blas"
    if blas in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules[blas] = None   # makes numba's probe see an ImportError
    try:
        import numba.np.arraymath  # noqa: F401  (runs the probe once, now cheap)
    finally:
        del sys.modules[blas]


CACHE = _cache_works()
if not CACHE:
    print("simcycle: warning: no writable cache directory for compiled kernels (set "
          "NUMBA_CACHE_DIR to one); compiling without a cache", file=sys.stderr)
_skip_blas_probe()

jit = numba.njit(cache=CACHE, nogil=True)          # helpers called per game or per replica
pjit = numba.njit(cache=CACHE, parallel=True, nogil=True)  # replica-parallel drivers
# Inlined at numba-IR level into the caller: for small helpers called per replica inside a
# prange loop, where a real call's reference-count updates on shared arrays contend between
# threads.
ijit = numba.njit(cache=CACHE, nogil=True, inline="always")

# Replicas per independent chunk of a batch.  Chunk boundaries depend only on this and on
# the batch partition (never on the thread count), so tallies are identical for any
# NUMBA_NUM_THREADS.
CHUNK = 512
