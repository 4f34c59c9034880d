"""The command line: `rulelang run`, `simulate` and `check`, through click's CliRunner."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main

REPO = Path(__file__).resolve().parents[2]
CHICKEN = "games/chicken.rules"
EGGSPANSION = "games/chicken-eggspansion.rules"
OK_BASE = "tests/bad_rules/ok_base.rules"


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def _invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def _no_traceback(result) -> None:
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)


def _read_trace(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# ------------------------------------------------------------------ run


@pytest.mark.parametrize("game", [CHICKEN, EGGSPANSION, OK_BASE])
def test_run_with_defaults_ends_with_a_winner(game: str) -> None:
    result = _invoke("run", "--seed", "1", game)
    assert result.exit_code == 0, result.output
    _no_traceback(result)
    lines = result.stdout.splitlines()
    assert lines[0].split(":")[0] in ("Chicken!", "Chicken! with the Eggspansion!", "Roll High")
    assert "Final standings:" in lines
    assert lines[-1].startswith("Winner")
    assert result.stderr == ""


def test_run_is_repeatable_with_a_seed() -> None:
    a = _invoke("run", CHICKEN, "--seed", "11")
    b = _invoke("run", CHICKEN, "--seed", "11")
    c = _invoke("run", CHICKEN, "--seed", "12")
    assert a.stdout == b.stdout
    assert a.stdout != c.stdout


def test_run_json() -> None:
    result = _invoke("run", CHICKEN, "--json", "--players", "3", "--seed", "5")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "Chicken!"
    assert data["players"] == 3
    assert data["seed"] == 5
    assert data["winners"] and set(data["winners"]) <= {"P1", "P2", "P3"}
    assert [row["player"] for row in data["standings"]] and len(data["standings"]) == 3
    winners = {row["player"] for row in data["standings"] if row["rank"] == 1}
    assert winners == set(data["winners"])
    assert all(row["keys"][0] >= 25 for row in data["standings"] if row["rank"] == 1)
    assert data["steps"] > 0 and data["turns"] > 0


def test_run_quiet_prints_only_the_result() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--quiet")
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    assert lines[0] == "Final standings:"
    assert lines[-1].startswith("Winner")
    assert not any(line.startswith("Turn ") or "chooses" in line or "rolls" in line for line in lines)
    assert len(lines) == 1 + 4 + 1  # heading, one line per player, the winner


@pytest.mark.parametrize("players", ["1", "9", "0", "-3"])
def test_run_with_a_player_count_out_of_range_is_a_usage_error(players: str) -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--players", players)
    assert result.exit_code == 2, result.output
    _no_traceback(result)
    assert "--players" in result.stderr
    assert "2 to 8" in result.stderr


SETUP_ERROR_NAMING_PLAYERS = """game "Setup error"
players 2 to 3
counter players_left per player = 0
setup:
  let w = nobody
  set players_left of w to 1
turn:
  end game
