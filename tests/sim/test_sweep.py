"""`rulelang sweep`: an option's values and player counts on the same seeds, every statistic per value."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.sim.sweep import MAX_POINTS, SweepError, points, values_of

ROOT = Path(__file__).resolve().parents[2]
SEESAW = str(ROOT / "tests/sim/data/seesaw.rules")
CHICKEN = str(ROOT / "games/chicken.rules")


def invoke(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def test_values_and_ranges() -> None:
    assert values_of("3,5,7") == ["3", "5", "7"]
    assert values_of("1..3,5") == ["1", "2", "3", "5"]
    assert values_of("-1..1") == ["-1", "0", "1"]
    assert values_of("true, false") == ["true", "false"]
    assert len(values_of(f"1..{MAX_POINTS}")) == MAX_POINTS


@pytest.mark.parametrize(("text", "message"), [
    ("5..1", "is empty"),
    ("1..1000", "at most 100"),
    ("a..3", "not a whole number"),
    ("１..3", "not a whole number"),  # full-width digits are refused
    ("1,,2", "empty value"),
    ("1,2,1", "twice"),
])
def test_bad_values(text: str, message: str) -> None:
    with pytest.raises(SweepError, match=message):
        values_of(text)


def test_points_combine_values_and_player_counts() -> None:
    pts = points({"a": ["1", "2"]}, {"b": "x"}, [2, 3])
    assert [(dict(p.options), p.players, p.label) for p in pts] == [
        ({"a": "1", "b": "x"}, 2, "a=1 2p"), ({"a": "1", "b": "x"}, 3, "a=1 3p"),
        ({"a": "2", "b": "x"}, 2, "a=2 2p"), ({"a": "2", "b": "x"}, 3, "a=2 3p")]
    with pytest.raises(SweepError, match="combinations"):
        points({"a": [str(i) for i in range(20)], "b": [str(i) for i in range(6)]}, {}, None)


def test_seesaw_sweep_by_hand() -> None:
    # gain=G is what P2 scores on turn 2 (tests/sim/test_metrics.py): final scores P1 6, P2 G + 2.
    # G = 1..3: P1 wins every game; G = 4: a 6-6 draw (each seat 1/2: exactly fair); G = 5: P2 wins.
    # Lead changes (leaders at each turn's end): G=1, 2: 0; G=3: 2 (a tie at turn 2); G=4: 4; G=5: 3.
    result = invoke("sweep", SEESAW, "-o", "gain=1..5", "-n", "4", "-a", "first", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert [p["label"] for p in s["points"]] == [f"gain={g}" for g in range(1, 6)]
    rows = {(r["name"], r["seat"]): [c["value"] if c else None for c in r["cells"]] for r in s["rows"]}
    assert rows["win rate", "P1"] == [1.0, 1.0, 1.0, 0.5, 0.0]
    assert rows["lead changes", ""] == [0, 0, 2, 4, 3]
    assert rows["draws", ""] == [0, 0, 0, 1, 0]
    assert rows["spread from fair share", ""] == [0.5, 0.5, 0.5, 0.0, 0.5]
    v = s["verdict"]
    assert v["closest"] == "gain=4"
    assert set(v["unfair"]) == {"gain=1", "gain=2", "gain=3", "gain=5"}
    assert v["sentence"].startswith("Closest to fair: gain=4")
    # P1 moves first: it wins all 4 games at G = 1..3 and none at 5 (Wilson 51%..100% and 0%..49% exclude 1/2).
    assert v["first_player_unfair"] == ["gain=1", "gain=2", "gain=3", "gain=5"]
    assert v["sentence"].endswith("The first player's win rate differs significantly from the fair share at: "
                                  "gain=1, gain=2, gain=3, gain=5.")


def test_sweep_and_compare_give_the_same_numbers() -> None:
    args = ["-n", "16", "-j", "1", "-a", "greedy", "-a", "random", "--json"]
    sweep = json.loads(invoke("sweep", CHICKEN, "-o", "orange_egg=false,true", *args).stdout)
    comp = json.loads(invoke("compare", CHICKEN, "-O", "orange_egg=false", "-o", "orange_egg=true", *args).stdout)
    watched = json.loads(invoke("compare", CHICKEN, "-O", "orange_egg=false", "-o", "orange_egg=true", "-m",
                                *args).stdout)
    for point, side in zip(sweep["points"], ("a", "b")):
        summary = dict(point["summary"])
        assert summary == {k: v for k, v in watched[side].items() if k != "name"}  # metrics included
        summary.pop("metrics")
        assert summary == {k: v for k, v in comp[side].items() if k != "name"}
    cells = {(r["name"], r["seat"]): r["cells"] for r in sweep["rows"]}
    checked = 0
    for row in watched["differences"]:
        key = ("win rate", row["seat"]) if row["section"] == "win_rate" else (row["name"], "")
        if key in cells and row["section"] in ("win_rate", "metric", "length"):
            a, b = cells[key]
            assert (a["value"], b["value"]) == pytest.approx((row["a"], row["b"])), key
            checked += 1
    assert checked == 4 + 2 + 5  # four seats, turns and steps, five metrics


def test_several_player_counts() -> None:
    result = invoke("sweep", CHICKEN, "-p", "2", "-p", "3", "-n", "6", "-j", "1", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["section", "name", "seat", "value", "mean", "ci_low", "ci_high"]
    p3 = [r for r in rows if r[:3] == ["win_rate", "win rate", "P3"]]
    assert [r[3] for r in p3] == ["3p"]  # no third seat at two players
    wins = {r[3]: 0.0 for r in rows[1:]}
    for r in rows:
        if r[0] == "win_rate":
            wins[r[3]] += float(r[4])
    assert wins == pytest.approx({"2p": 1.0, "3p": 1.0})


def test_text_progress_and_sentence() -> None:
    result = invoke("sweep", SEESAW, "-o", "gain=3,4", "-n", "3", "-a", "first", "-j", "1")
    assert result.exit_code == 0, result.output
    assert "gain=3 (1/2): 3/3 games" in result.stderr and "gain=4 (2/2)" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Seesaw (") and "3 games at each of 2 values" in lines[0]
    assert any(line.split()[:3] == ["win", "rate", "P1"] and "100.0%" in line and "50.0%" in line for line in lines)
    # Three games are too few for 100% against 50% to be significant (Wilson: 43.9% .. 100%).
    assert lines[-1].startswith("No value differs significantly from the fair share")
    assert "the closest to fair is gain=4 (win rates 0.0 points" in lines[-1]


@pytest.mark.parametrize(("args", "code", "message"), [
    (["-o", "gain=5..1"], 2, "is empty"),
    (["-o", "gain=1..1000"], 2, "at most 100"),
    (["-o", "gain=3"], 2, "nothing to sweep"),
    (["-p", "2,2"], 2, "names a value twice"),
    (["-p", "2,3"], 2, "players, not 3"),
    (["-o", "nosuch=1,2"], 1, "unknown option 'nosuch'"),
    (["-o", "gain=1,x"], 1, "gain"),
])
def test_sweep_errors(args: list[str], code: int, message: str) -> None:
    result = invoke("sweep", SEESAW, "-n", "2", "-q", *args)
    assert result.exit_code == code and message in result.output, result.output


def test_sweep_report(tmp_path: Path) -> None:
    out = tmp_path / "sweep.html"
    result = invoke("sweep", SEESAW, "-o", "gain=1..5", "-n", "4", "-a", "first", "-j", "1", "-q", "--report",
                    str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text()
    # A panel per statistic and metric (small multiples in a few figures), each against the value.
    assert page.count('class="panel"') >= 12 and "<script" not in page and "Closest to fair: gain=4" in page


BREAKS = """game "Breaks"
players 2 to 2

