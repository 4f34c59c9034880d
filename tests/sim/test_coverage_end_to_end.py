"""`simulate --coverage` end to end: the generated back end counts, the simulation reports.

The counts come from the engine (``Engine(..., coverage=True)``), are added up across
worker processes, and name each construct by its place in the rules file.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest
from click.testing import CliRunner

import rulelang
from rulelang.agents.base import RandomAgent
from rulelang.cli import main
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.sim import pool

pytestmark = pytest.mark.usefixtures("at_root")


def _coverage(*args: str) -> dict[str, dict]:
    result = CliRunner().invoke(main, ["simulate", "games/chicken.rules", "-n", "12", "-q", "--coverage", "--json",
                                       *args])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["coverage"]
    return {f"{row['where']} {row['kind']} {row['name']}": row for row in rows}


def test_an_option_that_is_off_leaves_its_branch_unfired() -> None:
    rows = _coverage("-j", "1")
    # orange_egg is off by default: its branch never runs, the else branch runs once a game.
    assert rows["games/chicken.rules:65 branch if"]["count"] == 0
    assert rows["games/chicken.rules:67 branch else"]["count"] == 12
    # The game-ending trigger fires exactly once a game.
    trigger = [row for key, row in rows.items() if row["kind"] == "trigger"]
    assert [row["count"] for row in trigger] == [12]


def test_the_option_turned_on_fires_its_branch() -> None:
    rows = _coverage("-j", "1", "-o", "orange_egg=true")
    assert rows["games/chicken.rules:65 branch if"]["count"] == 12
    assert rows["games/chicken.rules:67 branch else"]["count"] == 0


def test_counts_are_the_same_on_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    one, two = _coverage("-j", "1"), _coverage("-j", "2")
    assert {k: r["count"] for k, r in one.items()} == {k: r["count"] for k, r in two.items()}
    # Both choose options of a turn were taken at least once in twelve games.
    assert one["games/chicken.rules:73 option Go For It!"]["count"] > 0
    assert one["games/chicken.rules:75 option Chicken Out!"]["count"] > 0


def _answers_counted(game: str, games: int, recorded: bool) -> tuple[dict[str, int], Counter[str]]:
    """Coverage of each answer line of ``game`` over seeded random games, and the answers the play-by-play
    says were given (only when ``recorded``: played as ``run --trace`` plays, else as ``simulate`` does)."""
    base = rulelang.load_game(game)
    engine = Engine(base.program, coverage=True)
    told: Counter[str] = Counter()
    for seed in range(1, games + 1):
        n = engine.model.min_players + seed % (engine.model.max_players - engine.model.min_players + 1)
        st = engine.new_state(n, narrate=recorded)
        agents = [RandomAgent(seed, s) for s in range(n)]

        def on_event(_event: dict, narration: list[dict]) -> None:
            told.update(a for e in narration if e["type"] == "answers" for a in e["answers"].values())

        play(engine, st, agents, seed, on_event=on_event if recorded else None, narrate=recorded)
    assert engine.coverage is not None
    counts = {f"{c.span.line} {c.name}": k for c, k in zip(engine.program.constructs, engine.coverage)
              if c.kind == "answer"}
    return counts, told


def test_coverage_counts_each_answer_of_an_ask_as_given() -> None:
    counts, told = _answers_counted("games/barnyard.rules", 6, recorded=True)
    assert counts == {"150 Excuse Me!": told["Excuse Me!"], "151 let it be": told["let it be"]}
    assert told["Excuse Me!"] > 0 and told["let it be"] > 0
    quiet, _ = _answers_counted("games/barnyard.rules", 6, recorded=False)  # answers taken by the generated code
    assert quiet == counts


def test_coverage_counts_answers_given_per_value_on_their_line() -> None:
    counts, told = _answers_counted("examples/goofspiel/goofspiel.rules", 5, recorded=True)
    assert list(counts) == ["39 bid {...}"]
    assert counts["39 bid {...}"] == sum(told.values()) == 5 * 4 * 2  # each player bids once a round
    assert _answers_counted("examples/goofspiel/goofspiel.rules", 5, recorded=False)[0] == counts


def test_simulate_lists_the_answers_of_an_ask() -> None:
    result = CliRunner().invoke(main, ["simulate", "games/rooster-rush.rules", "-n", "6", "-j", "1", "--coverage"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if "answer of an ask" in line]
    assert len(lines) == 4 and lines[1].endswith("wait until the chips stop"), lines
    assert lines[-1].endswith("secure nothing"), lines
    # an answer per value is one line, counted each time any of its values is answered: Sushi Draft's
    # pick is '"{k}" for k in kinds(...)', answered by 4 players, 8 times a round, 2 rounds a game
    result = CliRunner().invoke(main, ["simulate", "examples/new-games/sushi-draft.rules", "-n", "6", "-j", "1",
                                       "--coverage"])
    lines = [line.split() for line in result.output.splitlines() if "answer of an ask" in line]
    assert [(words[-1], int(words[-3])) for words in lines] == [("{...}", 6 * 2 * 8 * 4)], lines