rank p by highest players_left of p
"""


def test_a_setup_error_whose_message_says_players_is_the_game_s_error_not_a_usage_error(tmp_path: Path) -> None:
    """Only a player count the game does not take is a --players error; any other setup error keeps its place."""
    path = tmp_path / "setup.rules"
    path.write_text(SETUP_ERROR_NAMING_PLAYERS)
    result = _invoke("run", "--seed", "1", str(path))
    assert result.exit_code == 1, result.output
    _no_traceback(result)
    assert "--players" not in result.stderr
    assert "setup.rules:6:" in result.stderr and "nobody has a 'players_left'" in result.stderr


def test_run_missing_file() -> None:
    result = _invoke("run", "--seed", "1", "games/no_such_game.rules")
    assert result.exit_code == 1
    _no_traceback(result)
    assert "no such file: games/no_such_game.rules" in result.stderr
    assert result.stdout == ""


def test_run_broken_file_prints_the_error() -> None:
    result = _invoke("run", "--seed", "1", "tests/bad_rules/unknown_zone.rules")
    assert result.exit_code == 1
    _no_traceback(result)
    assert result.stderr.startswith("tests/bad_rules/unknown_zone.rules:22:15: error: unknown zone 'midle'")


def test_run_human_agent_reads_answers_from_input() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--agent", "human", "--players", "2", input="1\n" * 500)
    assert result.exit_code == 0, result.output[-2000:]
    _no_traceback(result)
    assert "Your choice" in result.output
    assert "  1. Go For It!" in result.output
    assert result.output.rstrip().splitlines()[-1].startswith("Winner")


def test_run_human_agent_reasks_after_a_bad_answer() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--agent", "human", "--players", "2", input="x\n99\n" + "1\n" * 500)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Please type a number from 1 to 2, or words from an option." in result.output


@pytest.mark.parametrize("odd", ["\u00b2", "9" * 5000], ids=["superscript-two", "5000-digits"])  # int() refuses both
def test_run_human_agent_reasks_after_an_odd_number(odd: str) -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--agent", "human", "--players", "2",
                     input=odd + "\n" + "1\n" * 500)
    _no_traceback(result)
    assert result.exit_code == 0, result.output[-2000:]
    assert "Please type a number from 1 to 2, or words from an option." in result.output


def test_run_human_agent_out_of_input_is_abandoned_cleanly() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--agent", "human", "--players", "2", input="1\n" * 3)
    assert result.exit_code == 1
    _no_traceback(result)
    assert "game abandoned" in result.output


def test_run_too_many_agents_is_a_usage_error() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "-p", "2", "-a", "first", "-a", "first", "-a", "random")
    assert result.exit_code == 2
    _no_traceback(result)
    assert "--agent" in result.stderr


def test_run_narrates_the_first_turn() -> None:
    """When setup asks nothing, turn 1 starts inside new_state(): it must still be narrated."""
    for args in ([OK_BASE], [CHICKEN, "--option", "random_first_player=false"]):
        result = _invoke("run", "--seed", "1", *args)
        assert result.exit_code == 0
        lines = result.stdout.splitlines()
        assert lines[1] == "Turn 1: P1", lines[:3]


# ------------------------------------------------------------------ traces


def test_trace_header_and_result(tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    result = _invoke("run", CHICKEN, "--trace", str(trace), "--seed", "3", "--players", "3", "--quiet")
    assert result.exit_code == 0, result.output
    events = _read_trace(trace)
    head, last = events[0], events[-1]
    assert head["type"] == "header"
    assert head["format"] == "rulelang-trace/3"
    assert head["file"] == CHICKEN
    assert head["sha256"] == hashlib.sha256((REPO / CHICKEN).read_bytes()).hexdigest()
    assert head["players"] == 3
    assert head["seed"] == 3
    assert head["chance"] == "seed"
    assert head["options"] == {"orange_egg": False, "random_first_player": True}
    assert last["type"] == "result"
    assert last["winners"]
    assert len(last["digest"]) == 16
    assert [e["turn"] for e in events if e["type"] == "digest"] == list(range(1, last["turns"] + 1))
    middle = [e for e in events[1:-1] if e["type"] != "digest"]
    assert middle and all(e["type"] in ("chance", "action") for e in middle)
    assert [e["step"] for e in middle] == list(range(1, len(middle) + 1))
    assert last["steps"] == len(middle)
    # --json of the same game agrees with the trace
    data = json.loads(_invoke("run", CHICKEN, "--seed", "3", "--players", "3", "--json").stdout)
    assert data["winners"] == last["winners"]
    assert data["steps"] == last["steps"]


def test_trace_of_a_variant_names_every_source(tmp_path: Path) -> None:
    trace = tmp_path / "egg.jsonl"
    result = _invoke("run", "--seed", "1", EGGSPANSION, "--trace", str(trace), "--quiet")
    assert result.exit_code == 0, result.output
    head = _read_trace(trace)[0]
    assert head["file"] == EGGSPANSION
    assert head["sha256"] == hashlib.sha256((REPO / EGGSPANSION).read_bytes()).hexdigest()
    assert [s["file"] for s in head["sources"]] == [CHICKEN, EGGSPANSION]
    assert head["sources"][0]["sha256"] == hashlib.sha256((REPO / CHICKEN).read_bytes()).hexdigest()


def test_trace_is_written_atomically(tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    trace.write_text("old contents that are much longer than nothing\n" * 5000, encoding="utf-8")
    before = {p.name for p in tmp_path.iterdir()}
    result = _invoke("run", "--seed", "1", CHICKEN, "--trace", str(trace), "--quiet")
    assert result.exit_code == 0, result.output
    assert {p.name for p in tmp_path.iterdir()} == before  # no temp file left behind
    text = trace.read_text(encoding="utf-8")
    assert "old contents" not in text  # replaced whole, not overwritten in place
    assert text.endswith("\n")
    events = _read_trace(trace)
    assert events[0]["type"] == "header" and events[-1]["type"] == "result"


def test_trace_of_a_failed_game_is_not_written(tmp_path: Path) -> None:
    trace = tmp_path / "game.jsonl"
    result = _invoke("run", "--seed", "1", CHICKEN, "--trace", str(trace), "--max-steps", "5")
    assert result.exit_code == 1
    assert list(tmp_path.iterdir()) == []


def test_trace_file_gets_ordinary_permissions(tmp_path: Path) -> None:
    """BUG: write_atomic() keeps mkstemp's mode 0600, so a trace is unreadable to others
    (a plain open() would give 0666 & ~umask, e.g. 0644)."""
    umask = os.umask(0)
    os.umask(umask)
    trace = tmp_path / "game.jsonl"
    assert _invoke("run", "--seed", "1", CHICKEN, "--trace", str(trace), "--quiet").exit_code == 0
    assert trace.stat().st_mode & 0o777 == 0o666 & ~umask


# ------------------------------------------------------------------ options and limits


def test_max_steps_stops_the_game() -> None:
    result = _invoke("run", CHICKEN, "--max-steps", "5", "--quiet", "--seed", "1")
    assert result.exit_code == 1
    _no_traceback(result)
    assert "the game did not end within 5 steps" in result.stderr
    assert "--max-steps" in result.stderr
    assert result.stderr.startswith("games/chicken.rules:")


@pytest.mark.parametrize("command", ["run", "simulate"])
@pytest.mark.parametrize("steps", ["0", "-1"])
def test_max_steps_below_one_is_a_usage_error(command: str, steps: str) -> None:
    """'the game did not end within -1 steps' was reported as the game's error; it is the command line's."""
    result = _invoke(command, CHICKEN, "--max-steps", steps, "-q")
    assert result.exit_code == 2
    _no_traceback(result)
    assert "--max-steps" in result.stderr


def test_option_random_first_player_false_lets_p1_start(tmp_path: Path) -> None:
    for seed in range(1, 6):
        trace = tmp_path / f"t{seed}.jsonl"
        result = _invoke("run", CHICKEN, "--option", "random_first_player=false", "--seed", str(seed),
                         "--trace", str(trace), "--quiet")
        assert result.exit_code == 0, result.output
        events = _read_trace(trace)
        assert events[0]["options"] == {"orange_egg": False, "random_first_player": False}
        assert not any(e.get("first_player") for e in events)
        first_action = next(e for e in events if e["type"] == "action")
        assert first_action["player"] == "P1"


def test_option_random_first_player_true_draws_the_first_player(tmp_path: Path) -> None:
    starters = set()
    for seed in range(1, 9):
        trace = tmp_path / f"t{seed}.jsonl"
        assert _invoke("run", CHICKEN, "--seed", str(seed), "--trace", str(trace), "--quiet").exit_code == 0
        events = _read_trace(trace)
        assert events[1].get("first_player") is True
        starters.add(next(e for e in events if e["type"] == "action")["player"])
    assert len(starters) > 1


@pytest.mark.parametrize("command", ["run", "simulate", "check"])
def test_unknown_option_is_an_error(command: str) -> None:
    args = [command, CHICKEN, "--option", "nosuch=1"] + (["-n", "2"] if command == "simulate" else [])
    result = _invoke(*args)
    assert result.exit_code == 1, result.output
    _no_traceback(result)
    assert "unknown option 'nosuch'" in result.stderr
    assert "random_first_player" in result.stderr


def test_option_with_a_bad_value_is_an_error() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--option", "random_first_player=maybe")
    assert result.exit_code == 1
    _no_traceback(result)
    assert "option 'random_first_player' needs a true/false, not 'maybe'" in result.stderr


def test_option_without_equals_is_a_usage_error() -> None:
    result = _invoke("run", "--seed", "1", CHICKEN, "--option", "random_first_player")
    assert result.exit_code == 2
    _no_traceback(result)
    assert "NAME=VALUE" in result.stderr


def test_check_lists_options() -> None:
    result = _invoke("check", "--options", CHICKEN)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1] == (
        '  option random_first_player = true  # choose the starting player at random (else P1 starts)'
    )


def test_check_options_shows_overridden_value() -> None:
    result = _invoke("check", "--options", "-o", "random_first_player=no", EGGSPANSION)
    assert result.exit_code == 0, result.output
    assert "  option random_first_player = false" in result.stdout


# ------------------------------------------------------------------ simulate


def test_simulate_json_win_rates_sum_to_one() -> None:
    result = _invoke("simulate", CHICKEN, "-n", "20", "--json")
    assert result.exit_code == 0, result.output
    stats = json.loads(result.stdout)
    assert stats["games"] == 20
    assert stats["players"] == 4
    assert set(stats["win_rate"]) == {"P1", "P2", "P3", "P4"}
    assert sum(stats["win_rate"].values()) == pytest.approx(1.0, abs=1e-3)
    assert stats["turns"]["min"] <= stats["turns"]["mean"] <= stats["turns"]["max"]
    assert result.stderr == ""  # no progress bar with --json


def test_simulate_is_repeatable() -> None:
    a = json.loads(_invoke("simulate", EGGSPANSION, "-n", "10", "-p", "3", "--json").stdout)
    b = json.loads(_invoke("simulate", EGGSPANSION, "-n", "10", "-p", "3", "--json").stdout)
    for key in ("win_rate", "turns", "steps"):
        assert a[key] == b[key]


def test_simulate_text() -> None:
    result = _invoke("simulate", CHICKEN, "-n", "5", "-p", "2")
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("Chicken!: 5 games, 2 players, random agents")
    assert "  P1 wins" in result.stdout and "  P2 wins" in result.stdout


@pytest.mark.parametrize("args", [["-n", "0"], ["-p", "9", "-n", "2"]])
def test_simulate_bad_arguments(args: list[str]) -> None:
    result = _invoke("simulate", CHICKEN, *args)
    assert result.exit_code in (1, 2), result.output
    _no_traceback(result)


def test_simulate_max_steps() -> None:
    result = _invoke("simulate", CHICKEN, "-n", "3", "--max-steps", "5", "--json")
    assert result.exit_code == 1
    _no_traceback(result)
    assert "did not end within 5 steps" in result.stderr
