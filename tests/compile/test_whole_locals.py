"""Moves whose count is a local proved to hold a whole number, written without the test that it is whole
(``whole_locals.WHOLE_LOCALS``): the same games, traces and standings as with the test, in every game where it
applies; the proof holds for a range's values passed on as an argument, not for a fraction (the same error
then, from the same move)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lever_support import EXAMPLES, GAMES, budget_outcome, flagged_builds, player_counts, same_games

from rulelang.compile import whole_locals

REPO = Path(__file__).resolve().parents[2]


FLAGS = [(whole_locals, "WHOLE_LOCALS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_with_the_test(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    if game.startswith("barnyard"):  # (the bluff's count of cards: a choice's range, passed to the rule laying them)
        assert new.program.generated.source.count("whole(") < old.program.generated.source.count("whole(")
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(4))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_with_the_test(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(4))


LAY = """game "E"
players 2 to 2 default 2

6 Red cards

zone hand: per player
zone table

counter n = 0

setup:
  for p in players:
    move 3 Red from box to hand of p

turn:
  choose:
    "lay {k}" for k in 1 to count(all in hand of current):
      lay(HOW)
  n += 1
  if n >= 4:
    end game

rule lay(k: number):
  move (k) from hand of current to table

rank p by highest count(all in hand of p)
"""


@pytest.mark.parametrize(("how", "tested"), [("k", False), ("fraction(k, 2)", True)])
def test_a_count_is_proved_whole_only_where_it_is(how: str, tested: bool, tmp_path: Path) -> None:
    path = tmp_path / "e.rules"
    path.write_text(LAY.replace("HOW", how))
    new, old = flagged_builds(path, FLAGS)[:2]
    assert ("whole(" in new.program.generated.source) == tested
    assert "whole(" in old.program.generated.source
    for seed in range(3):  # (a fraction of cards: the same error, where the move is)
        assert budget_outcome(new, 2, seed) == budget_outcome(old, 2, seed)
