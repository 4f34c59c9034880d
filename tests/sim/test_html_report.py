"""The HTML report of simulate, compare and sweep: what each page holds, from real simulations of small games.

The headline's words are checked against the numbers the same run prints with --json (the
report reads the same statistics), in a case whose answer is known by hand (Seesaw with the
`first` agent: every game is the same) and in one where nothing is significant. The page is
also rendered by a real headless browser without console errors (tests/sim/test_report_browser.py
checks the layout at 1280 px).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.sim import svg

ROOT = Path(__file__).resolve().parents[2]
SEESAW = str(ROOT / "tests/sim/data/seesaw.rules")
BARNYARD = str(ROOT / "games/barnyard.rules")
CHICKEN = str(ROOT / "games/chicken.rules")
BROWSER = next((b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None)


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result


def report(tmp_path: Path, *args: str, name: str = "report.html") -> str:
    out = tmp_path / name
    result = invoke(*args, "-j", "1", "-q", "--report", str(out))
    assert f"report written to {out}" in result.stdout
    return out.read_text()


def headline(page: str) -> str:
    found = re.search(r'<p class="headline">(.*?)</p>', page)
    assert found, page[:2000]
    return found.group(1).replace("&gt;", ">").replace("&#x27;", "'")


def sections(page: str) -> list[str]:
    return re.findall(r"<section><h2>(.*?)</h2>", page)


def self_contained(page: str) -> None:
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//|file:)""", page)
    assert "<script" not in page and "<img" not in page and "<link" not in page  # nothing to fetch, nothing to run


def figures_have_numbers(page: str) -> None:
    """Every figure is an image with a text alternative, and its section has the table of its numbers."""
    for sec in re.findall(r"<section>.*?</section>", page):
        if "<svg" in sec:
            assert sec.count("<svg") == 1
            assert 'role="img"' in sec and "<title>" in sec and "<desc>" in sec and "<figcaption>" in sec
            assert "<table>" in sec.split("</figure>")[1], sec[:300]


def test_simulate_page_holds_every_figure_and_table(tmp_path: Path) -> None:
    page = report(tmp_path, "simulate", BARNYARD, "-n", "20")
    self_contained(page)
    figures_have_numbers(page)
    assert sections(page) == ["Win rate by seat", "Rank distribution", "Payoff distribution",
                              "Score sheet final_score, by seat", "Ranking keys: final_score at the end, by seat",
                              "Game length", "Metrics", "Rule coverage"]
    # Per-seat score-sheet lines: each seat's mean of each line, with its interval (the --json numbers).
    s = json.loads(invoke("simulate", BARNYARD, "-n", "20", "-j", "1", "--json").stdout)
    cows = s["sheets"]["final_score"]["Cows"]
    for p in ("P1", "P2", "P3", "P4"):
        m = cows[p]
        assert f"{m['mean']:.2f} [{m['ci'][0]:.2f}, {m['ci'][1]:.2f}]" in page
    # The rank distribution: a row per seat, a column per place.
    assert "<th>1st</th><th class=num>2nd</th>" not in page and "<th class=num>4th</th>" in page
    # Coverage is there by default: the constructs that never fired, with file:line.
    assert "rules, options, branches and triggers fired over 20 games" in page
    assert "Not measured: run simulate with -m" in page


def test_coverage_and_metrics_on_the_simulate_page(tmp_path: Path) -> None:
    page = report(tmp_path, "simulate", SEESAW, "-a", "first", "-n", "4", "-m")
    assert "option of a choose &#x27;wait&#x27;" in page or "option of a choose 'wait'" in page
    assert "lead changes per game" in page and "<h2>Metrics</h2>" in page
    left_out = report(tmp_path, "simulate", SEESAW, "-a", "first", "-n", "4", "--no-coverage", name="plain.html")
    assert "Not counted: coverage was left out (--no-coverage)." in left_out and "never fired" not in left_out
    # The text output lists coverage only with --coverage, as before: the report's counting is its own.
    text = invoke("simulate", SEESAW, "-a", "first", "-n", "4", "-j", "1", "-q", "--report",
                  str(tmp_path / "again.html")).stdout
    assert "Coverage over" not in text


