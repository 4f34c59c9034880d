"""`rulelang simulate` and `rulelang compare` from the command line."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.sim import pool

ROOT = Path(__file__).resolve().parents[2]
CHICKEN = str(ROOT / "games/chicken.rules")
BARNYARD = str(ROOT / "games/barnyard.rules")


def invoke(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output, result.output
    return result


def test_simulate_json_has_every_statistic() -> None:
    result = invoke("simulate", BARNYARD, "-n", "12", "-p", "3", "-j", "1", "-a", "greedy", "-a", "random", "--json")
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert s["agents"] == ["greedy", "random", "random"]
    assert sum(s["win_rate"].values()) == pytest.approx(1.0)
    for p, rate in s["win_rate"].items():
        lo, hi = s["win_ci"][p]
        assert lo <= rate <= hi and s["wins"][p] == pytest.approx(rate * 12)
    assert set(s["keys"]) == {"final_score", "animals", "crows"}
    assert set(s["sheets"]["final_score"]) >= {"Cows", "Crows", "Set Bonus cards"}
    cows = s["sheets"]["final_score"]["Cows"]["all"]
    assert cows["n"] == 36 and cows["min"] <= cows["mean"] <= cows["max"]
    assert set(s["payoff"]) == {"P1", "P2", "P3"}
    assert sum(m["mean"] for m in s["payoff"].values()) == pytest.approx(0.0)  # the rank payoff is zero sum
    assert s["payoff_kind"].startswith("from the ranking")
    assert sum(s["first_player"]["by_seat"].values()) == s["first_player"]["games"] == 12
    assert s["turns"]["min"] <= s["turns"]["mean"] <= s["turns"]["max"]
    assert result.stderr == ""


def test_simulate_same_numbers_for_one_or_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    one = json.loads(invoke("simulate", CHICKEN, "-n", "30", "-j", "1", "--json").stdout)
    two = json.loads(invoke("simulate", CHICKEN, "-n", "30", "-j", "2", "--batch-size", "4", "--json").stdout)
    one.pop("timing")
    two.pop("timing")
    assert one == two


def test_simulate_text_and_progress() -> None:
    result = invoke("simulate", CHICKEN, "-n", "20", "-p", "2", "-j", "1", "-a", "greedy", "-a", "random")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("Chicken!: 20 games, 2 players, agents P1 greedy, P2 random (seeds 1..20)")
    assert "  P1 wins " in out and "95% Wilson interval" in out
    assert "First player wins" in out and "Game length:" in out and "score: P1" in out
    assert "playing: 20/20 games" in result.stderr


def test_simulate_csv() -> None:
    result = invoke("simulate", CHICKEN, "-n", "10", "-p", "2", "-j", "1", "--csv")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["section", "name", "seat", "n", "mean", "sd", "min", "max", "ci_low", "ci_high"]
    sections = {r[0] for r in rows[1:]}
    assert sections == {"win_rate", "first_player", "key", "payoff", "length"}
    wins = [r for r in rows if r[0] == "win_rate"]
    assert [r[2] for r in wins] == ["P1", "P2"]
    assert float(wins[0][8]) <= float(wins[0][4]) <= float(wins[0][9])


@pytest.mark.parametrize(("args", "message"), [
    (["-a", "alphazero"], "unknown agent 'alphazero'"),
    (["-a", "mcts:iters=0"], "at least 1"),
    (["-a", "human"], "a human cannot sit through a simulation"),
    (["-j", "0"], "must be at least 1"),
    (["--json", "--csv"], "choose one of --json and --csv"),
    (["--address", "1.2.3.4:6379"], "--address is for --backend ray"),
    (["-p", "1"], "takes 2 to 8 players, not 1"),
])
def test_simulate_usage_errors(args: list[str], message: str) -> None:
    result = invoke("simulate", CHICKEN, "-n", "2", *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_simulate_broken_game_names_its_seed() -> None:
    result = invoke("simulate", CHICKEN, "-n", "4", "-j", "2", "--max-steps", "5", "-s", "40")
    assert result.exit_code == 1
    assert "game 0 (seed 40):" in result.stderr and "did not end within 5 steps" in result.stderr


def test_compare_an_option() -> None:
    result = invoke("compare", BARNYARD, "-o", "equal_bonuses=true", "-n", "30", "-p", "2", "-j", "2")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"A: {BARNYARD}\nB: {BARNYARD} -o equal_bonuses=true\n30 games each, same seeds (1..30)")
    assert "final_score: Animal Bonus cards" in out and "win rate P1" in out
    # Same seeds, same agents: only the bonus values change, so the cards in each pen are the same.
    assert "final_score: Cows" in out
    line = next(x for x in out.splitlines() if "final_score: Cows" in x)
    assert line.split()[-3] == "+0.00"


def test_compare_json_sentences_for_significant_differences() -> None:
    # Forcing P1 to start against a random first player: a difference in who starts, not in who wins.
    result = invoke("compare", CHICKEN, "-O", "random_first_player=true", "-o", "random_first_player=false",
                    "-n", "60", "-p", "2", "-j", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["a"]["first_player"]["by_seat"]["P1"] < 60 == data["b"]["first_player"]["by_seat"]["P1"]
    for row in data["differences"]:
        lo, hi = row["ci"]
        assert lo <= row["diff"] <= hi
        assert row["significant"] == (lo > 0 or hi < 0)
        assert (row["sentence"] is not None) == row["significant"]


def test_compare_needs_two_different_things() -> None:
    result = invoke("compare", CHICKEN, "-n", "2")
    assert result.exit_code == 2
    assert "A and B are the same rules" in result.stderr


def test_run_with_search_agents_writes_a_compliant_trace(tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    result = invoke("run", str(ROOT / "games/rule-the-roost.rules"), "-p", "2", "-a", "mcts:iters=5,depth=4",
                    "-a", "greedy", "-q", "--trace", str(trace))
    assert result.exit_code == 0, result.output
    assert json.loads(trace.read_text().splitlines()[0])["agents"] == ["mcts:iters=5,depth=4", "greedy"]
    verdict = invoke("replay", str(trace))
    assert verdict.exit_code == 0 and verdict.stdout.startswith("compliant")


def test_a_game_in_rounds_is_measured_in_rounds() -> None:
    rush = invoke("simulate", str(ROOT / "games/rooster-rush.rules"), "-n", "3", "-j", "1")
    assert rush.exit_code == 0, rush.output
    assert "rounds (min" in rush.stdout and "turns (min" not in rush.stdout
    chicken = invoke("simulate", CHICKEN, "-n", "3", "-j", "1", "--json")
    assert json.loads(chicken.stdout)["length_unit"] == "turns"
