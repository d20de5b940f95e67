"""The reference twin of the Swiss pairing (``reference/swiss.py``): py4swiss's FIDE Dutch
engine (PyPI, MIT; the test extra), given the shipped Grand Swiss 2025 crosstable cut after
each round, reproduces the real pairings and colours of rounds 2-8 (every board)."""

from __future__ import annotations

import pytest

from simcycle.formats.swiss import rules
from simcycle.scenario import load_scenario

pytest.importorskip("py4swiss")


@pytest.fixture(scope="module")
def gs():
    _, scn = load_scenario("grand-swiss-2025")
    return scn, rules.crosstable(scn, 8)


@pytest.mark.parametrize("rnd", range(2, 9))
def test_py4swiss_reproduces_the_real_round(gs, rnd):
    from simcycle.reference.swiss import dutch_pairs
    scn, t = gs
    got = dutch_pairs(t.opp, t.res, t.kind, t.colour, t.rating.tolist(), rnd - 1,
                      scn.n_rounds, scn.initial_colour)
    real = {(g.white, g.black) for g in scn.games if g.round == rnd}
    assert len(real) == 58
    assert set(got) == real          # every pair, with its colours


def test_trf_text_round_trips_through_the_project_reader(gs, tmp_path):
    """The reference's TRF text is read back by simcycle's own TRF reader: same games."""
    from simcycle.io.trf import read_trf
    from simcycle.reference.swiss import trf_text
    scn, t = gs
    p = tmp_path / "gs.trf"
    p.write_text(trf_text(t.opp, t.res, t.kind, t.colour, t.rating.tolist(), 8, 11,
                          scn.initial_colour, names=scn.names), encoding="utf-8")
    rows = read_trf(p)
    assert len(rows) == 8 * 58
    got = {(r.round, r.white, r.black, r.result) for r in rows}
    want = {(g.round, scn.names[g.white], scn.names[g.black],
             {0: "1-0", 1: "1/2-1/2", 2: "0-1"}[g.result]) for g in scn.games}
    assert got == want
