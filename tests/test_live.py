"""Following a live event: PGN and TRF results (with real broadcasts' quirks), results --write,
and a simulated live Candidates 2022 followed round by round from a growing PGN file."""

import html
import json
import re
import shutil

import pytest
from click.testing import CliRunner

import pgnkit
from simcycle.cli import main
from simcycle.io.pgn import read_pgn
from simcycle.io.results import match
from simcycle.io.trf import read_trf
from simcycle.scenario import load_scenario

CAND = str(pgnkit.CAND)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def ok(*args):
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r.output


def refused(*args):
    """The command exits 2 with one line on stderr, no traceback; the line."""
    r = run(*args)
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("simcycle: error: "), r.stderr
    assert "Traceback" not in r.output
    return lines[0]


# ---- reading -------------------------------------------------------------------------------
def test_quirky_pgn_gives_the_shipped_results(tmp_path):
    p = pgnkit.write_pgn(tmp_path / "games.pgn", range(1, 15))
    raw = p.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf") and b"\r\n" in raw        # BOM, CRLF
    rows = read_pgn(p)
    assert len(rows) == 56
    assert sum(r.round is None for r in rows) == 5                 # [Round] missing: placed
    assert rows[0].white == "Duda, Jan-Krzysztof" and rows[0].board == 1
    scn = pgnkit.shipped()
    placed = {(m.round, m.white, m.black): m.code for m in match(rows, scn.players, scn.games)}
    assert placed == {(g.round, g.white, g.black): g.result for g in scn.games}


def test_scenario_reads_its_pgn_and_its_trf(tmp_path):
    pgnkit.write_pgn(tmp_path / "games.pgn", range(1, 8))
    (tmp_path / "event.trf").write_text(pgnkit.trf_text(range(5, 15)), encoding="utf-8")
    live = pgnkit.unplayed_copy(tmp_path, pgn="games.pgn", trf="event.trf")
    _, scn = load_scenario(live)
    assert scn.games == pgnkit.shipped().games      # rounds 5-7 in both files: they agree


def test_trf_columns(tmp_path):
    text = pgnkit.trf_text(range(1, 3), unfinished_round=3)
    line = next(x for x in text.splitlines() if x.startswith("001    1"))
    # columns 15-47 name, round 1 at 92-95 (opponent), 97 (colour), 99 (result)
    assert line[14:47].strip() == "Nepomniachtchi, Ian"
    assert (line[91:95], line[96], line[98]) == ("0002", "b", "1")
    p = tmp_path / "e.trf"
    p.write_text(text, encoding="utf-8")
    rows = read_trf(p)
    assert len(rows) == 12 and [r.result for r in rows[8:]] == ["*"] * 4
    assert rows[0].where.startswith("line ")


def test_fide_ids_match_players_and_must_agree_with_names(tmp_path):
    text = pgnkit.CAND.read_text(encoding="utf-8").replace(
        'name = "Ding Liren"\n', 'name = "Ding Liren"\nfide_id = 8603677\n')
    scn_file = tmp_path / "c.toml"
    scn_file.write_text(re.sub(r'"(1-0|0-1|1/2-1/2)"\]', '"*"]', text), encoding="utf-8")
    g = pgnkit.pgn_game(3, 1, 2, "Ding Liren", "Ian Nepomniachtchi", "0-1",
                        fide={"Ding Liren": 8603677})
    (tmp_path / "a.pgn").write_text(g.replace("Ding, Liren", "D. Liren (CHN)"), encoding="utf-8")
    d = json.loads(ok("results", scn_file, "--pgn", tmp_path / "a.pgn", "--json"))
    assert [(x["white"], x["result"]) for x in d["new"]] == [("Ding Liren", "0-1")]
    (tmp_path / "b.pgn").write_text(g.replace("Ding, Liren", "Caruana, Fabiano"),
                                    encoding="utf-8")
    line = refused("results", scn_file, "--pgn", tmp_path / "b.pgn")
    assert "FIDE id 8603677 is Ding Liren's" in line and "round 1.2" in line


def test_an_empty_pgn_is_an_event_not_started(tmp_path):
    (tmp_path / "games.pgn").write_text("\ufeff\r\n", encoding="utf-8")
    live = pgnkit.unplayed_copy(tmp_path, pgn="games.pgn")
    assert ok("checkpoints", live).split() == ["start"]


