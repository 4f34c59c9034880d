"""Games that run into an error (tests/bad_runs/): each stops with file:line:col, a caret and a hint.

These are the run-time halves of issue 10 and issue 14 part 3: ``nobody`` used as a
seat, numbers that grow without bound, triggers that re-fire themselves, turns that
never ask for a decision, labels that read alike, fractions where a count is needed,
a seat the game does not have. The output of each is pinned by a syrupy snapshot.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

REPO = Path(__file__).resolve().parents[2]
RUNS = "tests/bad_runs"
HEADER = re.compile(r"^(?P<file>[\w./-]+\.rules):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.+)$")

# file -> (line, col, a fragment of the message)
EXPECTED: dict[str, tuple[int, int, str]] = {
    "turn_end_turn.rules": (13, 1, "turns went on for 200000 steps without asking for any decision"),
    "turn_another_turn.rules": (13, 1, "turns went on for 200000 steps without asking for any decision"),
    "turn_no_decision.rules": (13, 1, "turns went on for 200000 steps without asking for any decision"),
    "nobody_score.rules": (15, 6, "nobody has a 'score'"),
    "nobody_move.rules": (15, 17, "nobody has a 'hand'"),
    "trigger_refires.rules": (19, 3, "triggers fired again and again"),
    "counter_squared.rules": (15, 5, "a number grew beyond what rulelang keeps"),
    "duplicate_labels.rules": (14, 3, "both labelled 'take 1': the option at line 15 with n = 2 and the option at "
                                      "line 15 with n = 3"),
    "fraction_count.rules": (14, 3, "how many times to repeat must be a whole number, not 1/2"),
    "seat_literal_absent.rules": (14, 12, "P3 is not in this game"),
    "payoff_not_zero_sum.rules": (20, 1, "the payoffs sum to 1, but the game is declared zero sum (P1 1, P2 0)"),
    "payoff_out_of_bounds.rules": (20, 1, "P1's payoff is 2, outside its bounds 0 to 1"),
    "move_one_from_elsewhere.rules": (14, 5, "Cow#1 is not in P1's hand: it is in pool"),
    "the_one_of_two.rules": (14, 33, "'the card in pool' selects 2 components, not one"),
}

pytestmark = pytest.mark.usefixtures("at_root")


def _run(name: str, tmp_path: Path, *extra: str):
    return CliRunner().invoke(main, ["run", f"{RUNS}/{name}", "-p", "2", "-s", "1", "-q", "--trace",
                                     str(tmp_path / "t.jsonl"), *extra])


def test_every_run_file_is_covered() -> None:
    assert {p.name for p in (REPO / RUNS).glob("*.rules")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_checks_but_stops_with_a_located_error(name: str, tmp_path: Path) -> None:
    assert CliRunner().invoke(main, ["check", f"{RUNS}/{name}"]).exit_code == 0
    result = _run(name, tmp_path)
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    head = HEADER.match(result.stderr.splitlines()[0])
    assert head is not None, result.stderr
    line, col, fragment = EXPECTED[name]
    assert (int(head["line"]), int(head["col"])) == (line, col), result.stderr
    assert fragment in head["msg"]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_run_error_snapshot(name: str, tmp_path: Path, snapshot) -> None:
    assert _run(name, tmp_path).stderr == snapshot


@pytest.mark.parametrize("name", ["turn_end_turn.rules", "turn_another_turn.rules", "turn_no_decision.rules"])
def test_a_narrated_runaway_turn_loop_quotes_the_last_narration(name: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["run", f"{RUNS}/{name}", "-p", "2", "-s", "1"])
    assert result.exit_code == 1
    assert "the last narration was: 'P" in result.stderr


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_check_deep_finds_the_run_time_error(name: str) -> None:
    result = CliRunner().invoke(main, ["check", "--deep", "-n", "2", f"{RUNS}/{name}"])
    assert result.exit_code == 1, result.output
    head = HEADER.match(result.stderr.splitlines()[0])
    assert head is not None, result.stderr
    line, col, fragment = EXPECTED[name]
    assert (int(head["line"]), int(head["col"])) == (line, col)
    assert fragment in head["msg"]
    assert "found in a random game of 2 players, seed 1" in result.stderr
    assert result.stdout == ""


def test_check_deep_passes_a_sound_game() -> None:
    result = CliRunner().invoke(main, ["check", "--deep", "-n", "3", "games/chicken.rules"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ("games/chicken.rules: ok (Chicken!; 2-8 players, 16 components, 12 rules; "
                             "21 random games played without a run-time error)\n")


def test_check_deep_quotes_the_last_narration_of_a_runaway_turn_loop() -> None:
    result = CliRunner().invoke(main, ["check", "--deep", "-n", "1", f"{RUNS}/turn_another_turn.rules"])
    assert result.exit_code == 1
    assert "the last narration was: 'P1 plays again' (found in a random game of 2 players, seed 1)" in result.stderr
