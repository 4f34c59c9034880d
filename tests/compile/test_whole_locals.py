"""Moves whose count is a local proved to hold a whole number, written without the test that it is whole
(``whole_locals.WHOLE_LOCALS``): the same games, traces and standings as with the test, in every game where it
applies; the proof holds for a range's values passed on as an argument, not for a fraction (the same error
then, from the same move)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lever_support import EXAMPLES, budget_outcome, player_counts, same_games

from rulelang import load_game
from rulelang.compile import whole_locals
from rulelang.engine.engine import Engine

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(whole_locals, "WHOLE_LOCALS", on)
        return load_game(path)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_with_the_test(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    if game.startswith("barnyard"):  # (the bluff's count of cards: a choice's range, passed to the rule laying them)
        assert new.program.generated.source.count("whole(") < old.program.generated.source.count("whole(")
    if new.program.generated.source != old.program.generated.source:
        same_games(new, old, player_counts(new), range(4))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_with_the_test(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    if new.program.generated.source != old.program.generated.source:
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
def test_a_count_is_proved_whole_only_where_it_is(how: str, tested: bool, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "e.rules"
    path.write_text(LAY.replace("HOW", how))
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    assert ("whole(" in new.program.generated.source) == tested
    assert "whole(" in old.program.generated.source
    for seed in range(3):  # (a fraction of cards: the same error, where the move is)
        assert budget_outcome(new, 2, seed) == budget_outcome(old, 2, seed)