def test_simulate_headline_unfair_follows_the_numbers(tmp_path: Path) -> None:
    # Seesaw, gain 5, `first` agents: P1 scores 3+1+2 = 6, P2 5+2 = 7 in every game, so P2 always wins.
    page = report(tmp_path, "simulate", SEESAW, "-a", "first", "-n", "12")
    s = json.loads(invoke("simulate", SEESAW, "-a", "first", "-n", "12", "-j", "1", "--json").stdout)
    assert s["win_rate"] == {"P1": 0.0, "P2": 1.0}
    lo, hi = s["win_ci"]["P2"]
    line = headline(page)
    assert line.startswith("Not fair at 95%: ")
    assert f"P2 wins 100.0% [{100 * lo:.1f}% .. {100 * hi:.1f}%], significantly more than the fair share 50.0%" in line
    assert "P1 wins 0.0%" in line and "significantly less" in line
    f = s["first_player"]
    assert f["significant"] and f["rate"] == 0.0  # P1 always starts and always loses
    assert "a significant first-player disadvantage: the first player wins 0.0%" in line


def test_simulate_headline_fair(tmp_path: Path) -> None:
    # gain 4: both seats end on 6 points, a shared win each game: 50% each, exactly the fair share.
    page = report(tmp_path, "simulate", SEESAW, "-o", "gain=4", "-a", "first", "-n", "12")
    assert headline(page) == ("Fair at 95%: no seat's win rate differs significantly from the fair share 50.0% "
                              "(P1 50.0%, P2 50.0%). There is no significant first-player advantage (the first "
                              "player wins 50.0%).")


def test_compare_headline_significant(tmp_path: Path) -> None:
    # gain 1: P1 wins every game (6 to 3); gain 5: P2 wins every game (7 to 6).
    page = report(tmp_path, "compare", SEESAW, "-O", "gain=1", "-o", "gain=5", "-a", "first", "-n", "6")
    self_contained(page)
    figures_have_numbers(page)
    assert headline(page).startswith("B changes who wins: P1 100.0% -> 0.0%, P2 0.0% -> 100.0%, significant")
    for name in ("Win rate by seat", "Differences (B - A)", "Rank distribution", "Payoff distribution",
                 "Game length", "Metrics, A", "Metrics, B", "Rule coverage, A", "Rule coverage, B"):
        assert name in sections(page), name
    # Side by side, never overlaid: the game length of A and of B are two panels of one figure.
    length = page.split("<h2>Game length</h2>")[1].split("</section>")[0]
    assert re.search(r'class="panel">A</text>', length) and re.search(r'class="panel">B</text>', length)


def test_compare_headline_not_significant_follows_the_rows(tmp_path: Path) -> None:
    args = ("compare", SEESAW, "-O", "gain=4", "-o", "gain=5", "-n", "30")
    page = report(tmp_path, *args)
    rows = json.loads(invoke(*args, "-j", "1", "--json").stdout)["differences"]
    win = [r for r in rows if r["section"] == "win_rate"]
    assert win and not any(r["significant"] for r in win)
    big = max(win, key=lambda r: abs(r["diff"]))
    others = sum(1 for r in rows if r["significant"] and r["section"] != "win_rate")
    assert others >= 1  # P2's score goes up with the gain
    line = headline(page)
    assert line.startswith("B does not change who wins significantly: the largest change, "
                           f"{big['seat']} {100 * big['a']:.1f}% -> {100 * big['b']:.1f}% "
                           f"({100 * big['diff']:+.1f} points")
    assert line.endswith(f"is within chance. {others} other statistic{'s differ' if others > 1 else ' differs'} "
                         "significantly (below).")


def test_compare_sheet_lines_per_seat(tmp_path: Path) -> None:
    page = report(tmp_path, "compare", BARNYARD, "-O", "scarecrow_split=false", "-o", "scarecrow_split=true",
                  "-n", "10", "--no-coverage")
    sheet = page.split("<h2>Score sheet final_score, by seat</h2>")[1].split("</section>")[0]
    for p in ("P1", "P2", "P3", "P4"):
        assert f'class="panel">{p}</text>' in sheet and f"<th class=num>{p} A</th><th class=num>{p} B</th>" in sheet
    assert "Not counted" in page


