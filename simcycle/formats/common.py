"""Validation helpers shared by the format modules (plain Python)."""

from __future__ import annotations

from ..errors import ScenarioError

RESULT_CODES = {"1-0": 0, "1/2-1/2": 1, "½-½": 1, "0.5-0.5": 1, "0-1": 2, "*": -1}
RESULT_TEXT = {0: "1-0", 1: "1/2-1/2", 2: "0-1", -1: "*"}


class Checker:
    """Reads values out of a raw TOML table with errors that say file and key."""

    def __init__(self, file: str):
        self.file = file

    def fail(self, message, key=None, value=None, has_value=None):
        raise ScenarioError(message, file=self.file, key=key, value=value, has_value=has_value)

    def table(self, raw: dict, key: str, required=True) -> dict:
        v = raw.get(key.rsplit(".", 1)[-1])
        if v is None:
            if required:
                self.fail("missing table", key)
            return {}
        if not isinstance(v, dict):
            self.fail("must be a table", key, v)
        return v

    def get(self, t: dict, name: str, where: str, kind, *, default=..., lo=None, hi=None,
            choices=None):
        key = f"{where}.{name}" if where else name
        if name not in t:
            if default is ...:
                self.fail("missing key", key)
            return default
        v = t[name]
        ok = isinstance(v, kind) and not (isinstance(v, bool) and kind is not bool)
        if kind is float and isinstance(v, int) and not isinstance(v, bool):
            ok, v = True, float(v)
        if not ok:
            self.fail(f"must be {_kind_name(kind)}", key, v)
        if lo is not None and v < lo or hi is not None and v > hi:
            self.fail(f"must be between {lo} and {hi}", key, v)
        if choices is not None and v not in choices:
            self.fail("must be one of " + ", ".join(map(str, choices)), key, v)
        return v

    def unknown_keys(self, t: dict, allowed: set, where: str):
        for k in t:
            if k not in allowed:
                self.fail("unknown key (allowed: " + ", ".join(sorted(allowed)) + ")",
                          f"{where}.{k}" if where else k)


def _kind_name(kind) -> str:
    return {int: "a whole number", float: "a number", str: "a string", bool: "true or false",
            list: "a list", dict: "a table"}.get(kind, str(kind))


def result_code(text, ck: Checker, key: str) -> int:
    if not isinstance(text, str) or text.strip() not in RESULT_CODES:
        ck.fail('result must be "1-0", "0-1", "1/2-1/2" or "*" (not played)', key, text)
    return RESULT_CODES[text.strip()]


class PlayerIndex:
    """Names and aliases to player indices; unknown names are refused with the key."""

    def __init__(self, ck: Checker):
        self.ck = ck
        self.names: list[str] = []
        self._by: dict[str, int] = {}

    def add(self, name: str, aliases, key: str) -> int:
        i = len(self.names)
        for n in [name, *aliases]:
            k = n.casefold()
            if self._by.get(k, i) != i:
                self.ck.fail("player listed twice (name or alias)", key, n)
            self._by[k] = i
        self.names.append(name)
        return i

    def find(self, name, key: str) -> int:
        if not isinstance(name, str):
            self.ck.fail("must be a player's name", key, name)
        i = self._by.get(name.casefold())
        if i is None:
            self.ck.fail("unknown player (not in [[players]])", key, name)
        return i


PLAYER_KEYS = {"name", "federation", "rating", "rapid", "blitz", "aliases"}


def read_player(ck: Checker, idx: PlayerIndex, p, where: str, extra_keys=frozenset()):
    """Validate one ``[[players]]`` table and register its name and aliases in ``idx``.

    Returns (name, ratings by rating class, aliases, federation); keys in ``extra_keys`` are
    allowed and left to the caller."""
    if not isinstance(p, dict):
        ck.fail("must be a table", where)
    ck.unknown_keys(p, PLAYER_KEYS | set(extra_keys), where)
    name = ck.get(p, "name", where, str)
    if not name.strip():
        ck.fail("empty name", f"{where}.name")
    aliases = ck.get(p, "aliases", where, list, default=[])
    if not all(isinstance(a, str) for a in aliases):
        ck.fail("aliases must be strings", f"{where}.aliases", aliases)
    ratings = {"classical": ck.get(p, "rating", where, float, lo=1000, hi=3500)}
    for cls in ("rapid", "blitz"):
        r = ck.get(p, cls, where, float, default=None, lo=1000, hi=3500)
        if r is not None:
            ratings[cls] = r
    idx.add(name, aliases, f"{where}.name")
    return name, ratings, tuple(aliases), ck.get(p, "federation", where, str, default="")