option limit = 5 "a divisor"
counter t = 0 "turns played"
counter score per player = 0 "points"

setup:
  pass

turn:
  t += 1
  choose:
    "step":
      score of current += 10 / (limit - t)
  if t == 4:
    end game

rank p by highest score of p
"""


def test_a_value_that_breaks_the_rules_is_named(tmp_path: Path) -> None:
    rules = tmp_path / "breaks.rules"
    rules.write_text(BREAKS)
    result = invoke("sweep", str(rules), "-o", "limit=5,3", "-n", "2", "-q")
    # limit=3: turn 3 divides by zero; the error says at which value, in which game, and where in the rules.
    assert result.exit_code == 1
    assert "at limit=3:\ngame 0 (seed 1):" in result.stderr
    assert f"{rules}:15:27: error: division by zero" in result.stderr


def test_same_sweep_on_one_or_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulelang.sim import pool

    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    runs = [json.loads(invoke("sweep", CHICKEN, "-o", "orange_egg=false,true", "-n", "12", "-j", jobs,
                              "--batch-size", "3", "--skill", "greedy", "--skill-games", "4", "--json").stdout)
            for jobs in ("1", "2")]
    assert runs[0] == runs[1]
    cells = {(r["name"], r["seat"]): r["cells"] for r in runs[0]["rows"]}
    assert len(cells["skill (x fair share)", "P4"]) == 2  # restricted play at each value, per seat