# ---- results --write -------------------------------------------------------------------------
def test_results_write_keeps_comments_and_layout(tmp_path):
    live = pgnkit.unplayed_copy(tmp_path)
    before = live.read_text(encoding="utf-8")
    pgn = pgnkit.write_pgn(tmp_path / "games.pgn", range(1, 4), unfinished_round=4)
    out = ok("results", live, "--pgn", pgn)
    assert "new results: 12" in out and "unfinished: 4" in out and "start -> round3" in out
    assert live.read_text(encoding="utf-8") == before              # not written without --write
    out = ok("results", live, "--pgn", pgn, "--write")
    assert "written into" in out
    after = live.read_text(encoding="utf-8")
    comments = lambda t: [x for x in t.splitlines() if "#" in x]      # noqa: E731
    assert comments(after) == comments(before)                       # every comment kept
    assert len(after.splitlines()) == len(before.splitlines())      # the layout too
    assert ok("checkpoints", live).split()[-1] == "round3"
    shipped = {(g.round, g.white, g.black): g.result for g in pgnkit.shipped().games}
    _, scn = load_scenario(live)
    for g in scn.games:
        assert g.result == (shipped[(g.round, g.white, g.black)] if g.round <= 3 else -1)
    assert "new results: 0; already in the scenario: 12" in ok("results", live, "--pgn", pgn)
    # the same through TRF, for the next rounds
    trf = tmp_path / "e.trf"
    trf.write_text(pgnkit.trf_text(range(1, 6)), encoding="utf-8")
    out = ok("results", live, "--trf", trf, "--write")
    assert "new results: 8" in out and "round3 -> round5" in out


def test_results_refuses_other_formats_and_both_files():
    gp = str(pgnkit.SCENARIOS / "grand-prix-2019.toml")
    assert "results from PGN/TRF files is not available for the knockout-series format" in \
        refused("results", gp, "--pgn", CAND)
    assert "one of --pgn FILE and --trf FILE" in refused("results", CAND)


# ---- bad files: exit 2, one line naming the file and the game ------------------------------
def _pgn_with(tmp_path, edit):
    text = pgnkit.quirky_pgn(range(1, 15)).replace("\r\n", "\n")
    assert edit[0] in text, edit[0]
    p = tmp_path / "bad.pgn"
    p.write_text(text.replace(edit[0], edit[1], 1), encoding="utf-8")
    return p


BAD_PGN = [
    ("unknown player", ('[White "Nakamura, Hikaru"]', '[White "Carlsen, Magnus"]'),
     ["game 6, line 50 (round ? Carlsen, Magnus - Radjabov, Teimour)",
      "unknown player 'Carlsen, Magnus'"]),
    ("wrong colours", ('[White "Caruana,F."]\n[Black "Nakamura, Hikaru"]',
                       '[White "Nakamura, Hikaru"]\n[Black "Caruana,F."]'),
     ["round 1.3 Nakamura, Hikaru - Caruana,F.", "wrong colours"]),
    ("outside the schedule",
     ('[Round "10.4"]\n[White "Nakamura, Hikaru"]\n[Black "Firouzja, Alireza"]',
      '[Round "10.4"]\n[White "Nakamura, Hikaru"]\n[Black "Ding, Liren"]'),
     ["round 10.4 Nakamura, Hikaru - Ding, Liren", "not in the schedule of round 10",
      "Ding Liren plays Richárd Rapport"]),
    ("no such round", ('[Round "14.4"]', '[Round "15.4"]'), ["round 15.4", "no round 15"]),
    ("contradicts the scenario",
     (pgnkit.pgn_game(1, 1, 2, "Ding Liren", "Ian Nepomniachtchi", "0-1"),
      pgnkit.pgn_game(1, 1, 2, "Ding Liren", "Ian Nepomniachtchi", "1-0")),
     ["game 2, line 11 (round 1.2 Ding, Liren - Nepomniachtchi, Ian)",
      "result 1-0 contradicts the scenario, which has 0-1"]),
    ("result tag and moves disagree", ("Be7 0-1", "Be7 1-0"),
     ["round 1.2", "the moves end with 1-0"]),
    ("round tag nonsense", ('[Round "2.1"]', '[Round "second"]'), ["game 5", "second"]),
]


@pytest.mark.parametrize("what,edit,words", BAD_PGN, ids=[b[0] for b in BAD_PGN])
def test_bad_pgn_exits_2_naming_the_game(tmp_path, what, edit, words):
    p = _pgn_with(tmp_path, edit)
    # against the shipped scenario (which has every result) and through a scenario's own key
    line = refused("results", CAND, "--pgn", p)
    assert "bad.pgn" in line
    for w in words:
        assert w in line, (w, line)
    if what != "contradicts the scenario":
        live = pgnkit.unplayed_copy(tmp_path, pgn="bad.pgn")
        line = refused("simulate", live, "--sims", 100)
        assert "bad.pgn" in line and words[0] in line


