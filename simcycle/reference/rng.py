"""Plain-Python SplitMix64 streams, draw for draw the same as ``kernels.rng_nb``."""

import math

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


class Stream:
    def __init__(self, seed: int, replica: int):
        self.state = mix64((mix64((seed + GOLDEN) & MASK) + replica * GOLDEN) & MASK)

    def u01(self) -> float:
        self.state = (self.state + GOLDEN) & MASK
        return (mix64(self.state) >> 11) / 9007199254740992.0

    def randint(self, n: int) -> int:
        return min(int(self.u01() * n), n - 1)

    def normal(self) -> float:
        u1 = self.u01()
        u2 = self.u01()
        return math.sqrt(-2.0 * math.log(1.0 - u1)) * math.cos(2.0 * math.pi * u2)
