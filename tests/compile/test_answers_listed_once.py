"""An ask whose answers are given per value, read no answer and not the asked player: while the
engine's pickers pick by position, its answers are listed once, when the first player asked
answers, and the same list serves the others (``CodeGen.pause_answers``, ``same_answers_at``).
An ask whose answers read the asked player is listed for each. The games must be exactly those
played with every ask left to the engine's loop, which lists the answers for each player.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import ROOT
from step_support import played, same_stops

from rulelang import load_game
from rulelang.compile import codegen
from rulelang.engine.engine import Engine

pytestmark = pytest.mark.usefixtures("at_root")

# "grab": the same answers for everyone asked; "offer": answers from the asked player's own hand.
RULES = """game "D"
players 2 to 4 default 3

1 Red card
1 Blue card
1 Green card
1 Gold card
1 Pink card

zone table
zone hand: per player

counter turns = 0

setup:
  move all from box to table

turn:
  ask e in players:
    "grab {kind of c}" for c in all in table
    "pass"
  for c in all in table:
    let k = kind of c
    pick w at random from q in players if answer of q == "grab {k}"
    if w != nobody and any(k in table):
      move k from table to hand of w
  ask e in players if any(all in hand of e):
    "offer {kind of c}" for c in all in hand of e
    "keep"
  for e in players:
    for c in all in hand of e:
      let k = kind of c
      if answer of e == "offer {k}" and any(k in hand of e):
        move k from hand of e to table
  turns += 1
  if turns >= 10:
    end game

rank p by highest count(all in hand of p)
"""


def careful(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every ask left to the engine's loop (answers listed for each player)."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "pause_answers",
                      lambda self, L, pc, var, slot, asked, ind, sp: self.pause(L, pc, ind))
        return load_game(path)



@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = tmp_path / "d.rules"
    path.write_text(RULES, encoding="utf-8")
    return load_game(path), careful(path, monkeypatch)


def test_only_answers_the_same_for_everyone_are_listed_once(small: tuple[Engine, Engine]) -> None:
    fast, _careful = small
    lines = [line.strip() for line in fast.program.generated.source.splitlines()]
    listings = [(line, after) for line, after in zip(lines, lines[1:])
                if line.startswith("_ok") and line.endswith("(st, loc)")]
    # listed once, before the answers (``answer_same``): its size taken next, for the loop
    once = [line for line, after in listings if after.startswith("_n") and "= len(_ok" in after]
    assert len(once) >= 1
    # the ask of "offer" lists each player's own hand: its list is taken at every answer
    listed_each = [line for line, after in listings if after.startswith("st.choice_cache = _ok")]
    assert listed_each


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_small_game_plays_the_same_games(small: tuple[Engine, Engine], players: int) -> None:
    fast, slow = small
    for seed in range(1, 31):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps(), seed


def test_the_step_limit_stops_at_the_same_place(small: tuple[Engine, Engine]) -> None:
    fast, slow = small
    same_stops(fast, slow, 4, 3, range(1, 15))


def test_rooster_style_game_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / "rooster-rush.rules"
    fast, slow = load_game(path), careful(path, monkeypatch)
    assert " = None\n" in fast.program.generated.source
    for seed in range(1, 21):
        got, error = played(fast, 4, seed)
        want, want_error = played(slow, 4, seed)
        assert error == want_error, seed
        assert got.dumps() == want.dumps(), seed
