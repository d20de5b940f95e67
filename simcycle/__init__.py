"""simcycle: Monte Carlo qualification simulator for chess cycles.

Importing the package is cheap: numba is imported only by the modules under
``simcycle.kernels`` and by the code paths that simulate.
"""

__version__ = "0.1.0"
