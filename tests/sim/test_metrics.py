"""Balance metrics (`simulate --metrics`, `--skill`) on tiny hand-written games whose values are known by hand.

tests/sim/data/seesaw.rules scripts the score turn by turn; with the `first` agent every turn
takes its first legal option, so each game is the same and every metric is computed below
from the turns. tests/sim/data/duel.rules gives only P1 a choice, for restricted play.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import attrs
import pytest
from click.testing import CliRunner

from rulelang.agents.spec import seat_specs
from rulelang.cli import main
from rulelang.sim import pool
from rulelang.sim.runner import SimJob, run_batch
from rulelang.sim.stats import wilson

DATA = Path(__file__).resolve().parent / "data"
SEESAW = str(DATA / "seesaw.rules")
DUEL = str(DATA / "duel.rules")
CHICKEN = str(Path(__file__).resolve().parents[2] / "games/chicken.rules")


def metrics(*args: str) -> dict:
    result = CliRunner().invoke(main, ["simulate", *args, "-j", "1", "--metrics", "--json"])
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    return json.loads(result.stdout)["metrics"]


def test_seesaw_metrics_by_hand() -> None:
    # Turns (P1 on odd turns, first option each time): scores after each turn
    #   t1 P1+3 (3,0)  t2 P2+5 (3,5)  t3 P1+1 (4,5)  t4 P2 only "hold" (4,5)  t5 P1+2 (6,5)  t6 P2+2 (6,7).
    # Leaders at each turn's end: P1, P2, P2, P2, P1, P2 -> 6 readings, 3 lead changes.
    # Winner P2 is behind at reading 5 (> 6/3): drama in 3 of 3 games; it leads for good only from
    # reading 6: decisiveness 6/6 = 1. Options per decision: t1-t3 "step"/"hold" (2), t4 "hold" (1),
    # t5-t6 "step"/"hold"/"wait" (3): mean 13/6, a game's histogram {1: 1, 2: 3, 3: 2}; no draw.
    m = metrics(SEESAW, "-n", "3", "-a", "first")
    assert m["readings"]["mean"] == 6
    assert m["lead_changes"]["mean"] == 3 and m["lead_changes"]["sd"] == 0
    assert m["drama"]["count"] == 3 and m["drama"]["share"] == 1.0
    assert m["drama"]["ci"] == pytest.approx(list(wilson(3, 3)))
    assert m["decisiveness"]["mean"] == 1.0
    b = m["branching"]
    assert b["mean"] == pytest.approx(13 / 6) and b["histogram"] == {"1": 3, "2": 9, "3": 6}
    assert (b["min"], b["max"], b["decisions"], b["per_game_decisions"]) == (1, 3, 18, 6)
    # sd over the 18 decisions of 3 games: a game's (k - 13/6)^2 add up to (3 x 1 + 49 + 2 x 25)/36 = 17/6;
    # 3 x 17/6 over 17 decisions - 1 is 1/2.
    assert b["sd"] == pytest.approx(0.5 ** 0.5)
    # The only decision point is the choose at seesaw.rules:15.
    [(where, point)] = b["points"].items()
    assert where.endswith("seesaw.rules:15") and point["mean"] == b["mean"] and point["decisions"] == 18
    assert m["draws"]["count"] == 0 and m["draws"]["share"] == 0.0
    assert m["duration"]["mean"] == 6 and m["duration"]["unit"] == "turns"
    assert m["first_player"]["rate"] == 0.0  # P1 took turn 1; P2 won every game


def test_a_leader_from_the_start() -> None:
    # gain=1: P2 gains 1 on turn 2: (3,1) (4,1) (4,1) (6,1) (6,3): P1 leads at every reading.
    m = metrics(SEESAW, "-n", "2", "-a", "first", "-o", "gain=1")
    assert m["lead_changes"]["mean"] == 0
    assert m["drama"]["count"] == 0
    assert m["decisiveness"]["mean"] == pytest.approx(1 / 6)  # settled at the first reading
    assert m["first_player"]["rate"] == 1.0


def test_ties_and_a_draw() -> None:
    # gain=4: (3,0) (3,4) (4,4) (4,4) (6,4) (6,6). Leaders {P1}, {P2}, {P1,P2}, {P1,P2}, {P1}, {P1,P2}:
    # 4 changes of the set ranked first. Both share the win (a draw); P2 is not ranked first at
    # reading 5 (> 6/3): drama; the winners are both first from reading 6 only: decisiveness 1.
    m = metrics(SEESAW, "-n", "2", "-a", "first", "-o", "gain=4")
    assert m["lead_changes"]["mean"] == 4
    assert m["draws"]["count"] == 2 and m["draws"]["share"] == 1.0
    assert m["drama"]["count"] == 2
    assert m["decisiveness"]["mean"] == 1.0
    # gain=3: (3,0) (3,3) (4,3) ... (6,5): P1 is first at every reading (tied at 2): 2 changes, no drama,
    # settled from reading 1.
    m = metrics(SEESAW, "-n", "2", "-a", "first", "-o", "gain=3")
    assert m["lead_changes"]["mean"] == 2 and m["drama"]["count"] == 0
    assert m["decisiveness"]["mean"] == pytest.approx(1 / 6)


def test_skill_restricted_play_by_hand() -> None:
    # Duel: greedy as P1 always takes "good" and wins alone: rate 1, 2x the fair share 1/2. Random P1
    # takes "good" about half the time (win) and ties otherwise (1/2): the gain over a random P1 is
    # 1/2 for each game it idled. P2 has no choice: greedy as P2 plays as a random P2 would, gain 0.
    result = CliRunner().invoke(main, ["simulate", DUEL, "-n", "4", "-j", "1", "--skill", "greedy",
                                       "--skill-games", "40", "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)["metrics"]["skill"]
    assert s["agent"] == "greedy" and s["games"] == 40 and s["fair"] == 0.5
    p1, p2 = s["seats"]["P1"], s["seats"]["P2"]
    assert p1["rate"] == 1.0 and p1["relative"] == 2.0 and p1["significant"]
    assert p1["gain"] == pytest.approx(1.0 - p1["random_rate"])
    idled = (1.0 - p1["random_rate"]) * 2  # share of games a random P1 idled (each a tie: 1/2)
    assert 0 < idled < 1
    assert p2["gain"] == 0.0 and p2["rate"] == p2["random_rate"] == pytest.approx(idled / 2)
    assert s["relative"] == pytest.approx((p1["relative"] + p2["relative"]) / 2)


def test_watching_does_not_change_the_games() -> None:
    for agents in (("random",), ("greedy", "random")):
        job = SimJob(CHICKEN, (), 3, tuple(seat_specs(agents, 3)))
        plain = run_batch(job, list(range(6))).records
        watched = run_batch(attrs.evolve(job, metrics=True), list(range(6))).records
        assert [attrs.evolve(r, leaders=(), branching=()) for r in watched] == list(plain)
        assert all(r.leaders and r.branching for r in watched) and not any(r.leaders for r in plain)
        assert all(len(r.leaders) == r.turns for r in watched)  # one reading a turn, the last the final one


def test_same_metrics_on_one_or_two_processes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    runs = []
    for jobs in ("1", "2"):
        result = CliRunner().invoke(main, ["simulate", CHICKEN, "-n", "24", "-j", jobs, "--batch-size", "5", "-p", "3",
                                           "--metrics", "--skill", "greedy", "--skill-games", "6", "--json"])
        assert result.exit_code == 0, result.output
        s = json.loads(result.stdout)
        s.pop("timing")
        runs.append(s)
    assert runs[0] == runs[1]
    assert runs[0]["metrics"]["lead_changes"]["n"] == 24 and set(runs[0]["metrics"]["skill"]["seats"]) == {
        "P1", "P2", "P3"}


def test_metrics_in_text_and_csv() -> None:
    result = CliRunner().invoke(main, ["simulate", SEESAW, "-n", "3", "-a", "first", "-j", "1", "--metrics", "-q"])
    assert result.exit_code == 0, result.output
    assert "lead changes per game   3.00" in result.stdout
    assert "drama                   100.0% of games" in result.stdout
    result = CliRunner().invoke(main, ["simulate", SEESAW, "-n", "3", "-a", "first", "-j", "1", "--metrics",
                                       "--coverage", "--csv"])
    rows = {(r[0], r[1]): r for r in csv.reader(io.StringIO(result.stdout))}
    assert float(rows["metric", "lead_changes"][4]) == 3
    assert float(rows["metric", "branching"][4]) == pytest.approx(13 / 6)
    # Coverage: the first agent never takes "wait" (it is never the first option).
    assert int(rows["metric", "dead"][4]) >= 1


def test_without_metrics_nothing_changes() -> None:
    result = CliRunner().invoke(main, ["simulate", SEESAW, "-n", "2", "-a", "first", "-j", "1", "--json"])
    assert "metrics" not in json.loads(result.stdout)


@pytest.mark.parametrize(("args", "message"), [
    (["--skill", "human"], "a human cannot sit"),
    (["--skill", "wizard"], "unknown agent"),
    (["--skill", "greedy", "--skill-games", "0"], "--skill-games"),
])
def test_bad_skill_options(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["simulate", SEESAW, "-n", "2", *args])
    assert result.exit_code == 2 and message in result.output, result.output
    assert "Traceback" not in result.output


def test_metrics_reach_the_report(tmp_path: Path) -> None:
    out = tmp_path / "sim.html"
    result = CliRunner().invoke(main, ["simulate", SEESAW, "-n", "3", "-a", "first", "-j", "1", "-q", "--metrics",
                                       "--report", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "<h2>Metrics</h2>" in page and "<td>lead changes per game</td><td class=num>3.00</td>" in page


def test_compare_pairs_the_metrics() -> None:
    # Seesaw gain=1 against gain=4 (the cases above): lead changes 0 -> 4, drama 0 -> 1, decisiveness
    # 1/6 -> 1, draws 0 -> 1, the same options at every decision; each game's difference is the same.
    result = CliRunner().invoke(main, ["compare", SEESAW, "-O", "gain=1", "-o", "gain=4", "-a", "first", "-n", "3",
                                       "-j", "1", "-m", "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    rows = {r["name"]: r for r in s["differences"] if r["section"] == "metric"}
    expected = {"lead changes": (0, 4), "drama": (0, 1), "decisiveness": (1 / 6, 1),
                "branching (game mean)": (13 / 6, 13 / 6), "draws": (0, 1)}
    assert set(rows) == set(expected)
    for name, (a, b) in expected.items():
        assert (rows[name]["a"], rows[name]["b"]) == pytest.approx((a, b)), name
    assert rows["lead changes"]["significant"] and not rows["branching (game mean)"]["significant"]
    assert s["a"]["metrics"]["lead_changes"]["mean"] == 0 and s["b"]["metrics"]["lead_changes"]["mean"] == 4
    plain = json.loads(CliRunner().invoke(main, ["compare", SEESAW, "-O", "gain=1", "-o", "gain=4", "-a", "first",
                                                 "-n", "3", "-j", "1", "--json"]).stdout)
    assert not [r for r in plain["differences"] if r["section"] == "metric"] and "metrics" not in plain["a"]
