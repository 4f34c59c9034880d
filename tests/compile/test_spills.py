"""Three rewrites, against the code written without them (same games, same traces, same standings, same MCTS
choices, same errors), on every game (fewest, default and most players) and every example:

- a ``for`` loop that may pause keeps its list, position and value in Python variables and stores them into
  ``loc`` only before the lines that may leave its block (``spills.LAZY_LOOPS``);
- an inlined rule's arguments are stored into ``loc`` only there too (``spills.LAZY_ARGS``);
- a rule's number parameter passed on as an argument is not bounded again (``spills.BOUNDED_PARAMS``);
- an inlined rule's parameter given the current player is not tested for a seat (``spills.SEAT_ARGS``).

A broken variant (the stores left out before a line that hands ``loc`` on, or before a return) plays other
games or fails here.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, GAMES, budget_outcome, build, flagged_builds, mcts_choices, noticed, plain, trace

from rulelang import load_game
from rulelang.compile import spills
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError

REPO = Path(__file__).resolve().parents[2]
TAKES = {"barnyard", "barnyard-2p", "hippe-kippen", "rule-the-roost", "rooster-rush"}  # the games the rewrites change


FLAGS = [(spills, "LAZY_LOOPS"), (spills, "LAZY_ARGS"), (spills, "BOUNDED_PARAMS"), (spills, "SEAT_ARGS")]


def _outcome(engine: Engine, players: int, seed: int) -> Any:
    """The final table of a plain and of a recorded random game, or the error either ends in."""
    try:
        return plain(engine, players, seed), trace(engine, players, seed)
    except RulelangError as exc:
        return "error", exc.format()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert changed or game not in TAKES, game
    if not changed:  # (the same module plays the same games)
        return
    players = sorted({new.model.min_players, new.model.default_players, new.model.max_players})
    for n, seed in itertools.product(players, range(8)):
        assert _outcome(new, n, seed) == _outcome(old, n, seed), (n, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    players = new.model.default_players
    for seed in range(6 if changed else 0):  # (the same module plays the same games)
        assert _outcome(new, players, seed) == _outcome(old, players, seed), seed


@pytest.mark.parametrize("game", sorted(TAKES))
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "barnyard.rules"
    outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


def test_the_rewrites_apply_to_barnyard() -> None:
    """The paused loops and the inlined calls of Barnyard Roundup are written the new way."""
    source = load_game(REPO / "games" / "barnyard.rules").program.generated.source
    assert "in enumerate(" in source
    assert "MINNUM" in source


def test_stores_left_out_before_loc_is_handed_on_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice stores missing where ``loc`` leaves the block (a return, a picker's or
    describer's call): here they are put only before returns."""
    path = REPO / "games" / "barnyard.rules"
    right = build(path, FLAGS)
    real = spills.needs
    with monkeypatch.context() as patch:
        patch.setattr(spills, "needs", lambda text, slots: "return" in text and real(text, slots))
        wrong = build(path, FLAGS)
    assert wrong.program.generated.source != right.program.generated.source
    assert noticed(wrong, right, 4, compare=trace)
