"""Write scenarios/grand-swiss-2025.toml from the TRF-16 file of this folder.

    python data/swiss/build.py

The players (pairing numbers, names, titles, ratings, FIDE ids) and rounds 1-8 (pairings,
colours, results) come from ``grand-swiss-2025-open-r1-8.trf`` (see README.md for its
provenance); the rules come from the public sources the scenario cites.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
TRF = HERE / "grand-swiss-2025-open-r1-8.trf"
OUT = HERE.parent.parent / "scenarios" / "grand-swiss-2025.toml"
# already qualified or not eligible: a qualifying place he reaches passes down the standings
QUALIFIED = {"Gukesh D": "the World Champion (2024) plays the title match, not the Candidates"}
RESULT = {("1", "0"): "1-0", ("0", "1"): "0-1", ("=", "="): "1/2-1/2",
          ("+", "-"): "+-", ("-", "+"): "-+"}

HEAD = '''# FIDE Grand Swiss 2025, open section (Samarkand, September 2025): 116 players, 11 rounds,
# FIDE Dutch system; the first two qualify for the Candidates Tournament 2026.
# Players and rounds 1-8 from data/swiss/grand-swiss-2025-open-r1-8.trf (the lichess
# broadcast of the event; provenance in data/swiss/README.md), written by data/swiss/build.py.
[scenario]
name = "FIDE Grand Swiss 2025 (open)"
format = "swiss"
kind = "open"
description = "11-round Swiss, top 2 to the Candidates 2026; rounds 1-8 played"
sources = [
  "https://lichess.org/broadcast/fide-grand-swiss-2025--open/round-1/xSCoiNg0",
  "https://en.wikipedia.org/wiki/FIDE_Grand_Swiss_Tournament_2025",
  "https://handbook.fide.com/chapter/C0403Till2026",
  "https://handbook.fide.com/chapter/TieBreakRegulations2023",
]

[event]
rounds = 11                  # the TRF's XXR 11
control = "classical"
qualifying_places = 2        # the top two qualify for the Candidates 2026
pass_down = true             # a qualifying place whose holder is already qualified passes down
initial_colour = "black"     # the TRF's XXC black1: pairing number 1 had Black in round 1
acceleration = "none"

[tiebreak]
# average rating of opponents cut 1, Buchholz cut 1, Buchholz, direct encounter, lots
order = ["aro-cut1", "buchholz-cut1", "buchholz", "direct-encounter", "lots"]
source = "https://en.wikipedia.org/wiki/FIDE_Grand_Swiss_Tournament_2025 (tie-breaks)"
'''


def main() -> None:
    players, cells = [], {}
    for line in TRF.read_text(encoding="utf-8").splitlines():
        if not line.startswith("001"):
            continue
        no = int(line[4:8])
        players.append((no, line[10:13].strip(), line[14:47].strip(), int(line[48:52]),
                        int(line[57:68])))
        r = 0
        while len(line) >= 92 + 10 * r:
            c = 91 + 10 * r
            cells[(no, r + 1)] = (int(line[c:c + 4]), line[c + 5], line[c + 7])
            r += 1
    players.sort()
    name = {no: nm for no, _, nm, _, _ in players}
    out = [HEAD]
    for no, title, nm, rating, fid in players:
        out.append(f'\n[[players]]   # pairing number {no}\nname = "{nm}"\ntitle = "{title}"\n'
                   f'rating = {rating}\nfide_id = {fid}\n')
        if nm in QUALIFIED:
            out.append(f"qualified = true   # {QUALIFIED[nm]}\n")
    rounds = max(r for _, r in cells)
    for r in range(1, rounds + 1):
        games = []
        for no, *_ in players:
            opp, col, res = cells[(no, r)]
            if col == "w":
                ores = cells[(opp, r)][2]
                games.append(f'  ["{name[no]}", "{name[opp]}", "{RESULT[(res, ores)]}"],')
        out.append(f"\n[[rounds]]\nround = {r}\ngames = [\n" + "\n".join(games) + "\n]\n")
    OUT.write_text("".join(out), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
