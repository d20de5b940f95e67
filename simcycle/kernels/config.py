"""Numba flags in one place (numba code over arrays lives in the ``*_nb`` and ``nb`` modules).

Importing this module prepares numba for simcycle's kernels:

* Compiled kernels are cached on disk (``cache=True``) so a command pays compilation once per
  machine.  Where no cache directory is writable (a read-only install and no writable home
  or ``NUMBA_CACHE_DIR``), numba would refuse to decorate a cached function; we then compile
  without the cache and say so in one warning line.
* A cache entry that cannot be read (a corrupted or truncated ``.nbi`` index or ``.nbc``
  data file, after a full disk or a killed write) is dropped and the kernel recompiled, with
  one warning line; numba alone would fail on every later run.  An entry that cannot be
  saved is said once too.  ``NUMBA_CACHE_DIR`` naming something that is not a writable
  folder is said once, and kernels are then compiled without a cache.
* Numba looks for a BLAS (for ``np.dot``) the first time it loads anything, by importing
  ``scipy.linalg`` when SciPy is installed: about 0.16 s of every command's start-up.  No
  kernel uses BLAS, so that probe is answered "no BLAS" without importing SciPy.
* Before it reads a cache entry numba refreshes its whole target context (it imports and
  installs every registry of its own modules: about 0.1 s, a third of simcycle's start-up
  above a bare ``import numpy, numba``).  Loading compiled code needs only numba's runtime
  (NRT), so a cache load initialises that alone; a compile after a miss refreshes the
  context itself (``numba.core.compiler``), so nothing is ever compiled without it.
"""

import os
import sys

import numba
from numba.core import caching
from numba.core.runtime import rtsys

_said: set[str] = set()


def warn_once(key: str, text: str) -> None:
    """One ``simcycle: warning:`` line per ``key`` and process."""
    if key not in _said:
        _said.add(key)
        print(f"simcycle: warning: {text}", file=sys.stderr)


def _unusable_cache_dir() -> str | None:
    """What is wrong with ``NUMBA_CACHE_DIR`` (None when it is unset or a usable folder)."""
    d = os.environ.get("NUMBA_CACHE_DIR")
    if not d:
        return None
    if os.path.exists(d) and not os.path.isdir(d):
        return "is a file, not a folder"
    probe = d
    while not os.path.exists(probe):     # numba creates the folder; its parent must allow it
        parent = os.path.dirname(os.path.abspath(probe))
        if parent == probe:
            break
        probe = parent
    if not os.path.isdir(probe) or not os.access(probe, os.W_OK | os.X_OK):
        return "is not a writable folder"
    return None


def _heal_cache() -> None:
    """Make numba's per-function cache recover from entries it cannot read or write."""
    save = caching.Cache.save_overload

    def _drop(cache) -> None:
        f = cache._cache_file
        for path in (f._index_path,):      # a fresh index: save() numbers data files anew
            try:
                os.unlink(path)
            except OSError:
                pass

    def load_overload(self, sig, target_context):
        try:
            # numba refreshes the target context (every registry of every numba module,
            # about 0.1 s) before reading a cache entry; loading compiled code needs only
            # its runtime (NRT), and a compile after a miss refreshes it itself
            rtsys.initialize(target_context)
            with self._guard_against_spurious_io_errors():
                return self._load_overload(sig, target_context)
        except Exception as e:   # unpickling a damaged file: EOFError, ValueError, ...
            warn_once("cache-load", "a compiled-kernel cache entry could not be read "
                      f"({type(e).__name__} in {self._cache_path}); it is recompiled and "
                      "replaced")
            _drop(self)
            return None

    def save_overload(self, sig, data):
        try:
            return save(self, sig, data)
        except Exception as e:
            _drop(self)
            warn_once("cache-save", "a compiled kernel could not be saved in the cache "
                      f"({type(e).__name__}: {e}); later runs compile it again")
            return None

    caching.Cache.load_overload = load_overload
    caching.Cache.save_overload = save_overload


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


_heal_cache()
_bad_dir = _unusable_cache_dir()
CACHE = _bad_dir is None and _cache_works()
if _bad_dir is not None:
    print(f"simcycle: warning: NUMBA_CACHE_DIR={os.environ['NUMBA_CACHE_DIR']!r} {_bad_dir}: "
          "compiled kernels cannot be cached, so every run compiles them again (minutes); "
          "point it at a writable folder or unset it", file=sys.stderr)
elif not CACHE:
    print("simcycle: warning: no writable cache directory for compiled kernels (set "
          "NUMBA_CACHE_DIR to one); compiling without a cache", file=sys.stderr)
_skip_blas_probe()

jit = numba.njit(cache=CACHE, nogil=True)          # helpers called per game or per replica
pjit = numba.njit(cache=CACHE, parallel=True, nogil=True)  # replica-parallel drivers
# Inlined at numba-IR level into the caller: for small helpers called per replica inside a
# prange loop, where a real call's reference-count updates on shared arrays contend between
# threads.
ijit = numba.njit(cache=CACHE, nogil=True, inline="always")
# Without reference counting (numba's NRT off inside the function and what it inlines): for
# kernels that allocate no array and return none, whose array arguments the caller keeps
# alive.  Every take of an array (a tuple's field, an inlined helper's argument) otherwise
# costs an atomic increment and decrement, which in the Swiss pairing's per-bracket code
# LLVM's reference-count pruning leaves in place (benchmarks/README.md, 2026-12-05).  The
# knock-out series' stage and the group series' replica loop too: about 300 counts a GP 2019
# series, about a tenth of its kernel's time (benchmarks/README.md, "The knock-out stage
# without reference counts").
bjit = numba.njit(cache=CACHE, nogil=True, _nrt=False)

# Each kernel should compile once per command: a jitted function called with a literal
# constant (``f(x, 3)``, ``f(x, False)``, a loop counter starting at ``0``) is compiled for
# ``Literal[int](3)`` as well as for ``int64``, and a ``prange`` index is uint64 in the
# parallel body but int64 while the loop is typed; so callers pass ``np.int64(3)``,
# ``np.bool_(False)`` and the chunk index as ``np.int64(c)`` (benchmarks/README.md).

# Replicas per independent chunk of a batch.  Chunk boundaries depend only on this and on
# the batch partition (never on the thread count), so tallies are identical for any
# NUMBA_NUM_THREADS.
CHUNK = 512