def test_sweep_headline_and_figures(tmp_path: Path) -> None:
    page = report(tmp_path, "sweep", SEESAW, "-o", "gain=1..5", "-a", "first", "-n", "4")
    self_contained(page)
    figures_have_numbers(page)
    doc = json.loads(invoke("sweep", SEESAW, "-o", "gain=1..5", "-a", "first", "-n", "4", "-j", "1", "--json").stdout)
    assert headline(page) == doc["verdict"]["sentence"] and headline(page).startswith("Closest to fair: gain=4")
    assert sections(page)[:4] == ["Win rate by seat at each value", "Every statistic and metric at each value",
                                  "Payoff by seat at each value", "Rank distribution"]
    assert "Win rate by player count" not in page
    assert "lead changes" in page and "decisiveness" in page  # the metrics, one panel each
    assert "option of a choose" in page  # coverage by default: 'wait' never fired at any value


def test_sweep_not_significant_and_by_player_count(tmp_path: Path) -> None:
    page = report(tmp_path, "sweep", SEESAW, "-o", "gain=3,4", "-n", "10")
    assert headline(page).startswith("No value differs significantly from the fair share")
    counts = report(tmp_path, "sweep", CHICKEN, "-p", "2,3", "-n", "10", "--no-coverage", name="counts.html")
    assert "Win rate by player count" in sections(counts)
    fig = counts.split("<h2>Win rate by player count</h2>")[1].split("</section>")[0]
    assert ">2 players</text>" in fig and ">3 players</text>" in fig
    assert "<tr><td class=num>3</td>" in fig and "<td class=num>33.3%</td>" in fig  # fair share, 3 players


def test_histograms_share_their_bins_and_scale() -> None:
    chart = svg.histograms([("A", [1, 2, 2, 3]), ("B", [2, 2, 2, 2])], "turns", "t", "d")
    assert chart.count('class="panel"') == 2
    heights = [float(h) for h in re.findall(r'class="bar"[^>]*height="([\d.]+)"', chart)]
    assert max(heights) == heights[-1]  # B's four games at 2 are the tallest bar of both panels
    # Payoffs on a grid (-1, -1/3, 1/3, 1) get one bin each, not twenty thin ones.
    grid = svg.histograms([("P1", [-1, -1 / 3, 1 / 3, 1, 1])], "payoff", "t", "d")
    assert grid.count('class="bar"') == 4


def test_legend_strip_is_above_the_plot() -> None:
    chart = svg.bars(["P1", "P2"], [("A", [(50, 40, 60), (50, 40, 60)]), ("B", [(30, 20, 40), (70, 60, 80)])],
                     "win rate (%)", "t", "d", ref=("fair share 50.0%", 50), suffix="%")
    legend_bottom = max(float(y) + 12 for y in re.findall(r'<g class="legend"><rect x="[\d.]+" y="([\d.]+)"', chart))
    tops = [float(y) for y in re.findall(r'class="bar" x="[\d.]+" y="([\d.]+)"', chart)]
    assert legend_bottom < min(tops)


