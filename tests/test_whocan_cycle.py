"""whocan across the cycle-2022 chain, at checkpoints whose answers a reader can check by
hand (no kernel is compiled: the seat rules and the Grand Prix's own whocan only).

The Candidates 2022 field (https://en.wikipedia.org/wiki/Candidates_Tournament_2022):
Nepomniachtchi, Radjabov, Duda, Firouzja, Caruana, Rapport and Nakamura (Grand Prix 2022),
Ding Liren (the rating-list replacement of Karjakin)."""

from __future__ import annotations

import pytest

from simcycle.scenario import load_scenario

FIELD = {"Ian Nepomniachtchi", "Teimour Radjabov", "Jan-Krzysztof Duda", "Alireza Firouzja",
         "Fabiano Caruana", "Richárd Rapport", "Hikaru Nakamura", "Ding Liren"}


@pytest.fixture(scope="module")
def cyc():
    return load_scenario("cycle-2022")


def _status(fmt, scn, at):
    d = fmt.whocan(scn, at)
    return {r["name"]: r for r in d["targets"]["qualify"]}


@pytest.mark.parametrize("at", ["gp-event3", "gp-event3-sf"])
def test_cycle_2022_after_the_grand_prix_is_decided(cyc, at):
    fmt, scn = cyc
    rows = _status(fmt, scn, at)
    clinched = {n for n, r in rows.items() if r["status"] == "clinched"}
    assert clinched == FIELD
    assert rows["Sergey Karjakin"]["status"] == "n/a"      # withdrawn (known at gp-event2)
    # Aronian can only come in by the rating list, and Ding above him cannot be seated
    # before it (he plays no Grand Prix event left): out of reach
    assert rows["Levon Aronian"]["status"] == "eliminated"
    assert {r["status"] for n, r in rows.items() if n not in FIELD | {"Sergey Karjakin"}} \
        == {"eliminated"}
    assert "World Cup 2021" in rows["Ding Liren"]["says"][0]     # Karjakin's seat


def test_cycle_2022_at_the_start_karjakin_holds_his_seat(cyc):
    """At the start Karjakin's ban is not known yet (known_at gp-event2): his World Cup seat
    is his, and the rating-list link is never reached: Ding has no way in."""
    fmt, scn = cyc
    d = fmt.whocan(scn, "start", budget=0)      # the Grand Prix's questions: none asked
    rows = {r["name"]: r for r in d["targets"]["qualify"]}
    assert rows["Sergey Karjakin"]["status"] == "clinched"
    assert rows["Ding Liren"]["status"] in ("eliminated", "undetermined")
    # budget 0: only the candidate witnesses (replayed) can say alive; nothing is refuted
    assert rows["Hikaru Nakamura"]["status"] in ("alive", "undetermined")
    assert all(r["status"] != "eliminated" for n, r in rows.items()
               if n in ("Hikaru Nakamura", "Richárd Rapport", "Levon Aronian"))


def test_docs_quotes_at_gp_event3_sf_are_the_output(cyc):
    from pathlib import Path
    fmt, scn = cyc
    text = Path(__file__).parents[1].joinpath("docs", "whocan.md").read_text()
    part = text.split("--at gp-event3-sf`")[1].split("By hand")[0]
    rows = _status(fmt, scn, "gp-event3-sf")
    quotes = [ln[2:] for ln in part.splitlines() if ln.startswith("> ")]
    assert len(quotes) == 2
    for q in quotes:
        name, said = q.split(": ", 1)
        assert said in rows[name]["says"], q