def test_truncated_and_non_pgn_files(tmp_path):
    text = pgnkit.quirky_pgn(range(1, 3))
    cut = tmp_path / "cut.pgn"
    cut.write_bytes(text.encode()[: text.encode().rindex(b"Nf3 Nc6") + 3])
    line = refused("results", CAND, "--pgn", cut)
    assert "cut.pgn: game 5, line 40 (round 2.1 Rapport, Richard - Firouzja" in line
    assert "cut short" in line
    cut.write_bytes(text.encode()[: text.encode().rindex(b'[Black "')])   # cut in the tags
    line = refused("results", CAND, "--pgn", cut)
    assert "cut.pgn: game 8" in line and "[Black]" in line
    line = refused("results", CAND, "--pgn", CAND)                        # a TOML file
    assert "not a PGN game" in line and "candidates-2022.toml: game 1" in line
    binary = tmp_path / "x.pgn"
    binary.write_bytes(b"\x00\x01PK")
    assert "binary" in refused("results", CAND, "--pgn", binary)
    assert "no such PGN file" in refused("results", CAND, "--pgn", tmp_path / "none.pgn")


def test_bad_trf_exits_2_naming_the_line(tmp_path):
    text = pgnkit.trf_text(range(1, 3))
    p = tmp_path / "bad.trf"
    lines = text.splitlines()
    # the two lines of a game disagree on its result
    k = next(i for i, x in enumerate(lines) if x.startswith("001    1"))
    lines[k] = lines[k][:98] + "0" + lines[k][99:]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    line = refused("results", CAND, "--trf", p)
    assert "bad.trf: line 2 (round 1 Ding, Liren - Nepomniachtchi, Ian)" in line
    assert "disagree on the result" in line
    # a forfeit
    lines = text.splitlines()
    lines[k] = lines[k][:98] + "+" + lines[k][99:]
    j = next(i for i, x in enumerate(lines) if x.startswith("001    2"))
    lines[j] = lines[j][:98] + "-" + lines[j][99:]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert "forfeit" in refused("results", CAND, "--trf", p)
    # an unknown player
    p.write_text(text.replace("Ding, Liren  ", "Carlsen, M.  "), encoding="utf-8")
    line = refused("results", CAND, "--trf", p)
    assert "round 1 Carlsen, M. - Nepomniachtchi, Ian" in line and "unknown player" in line
    p.write_text("hello\n", encoding="utf-8")
    assert "not a TRF file" in refused("results", CAND, "--trf", p)


# ---- the live Candidates -------------------------------------------------------------------
def test_follow_a_live_candidates_round_by_round(tmp_path):
    """The broadcast's PGN grows round by round (with the next round's games in progress);
    after each round one command each gives the new odds, the history and the report."""
    pgn = tmp_path / "candidates.pgn"
    pgn.write_text("", encoding="utf-8")
    live = pgnkit.unplayed_copy(tmp_path, pgn="candidates.pgn")
    real = {}
    for rnd in range(1, 15):
        pgnkit.write_pgn(pgn, range(1, rnd + 1), unfinished_round=rnd + 1 if rnd < 14 else None)
        real = json.loads(ok("standings", CAND, "--at", f"round{rnd}", "--json"))
        now = json.loads(ok("standings", live, "--json"))
        assert [(p["name"], p["points"]) for p in now["players"]] == \
            [(p["name"], p["points"]) for p in real["players"]]
        d = json.loads(ok("simulate", live, "--sims", 2000, "--seed", 5, "--json"))
        exp = {p["name"]: p["expected_points"] for p in d["players"]}
        pts = {p["name"]: p["points"] for p in real["players"]}
        left = 14 - rnd
        for name, e in exp.items():          # what is played counts; at most 1 point a round
            assert pts[name] - 1e-9 <= e <= pts[name] + left + 1e-9
        h = json.loads(ok("history", live, "--sims", 300, "--json"))
        assert h["checkpoints"] == ["start"] + [f"round{k}" for k in range(1, rnd + 1)]
        last = [r for r in h["rows"] if r["checkpoint"] == f"round{rnd}"]
        assert {r["player"]: r["p_first"] for r in last} == \
            {p["name"]: p["p_first"] for p in json.loads(ok(
                "simulate", live, "--at", f"round{rnd}", "--sims", 300, "--json"))["players"]}
        out = tmp_path / f"report-{rnd}.html"
        ok("report", live, "-o", out, "--sims", 1000, "--swing-sims", 1000)
        page = html.unescape(out.read_text(encoding="utf-8"))
        assert f"Standings after round {rnd}" in page and "<svg" in page
        assert "at latest" not in page
        assert ("Next round's swing (round %d)" % (rnd + 1) in page) == (rnd < 14)
        leader = real["players"][0]
        assert f"</span>{leader['name']}</td>" in page      # the name after its colour
    nepo = next(p for p in d["players"] if p["name"] == "Ian Nepomniachtchi")
    assert nepo["p_first"] == 1.0 and d["players"][0]["name"] == "Ian Nepomniachtchi"
    final = [r for r in h["rows"] if r["checkpoint"] == "round14"]
    assert {r["player"]: r["p_first"] for r in final}["Ian Nepomniachtchi"] == 1.0