def render(page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """The DOM a headless browser built from ``page``, and the console messages it logged."""
    if BROWSER is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    proc = subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
         "--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    console = [line for line in proc.stderr.splitlines() if ":CONSOLE" in line]
    return proc.stdout, console


def test_the_browser_check_sees_console_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>console.error('boom'); nosuch();</script></body></html>")
    dom, console = render(bad, tmp_path)
    assert "<body>" in dom
    assert any("boom" in line for line in console) and any("nosuch is not defined" in line for line in console)


def test_simulate_report_renders(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    invoke("simulate", CHICKEN, "-n", "30", "-p", "3", "-j", "1", "-a", "greedy", "-a", "random", "--report",
           str(out), "-q")
    dom, console = render(out, tmp_path)
    assert console == []
    assert dom.count("<svg") == out.read_text().count("<svg") >= 5 and "Chicken!: simulation" in dom


def test_compare_report_renders(tmp_path: Path) -> None:
    out = tmp_path / "compare.html"
    invoke("compare", CHICKEN, "-o", "random_first_player=false", "-n", "30", "-p", "2", "-j", "1", "--report",
           str(out), "-q")
    dom, console = render(out, tmp_path)
    assert console == []
    assert "A against B" in dom and "Differences (B - A)" in dom


def test_report_written_atomically_to_a_bad_place_is_an_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["simulate", CHICKEN, "-n", "2", "-j", "1", "-q",
                                       "--report", str(tmp_path / "no" / "such" / "dir" / "r.html")])
    assert result.exit_code == 1
    assert "cannot write" in result.stderr and "Traceback" not in result.output


def test_simulate_at_several_player_counts(tmp_path: Path) -> None:
    page = report(tmp_path, "simulate", CHICKEN, "-p", "2", "-p", "3", "-n", "12", "--no-coverage")
    doc = json.loads(invoke("simulate", CHICKEN, "-p", "2", "-p", "3", "-n", "12", "-j", "1", "--json").stdout)
    two, three = doc["runs"]
    assert (two["players"], three["players"]) == (2, 3)
    assert headline(page).startswith("2 players: ") and " 3 players: " in headline(page)
    assert sections(page)[0] == "Win rate by player count"
    fig = page.split("<h2>Win rate by player count</h2>")[1].split("</section>")[0]
    lo, hi = three["win_ci"]["P3"]
    assert f"{100 * three['win_rate']['P3']:.1f}% [{100 * lo:.1f}% .. {100 * hi:.1f}%]" in fig
    assert '<h2 class=count>2 players</h2>' in page and '<h2 class=count>3 players</h2>' in page
    text = invoke("simulate", CHICKEN, "-p", "2", "-p", "3", "-n", "12", "-j", "1", "-q").stdout
    assert "Win rate by player count (95% Wilson interval):" in text and "  3 players: P1 " in text
    csv = invoke("simulate", CHICKEN, "-p", "2", "-p", "3", "-n", "12", "-j", "1", "--csv").stdout.splitlines()
    assert csv[0].startswith("players,section,") and csv[1].startswith("2,") and csv[-1].startswith("3,")
    one = json.loads(invoke("simulate", CHICKEN, "-p", "3", "-n", "12", "-j", "1", "--json").stdout)
    assert one["win_rate"] == three["win_rate"]  # the same seeds: a count alone gives the same numbers
    twice = CliRunner().invoke(main, ["simulate", CHICKEN, "-p", "2", "-p", "2", "-n", "2"])
    assert twice.exit_code == 2 and "a player count is given twice" in twice.output


def test_compare_at_several_player_counts(tmp_path: Path) -> None:
    args = ("compare", CHICKEN, "-o", "random_first_player=false", "-p", "2", "-p", "3", "-n", "12")
    page = report(tmp_path, *args, "--no-coverage")
    doc = json.loads(invoke(*args, "-j", "1", "--json").stdout)
    assert [r["players"] for r in doc["runs"]] == [2, 3]
    for r in doc["runs"]:
        assert f"{r['players']} players: B " in headline(page)
    fig = page.split("<h2>Win rate by player count</h2>")[1].split("</section>")[0]
    assert 'class="panel">A (%)</text>' in fig and 'class="panel">B (%)</text>' in fig
    text = invoke(*args, "-j", "1", "-q").stdout
    assert text.startswith("At 2 players:\nA: ") and "\nAt 3 players:\nA: " in text


def test_one_player_headline_says_losses_and_draws(tmp_path: Path) -> None:
    rules = str(ROOT / "examples/blackjack/blackjack.rules")
    page = report(tmp_path, "simulate", rules, "-n", "20", "--no-coverage")
    s = json.loads(invoke("simulate", rules, "-n", "20", "-j", "1", "--json").stdout)
    win, loss = s["win_rate"]["P1"], s["loss_rate"]["P1"]
    assert headline(page).startswith(f"P1 wins {100 * win:.1f}% [")
    assert f"loses {100 * loss:.1f}%, draws {100 * (1 - win - loss):.1f}%" in headline(page)
    assert "Rank distribution" not in sections(page) and "fair share 100.0%" not in page
