"""Five fast paths of plain playouts, each against the code written without it (same games, same traces,
same errors):

- a ``for`` loop whose body only counts its passes in the step budget runs uncounted where the budget left
  covers the most passes it can make, and counts them once after (``StatementEmitter.budget_once``);
- a picker's listing filters an innermost range once when nothing it tests reads an outer value
  (``options.filtered_once``), as one part of two lists when nothing reads the outer value either
  (``OptionEmitter.outer_as_list``);
- ``move k from Z, Y to D`` where every kind has one component takes it from the first zone holding it
  (``MoveEmitter.move_kind_one``);
- ``Engine.new_state`` copies the first fresh game of that many players;
- a block looks the players still in up once, and again after each drop out (``source_text.seats_once``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, plain, trace

from rulelang import load_game
from rulelang.compile import blocks, codegen, decisions, options
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def careful(path: Path, monkeypatch: pytest.MonkeyPatch, budget: int | None = None) -> Engine:
    """The game compiled without the fast paths (and no fresh game copied)."""
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(codegen.CodeGen, "budget_once", lambda self, L, start, s, ind: None)
        patch.setattr(codegen.CodeGen, "outer_as_list", lambda self, lines, outer, at, names: None)
        patch.setattr(options, "filtered_once", lambda opt, hoisted: False)
        patch.setattr(decisions, "picker_lists_less", lambda opt: options.unread_suffix(
            opt, opt.cond is not None and not options.reads_slots(
                opt.cond, {slot for slot, _ in opt.bindings})) < len(opt.bindings))
        patch.setattr(codegen.CodeGen, "from_first_holding", lambda self, q: False)
        patch.setattr(blocks, "seats_once", lambda lines: lines)
        engine = load_game(path) if budget is None else load_game(path, budget=budget)
    engine.fresh = _NeverKept()
    return engine


class _NeverKept(dict):
    """A ``fresh`` table of an engine that keeps no fresh game."""

    def __setitem__(self, key: Any, value: Any) -> None:
        pass


def fast(path: Path, monkeypatch: pytest.MonkeyPatch, budget: int | None = None) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        return load_game(path) if budget is None else load_game(path, budget=budget)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_levers(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    if game in ("rooster-rush", "rule-the-roost", "hippe-kippen"):  # (games a lever of the code applies to)
        assert new.program.generated.source != old.program.generated.source
    for players in sorted({new.model.min_players, new.model.default_players}):
        for seed in range(3):
            assert plain(new, players, seed) == plain(old, players, seed), (players, seed)
            assert trace(new, players, seed) == trace(old, players, seed), (players, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_levers(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    for seed in range(4):
        players = new.model.default_players
        assert plain(new, players, seed) == plain(old, players, seed), seed


PILES = """game "Piles"
players 2

section "Components"

attribute colour = false
3 Red cards: colour true
3 Blue cards: colour true
1 Fox marker

section "Setup"

zone deck "the deck": ordered
zone table "the table"
zone up "the pile on": per card
zone foxed "the fox on": per card
zone beside "beside the deck"

setup:
  move all except Fox from box to deck
  move Fox to beside

turn:
  choose:
    "open {k}" for k in kinds(all in deck):
      move 1 k from deck to table
    "lay {k} on {c}" for k in kinds(all in deck) for c in all in table if not any(all in up of c):
      move 1 k from deck to up of c
    "fox on {c}" for c in all in table:
      move Fox to foxed of c
  if count(all in table) >= 3:
    end game

rank p by highest count(all in table)
"""


def test_a_range_shared_by_two_options_is_listed_as_without_the_levers(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "piles.rules"
    path.write_text(PILES, encoding="utf-8")
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    assert "(_l" in new.program.generated.source and ", _h" in new.program.generated.source  # two lists in a part
    for seed in range(30):
        assert plain(new, 2, seed) == plain(old, 2, seed), seed
        assert trace(new, 2, seed) == trace(old, 2, seed), seed


LOOPS = """game "Loops"
players 2

section "Components"

attribute colour = ""
6 Red card: colour "red"
6 Blue card: colour "blue"

section "Setup"

zone deck "the deck": ordered
zone pile "the pile"
counter n = 0

setup:
  move all from box to deck

turn:
  while n < 3:
    for c in all in deck:
      n += 1
      say "{c}"
    for c in all in deck:
      say "again {c}"
  choose:
    "stop":
      end game

rank p by highest n
"""


@pytest.mark.parametrize("budget", range(1, 60))
def test_a_loop_counted_once_runs_out_of_budget_where_it_did(budget: int, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "loops.rules"
    path.write_text(LOOPS, encoding="utf-8")
    outcomes = []
    for engine in (fast(path, monkeypatch, budget), careful(path, monkeypatch, budget)):
        try:
            st = engine.new_state(2, narrate=True)
            outcomes.append(("state", st.counters, [e.get("text") for e in st.log or []]))
        except RulelangError as exc:
            outcomes.append(("error", exc.format()))
    assert outcomes[0] == outcomes[1]


def test_the_budget_lever_is_in_the_loops_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "loops.rules"
    path.write_text(LOOPS, encoding="utf-8")
    source = fast(path, monkeypatch).program.generated.source
    assert "left -= len(_q" in source and "if left < 12:" in source  # (12 components)
    assert "left -= len(_q" not in careful(path, monkeypatch).program.generated.source


def test_fresh_games_are_copies_that_share_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = fast(REPO / "games" / "rule-the-roost.rules", monkeypatch)
    first = engine.new_state(3)
    second = engine.new_state(3)
    assert first is not second and first.to_json() == second.to_json()
    first.zones[1].clear()
    first.stack[-1][2].append("changed")
    third = engine.new_state(3)
    assert third.to_json() == second.to_json() != first.to_json()
    assert engine.new_state(3, narrate=True).to_json() == second.to_json()  # (narrated: run afresh)
