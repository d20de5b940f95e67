"""history (every checkpoint, every format, common random numbers) and the charts."""

import json
import math
import re
import sys

import pytest
from click.testing import CliRunner

from conftest import SCENARIOS
from simcycle.cli import main

SHIPPED = sorted(str(p) for p in SCENARIOS.glob("*.toml"))
CAND = str(SCENARIOS / "candidates-2022.toml")


def ok(*args):
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    return r.output


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.rsplit("/", 1)[-1])
def test_history_of_every_shipped_scenario(scenario):
    h = json.loads(ok("history", scenario, "--sims", 400, "--seed", 7, "--json"))
    cps = ok("checkpoints", scenario).split()
    assert h["checkpoints"] == cps and h["common_random_numbers"] and h["sims"] == 400
    assert len(h["rows"]) == len(cps) * len(h["players"])
    for c in cps:
        rows = [r for r in h["rows"] if r["checkpoint"] == c]
        assert abs(sum(r["p_first"] for r in rows) - 1) < 1e-9
        assert abs(sum(r["p_qualify"] for r in rows) - h["qualifying_places"]) < 1e-9
        for r in rows:
            p, n = r["p_qualify"], h["sims"]
            assert r["se_p_qualify"] == pytest.approx(math.sqrt(p * (1 - p) / n))
            assert r["expected_prize"] >= 0 and r["se_expected_prize"] >= 0


def test_history_is_simulate_at_each_checkpoint_on_the_same_numbers():
    h = json.loads(ok("history", CAND, "--sims", 3000, "--seed", 11, "--json"))
    for c in ("start", "round6", "round12"):
        s = json.loads(ok("simulate", CAND, "--at", c, "--sims", 3000, "--seed", 11, "--json"))
        rows = {r["player"]: r for r in h["rows"] if r["checkpoint"] == c}
        for p in s["players"]:
            for k in ("p_first", "se_p_first", "p_qualify", "expected_prize"):
                assert rows[p["name"]][k] == p[k]
    # common random numbers: a player already out of it stays at exactly 0, the winner at 1
    nepo = [r["p_first"] for r in h["rows"] if r["player"] == "Ian Nepomniachtchi"]
    assert nepo[-2:] == [1.0, 1.0]
    text = ok("history", CAND, "--sims", 500)
    assert "round14" in text and "Ding Liren" in text and "common random numbers" in text
    csv = ok("history", CAND, "--sims", 500, "--csv").splitlines()
    assert csv[0] == ("checkpoint,player,p_first,se_p_first,p_qualify,se_p_qualify,"
                      "expected_prize,se_expected_prize,expected_points,se_expected_points")
    assert len(csv) == 1 + 15 * 8


def _png_colours(path):
    from matplotlib.image import imread
    img = imread(str(path))
    flat = (img[..., :3] * 255).astype(int).reshape(-1, 3)
    return img.shape, len({tuple(x) for x in flat[:: max(1, len(flat) // 200_000)]})


@pytest.mark.parametrize("scenario", SHIPPED, ids=lambda p: p.rsplit("/", 1)[-1])
def test_plots_of_every_shipped_scenario(tmp_path, scenario):
    png, svg, places = tmp_path / "h.png", tmp_path / "h.svg", tmp_path / "p.png"
    ok("history", scenario, "--sims", 300, "--plot", png)
    ok("history", scenario, "--sims", 300, "--plot", svg)
    ok("simulate", scenario, "--sims", 2000, "--plot", places)
    for p in (png, places):
        shape, colours = _png_colours(p)
        assert shape[0] > 400 and shape[1] > 700 and colours > 30     # a drawing, not a blank
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "</svg>" in text
    assert "the odds after each checkpoint" in text
    names = json.loads(ok("standings", scenario, "--json"))
    assert "checkpoint (results counted up to)" in text
    assert names["scenario"].split()[0] in text


def test_plot_refuses_other_extensions(tmp_path):
    for cmd in (["history", CAND, "--sims", 100], ["simulate", CAND, "--sims", 100]):
        r = CliRunner().invoke(main, [str(a) for a in cmd] + ["--plot", str(tmp_path / "x.pdf")])
        assert r.exit_code == 2 and "PNG or SVG" in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1
    r = CliRunner().invoke(main, ["history", CAND, "--sims", "100", "--plot",
                                  str(tmp_path / "no" / "dir.png")])
    assert r.exit_code == 2 and "cannot write the chart" in r.stderr


def test_reliability_chart(tmp_path):
    from simcycle.report.charts import reliability_chart
    rows = [{"predicted": (k + 0.5) / 10, "observed": min(1, (k + 0.5) / 10 + 0.03 * (k % 3 - 1)),
             "n": 500 - 40 * k} for k in range(10)] + [{"predicted": 0.5, "observed": 0, "n": 0}]
    png = reliability_chart(rows, tmp_path / "r.png")
    shape, colours = _png_colours(png)
    assert shape[0] > 600 and colours > 20
    svg = reliability_chart(rows, tmp_path / "r.svg")
    text = open(svg, encoding="utf-8").read()
    assert "predicted probability" in text and "observed frequency" in text
    assert "3,200 predictions in 10 bins" in text
    reliability_chart([], tmp_path / "empty.png")                  # no bins: says so
    from simcycle.errors import ScenarioError
    with pytest.raises(ScenarioError, match="PNG or SVG"):
        reliability_chart(rows, tmp_path / "r.jpg")


def test_svg_output_is_reproducible(tmp_path):
    ok("history", CAND, "--sims", 300, "--plot", tmp_path / "a.svg")
    ok("history", CAND, "--sims", 300, "--plot", tmp_path / "b.svg")
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_help_of_the_new_commands_imports_nothing_heavy():
    import subprocess
    from conftest import ROOT
    code = ("import sys\nfrom click.testing import CliRunner\nfrom simcycle.cli import main\n"
            "for a in ([], ['history'], ['report'], ['results'], ['simulate']):\n"
            "    r = CliRunner().invoke(main, a + ['--help'])\n"
            "    assert r.exit_code == 0, r.output\n"
            "print(*(m in sys.modules for m in ('numba', 'numpy', 'matplotlib', 'chess',"
            " 'tomlkit')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"] * 5
    assert re.search(r"20,000.*common random numbers", " ".join(
        CliRunner().invoke(main, ["history", "--help"]).output.split()))


def test_chart_end_labels_read_certainty_as_the_tables_do():
    """A history chart's end label says 0 % / 100 % exactly where the tables
    (report.percent) do, and never rounds an uncertain probability to 0 or 100."""
    from simcycle.report import percent
    from simcycle.report.charts import _pct_label
    exact_one = 0.1 * 1.0 / 0.4 + 0.3 * 1.0 / 0.4   # a sum of branches: 1 up to rounding
    for p in (0.0, 1e-13, 0.0004, 0.004, 0.0999, 0.1, 0.5, 0.9949, 0.995, 0.996, 0.9994,
              0.9996, 1 - 1e-9, exact_one, 1.0):
        label = _pct_label(p)
        assert (label == "100%") == (percent(p) == "100"), p
        assert (label == "0%") == (percent(p) == "0"), p
        if label[0].isdigit():
            assert abs(float(label[:-1]) - 100 * p) <= 0.5 + 1e-9, (p, label)
    assert _pct_label(0.996) == "99.6%" and _pct_label(0.9996) == ">99.9%"
    assert _pct_label(float("nan")) == "-"
