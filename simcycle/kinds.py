"""What kind of event a game belongs to, and what time control it was played at: the one
vocabulary shared by the game data (``data/games/games.csv``), the model files (``[kinds]``),
the scenario key ``[scenario] kind`` and the fit and backtest.  Plain Python, no imports."""

from __future__ import annotations

# Event kinds.  The model's draw propensity is multiplied by exp(kappa[kind]); the reference
# kind has kappa = 0 by definition.
KINDS: dict[str, str] = {
    "candidates": "a Candidates tournament: a round robin in which only first place counts",
    "round-robin": "an ordinary invitational round robin (prize money and rating at stake)",
    "knockout": "a knock-out event of short matches (World Cup, Grand Prix 2019)",
    "match": "a match between two players (World Championship, training or exhibition matches)",
    "open": "a Swiss-system open (Grand Swiss, Gibraltar, World Rapid)",
    "group-stage": "the pools of a group stage that feeds a knock-out (Grand Prix 2022)",
    "team": "a team competition (Olympiad, team championships, club leagues)",
    "online": "an event played online (the 2020-21 online tours and team events)",
    "unknown": "not identified: games the data does not tie to a known event",
}
REFERENCE_KIND = "round-robin"

# Time controls of the game data.  "speed-unknown" is a rapid, blitz or Armageddon game whose
# exact control the source does not give (e.g. the tiebreak days of a knock-out).
GAME_CONTROLS: dict[str, str] = {
    "classical": "classical (90 minutes or more a player)",
    "rapid": "rapid (10 to 60 minutes a player)",
    "blitz": "blitz (under 10 minutes a player)",
    "armageddon": "Armageddon (a draw counts as a win for Black)",
    "speed-unknown": "rapid, blitz or Armageddon: the source does not say which",
}

# The model's rating class that each fitted game control informs.
CONTROL_CLASS: dict[str, str] = {"classical": "classical", "rapid": "rapid", "blitz": "blitz"}


def check_kind(value: object) -> str | None:
    """The kind if ``value`` names one, else None."""
    return value if isinstance(value, str) and value in KINDS else None
