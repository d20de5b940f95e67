"""Every command's result as a declared type (msgspec Structs), with ``to_pandas()``.

Each type declares the fields every format writes; what only one format writes (a group
series' knock-out matches, a tour's counted events, ...) is kept, unchanged, in the row's or
the result's ``extra`` mapping.  ``to_json()`` gives back the command's documented JSON
(``docs/cli.md``) exactly, so ``Simulation.from_json(d).to_json() == d`` for every ``--json``
output; ``to_pandas()`` gives one row per player (per game, per match, per checkpoint) with
the result's head in ``DataFrame.attrs["simcycle"]``, and ``from_pandas`` reads it back.

pandas is an optional extra (``pip install 'simcycle[pandas]'``); nothing here imports it
until ``to_pandas`` is called.
"""

from __future__ import annotations

import copy
import math
from typing import Any, ClassVar

import msgspec
from msgspec import Struct

__all__ = ["Result", "ModelInfo", "Chance", "PlayerOdds", "Simulation", "StandingRow",
           "Standings", "GameOdds", "Odds", "SwingNow", "SwingPlayer", "SwingOutcome", "SwingGame",
           "SwingMatch", "SwingPlace", "Swing", "PathStep",
           "WhocanRow", "Whocan", "HistoryRow", "History", "VariantResult", "Experiment"]

_LISTS = (list, tuple)


class Record(Struct, kw_only=True):
    """A declared record that keeps the keys it does not declare in ``extra``.

    ``_nested`` maps a field to the record type of its items: ``(T, "list")`` for a list of
    records, ``(T, "dict")`` for a mapping of lists of records (whocan's targets), ``(T,
    "one")`` for one record."""

    extra: dict[str, Any] = {}
    _nested: ClassVar[dict] = {}

    @classmethod
    def from_json(cls, d: dict):
        """The record of one JSON object (a command's ``--json`` output or a part of it)."""
        names = set(cls.__struct_fields__) - {"extra"}
        known, extra = {}, {}
        for k, v in d.items():
            (known if k in names else extra)[k] = v
        for k, (t, how) in cls._nested.items():
            v = known.get(k)
            if v is None:
                continue
            if how == "list":
                known[k] = [t.from_json(x) for x in v]
            elif how == "dict":
                known[k] = {key: [t.from_json(x) for x in rows] for key, rows in v.items()}
            else:
                known[k] = t.from_json(v)
        return cls(**known, extra=extra)

    def to_json(self) -> dict:
        """The command's documented JSON object (``from_json``'s inverse)."""
        out = {}
        for k in self.__struct_fields__:
            if k == "extra":
                continue
            v = getattr(self, k)
            if v is msgspec.UNSET:
                continue
            if isinstance(v, Record):
                v = v.to_json()
            elif isinstance(v, _LISTS) and v and isinstance(v[0], Record):
                v = [x.to_json() for x in v]
            elif isinstance(v, dict) and k in self._nested and self._nested[k][1] == "dict":
                v = {key: [x.to_json() for x in rows] for key, rows in v.items()}
            out[k] = v
        out.update(self.extra)
        return out


class Result(Record, kw_only=True):
    """A command's result: its head (scenario, file, checkpoint) and its rows."""

    scenario: str | msgspec.UnsetType = msgspec.UNSET
    file: str | msgspec.UnsetType = msgspec.UNSET
    _rows: ClassVar[str] = "players"        # the field whose items are the DataFrame's rows

    def rows(self) -> list[dict]:
        """The result's rows as flat dicts (the DataFrame's records)."""
        return [_flat(r.to_json() if isinstance(r, Record) else dict(r))
                for r in getattr(self, self._rows) or []]

    def to_pandas(self):
        """One row per item of the result (player, game, checkpoint); lists become numbered
        columns (``p_place_1``, ...), mappings dotted ones (``p_first.1-0``).  The result's
        head is in ``df.attrs["simcycle"]``, so ``type(r).from_pandas(r.to_pandas()) == r``."""
        import pandas as pd

        df = pd.DataFrame.from_records(self.rows())
        df.attrs["simcycle"] = {"type": type(self).__name__,
                                "result": copy.deepcopy(self.to_json())}
        return df

    @classmethod
    def from_pandas(cls, df):
        """The result ``to_pandas`` made, its rows read back from the frame's columns."""
        meta = df.attrs["simcycle"]
        if meta["type"] != cls.__name__:
            raise TypeError(f"this frame holds a {meta['type']}, not a {cls.__name__}")
        d = dict(meta["result"])
        template = d.get(cls._rows) or []
        d[cls._rows] = [_unflat(rec, like) for rec, like in
                        zip(df.to_dict("records"), template)]
        return cls.from_json(d)


