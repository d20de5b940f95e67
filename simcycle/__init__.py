"""simcycle: Monte Carlo qualification simulator for chess cycles.

Importing the package is cheap: numba is imported only by the modules under
``simcycle.kernels`` and by the code paths that simulate; the Python API
(``simcycle.load``, docs/api.md) is imported when it is first used.
"""

__version__ = "0.1.0"

from . import interrupts as _interrupts

_interrupts.install()   # Ctrl-C during the imports: one line (only in the simcycle process)

_API = ("load", "Event", "Game", "GameModel", "EloModel", "verify_probabilities")

__all__ = ["__version__", *_API]


def __getattr__(name: str):
    if name in _API:
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'simcycle' has no attribute {name!r}")


def __dir__():
    return sorted(__all__)