def test_a_round_half_played_adds_a_latest_point(tmp_path):
    shutil.copy(pgnkit.CAND, tmp_path / "x.toml")
    pgn = tmp_path / "candidates.pgn"
    text = pgnkit.quirky_pgn(range(1, 10)).replace("\r\n", "\n")
    byr = pgnkit.games_by_round()
    text += "\n" + "\n".join(pgnkit.pgn_game(1, 10, b, w, bl, r) for b, w, bl, r in byr[10][:2])
    pgn.write_text(text, encoding="utf-8")
    live = pgnkit.unplayed_copy(tmp_path, pgn="candidates.pgn")
    h = json.loads(ok("history", live, "--sims", 300, "--json"))
    assert h["checkpoints"][-2:] == ["round9", "latest"]
    csv = ok("history", live, "--sims", 300, "--csv").splitlines()
    assert csv[0].startswith("checkpoint,player,p_first,se_p_first") and len(csv) == 1 + 11 * 8


def test_latin1_pgn_and_a_game_listed_twice(tmp_path):
    g = pgnkit.pgn_game(0, 1, 1, "Jan-Krzysztof Duda", "Richárd Rapport", "1/2-1/2")
    g = g.replace("Rapport, Richard", "Rapport, Richárd")
    p = tmp_path / "latin1.pgn"
    p.write_bytes(g.encode("latin-1"))                   # the PGN standard's own encoding
    d = json.loads(ok("results", pgnkit.unplayed_copy(tmp_path), "--pgn", p, "--json"))
    assert [(x["black"], x["result"]) for x in d["new"]] == [("Richárd Rapport", "1/2-1/2")]
    p.write_text(g + "\n" + g.replace('"1/2-1/2"', '"1-0"').replace("1/2-1/2\n", "1-0\n"),
                 encoding="utf-8")
    line = refused("results", pgnkit.unplayed_copy(tmp_path), "--pgn", p)
    assert ("game 2" in line and "contradicts" in line
            and "game 1, line 1, which has 1/2-1/2" in line)


def test_write_appends_games_and_rounds_a_berger_file_does_not_list(tmp_path):
    scn = tmp_path / "b.toml"
    scn.write_text('[scenario]\nname = "Four"\nformat = "round-robin"\n\n'
                   '[event]\nschedule = "berger"   # rounds from the Berger tables\n\n'
                   + "".join(f'[[players]]\nname = "{n}"\nrating = 2700\n\n' for n in "ABCD")
                   + '# round 1, as far as we know\n[[rounds]]\nround = 1\ngames = [\n'
                   '  ["A", "D", "1-0"],  # a quick win\n]\n', encoding="utf-8")
    _, s = load_scenario(scn)
    byr = {}
    for g in s.games:
        byr.setdefault(g.round, []).append((s.names[g.white], s.names[g.black]))
    games = [(r, b + 1, w, bl, "1/2-1/2") for r in (1, 2) for b, (w, bl) in enumerate(byr[r])]
    text = "\n".join(pgnkit.pgn_game(0, *g) for g in games if (g[2], g[3]) != ("A", "D"))
    (tmp_path / "g.pgn").write_text(text, encoding="utf-8")
    out = ok("results", scn, "--pgn", tmp_path / "g.pgn", "--write")
    assert "new results: 3" in out and "start -> round2" in out
    after = scn.read_text(encoding="utf-8")
    assert "# a quick win" in after and "# round 1, as far as we know" in after
    assert "# rounds from the Berger tables" in after and after.count("[[rounds]]") == 2
    _, s = load_scenario(scn)
    assert sum(g.result >= 0 for g in s.games) == 4
