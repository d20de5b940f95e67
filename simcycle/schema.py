"""Declared schemas for the files people write, validated by msgspec.

Every table of a scenario, model or experiment file is a :class:`Table` (a frozen
``msgspec.Struct`` that refuses unknown keys); numbers carry their ranges in the type
(``Rating``, ``Money``, ...), and every float type has finite bounds, so ``nan`` and ``inf``
are refused wherever a number is read.  :func:`convert` turns msgspec's error into one
:class:`~simcycle.errors.ScenarioError` line with file, key and value.

Why msgspec and not pydantic: both declare types with ranges and "no unknown keys" and report
the path of an error; msgspec imports in a few milliseconds (pydantic v2 in about 0.2 s, which
every ``simulate`` would pay before its first batch), validates a scenario in microseconds,
and its structs are plain frozen records that the loaders can hand on as they are.
"""

from __future__ import annotations

import math
import re
import typing
from typing import Annotated, Any, Literal, TypeVar

import msgspec
from msgspec import Meta, Struct, field

from .errors import ScenarioError

__all__ = ["Table", "field", "convert", "Rating", "Money", "Points", "Finite", "Name",
           "Text", "Whole", "between", "whole_between", "Literal", "Annotated", "Meta"]


class Table(Struct, forbid_unknown_fields=True, kw_only=True, frozen=True):
    """A table of a file: typed keys, unknown keys refused."""


def between(lo: float, hi: float) -> Any:
    """A number (whole numbers accepted) in [lo, hi]; nan and inf are out of range."""
    return Annotated[float, Meta(ge=lo, le=hi)]


def whole_between(lo: int, hi: int) -> Any:
    return Annotated[int, Meta(ge=lo, le=hi)]


Rating = between(1000, 3500)          # Elo; FIDE ratings lie well inside
Money = between(0, 1e12)              # prize money in the scenario's currency
Points = between(0, 1e6)              # points of a points table
Finite = between(-1e12, 1e12)
Whole = whole_between(-10**9, 10**9)
Name = Annotated[str, Meta(min_length=1, max_length=200, pattern=r"\S")]
Text = Annotated[str, Meta(max_length=20_000)]

T = TypeVar("T")


def convert(raw: Any, typ: type[T], file: str | None, prefix: str = "") -> T:
    """``raw`` (from TOML) as ``typ``, or a ScenarioError naming file, key and value."""
    try:
        return msgspec.convert(raw, typ, strict=True)
    except msgspec.ValidationError as e:
        raise _error(str(e), raw, typ, file, prefix) from None