def _flat(d: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in d.items():
        key = f"{prefix}{k}"
        if isinstance(v, dict) and v and all(not isinstance(x, (dict, list)) for x in v.values()):
            for kk, vv in v.items():
                out[f"{key}.{kk}"] = vv
        elif isinstance(v, _LISTS) and v and all(isinstance(x, (int, float)) and
                                                 not isinstance(x, bool) for x in v):
            for i, x in enumerate(v, 1):
                out[f"{key}_{i}"] = x
        else:
            out[key] = v
    return out


def _py(v):
    """A pandas cell as the plain Python value it was (NaN of a missing cell stays None)."""
    if hasattr(v, "item") and not isinstance(v, (list, dict, str)):
        v = v.item()
    return v


def _unflat(rec: dict, like: dict) -> dict:
    """A DataFrame record shaped like ``like`` (the row it was flattened from)."""
    out = {}
    for k, v in like.items():
        if isinstance(v, dict) and v and all(not isinstance(x, (dict, list)) for x in v.values()):
            out[k] = {kk: _py(rec[f"{k}.{kk}"]) for kk in v}
        elif isinstance(v, _LISTS) and v and all(isinstance(x, (int, float)) and
                                                 not isinstance(x, bool) for x in v):
            out[k] = [_cast(_py(rec[f"{k}_{i}"]), x) for i, x in enumerate(v, 1)]
        else:
            out[k] = _cast(_py(rec[k]), v)
    return out


def _cast(v, like):
    if like is None and isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(like, int) and not isinstance(like, bool) and isinstance(v, float):
        return int(v)
    if isinstance(like, float) and isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


# ---- simulate -------------------------------------------------------------------------------
class ModelInfo(Record, kw_only=True):
    name: str
    version: str
    file: str | None = None
    kind: str | None | msgspec.UnsetType = msgspec.UNSET
    offsets: bool = False


class Chance(Record, kw_only=True):
    """A probability and its Monte Carlo standard error (0 when exact)."""

    p: float
    se: float


class PlayerOdds(Record, kw_only=True):
    """One player's odds: first place, qualifying, expected points and prize, every place."""

    name: str
    p_first: float
    se_p_first: float
    p_qualify: float
    se_p_qualify: float
    expected_points: float
    se_expected_points: float
    expected_prize: float
    se_expected_prize: float
    p_place: list[float]


class Simulation(Result, kw_only=True):
    """``simulate``: every player's odds (sorted by P(first)), with standard errors."""

    at: str
    sims: int | None
    seed: int | None
    model: ModelInfo
    qualifying_places: int
    points_label: str = "points"
    currency: str | None = None
    interrupted: bool = False
    players: list[PlayerOdds]
    events: dict[str, Chance] | msgspec.UnsetType = msgspec.UNSET
    assumed: list[str] | msgspec.UnsetType = msgspec.UNSET
    _nested: ClassVar[dict] = {"model": (ModelInfo, "one"), "players": (PlayerOdds, "list")}

    @classmethod
    def from_json(cls, d: dict):
        d = dict(d)
        events = d.pop("events", None)
        r = super().from_json(d)
        if events is not None:
            r.events = {k: Chance.from_json(v) for k, v in events.items()}
        return r

    def to_json(self) -> dict:
        out = super().to_json()
        if "events" in out:
            out["events"] = {k: v.to_json() for k, v in self.events.items()}
        return out

    def player(self, name: str) -> PlayerOdds:
        """The row of the player called ``name`` (or whose surname is ``name``)."""
        for p in self.players:
            if p.name == name or p.name.split()[-1] == name:
                return p
        raise KeyError(name)


# ---- standings, odds ------------------------------------------------------------------------
class StandingRow(Record, kw_only=True):
    name: str
    rank: int | None | msgspec.UnsetType = msgspec.UNSET
    points: float | None | msgspec.UnsetType = msgspec.UNSET


class Standings(Result, kw_only=True):
    """``standings``: the table from the results played up to ``at``."""

    at: str
    players: list[StandingRow] = []      # a cycle's standings are its parts' (no table)
    note: str | None | msgspec.UnsetType = msgspec.UNSET    # e.g. who is level for first
    _nested: ClassVar[dict] = {"players": (StandingRow, "list")}


class GameOdds(Record, kw_only=True):
    """A game (round robins, tours) or a match (series) still to play, with probabilities."""

    round: Any = msgspec.UNSET


class Odds(Result, kw_only=True):
    """``odds``: the games (round robins), matches (series) or events (tours) still to play
    whose players are known, with their probabilities."""

    at: str
    games: list[GameOdds] | msgspec.UnsetType = msgspec.UNSET
    matches: list[GameOdds] | msgspec.UnsetType = msgspec.UNSET
    events: list[GameOdds] | msgspec.UnsetType = msgspec.UNSET
    notes: list[str] | msgspec.UnsetType = msgspec.UNSET     # what the list leaves out
    _nested: ClassVar[dict] = {"games": (GameOdds, "list"), "matches": (GameOdds, "list"),
                               "events": (GameOdds, "list")}
    _KEYS: ClassVar[tuple] = ("games", "matches", "events")

    def _row_key(self) -> str:
        for k in self._KEYS:
            if getattr(self, k) not in (msgspec.UNSET, []):
                return k
        return "games"

    @property
    def items(self) -> list[GameOdds]:
        """The games, matches or events still to play (the first of these the format has)."""
        v = getattr(self, self._row_key())
        return [] if v is msgspec.UNSET else v

    def rows(self) -> list[dict]:
        return [_flat(r.to_json()) for r in self.items]

    @classmethod
    def from_pandas(cls, df):
        d = dict(df.attrs["simcycle"]["result"])
        key = next((k for k in cls._KEYS if d.get(k)), None)
        if key is not None:
            d[key] = [_unflat(rec, like) for rec, like in zip(df.to_dict("records"), d[key])]
        return cls.from_json(d)


# ---- swing ----------------------------------------------------------------------------------
Probs = list[float] | dict[str, float]     # per result: a list (matches) or by result (games)


class SwingNow(Record, kw_only=True):
    """A player's P(1st) and P(qualify) before the games examined (the base run)."""

    name: str
    p_first: float
    p_qualify: float
    se_p_first: float
    se_p_qualify: float


class SwingPlayer(Record, kw_only=True):
    """One player's line of a swing table (``formats/shared/swing.py`` makes it; JSON: these
    keys).  Per-result fields are lists in result order (a round robin's game keys them by
    result instead: "1-0", "1/2-1/2", "0-1").

    p_first, p_qualify        P(1st), P(qualify) under each result
    se_p_first, se_p_qualify  their standard errors (one run each)
    d_first, d_qualify        each result's P minus the P before the game ("now"), paired
    se_d_first, se_d_qualify  the standard errors of those differences (paired runs)
    noise_d_first, noise_d_qualify   each difference within two SE of zero
    swing_first, swing_qualify       largest minus smallest P over the results
    se_swing_first, se_swing_qualify the paired SE of that difference
    noise_first, noise_qualify       the swing within two SE of zero ("within noise")
    """

    name: str
    p_first: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    p_qualify: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    se_p_first: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    se_p_qualify: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    d_first: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    d_qualify: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    se_d_first: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    se_d_qualify: list[float] | dict[str, float] | msgspec.UnsetType = msgspec.UNSET
    noise_d_first: list[bool] | dict[str, bool] | msgspec.UnsetType = msgspec.UNSET
    noise_d_qualify: list[bool] | dict[str, bool] | msgspec.UnsetType = msgspec.UNSET
    swing_first: float | msgspec.UnsetType = msgspec.UNSET
    swing_qualify: float | msgspec.UnsetType = msgspec.UNSET
    se_swing_first: float | msgspec.UnsetType = msgspec.UNSET
    se_swing_qualify: float | msgspec.UnsetType = msgspec.UNSET
    noise_first: bool | msgspec.UnsetType = msgspec.UNSET
    noise_qualify: bool | msgspec.UnsetType = msgspec.UNSET

    def p(self, what: str) -> list[float]:
        """P(1st) (``what="first"``) or P(qualify) under each result, in result order."""
        v = getattr(self, f"p_{what}")
        return list(v.values()) if isinstance(v, dict) else list(v)


class SwingOutcome(Record, kw_only=True):
    """One possible result of the game or match examined, and its probability; ``fix``: the
    ``--fix`` that states it, where one what-if does (a tour's place branches)."""

    result: str
    p: float
    fix: str | msgspec.UnsetType = msgspec.UNSET


class SwingGame(Record, kw_only=True):
    """A game of the next round (round robins, group games) and every player's swing."""

    round: int
    white: str
    black: str
    p_white: float
    p_draw: float
    p_black: float
    players: list[SwingPlayer]
    event: int | str | msgspec.UnsetType = msgspec.UNSET     # group series: the event
    group: str | msgspec.UnsetType = msgspec.UNSET           # group series: the group
    _nested: ClassVar[dict] = {"players": (SwingPlayer, "list")}
    RESULTS: ClassVar[tuple] = ("1-0", "1/2-1/2", "0-1")

    @property
    def title(self) -> str:
        head = f"group {self.group}: " if self.group is not msgspec.UNSET else ""
        return f"{head}{self.white} – {self.black}"

    @property
    def outcomes(self) -> list[SwingOutcome]:
        return [SwingOutcome(result=r, p=p) for r, p in
                zip(self.RESULTS, (self.p_white, self.p_draw, self.p_black))]

    @property
    def rows(self) -> list[SwingPlayer]:
        return self.players


class SwingMatch(Record, kw_only=True):
    """A knock-out match whose players are known, its outcomes, every player's swing."""

    event: str
    round: str
    players: list[str]
    outcomes: list[SwingOutcome]
    swing: list[SwingPlayer]
    _nested: ClassVar[dict] = {"outcomes": (SwingOutcome, "list"),
                               "swing": (SwingPlayer, "list")}

    @property
    def title(self) -> str:
        return f"{self.event} {self.round}: {' – '.join(self.players)}"

    @property
    def rows(self) -> list[SwingPlayer]:
        return self.swing


class SwingPlace(SwingMatch, kw_only=True):
    """A tour member's place in the next event: its branches (``outcomes``, each with the
    share of the replicas in it and the ``--fix`` that states it) and every member's swing;
    a :class:`SwingMatch` whose ``round`` and ``players`` are unset."""

    round: str | msgspec.UnsetType = msgspec.UNSET
    players: list[str] | msgspec.UnsetType = msgspec.UNSET
    player: str

    @property
    def title(self) -> str:
        return f"{self.event}: {self.player}'s place"


class Swing(Result, kw_only=True):
    """``swing``: each game (``games``) or knock-out match (``matches``) of the next round, or
    each tour member's place in the next event (``places``), every player's odds after each
    of its results (common random numbers)."""

    at: str
    sims: int
    seed: int
    target_se: float | None = None
    qualifying_places: int
    part: str | msgspec.UnsetType = msgspec.UNSET        # a cycle: its part in progress
    round: int | msgspec.UnsetType = msgspec.UNSET       # games: the round examined
    event: int | msgspec.UnsetType = msgspec.UNSET       # group games: the event
    results: list[str] | msgspec.UnsetType = msgspec.UNSET
    now: list[SwingNow]
    games: list[SwingGame] | msgspec.UnsetType = msgspec.UNSET
    matches: list[SwingMatch] | msgspec.UnsetType = msgspec.UNSET
    places: list[SwingPlace] | msgspec.UnsetType = msgspec.UNSET
    next_event: str | msgspec.UnsetType = msgspec.UNSET    # a tour: the event examined
    assumed: list[str] | msgspec.UnsetType = msgspec.UNSET
    _nested: ClassVar[dict] = {"now": (SwingNow, "list"), "games": (SwingGame, "list"),
                               "matches": (SwingMatch, "list"),
                               "places": (SwingPlace, "list")}

    @property
    def items(self) -> list[SwingGame | SwingMatch | SwingPlace]:
        """The games, matches or places examined, in the order they swing (most first)."""
        return [*(self.games or []), *(self.matches or []), *(self.places or [])]

    def rows(self) -> list[dict]:
        """One row per (game or match, player): the item's facts and the player's swing."""
        out = []
        for g, item in enumerate(self.items):
            head = {}
            for k, v in item.to_json().items():
                if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
                    head[k] = " – ".join(v)          # a match's players
                elif not isinstance(v, (list, dict)):
                    head[k] = v
            for p in item.rows:
                out.append(_flat({"item": g, **{f"item.{k}": v for k, v in head.items()},
                                  **p.to_json()}))
        return out

    @classmethod
    def from_pandas(cls, df):
        meta = df.attrs["simcycle"]
        if meta["type"] != cls.__name__:
            raise TypeError(f"this frame holds a {meta['type']}, not a {cls.__name__}")
        d = copy.deepcopy(meta["result"])
        recs = iter(df.to_dict("records"))
        for item in [*(d.get("games") or []), *(d.get("matches") or []),
                     *(d.get("places") or [])]:
            rows = item["players"] if "white" in item else item["swing"]
            for i, like in enumerate(rows):
                rows[i] = _unflat(next(recs), like)
        return cls.from_json(d)


# ---- whocan ---------------------------------------------------------------------------------
class PathStep(Record, kw_only=True):
    """One step of a whocan path; each format fills the fields its steps have
    (``docs/cli.md``): a round-robin or group game (``round``, ``white``, ``black``,
    ``result``), a knock-out match (``event``, ``round`` or ``stage``, ``players``,
    ``winner``, ``classical``, ``decided``, ``result``), a group draw (``groups``), a group
    play-off (``places``), a tour event's place (``event``, ``player``, ``place``,
    ``points``)."""

    event: int | str | msgspec.UnsetType = msgspec.UNSET
    stage: str | msgspec.UnsetType = msgspec.UNSET
    round: int | str | msgspec.UnsetType = msgspec.UNSET
    white: str | msgspec.UnsetType = msgspec.UNSET
    black: str | msgspec.UnsetType = msgspec.UNSET
    players: list[str] | msgspec.UnsetType = msgspec.UNSET
    winner: str | None | msgspec.UnsetType = msgspec.UNSET
    classical: list[Any] | msgspec.UnsetType = msgspec.UNSET
    decided: str | None | msgspec.UnsetType = msgspec.UNSET
    result: str | None | msgspec.UnsetType = msgspec.UNSET
    player: str | msgspec.UnsetType = msgspec.UNSET
    place: str | int | msgspec.UnsetType = msgspec.UNSET
    points: float | msgspec.UnsetType = msgspec.UNSET
    groups: Any = msgspec.UNSET
    places: Any = msgspec.UNSET

    def words(self) -> str:
        """The step in a few words (a table cell)."""
        if self.white is not msgspec.UNSET:
            return f"r{self.round} {self.white} {self.result} {self.black}"
        if self.result not in (msgspec.UNSET, None):
            return f"{self.event} {self.round}: {self.result}"
        if self.winner not in (msgspec.UNSET, None):
            return (f"{self.event} {self.stage if self.stage is not msgspec.UNSET else ''}: "
                    f"{self.winner} wins")
        if self.player is not msgspec.UNSET:
            return f"{self.event}: {self.player} {self.place}"
        return ", ".join(f"{k} {v}" for k, v in self.to_json().items())


class WhocanRow(Record, kw_only=True):
    """One player against one target (first place, a qualifying place): ``status`` one of
    clinched, alive, eliminated, n/a (qualified elsewhere), undetermined (budget reached);
    ``via`` outright / tiebreak and ``at_worst`` out / tiebreak for a live player; ``path``
    one complete set of results that gets them there, ``says`` it (or the reason) in words."""

    name: str
    status: str
    via: str | None = None
    at_worst: str | None = None
    path: list[PathStep] | None = None
    says: list[str] | None = None
    qualified_elsewhere: Any = msgspec.UNSET
    _nested: ClassVar[dict] = {"path": (PathStep, "list")}


class Whocan(Result, kw_only=True):
    """``whocan``: clinched / alive / eliminated for every player and target, with a path."""

    at: str
    qualifying_places: int
    points: dict[str, float] = {}
    targets: dict[str, list[WhocanRow]]
    games_left: int | msgspec.UnsetType = msgspec.UNSET
    matches_left: int | msgspec.UnsetType = msgspec.UNSET
    events_left: int | msgspec.UnsetType = msgspec.UNSET
    compared: str | msgspec.UnsetType = msgspec.UNSET
    criteria: list[str] | msgspec.UnsetType = msgspec.UNSET
    budget_nodes: int | None | msgspec.UnsetType = msgspec.UNSET
    budget_unit: str | msgspec.UnsetType = msgspec.UNSET
    best_n: int | msgspec.UnsetType = msgspec.UNSET                # tours
    undrawn_events: list[Any] | msgspec.UnsetType = msgspec.UNSET  # group series
    draws: Any = msgspec.UNSET                                     # group series
    assumed: list[str] | msgspec.UnsetType = msgspec.UNSET
    _nested: ClassVar[dict] = {"targets": (WhocanRow, "dict")}

    def rows(self) -> list[dict]:
        """One row per (target, player); the path as a list of steps in ``path``."""
        return [{"target": t, "points": self.points.get(r.name), **r.to_json()}
                for t, rows in self.targets.items() for r in rows]

    @classmethod
    def from_pandas(cls, df):
        meta = df.attrs["simcycle"]
        if meta["type"] != cls.__name__:
            raise TypeError(f"this frame holds a {meta['type']}, not a {cls.__name__}")
        d = copy.deepcopy(meta["result"])
        recs = iter(df.to_dict("records"))
        targets = {}
        for t, rows in d["targets"].items():
            targets[t] = []
            for like in rows:
                rec = next(recs)
                targets[t].append({k: _cast(_py(rec[k]), v) for k, v in like.items()})
        d["targets"] = targets
        return cls.from_json(d)


# ---- history --------------------------------------------------------------------------------
class HistoryRow(Record, kw_only=True):
    checkpoint: str
    player: str
    p_first: float
    se_p_first: float
    p_qualify: float
    se_p_qualify: float
    expected_prize: float
    se_expected_prize: float
    expected_points: float
    se_expected_points: float


class History(Result, kw_only=True):
    """``history``: the odds at every checkpoint (one seed: common random numbers)."""

    sims: int
    seed: int
    model: ModelInfo
    qualifying_places: int | None
    currency: str | None = None
    points_label: str = "points"
    checkpoints: list[str]
    players: list[str]
    interrupted: bool = False
    rows_: list[HistoryRow] = msgspec.field(default_factory=list, name="rows")
    _nested: ClassVar[dict] = {"model": (ModelInfo, "one")}
    _rows: ClassVar[str] = "rows_"

    @classmethod
    def from_json(cls, d: dict):
        d = dict(d)
        rows = d.pop("rows", [])
        r = super().from_json(d)
        r.rows_ = [HistoryRow.from_json(x) for x in rows]
        return r

    def to_json(self) -> dict:
        out = super().to_json()
        out["rows"] = out.pop("rows_")
        return out

    @classmethod
    def from_pandas(cls, df):
        meta = df.attrs["simcycle"]
        d = dict(meta["result"])
        d["rows"] = [_unflat(rec, like) for rec, like in zip(df.to_dict("records"), d["rows"])]
        return cls.from_json(d)


# ---- experiment -----------------------------------------------------------------------------
class VariantResult(Record, kw_only=True):
    name: str
    sims: int
    favourite: str
    qualifying_places: int


class Experiment(Result, kw_only=True):
    """``experiment``: the variants side by side (measures with standard errors)."""

    experiment: str
    at: str
    sims: int
    seed: int
    variants: list[VariantResult]
    incomplete: str | None = None
    _nested: ClassVar[dict] = {"variants": (VariantResult, "list")}
    _rows: ClassVar[str] = "variants"

    def rows(self) -> list[dict]:
        """One row per (variant, measure): value and standard error."""
        out = []
        for v in self.variants:
            for k, (val, se) in v.extra["measures"].items():
                out.append({"variant": v.name, "measure": k, "value": val, "se": se})
        return out

    @classmethod
    def from_pandas(cls, df):
        return cls.from_json(dict(df.attrs["simcycle"]["result"]))
