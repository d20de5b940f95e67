"""The one bracket walk's twin (``reference.bracket.walk``; the kernel ``bracket_nb.walk_nb``
is compared with it replica for replica through the knock-out series in
tests/test_knockout_kernel.py): byes, decided matches, colours, exit rounds.  Pure Python, no
kernel compiled."""

from simcycle.enums import BR_BYE, KO_DECIDED, KO_IN_PROGRESS, KO_OPEN
from simcycle.reference.bracket import walk
from simcycle.reference.rng import Stream


def _lower_id_wins(calls):
    """A match where the smaller player id wins 2-0 with White in game 1 ... (logged)."""
    def match(white, black, fixed):
        calls.append((white, black, list(fixed)))
        w = 0 if white < black else 1
        return [w, 0, 4 if w == 0 else 0, 0 if w == 0 else 4, 2 if w == 0 else 0,
                0 if w == 0 else 2]
    return match


def test_byes_draw_nothing_and_exit_rounds():
    calls = []
    players = [10, -1, 12, 13]          # position 1 is a bye
    s = Stream(3, 0)
    before = s.state
    rec, exit_rd, champ = walk(_lower_id_wins(calls), players, 4, [KO_OPEN] * 3, [0] * 3,
                               [0] * 3, [[0, 0]] * 3, [0] * 3, [[]] * 3, s)
    assert s.state == before            # no lot (colours known), the fake match draws nothing
    assert rec[0][3] == BR_BYE and rec[0][2] == 0      # 10 goes through the bye
    assert calls == [(12, 13, []), (10, 12, [])]       # the bye is no match
    assert exit_rd == [2, -1, 1, 0] and champ == 0


def test_decided_match_and_colours_by_lot():
    calls = []
    players = [20, 21, 22, 23]
    kstat = [KO_DECIDED, KO_OPEN, KO_IN_PROGRESS]
    kcls = [[1, 3, 0, 1], [0, 0, 0, 0], [0, 0, 0, 0]]
    kfixed = [[-1, -1], [-1, -1], [0, -1]]   # the final's game 1 won by the upper player
    s = Stream(3, 0)
    ref = Stream(3, 0)
    rec, exit_rd, champ = walk(_lower_id_wins(calls), players, 4, kstat, [1, 0, 0], [0, 0, 0],
                               kcls, [0, -1, -1], kfixed, s)
    assert rec[0] == (0, 1, 1, 0, 1, 3, 0, 1)           # copied from the plan, no draw
    lot1 = 0 if ref.u01() < 0.5 else 1                  # slot 1's lot, then the final's
    lot2 = 0 if ref.u01() < 0.5 else 1
    assert s.state == ref.state
    w1, b1 = (22, 23) if lot1 == 0 else (23, 22)
    assert calls[0] == (w1, b1, [-1, -1])
    # the final: 21 (upper) v 22; a known game is turned to White's side
    w2, b2 = (21, 22) if lot2 == 0 else (22, 21)
    assert calls[1] == (w2, b2, [0, -1] if lot2 == 0 else [2, -1])
    assert rec[2][2] == 0 and rec[2][4:] == (4, 0, 2, 0)   # the upper player's side
    assert exit_rd == [0, 2, 1, 0] and champ == 1
