"""Issue 21, item 4: every number a user types has an upper bound and is written in ASCII digits.

``-n``, ``-j``, ``--batch-size``, ``--max-steps`` and the agents' parameters have documented
bounds (docs/simulate.md, "Bounds"); a number in another script's digits (``١٢``), with
underscores (``1_000``) or otherwise loose is refused: a usage error (exit 2) on the command
line, an error naming the option (exit 1, as every bad option value) for ``-o NAME=VALUE``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.agents.spec import MAX_C, MAX_DEPTH, MAX_ITERS, MAX_SAMPLES, AgentSpecError, parse_agent
from rulelang.cli import main
from rulelang.cli_common import MAX_BATCH, MAX_GAMES, MAX_JOBS, MAX_STEPS, WholeNumber
from rulelang.engine.state import State
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.numbers import ascii_decimal, ascii_fraction, ascii_whole

ROOT = Path(__file__).resolve().parents[2]
OK_BASE = ROOT / "tests" / "bad_rules" / "ok_base.rules"
BARNYARD = ROOT / "games" / "barnyard.rules"
LOOSE = ["١٢", "1_000", "12.0", "1e3", "0x10", "1 2", "", "+", "１２"]  # Arabic-Indic and full-width digits too


def _invoke(*args: object):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.rules"
    shutil.copy(OK_BASE, path)
    return path


def test_the_bounds_are_the_documented_ones() -> None:
    doc = (ROOT / "docs" / "simulate.md").read_text(encoding="utf-8")
    assert (MAX_GAMES, MAX_JOBS, MAX_BATCH, MAX_STEPS) == (10_000_000, 1024, 100_000, 10_000_000)
    assert (MAX_SAMPLES, MAX_ITERS, MAX_DEPTH, MAX_C) == (1_000, 100_000, 10_000, 100.0)
    for shown in ("10,000,000", "1,024", "100,000", "`iters` | 1 to 100,000", "`depth` | 1 to 10,000",
                  "`samples` | 1 to 1,000", "`c` | 0 to 100", "2^64-1", "RAY_ADDRESS"):
        assert shown in doc, shown


@pytest.mark.parametrize(("args", "message"), [
    (["-n", MAX_GAMES + 1], "must be at most 10,000,000, not 10,000,001"),
    (["-n", 10**23], "must be at most 10,000,000, not 100,000,000,000,000,000,000,000"),
    (["-n", 0], "must be at least 1"),
    (["-j", MAX_JOBS + 1], "must be at most 1,024, not 1,025"),
    (["-j", 0], "must be at least 1"),
    (["--batch-size", MAX_BATCH + 1], "must be at most 100,000, not 100,001"),
    (["--batch-size", 0], "must be at least 1"),
    (["--max-steps", MAX_STEPS + 1], "must be at most 10,000,000, not 10,000,001"),
    (["-a", f"mcts:iters={MAX_ITERS + 1}"], "mcts:iters must be at most 100,000, not 100,001"),
    (["-a", f"mcts:iters={10**21}"], "mcts:iters must be at most 100,000"),
    (["-a", f"mcts:depth={MAX_DEPTH + 1}"], "mcts:depth must be at most 10,000, not 10,001"),
    (["-a", f"greedy:samples={MAX_SAMPLES + 1}"], "greedy:samples must be at most 1,000, not 1,001"),
    (["-a", "mcts:c=100.5"], "mcts:c must be a finite number, 0 or more (at most 100)"),
    (["-a", "mcts:iters=10^21"], "mcts:iters must be a int (a whole number in the digits 0-9), not '10^21'"),
])
@pytest.mark.parametrize("command", ["simulate", "compare"])
def test_numbers_past_their_bound_are_usage_errors(tmp_path: Path, game: Path, command: str, args: list,
                                                  message: str) -> None:
    other = tmp_path / "b.rules"
    shutil.copy(game, other)
    files = [game] if command == "simulate" else [game, other]
    result = _invoke(command, *files, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize(("args", "message"), [
    (["--max-steps", MAX_STEPS + 1], "must be at most 10,000,000"),
    (["-a", f"mcts:iters={MAX_ITERS + 1}"], "mcts:iters must be at most 100,000"),
    (["-p", "٢"], "is not a whole number"),
])
def test_run_has_the_same_bounds(game: Path, args: list, message: str) -> None:
    result = _invoke("run", game, "-q", "-s", 1, *args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr


def test_check_deep_games_are_bounded(game: Path) -> None:
    result = _invoke("check", game, "--deep", "-n", 10_001)
    assert result.exit_code == 2 and "must be at most 10,000, not 10,001" in result.stderr, result.output
    result = _invoke("check", game, "--deep", "-n", "١٢")
    assert result.exit_code == 2 and "is not a whole number" in result.stderr, result.output


def test_the_bounds_themselves_are_accepted() -> None:
    assert WholeNumber(1, MAX_GAMES).convert(str(MAX_GAMES), None, None) == MAX_GAMES
    assert WholeNumber(1, MAX_JOBS).convert("+1024", None, None) == MAX_JOBS
    spec = parse_agent(f"mcts:iters={MAX_ITERS},depth={MAX_DEPTH},c={MAX_C:g}")
    assert dict(spec.params) == {"iters": MAX_ITERS, "depth": MAX_DEPTH, "c": MAX_C}
    assert dict(parse_agent(f"greedy:samples={MAX_SAMPLES}").params) == {"samples": MAX_SAMPLES}


@pytest.mark.parametrize("text", LOOSE)
@pytest.mark.parametrize("option", ["-n", "-j", "--batch-size", "--max-steps", "-p", "-s"])
def test_command_line_numbers_are_ascii_digits_only(game: Path, option: str, text: str) -> None:
    result = _invoke("simulate", game, option, text)
    assert result.exit_code == 2, result.output
    assert "is not a whole number: write it in the digits 0-9, with an optional sign" in result.stderr


@pytest.mark.parametrize("text", LOOSE)
@pytest.mark.parametrize("name", ["iters", "depth"])
def test_agent_parameters_are_ascii_digits_only(text: str, name: str) -> None:
    with pytest.raises(AgentSpecError, match=f"mcts:{name} must be a int"):
        parse_agent(f"mcts:{name}={text}")


@pytest.mark.parametrize("text", ["١.٥", "1_0.5", "0x1", "nan", "inf", "-0.5", "1e400"])
def test_the_exploration_constant_is_ascii_digits_only(text: str) -> None:
    with pytest.raises(AgentSpecError, match="mcts:c must be a finite number"):
        parse_agent(f"mcts:c={text}")


def test_the_cli_refuses_loose_agent_numbers_as_usage_errors(game: Path) -> None:
    result = _invoke("simulate", game, "-n", 1, "-a", "mcts:iters=١٢")
    assert result.exit_code == 2 and "mcts:iters must be a int" in result.stderr, result.output


@pytest.mark.parametrize("text", ["١٢", "1_000", "12.0", "1e3", "0x0c", "１２"])
@pytest.mark.parametrize("command", ["check", "run", "simulate"])
def test_option_values_are_ascii_digits_only(command: str, text: str) -> None:
    extra = {"check": [], "run": ["-q", "-s", 1], "simulate": ["-n", 1, "-j", 1]}[command]
    result = _invoke(command, BARNYARD, "-o", f"cards_removed={text}", *extra)
    assert result.exit_code == 1, result.output
    assert f"option 'cards_removed' needs a number, not {text!r}" in result.stderr
    assert "hint: write it in the digits 0-9, with an optional sign (e.g. -o cards_removed=12)" in result.stderr
    assert "Traceback" not in result.output


def test_ascii_option_values_with_a_sign_are_read() -> None:
    assert load_game(BARNYARD, {"cards_removed": "+12"}).model.options["cards_removed"].value == 12
    assert load_game(BARNYARD, {"cards_removed": "12"}).model.options["cards_removed"].value == 12


def test_option_values_through_the_python_api_are_ascii_digits_only() -> None:
    from rulelang.envs.common import option_strings

    for value in ("١٢", "1_000"):
        with pytest.raises(ErrorList, match="1 error") as info:
            load_game(BARNYARD, option_strings({"cards_removed": value}))
        assert "needs a number" in info.value.errors[0].message


def test_a_count_in_a_position_is_ascii_digits_only(game: Path) -> None:
    game.write_text(game.read_text(encoding="utf-8").replace('1 Red die "red die"', '2 Red dice "red die"'),
                    encoding="utf-8")
    engine = load_game(game)
    engine.new_state(2, position={"zones": {"middle": ["2 Red"]}}, setup_seed=1)  # ASCII: two Red dice
    with pytest.raises(RulelangError, match="٢ Red"):
        engine.new_state(2, position={"zones": {"middle": ["٢ Red"]}}, setup_seed=1)


def test_number_readers_refuse_loose_text() -> None:
    for text in LOOSE:
        with pytest.raises(ValueError):
            ascii_whole(text)
    assert [ascii_whole(t) for t in ("12", "-3", "+4", " 5 ")] == [12, -3, 4, 5]
    with pytest.raises(ValueError, match="too long a number"):
        ascii_whole("9" * 41)
    for text in ("١.٥", "1_0", "nan", "inf", "0x1", ""):
        with pytest.raises(ValueError):
            ascii_decimal(text)
    assert [ascii_decimal(t) for t in ("0.7", ".5", "2e-3", "-1")] == [0.7, 0.5, 0.002, -1.0]
    for text in ("١/٢", "1_0/3", "1/0", "7/", "7.5"):
        with pytest.raises(ValueError):
            ascii_fraction(text)
    assert ascii_fraction("-7/3") * 3 == -7 and ascii_fraction("6/3") == 2 and type(ascii_fraction("6/3")) is int


def test_recorded_fractions_are_ascii_digits_only() -> None:
    state = State(2).to_json()
    state["counters"] = [{"fraction": "7/3"}]
    assert State.from_json(state).counters[0] * 3 == 7
    state["counters"] = [{"fraction": "١/٢"}]
    with pytest.raises(ValueError, match="not a fraction"):
        State.from_json(state)


def test_a_human_answers_with_ascii_digits() -> None:
    chicken = ROOT / "games" / "chicken.rules"
    result = CliRunner().invoke(main, ["run", str(chicken), "-p", "2", "-s", "1", "-a", "human", "-a", "random"],
                                input="١\n" + "1\n" * 400)
    assert result.exit_code == 0, result.output
    first = result.output.split("Your choice")[1]
    assert "Please type a number from 1 to" in first.split("Your choice")[0]  # "١" is not taken for 1
