"""Numba code over arrays: counter-seeded SplitMix64 streams, one per replica.

Replica r of a run with seed S draws from a stream whose start depends only on (S, r), so a
replica's outcome never depends on how replicas are split into batches, chunks or threads.
The plain-Python twin is ``simcycle.reference.rng.Stream``.
"""

import math

import numpy as np

from .config import jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
M1 = np.uint64(0xBF58476D1CE4E5B9)
M2 = np.uint64(0x94D049BB133111EB)
S30 = np.uint64(30)
S27 = np.uint64(27)
S31 = np.uint64(31)
S11 = np.uint64(11)
INV53 = 1.0 / 9007199254740992.0


@jit
def mix64_nb(z):
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@jit
def replica_state_nb(seed, replica):
    """Start state of replica ``replica`` of a run seeded with ``seed`` (both uint64)."""
    return mix64_nb(mix64_nb(np.uint64(seed) + GOLDEN) + np.uint64(replica) * GOLDEN)


@jit
def u01_nb(st):
    """Next uniform in [0, 1) of the stream held in ``st[0]`` (uint64[1], advanced in place)."""
    s = st[0] + GOLDEN
    st[0] = s
    return np.float64(mix64_nb(s) >> S11) * INV53


@jit
def step_nb(s):
    """(the next state, its uniform in [0, 1)) of a stream whose state ``s`` a loop keeps in a
    local (a register): the draws of :func:`u01_nb`, without the state's round trip through
    ``st[0]`` each draw, which chains a store and a load into every draw's latency (the
    Candidates' 56 games: benchmarks/README.md, "The stream's state in a register")."""
    s = s + GOLDEN
    return s, np.float64(mix64_nb(s) >> S11) * INV53


@jit
def randint_nb(st, n):
    """Uniform integer in 0..n-1."""
    k = np.int64(u01_nb(st) * n)
    return k if k < n else n - 1


@jit
def normal_nb(st):
    """Standard normal by Box-Muller (uses two uniforms, keeps no spare)."""
    u1 = u01_nb(st)
    u2 = u01_nb(st)
    return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
