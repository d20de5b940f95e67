"""``simcycle serve``: the page's engine and server (Starlette's test client), and the page
itself driven in headless Chromium (Debian's chromium and chromium-driver; skipped, saying
why, where they are absent)."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import pgnkit
from simcycle.cli import main

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

CAND = "candidates-2022"
FIX = "r10 Richárd Rapport - Ding Liren 1-0"
SIMS = 20_000


def cli(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_refuses_a_non_loopback_bind():
    r = cli("serve", CAND, "--host", "0.0.0.0", "--port", "0")
    assert r.exit_code == 2
    assert r.output.count("\n") == 1 and "not a loopback address" in r.output
    assert "--public" in r.output


@pytest.fixture(scope="module")
def client():
    from starlette.testclient import TestClient

    from simcycle.serve import Live, make_app
    live = Live(CAND, at="round9", sims=5000, history_sims=200, swing_sims=1000)
    return TestClient(make_app(live))


def test_state_and_what_if(client):
    s = client.get("/api/state").json()
    assert s["after"] == "after round 9" and s["at"] == "round9"
    assert len(s["choices"]) == 20                          # rounds 10-14, four games each
    fixes = [r["fix"] for g in s["choices"] for r in g["results"]]
    assert FIX in fixes
    # every what-if the page offers is one the command line takes
    r = client.post("/api/odds", json={"fix": [FIX]})
    assert r.status_code == 200
    d = r.json()
    assert d["assumed"] == ["round 10: Richárd Rapport - Ding Liren 1-0"]
    alone = json.loads(cli("simulate", CAND, "--at", "round9", "--sims", "5000", "--json",
                           "--fix", FIX).output)
    assert [(p["name"], p["p_first"]) for p in d["players"]] == \
        [(p["name"], p["p_first"]) for p in alone["players"]]
    # unchanged state: the page's poll gets only the version back
    assert client.get(f"/api/state?since={s['version']}").json() == {"version": s["version"]}


def test_state_has_the_branches_and_the_scores(client):
    # round 9 of the Candidates 2022: 20 games left, so the branches are simulated and no
    # score table is exact yet (commentary/scores.py: at most 10 games left)
    s = client.get("/api/state").json()
    assert s["needs"].startswith("Candidates Tournament 2022  at round9: what each player "
                                 "needs from round 10")
    assert "P(branch)" in s["needs"] and "Ian Nepomniachtchi: P(1st)" in s["needs"]
    assert s["scores"] is None
    assert client.get("/api/scores.svg").status_code == 404


def test_scores_chart_near_the_end():
    from starlette.testclient import TestClient

    from simcycle.commentary.scores import render, scores
    from simcycle.serve import Live, make_app
    live = Live(CAND, at="round12", sims=2000, history_sims=200, swing_sims=1000)
    c = TestClient(make_app(live))
    s = c.get("/api/state").json()
    ev = live.event
    want = scores(ev.format, ev.scenario, ev.model(), "round12")
    import msgspec
    assert s["scores"] == render(msgspec.to_builtins(want))
    r = c.get("/api/scores.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "what score is enough" in r.text


def test_bad_what_if_is_the_cli_line(client):
    bad = "r10 Rapport-Carlsen 1-0"
    r = client.post("/api/odds", json={"fix": [bad]})
    assert r.status_code == 400
    line = cli("simulate", CAND, "--at", "round9", "--fix", bad).output.strip()
    assert r.json()["error"] == line
    assert client.post("/api/odds", json={"fix": "x"}).status_code == 400


def test_static_files_are_shipped_and_local(client):
    html = client.get("/").text
    assert "/static/app.js" in html and "http" not in html.replace("http-equiv", "")
    js = client.get("/static/app.js").text
    assert "innerHTML" not in js                    # names go in as text, never as markup
    js = js.replace('"http://www.w3.org/2000/svg"', "")   # SVG's namespace name, not a fetch
    assert "http://" not in js and "https://" not in js


# ---- the browser ----------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver"
                                          if os.path.exists("/usr/bin/chromedriver") else None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--disable-dev-shm-usage"]


def browser(width: int, height: int):
    if not (CHROMIUM and DRIVER):
        pytest.skip("headless Chromium and chromedriver are not installed (Debian: apt-get "
                    "install chromium chromium-driver; .ci/run installs them)")
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for f in FLAGS + [f"--window-size={width},{height}"]:
        opts.add_argument(f)
    return webdriver.Chrome(options=opts, service=Service(DRIVER))


class Server:
    """``simcycle serve`` in a process of its own on a free port."""

    def __init__(self, *args):
        exe = Path(sys.executable).with_name("simcycle")
        self.p = subprocess.Popen([str(exe), "serve", *args, "--port", "0"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.p.stdout.readline()
        if "http://" not in line:
            self.p.kill()
            raise AssertionError(f"serve did not start: {line} {self.p.stderr.read()}")
        self.url = line.split(" at ", 1)[1].split()[0]

    def stop(self):
        self.p.terminate()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()


def wait(cond, what, timeout=120.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            v = cond()
        except Exception:      # noqa: BLE001 - the page is still drawing
            v = None
        if v:
            return v
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def odds_of(drv) -> dict:
    from selenium.webdriver.common.by import By
    out = {}
    for tr in drv.find_elements(By.CSS_SELECTOR, "#odds tbody tr"):
        td = tr.find_element(By.CSS_SELECTOR, "td.p-first")
        out[tr.get_attribute("data-player")] = (float(td.get_attribute("data-p")),
                                                float(td.get_attribute("data-se")))
    return out


def shots(drv, name: str):
    """Desktop and phone-width screenshots, for a person to look at (not committed)."""
    folder = os.environ.get("SIMCYCLE_SCREENSHOTS")
    if folder:
        drv.save_screenshot(str(Path(folder) / f"{name}.png"))


def test_page_what_if_matches_the_command_line(tmp_path):
    from selenium.webdriver.common.by import By

    srv = Server(CAND, "--at", "round9", "--sims", str(SIMS), "--seed", "1",
                 "--history-sims", "500", "--swing-sims", "1000")
    drv = browser(1280, 1900)
    try:
        drv.get(srv.url)
        wait(lambda: len(odds_of(drv)) == 8, "the odds table")
        assert "after round 9" in drv.find_element(By.ID, "after").text
        base = odds_of(drv)
        # one colour per player, the same in the table and in the chart
        wait(lambda: drv.find_elements(By.CSS_SELECTOR, "#history polyline"), "the chart")
        drv.execute_script("document.getElementById('history').scrollIntoView()")
        shots(drv, "desktop-chart")
        button = drv.find_element(By.CSS_SELECTOR, f'button[data-fix="{FIX}"]')
        button.click()
        wait(lambda: drv.find_element(By.ID, "assumed-box").is_displayed(), "assumed")
        assert "Richárd Rapport - Ding Liren 1-0" in drv.find_element(By.ID, "assumed").text
        page = wait(lambda: (o := odds_of(drv)) != base and o, "new odds")
        shots(drv, "desktop-what-if")
        # the command line, another seed: equal within 3 standard errors of the difference
        d = json.loads(cli("simulate", CAND, "--at", "round9", "--sims", str(SIMS), "--seed",
                           "2", "--json", "--fix", FIX).output)
        for p in d["players"]:
            got, se = page[p["name"]]
            assert abs(got - p["p_first"]) <= 3 * (se ** 2 + p["se_p_first"] ** 2) ** 0.5 + 1e-12
        # undo: the what-if is gone and the odds are the base odds again
        drv.find_element(By.CSS_SELECTOR, "#assumed button.undo").click()
        wait(lambda: not drv.find_element(By.ID, "assumed-box").is_displayed(), "undo")
        wait(lambda: odds_of(drv) == base, "the base odds back")
        # a bad what-if typed in gets the command line's one-line error
        drv.find_element(By.ID, "fix-input").send_keys("r10 Rapport-Carlsen 1-0")
        drv.find_element(By.ID, "fix-add").click()
        err = wait(lambda: drv.find_element(By.ID, "error").text, "the error line")
        line = cli("simulate", CAND, "--at", "round9", "--fix",
                   "r10 Rapport-Carlsen 1-0").output.strip()
        assert err == line
        drv.set_window_size(390, 1800)
        drv.execute_script("window.scrollTo(0, 0)")
        time.sleep(0.5)
        shots(drv, "phone")
        drv.execute_script("document.getElementById('history').scrollIntoView()")
        shots(drv, "phone-chart")
        # at phone width the P(1st) column is inside the window
        cell = drv.find_element(By.CSS_SELECTOR, "#odds tbody tr td.p-first")
        assert cell.rect["x"] + cell.rect["width"] <= drv.execute_script(
            "return document.documentElement.clientWidth") + 1
    finally:
        drv.quit()
        srv.stop()


def test_page_follows_a_growing_pgn(tmp_path):
    from selenium.webdriver.common.by import By

    pgn = pgnkit.write_pgn(tmp_path / "games.pgn", range(1, 8))
    scn = pgnkit.unplayed_copy(tmp_path)
    srv = Server(str(scn), "--watch", str(pgn), "--sims", "2000", "--history-sims", "200",
                 "--swing-sims", "1000")
    drv = browser(1280, 1600)
    try:
        drv.get(srv.url)
        wait(lambda: "after round 7" in drv.find_element(By.ID, "after").text, "round 7")
        v = drv.find_element(By.TAG_NAME, "body").get_attribute("data-version")
        pgnkit.write_pgn(pgn, range(1, 9))          # the broadcast adds round 8
        wait(lambda: "after round 8" in drv.find_element(By.ID, "after").text, "round 8")
        assert drv.find_element(By.TAG_NAME, "body").get_attribute("data-version") != v
        assert "round 8" not in " ".join(e.text for e in drv.find_elements(
            By.CSS_SELECTOR, "#choices .rounds-head"))
        shots(drv, "desktop-watch")
    finally:
        drv.quit()
        srv.stop()


def test_page_escapes_every_name(tmp_path):
    """A name with markup in it is shown as text: no element is made of it, anywhere."""
    from selenium.webdriver.common.by import By

    text = pgnkit.CAND.read_text(encoding="utf-8").replace('"Ding Liren"',
                                                           '"Ding <b>Liren</b>"')
    scn = tmp_path / "odd.toml"
    scn.write_text(text, encoding="utf-8")
    srv = Server(str(scn), "--at", "round9", "--sims", "2000", "--history-sims", "200",
                 "--swing-sims", "1000")
    drv = browser(1280, 1600)
    try:
        drv.get(srv.url)
        wait(lambda: len(odds_of(drv)) == 8, "the odds table")
        wait(lambda: drv.find_elements(By.CSS_SELECTOR, "#history polyline"), "the chart")
        assert drv.find_elements(By.TAG_NAME, "b") == []
        assert "Ding <b>Liren</b>" in odds_of(drv)
        page = drv.find_element(By.TAG_NAME, "body").text
        assert page.count("Ding <b>Liren</b>") >= 3      # odds, what-ifs, standings at least
    finally:
        drv.quit()
        srv.stop()


def test_a_cycle_page_shows_the_swing_of_its_part_in_progress():
    """A cycle's odds list no games to click, but its swing (the part in progress's next round,
    in P(a seat in the final) and P(win it)) is on the page, the text ``simcycle swing`` prints
    for the same sims and seed; after the last game there is nothing to swing and no section."""
    from starlette.testclient import TestClient

    from simcycle.serve import Live, make_app
    live = Live("cycle-2022", at="candidates-round12", sims=512, history_sims=512,
                swing_sims=1024)
    s = TestClient(make_app(live)).get("/api/state").json()
    assert s["choices"] == []
    alone = cli("swing", "cycle-2022", "--at", "candidates-round12", "--sims", "1024",
                "--seed", str(live.seed))
    assert alone.exit_code == 0 and s["swing"] == alone.output.rstrip("\n")
    assert "part in progress (candidates)" in s["swing"]
    end = Live("cycle-2022", at="candidates-round14", sims=512, history_sims=512, swing_sims=1024)
    assert TestClient(make_app(end)).get("/api/state").json()["swing"] is None