# ---- one line from msgspec's message ---------------------------------------------------------
_AT = re.compile(r"^(?P<msg>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.S)
_SEG = re.compile(r"\.([A-Za-z_][\w-]*)|\[(\d+)\]|\[\.\.\.\]|\[([^\]]*)\]")
_KIND = {"int": "a whole number", "float": "a number", "str": "a string", "bool": "true or false",
         "array": "a list", "object": "a table", "null": "nothing", "datetime": "a date-time",
         "date": "a date"}


def _segments(path: str) -> list:
    out = []
    for m in _SEG.finditer(path or ""):
        if m.group(1) is not None:
            out.append(m.group(1))
        elif m.group(2) is not None:
            out.append(int(m.group(2)))
        elif m.group(3) is not None:
            out.append(m.group(3).strip("'\""))
        else:
            out.append(...)       # a dict's key: msgspec does not say which
    return out


def _resolve(raw: Any, typ: Any, segs: list) -> list:
    """Replace each ``...`` (an unnamed dict key) by the first key whose value fails."""
    out: list = []
    for i, s in enumerate(segs):
        if s is ...:
            found, d = _lookup(raw, out)
            t = _type_at(typ, out)
            if not (found and isinstance(d, dict) and typing.get_origin(t) is dict):
                return out
            for k, v in d.items():
                try:
                    msgspec.convert({k: v}, t, strict=True)
                except msgspec.ValidationError:
                    s = k
                    break
            else:
                return out
        out.append(s)
    return out


def _key(prefix: str, segs: list) -> str:
    key = prefix
    for s in segs:
        if isinstance(s, int):
            key += f"[{s}]"
        elif not re.fullmatch(r"[A-Za-z_][\w-]*", str(s)):
            key += f"[{str(s)!r}]" if key else repr(str(s))
        else:
            key = f"{key}.{s}" if key else str(s)
    return key


def _lookup(raw: Any, segs: list) -> tuple[bool, Any]:
    cur = raw
    for s in segs:
        if isinstance(s, int) and isinstance(cur, list) and 0 <= s < len(cur):
            cur = cur[s]
        elif isinstance(s, str) and isinstance(cur, dict) and s in cur:
            cur = cur[s]
        else:
            return False, None
    return True, cur


def _strip(t: Any) -> Any:
    while True:
        origin = typing.get_origin(t)
        if origin is Annotated:
            t = typing.get_args(t)[0]
        elif origin is typing.Union or (origin is not None and str(origin) == "types.UnionType"):
            args = [a for a in typing.get_args(t) if a is not type(None)]
            if len(args) != 1:
                return t
            t = args[0]
        else:
            return t


def _type_at(typ: Any, segs: list) -> Any:
    t = _strip(typ)
    for s in segs:
        origin = typing.get_origin(t)
        if isinstance(t, type) and issubclass(t, Struct):
            hints = typing.get_type_hints(t, include_extras=True)
            names = {f.encode_name: f.name for f in msgspec.structs.fields(t)}
            if s not in names:
                return None
            t = _strip(hints[names[s]])
        elif origin in (list, tuple) and isinstance(s, int):
            t = _strip(typing.get_args(t)[0])
        elif origin is dict:
            t = _strip(typing.get_args(t)[1])
        else:
            return None
    return t


def _allowed(typ: Any, segs: list) -> str:
    t = _type_at(typ, segs)
    if isinstance(t, type) and issubclass(t, Struct):
        return ", ".join(sorted(f.encode_name for f in msgspec.structs.fields(t)))
    return ""


def _error(text: str, raw: Any, typ: Any, file: str | None, prefix: str) -> ScenarioError:
    m = _AT.match(text.strip())
    msg = m.group("msg")
    segs = _resolve(raw, typ, _segments(m.group("path") or ""))
    unknown = re.match(r"Object contains unknown field `(.+)`", msg)
    missing = re.match(r"Object missing required field `(.+)`", msg)
    if unknown:
        allowed = _allowed(typ, segs)
        segs = segs + [unknown.group(1)]
        return ScenarioError("unknown key" + (f" (allowed: {allowed})" if allowed else ""),
                             file=file, key=_key(prefix, segs))
    if missing:
        return ScenarioError("missing key", file=file, key=_key(prefix, segs + [missing.group(1)]))
    found, value = _lookup(raw, segs)
    key = _key(prefix, segs)
    if isinstance(value, float) and not math.isfinite(value):
        return ScenarioError("must be a finite number", file=file, key=key, value=value)
    for pattern, say in _VALUE_ERRORS:      # the first that matches msgspec's message
        said = pattern.match(msg)
        if said:
            return ScenarioError(say(said, typ, segs), file=file, key=key, value=value,
                                 has_value=found)
    return ScenarioError(msg.rstrip("."), file=file, key=key or None, value=value,
                         has_value=found)


def _say_bound(m: re.Match, typ: Any, segs: list) -> str:
    what = _KIND.get(m.group(1), m.group(1))
    lo_hi = _range_of(typ, segs)
    return (f"must be {what} between {lo_hi[0]} and {lo_hi[1]}" if lo_hi
            else f"must be {what} {m.group(2)} {m.group(3).removesuffix('.0')}")


def _say_length(m: re.Match, typ: Any, segs: list) -> str:
    return "must " + ("not be empty" if m.group(2) == ">=" else f"have at most {m.group(3)}")


def _say_enum(m: re.Match, typ: Any, segs: list) -> str:
    t = _type_at(typ, segs)
    choices = typing.get_args(t) if typing.get_origin(t) is Literal else ()
    return ("must be one of " + ", ".join(map(str, choices))) if choices else "not allowed"


def _say_expected(m: re.Match, typ: Any, segs: list) -> str:
    t = _type_at(typ, segs)
    if typing.get_origin(t) is Literal:
        return "must be one of " + ", ".join(map(str, typing.get_args(t)))
    return f"must be {_KIND.get(m.group(1), m.group(1))}"


# msgspec's message of a bad value -> our words (checked in this order)
_VALUE_ERRORS = (
    (re.compile(r"Expected `(\w+)` (>=|<=|>|<) (\S+)$"), _say_bound),
    (re.compile(r"Expected `(\w+)` of length (>=|<=) (\d+)$"), _say_length),
    (re.compile(r"Expected `str` matching regex"), lambda m, typ, segs: "must not be blank"),
    (re.compile(r"Invalid enum value"), _say_enum),
    (re.compile(r"Expected `(\w+)`(?:, got `(\w+)`)?$"), _say_expected),
)


def _range_of(typ: Any, segs: list) -> tuple | None:
    """The (lowest, highest) a value at ``segs`` in ``typ`` may take, as text, where its
    annotation bounds it on both sides; else None."""
    lo = hi = None
    ann = _annotation_at(typ, segs)
    while ann is not None and typing.get_origin(ann) is Annotated:
        args = typing.get_args(ann)
        for meta in args[1:]:
            if isinstance(meta, Meta):
                lo = meta.ge if meta.ge is not None else lo
                hi = meta.le if meta.le is not None else hi
        ann = args[0]
    if lo is None or hi is None:
        return None
    return _bound_text(lo), _bound_text(hi)


def _annotation_at(typ: Any, segs: list):
    """The annotation of the value at ``segs``: a struct field's (by its name in the file),
    or a list's, tuple's or dict's items'; None where there is none."""
    t = _type_at(typ, segs[:-1]) if segs else None
    if isinstance(t, type) and issubclass(t, Struct) and isinstance(segs[-1], str):
        hints = typing.get_type_hints(t, include_extras=True)
        names = {f.encode_name: f.name for f in msgspec.structs.fields(t)}
        return hints.get(names.get(segs[-1], ""))
    if typing.get_origin(t) in (list, tuple, dict):
        return typing.get_args(t)[-1]
    return None


def _bound_text(v) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)
