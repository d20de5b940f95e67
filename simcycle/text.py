"""Text a user trusts: player names checked at load, cells neutralised for spreadsheets.

* :func:`check_name` refuses a name holding a control character (a newline, NUL, escape), a
  format character (Unicode category ``Cf``: right-to-left overrides and isolates, zero-width
  spaces and joiners, the byte-order mark), a line or paragraph separator, a private-use or
  unassigned code point: each would break a table, hide or reorder what is printed, or make
  two different players look alike.  Letters of every script, accents and spaces are fine.
* :func:`csv_cell` neutralises a text cell a spreadsheet would run as a formula (one starting
  with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) by a leading apostrophe, as
  OWASP's "CSV injection" guidance recommends (https://owasp.org/www-community/attacks/CSV_Injection);
  numbers are written as they are.
"""

from __future__ import annotations

import unicodedata

from .errors import ScenarioError

_REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character "
            "(bidirectional override or zero-width)", "Zl": "a line separator",
            "Zp": "a paragraph separator", "Co": "a private-use character",
            "Cn": "an unassigned character", "Cs": "a lone surrogate"}
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def name_problem(name: str) -> str | None:
    """What makes ``name`` unfit to print (None when it is fine)."""
    for ch in name:
        cat = unicodedata.category(ch)
        if cat in _REFUSED:
            return f"{_REFUSED[cat]} (U+{ord(ch):04X})"
    return None


def check_name(name: str, file: str | None, key: str) -> str:
    """``name``, or a ScenarioError naming the file, key and player."""
    why = name_problem(name)
    if why is not None:
        raise ScenarioError(f"a player's name holds {why}; write it in plain text", file=file,
                            key=key, value=name)
    return name


def csv_cell(value):
    """A CSV cell: text that a spreadsheet would evaluate gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_row(values) -> list:
    return [csv_cell(v) for v in values]
