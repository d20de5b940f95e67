"""The parts of a scenario file that every format has: the ``[scenario]`` head and the
``[[players]]`` list, declared once, and the index that turns names and aliases into players."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ...errors import ScenarioError
from typing import Literal

from ...kinds import KINDS
from ...schema import Name, Rating, Table, Text, whole_between

KindName = Literal[tuple(KINDS)]


class Head(Table):
    """``[scenario]``: what the file is."""

    name: Name
    format: str
    kind: KindName | None = None     # the kind of event (simcycle.kinds), for the model
    description: Text = ""
    notes: Text = ""
    source: Text = ""                # one public source, or
    sources: list[Text] = []         # several
    model: Name | None = None        # an outcome-model file, relative to the scenario


class PlayerTable(Table):
    """One ``[[players]]`` entry; formats add their own keys by subclassing."""

    name: Name
    rating: Rating                   # classical rating
    rapid: Rating | None = None
    blitz: Rating | None = None
    federation: Text = ""
    fide_id: whole_between(1, 10**10) | None = None
    aliases: list[Name] = []

    def ratings(self) -> dict:
        out = {"classical": float(self.rating)}
        if self.rapid is not None:
            out["rapid"] = float(self.rapid)
        if self.blitz is not None:
            out["blitz"] = float(self.blitz)
        return out


@dataclass(frozen=True)
class Source:
    """Where a scenario came from, as the file says it."""

    name: str
    file: str
    model_file: str | None
    kind: str                        # the event kind (simcycle.kinds): the model's draw term
    description: str
    sources: tuple[str, ...]


class FromSource:
    """What every format's scenario says of itself, read from its ``source`` (a
    :class:`Source`) and ``players`` (each with a ``name``)."""

    source: Source
    players: tuple

    @property
    def name(self) -> str:
        return self.source.name

    @property
    def file(self) -> str:
        return self.source.file

    @property
    def model_file(self) -> str | None:
        return self.source.model_file

    @property
    def kind(self) -> str:
        return self.source.kind

    @property
    def description(self) -> str:
        return self.source.description

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]


def head_of(head: Head, file: str, default_kind: str) -> Source:
    model_file = None
    if head.model is not None:
        p = Path(head.model)
        model_file = str(p if p.is_absolute() else (Path(file).parent / p).resolve())
    src = ((head.source,) if head.source else ()) + tuple(head.sources)
    return Source(head.name, file, model_file, head.kind or default_kind,
                  head.description or head.notes, src)


MAX_PLAYERS = 2_000    # players per scenario: far above any event or series (a large open)


class PlayerIndex:
    """Names and aliases (case-insensitive) to player indices; unknown names are refused
    with the file and key; a name with control, bidirectional or zero-width characters is
    refused (:func:`simcycle.text.check_name`); at most :data:`MAX_PLAYERS` players."""

    def __init__(self, file: str):
        self.file = file
        self.names: list[str] = []
        self._by: dict[str, int] = {}

    def add(self, name: str, aliases, key: str) -> int:
        from ...text import check_name

        i = len(self.names)
        if i >= MAX_PLAYERS:
            raise ScenarioError(f"too many players (the limit is {MAX_PLAYERS:,})",
                                file=self.file, key="players")
        for k, n in enumerate([name, *aliases]):
            check_name(n, self.file, key if k == 0 else f"{key.rsplit('.', 1)[0]}.aliases")
            k = n.strip().casefold()
            if self._by.get(k, i) != i:
                raise ScenarioError("player listed twice (name or alias)", file=self.file,
                                    key=key, value=n)
            self._by[k] = i
        self.names.append(name)
        return i

    def get(self, name: str) -> int | None:
        return self._by.get(name.strip().casefold())

    def find(self, name, key: str) -> int:
        if not isinstance(name, str):
            raise ScenarioError("must be a player's name", file=self.file, key=key, value=name)
        i = self.get(name)
        if i is None:
            raise ScenarioError("unknown player (not in [[players]])", file=self.file, key=key,
                                value=name)
        return i

    def mapping(self) -> dict[str, int]:
        return dict(self._by)


def index_players(players, file: str) -> PlayerIndex:
    idx = PlayerIndex(file)
    for k, p in enumerate(players):
        idx.add(p.name, p.aliases, f"players[{k}].name")
    return idx


def result_code(text: str, file: str, key: str) -> int:
    from ...enums import RESULT_CODES
    t = text.strip()
    if t not in RESULT_CODES:
        raise ScenarioError('result must be "1-0", "0-1", "1/2-1/2" or "*" (not played)',
                            file=file, key=key, value=text)
    return RESULT_CODES[t]
