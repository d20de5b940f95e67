"""PGN and TRF files written from the shipped Candidates 2022 results, with the quirks of real
broadcasts: a byte-order mark, CRLF line ends, {comments}, ; comments, (variations), NAGs,
% escape lines, missing tags (no [Date], [Site], even no [Round]), names written "Last, First",
FIDE ids, unfinished games (*)."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import SCENARIOS

CAND = SCENARIOS / "candidates-2022.toml"
RESULT = {0: "1-0", 1: "1/2-1/2", 2: "0-1", -1: "*"}
# how a broadcast spells some players (FIDE's "Last, First"; Chinese order kept)
BROADCAST = {"Ian Nepomniachtchi": "Nepomniachtchi, Ian", "Ding Liren": "Ding, Liren",
             "Hikaru Nakamura": "Nakamura, Hikaru", "Richárd Rapport": "Rapport, Richard",
             "Jan-Krzysztof Duda": "Duda, Jan-Krzysztof", "Fabiano Caruana": "Caruana,F.",
             "Alireza Firouzja": "Firouzja, Alireza", "Teimour Radjabov": "Radjabov, Teimour"}
MOVES = [
    '1. e4 {[%clk 1:59:58]} e5 2. Nf3 Nc6 (2... d6 3. d4 {Philidor} 1-0) 3. Bb5 $1 a6 '
    '{ a comment with (brackets) and 1-0 inside }',
    "1. d4 Nf6 2. c4 e6 3. Nf3 d5 ; the rest of this line is a comment 1-0\n4. Nc3 Be7",
    "1. c4 e5 2. g3 (2. Nc3 Nf6 (2... Nc6 3. g3) 3. Nf3) 2... Nf6 3. Bg2 d5 4. cxd5 Nxd5",
    "",     # a game with no moves (a quick draw by agreement, or a forfeit)
]


def shipped():
    from simcycle.scenario import load_scenario
    return load_scenario(CAND)[1]


def games_by_round(scn=None):
    """{round: [(board, white, black, result), ...]} of the shipped results."""
    scn = scn or shipped()
    out: dict[int, list] = {}
    for g in scn.games:
        rows = out.setdefault(g.round, [])
        rows.append((len(rows) + 1, scn.names[g.white], scn.names[g.black], RESULT[g.result]))
    return out


def pgn_game(k: int, rnd, board, white, black, result, *, round_tag=True, fide=None,
             site=True) -> str:
    """One game's PGN text (LF line ends), quirky."""
    tags = [("Event", "FIDE Candidates 2022")]
    if site:
        tags += [("Site", "Madrid ESP"), ("Date", "2022.06.??")]
    if round_tag:
        tags.append(("Round", f"{rnd}.{board}"))
    tags += [("White", BROADCAST.get(white, white)), ("Black", BROADCAST.get(black, black)),
             ("Result", result)]
    for side, name in (("White", white), ("Black", black)):
        if fide and name in fide:
            tags.append((f"{side}FideId", str(fide[name])))
    moves = MOVES[k % len(MOVES)]
    head = "\n".join(f'[{t} "{v}"]' for t, v in tags)
    return f"{head}\n\n{moves} {result}".replace("\n\n ", "\n\n") + "\n"


def quirky_pgn(rounds, *, unfinished_round=None, fide=None) -> str:
    """PGN text of the shipped games of ``rounds`` (and, unfinished, of
    ``unfinished_round``): BOM, CRLF, a % line, comments, variations, some tags missing."""
    byr = games_by_round()
    parts = ["% exported by a broadcast\n"]
    k = 0
    for rnd in rounds:
        for board, w, b, res in byr[rnd]:
            parts.append(pgn_game(k, rnd, board, w, b, res, round_tag=(k % 11 != 5),
                                  site=(k % 3 != 0), fide=fide))
            k += 1
    if unfinished_round:
        for board, w, b, res in byr[unfinished_round]:
            parts.append(pgn_game(k, unfinished_round, board, w, b, "*", fide=fide))
            k += 1
    text = "\n".join(parts)
    return "\ufeff" + text.replace("\n", "\r\n")


def write_pgn(path: Path, rounds, **kw) -> Path:
    Path(path).write_bytes(quirky_pgn(rounds, **kw).encode("utf-8"))
    return Path(path)


def unplayed_copy(folder: Path, *, pgn: str | None = None, trf: str | None = None) -> Path:
    """The shipped scenario with every result "*" (comments kept), pointing at the files."""
    text = CAND.read_text(encoding="utf-8")
    text = re.sub(r'"(1-0|0-1|1/2-1/2)"\]', '"*"]', text)
    extra = "".join(f'results_{k} = "{v}"\n' for k, v in (("pgn", pgn), ("trf", trf)) if v)
    text = text.replace("[event]\n", "[event]\n" + extra, 1)
    p = Path(folder) / "candidates-live.toml"
    p.write_text(text, encoding="utf-8")
    return p


def trf_text(rounds=None, *, unfinished_round=None) -> str:
    """A TRF-16 file of the shipped games (of ``rounds``; all by default)."""
    from simcycle.io.trf import write_trf

    scn = shipped()
    players = [{"name": BROADCAST.get(p.name, p.name), "rating": p.ratings["classical"],
                "federation": p.federation} for p in scn.players]
    keep = set(rounds) if rounds is not None else set(range(1, 15))
    games = [(g.round, g.white, g.black, RESULT[g.result]) for g in scn.games
             if g.round in keep]
    games += [(g.round, g.white, g.black, "*") for g in scn.games
              if g.round == unfinished_round]
    return write_trf(players, games, event="FIDE Candidates 2022")
