"""The FIDE tie-break criteria's one code table (Handbook C.07; the value functions are
``kernels/criteria_nb.py``, their plain-Python twins ``reference/criteria.py``): each
criterion's code, scenario-file name, C.07 abbreviation, unit and legend.  Plain Python, so
the commands that only name criteria (standings legends, whocan) need no numba."""

from typing import NamedTuple

from .enums import (TBS_ARO, TBS_ARO_C1, TBS_BLACK_GAMES, TBS_BUCHHOLZ, TBS_BUCHHOLZ_C1,
                    TBS_DIRECT_ENCOUNTER, TBS_LOTS, TBS_PROGRESSIVE, TBS_SONNEBORN_BERGER,
                    TBS_WINS, TBS_WON)


class Criterion(NamedTuple):
    code: int       # enums.TBS_*
    name: str       # the scenario file's name
    c07: str        # the C.07 abbreviation
    scale: int      # value / scale = the value in its usual unit
    label: str      # what a table's legend says


# The one code table: every criterion's name, C.07 abbreviation, unit and legend.
TABLE = (
    Criterion(TBS_BUCHHOLZ, "buchholz", "BH", 2, "Buchholz: sum of the opponents' points"),
    Criterion(TBS_BUCHHOLZ_C1, "buchholz-cut1", "BH-C1", 2,
              "Buchholz cut 1: Buchholz without the least contribution"),
    Criterion(TBS_ARO_C1, "aro-cut1", "ARO-C1", 1,
              "average rating of the opponents played, the lowest-rated left out"),
    Criterion(TBS_DIRECT_ENCOUNTER, "direct-encounter", "DE", 2,
              "points in the games among the players level (all must have met)"),
    Criterion(TBS_SONNEBORN_BERGER, "sonneborn-berger", "SB", 4,
              "Sonneborn-Berger: sum of the beaten opponents' points and half the drawn"),
    Criterion(TBS_WINS, "wins", "WIN", 1, "rounds won (games, forfeits and byes)"),
    Criterion(TBS_WON, "won", "WON", 1, "games won over the board"),
    Criterion(TBS_BLACK_GAMES, "black-games", "BPG", 1, "games played with Black"),
    Criterion(TBS_PROGRESSIVE, "progressive", "PS", 2,
              "progressive score: sum of the running scores after each round"),
    Criterion(TBS_ARO, "aro", "ARO", 1, "average rating of the opponents played"),
    Criterion(TBS_LOTS, "lots", "lots", 1, "drawing of lots"),
)
BY_CODE = {c.code: c for c in TABLE}
BY_NAME = {c.name: c for c in TABLE}
