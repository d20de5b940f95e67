"""Reference twin of the Swiss format's pairing: a real FIDE Dutch engine, py4swiss (MIT, PyPI,
the ``test`` extra; production never imports this module), fed a TRF-16 file written from
a crosstable; and a plain-Python replica of one simulated event that pairs with it.

Used by the tests (the real Grand Swiss 2025 pairings of rounds 2-8) and the fidelity and
equivalence benchmarks (``benchmarks/bench_swiss_fidelity.py``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np

from ..enums import (COL_BLACK, COL_WHITE, RK_FORFEIT_LOSS, RK_FORFEIT_WIN, RK_FULL_BYE,
                     RK_HALF_BYE, RK_NONE, RK_PAB, RK_PLAYED, RK_ZERO_BYE)

LETTER = {RK_PAB: "U", RK_FORFEIT_WIN: "+", RK_FORFEIT_LOSS: "-", RK_HALF_BYE: "H",
          RK_ZERO_BYE: "Z", RK_FULL_BYE: "F"}


def trf_text(opp, res, kind, colour, ratings, rounds: int, n_rounds: int,
             init_colour: int, names=None) -> str:
    """A TRF-16 text of rounds 1..rounds of a crosstable (0-based player indices; pairing
    number = index + 1), with ``XXR`` (the event's rounds) and ``XXC`` (the initial colour)."""
    n = len(ratings)
    lines = ["012 simcycle reference", f"XXR {n_rounds}",
             "XXC " + ("white1" if init_colour == COL_WHITE else "black1")]
    for i in range(n):
        pts = sum(int(res[i][r]) for r in range(rounds)) / 2
        name = (names[i] if names else f"Player {i + 1}")[:33]
        head = (f"001 {i + 1:>4}      {name:<33} {int(ratings[i]):>4} {'':<3} {'':>11} "
                f"{'':>10} {pts:>4.1f} {i + 1:>4}")
        cells = ""
        for r in range(rounds):
            kd = int(kind[i][r])
            if kd == RK_PLAYED:
                c = "w" if colour[i][r] == COL_WHITE else "b"
                x = {2: "1", 1: "=", 0: "0"}[int(res[i][r])]
                cells += f"  {int(opp[i][r]) + 1:04d} {c} {x}"
            elif kd in (RK_FORFEIT_WIN, RK_FORFEIT_LOSS):
                cells += f"  {int(opp[i][r]) + 1:04d} - {LETTER[kd]}"
            elif kd == RK_NONE:
                cells += "  0000 - Z"
            else:
                cells += f"  0000 - {LETTER[kd]}"
        lines.append(head + cells)
    return "\n".join(lines) + "\n"


def dutch_pairs(opp, res, kind, colour, ratings, rounds: int, n_rounds: int,
                init_colour: int) -> list[tuple[int, int]]:
    """Round rounds+1's boards by py4swiss's FIDE Dutch engine: (white, black), 0-based;
    a pairing-allocated bye is (player, -1)."""
    from py4swiss.engines import DutchEngine
    from py4swiss.trf import TrfParser

    text = trf_text(opp, res, kind, colour, ratings, rounds, n_rounds, init_colour)
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "state.trf"
        p.write_text(text, encoding="utf-8")
        pairs = DutchEngine.generate_pairings(TrfParser.parse(p))
    out = []
    for q in pairs:
        if q.white == 0 or q.black == 0:
            out.append((max(q.white, q.black) - 1, -1))
        else:
            out.append((q.white - 1, q.black - 1))
    return out


def play_event(a, st_u01, pairer=None):
    """One replica of the rest of a Swiss (``formats.swiss.nb.SwissArgs`` ``a``) in plain
    Python with ``pairer`` (default: py4swiss's Dutch engine) instead of the kernel's
    pairing; ``st_u01()`` draws the uniforms.  Returns (opp, res, kind, colour) over all
    rounds (no ranking: the tie-breaks are the shared kernel's)."""
    from ..enums import BLACK_WINS, DRAW, WHITE_WINS
    pairer = pairer or dutch_pairs
    opp, res = a.base_opp.copy(), a.base_res.copy()
    kind, colour = a.base_kind.copy(), a.base_colour.copy()
    n = opp.shape[0]
    for r in range(a.start, a.n_rounds):
        if r == a.start and a.fixed_w.shape[0]:
            boards = list(zip(a.fixed_w.tolist(), a.fixed_b.tolist()))
        else:
            boards = pairer(opp, res, kind, colour, a.rating.tolist(), r, a.n_rounds, a.init)
        for j, (w, b) in enumerate(boards):
            if b < 0:
                kind[w, r], res[w, r] = RK_PAB, a.pab
                continue
            u = st_u01()
            g = a.gthr[w, b]
            out = WHITE_WINS if u < g[0] else (DRAW if u < g[1] else BLACK_WINS)
            opp[w, r], opp[b, r] = b, w
            kind[w, r] = kind[b, r] = RK_PLAYED
            colour[w, r], colour[b, r] = COL_WHITE, COL_BLACK
            res[w, r], res[b, r] = {WHITE_WINS: (2, 0), DRAW: (1, 1), BLACK_WINS: (0, 2)}[out]
    del n
    return opp, res, kind, colour


def memo_dutch_pairs():
    """``dutch_pairs`` remembering each state it paired (the crosstable of the rounds
    played): a small event revisits its early states often, and py4swiss is deterministic."""
    cache: dict = {}

    def pair(opp, res, kind, colour, ratings, r, n_rounds, init):
        key = (r, opp[:, :r].tobytes(), res[:, :r].tobytes(), kind[:, :r].tobytes(),
               colour[:, :r].tobytes())
        if key not in cache:
            cache[key] = dutch_pairs(opp, res, kind, colour, ratings, r, n_rounds, init)
        return cache[key]
    return pair


def random_in_groups(rng):
    """A pairer standing for the approximation other tools use: players by score, shuffled
    inside each score group (``rng``, a ``random.Random``), paired in that order (a rematch
    takes the next player that fits), colours to the one with fewer Whites (lots when
    equal)."""

    def pair(opp, res, kind, colour, ratings, r, n_rounds, init):
        n = opp.shape[0]
        pts = res[:, :r].sum(1)
        keys = sorted(range(n), key=lambda i: (-pts[i], rng.random()))
        met = [set(int(x) for x in opp[i, :r]) for i in range(n)]
        out = []
        left = list(keys)
        while len(left) >= 2:
            a = left.pop(0)
            j = next((k for k, b in enumerate(left) if b not in met[a]), 0)
            b = left.pop(j)
            wa = sum(1 for q in range(r) if kind[a, q] == RK_PLAYED and colour[a, q] == COL_WHITE)
            wb = sum(1 for q in range(r) if kind[b, q] == RK_PLAYED and colour[b, q] == COL_WHITE)
            out.append((a, b) if (wa < wb or (wa == wb and rng.random() < 0.5)) else (b, a))
        if left:
            out.append((left[0], -1))
        return out
    return pair


def rank_event(args, opp, res, kind, colour, rng_lots) -> list[int]:
    """The final order of a finished event (``formats.swiss.nb.SwissArgs`` ``args``): points,
    the tie-breaks by the shared kernel, lots from ``rng_lots`` (a ``random.Random``) for
    whoever they leave level."""
    from ..kernels.criteria_nb import Crosstable, adjusted_nb, rank_criteria_nb
    n = opp.shape[0]
    t = Crosstable(opp, res, kind, colour, np.zeros(n, np.int64), np.zeros(n, np.int64),
                   args.rating)
    adjusted_nb(t, args.n_rounds)
    order, brk = np.empty(n, np.int64), np.empty(n, np.int64)
    rank_criteria_nb(t, args.n_rounds, args.criteria, order, brk, np.empty(n, np.int64),
                     np.empty(n, np.int64), np.empty(n, np.int64), np.zeros(1, np.uint64),
                     False)
    out, p = [], 0
    while p < n:
        e = p + 1
        while e < n and brk[e] == 0:
            e += 1
        g = [int(x) for x in order[p:e]]
        rng_lots.shuffle(g)
        out += g
        p = e
    return out


def chi_square(p_ref, n_ref: int, p_ker, m: int, floor: float = 0.01) -> dict:
    """The equivalence test of two sets of per-player probabilities from ``n_ref`` and ``m``
    independent events: z per player with p_ker >= ``floor`` (the variance of both
    estimates, from p_ker), chi-square = sum z^2 on as many degrees of freedom as players;
    returns players, chi2, p_value, max_abs_z."""
    from scipy.stats import chi2
    p_ref, p_ker = np.asarray(p_ref, float), np.asarray(p_ker, float)
    sel = p_ker >= floor
    var = p_ker * (1 - p_ker) * (1 / max(n_ref, 1) + 1 / m)
    z = (p_ref[sel] - p_ker[sel]) / np.sqrt(var[sel])
    x2 = float((z * z).sum())
    return {"players": int(sel.sum()), "chi2": x2, "p_value": float(chi2.sf(x2, sel.sum())),
            "max_abs_z": float(np.abs(z).max()) if z.size else 0.0}


__all__ = ["trf_text", "dutch_pairs", "memo_dutch_pairs", "play_event", "random_in_groups",
           "rank_event", "chi_square"]
