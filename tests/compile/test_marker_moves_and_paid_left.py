"""Three rewrites, against the code written without them (same games, same traces, same standings, same MCTS
choices, same errors):

- a marker's move with a known destination checks where the marker was last seen in the generated code and
  moves it there, calling ``move_marker`` only where it is not there or the move is narrated
  (``marker_moves.SEEN_INLINE``);
- what is left of a spend's budget after an option's payment is stored without its bound test, the option's
  cost test proving it within the bound (``paid.PAID_LEFT``);
- an option's values whose pile does not hold a marker are listed as the values copied, the pile where the
  marker was last seen (and is) taken out, instead of testing each (``marker_filters.NOT_ON``).

Each is also shown to matter: a broken variant plays other games or fails where the right one does not.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import attrs
import pytest
from lever_support import (
    EXAMPLES,
    budget_outcome,
    mcts_choices,
    noticed,
    plain,
    player_counts,
    same_games,
    table,
    trace,
)

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.check import model as m
from rulelang.compile import marker_filters, marker_moves, paid, unasked
from rulelang.compile.analysis import Analysis, conjuncts, fold
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool, budget: int | None = None) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(marker_moves, "SEEN_INLINE", on)
        patch.setattr(paid, "PAID_LEFT", on)
        patch.setattr(marker_filters, "NOT_ON", on)
        return load_game(path) if budget is None else load_game(path, budget=budget)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    if game == "hippe-kippen":  # (the one shipped game with markers and a spend)
        source, before = new.program.generated.source, old.program.generated.source
        assert source.count("MS.get(") >= 4 and "MS.get(" not in before
        assert "loc[0] = (loc[0] - 1)" in source and "loc[0] = (loc[0] - 1)" not in before
        assert source.count(".extend(_vs") >= 2 and ".extend(_vs" not in before  # the two fox moves' listings
    same_games(new, old, player_counts(new), range(6))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    same_games(new, old, [new.model.default_players], range(4))


def test_mcts_chooses_as_without_the_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / "hippe-kippen.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    got = mcts_choices(new, 4)
    assert got and got == mcts_choices(old, 4)


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / "hippe-kippen.rules"
    outcomes = [budget_outcome(_load(path, monkeypatch, on, budget), 4, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


PAWNS = """game "Pawns"
players 2 to 4 default 4

4 Stone cards "stone"
1 Pawn marker "the pawn"

zone field "the field"
zone yard "the yard"
zone lane "the lane": ordered
zone camp: per player
zone on "the pawn on": per card

counter score per player = 0 "points"
counter rounds = 0

setup:
  move all Stone from box to field
  move Pawn to yard

turn:
  spend 2 steps:
    "pawn to my camp" costs 1:
      move Pawn to camp of current
      score of current += 1
    "pawn to the next camp" costs 1:
      move Pawn to camp of next player
    "pawn to the lane" costs 1:
      move Pawn to lane
    "pawn to the yard" costs 1:
      move Pawn to yard
    "pawn on {c}" costs 1 for c in all in field if not any(Pawn in on of c):
      move Pawn to on of c
      score of current += 2
    "pawn next to {c}" costs 2 for c in all in field if not any(Pawn in on of c):
      move Pawn to on of c
    "{p} puts the pawn on {c}" costs 1 for p in players for c in all in field if not any(Pawn in on of c):
      move Pawn to on of c
      score of p += 1
    "stone {c} to the yard" costs 1 for c in all in field if any(Pawn in on of c):
      move c from field to yard
      score of current += 1
    "sweep the lane" costs 1:
      move all from lane to yard
  rounds += 1
  if rounds == 14:
    end game

rank p by highest score of p
"""


def _pawns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    path = tmp_path / "pawns.rules"
    path.write_text(PAWNS, encoding="utf-8")
    return _load(path, monkeypatch, on)


PLACES = [(1, -1), (2, -1), (3, -1), (4, 0), (4, 3), (4, 9), (5, 0), (5, 1), (5, 2), (5, 3), (0, -1), (5, 4), (4, -1),
          (5, 40), (5, -1)]  # where the pawn may be guessed: right, stale, or no such place at all


class _Guessing(RandomAgent):
    """A random agent that sets, before each of its picks, where the program last saw the pawn to a guess."""

    def __init__(self, seed: int, seat: int, seen: dict, guesses: random.Random) -> None:
        super().__init__(seed, seat)
        self.seen, self.guesses = seen, guesses

    def choose_index(self, n: int) -> int:
        self.seen[4] = self.guesses.choice(PLACES)
        return super().choose_index(n)


def _scrambled(engine: Engine, players: int, seed: int) -> dict:
    """A random game played with the guess of where the pawn is set at random before each decision (as often
    stale or impossible as right): the table at the end."""
    seen = engine.run.arm.__globals__["MS"]  # the program's own (see codegen.load)
    guesses = random.Random(seed)
    st = engine.new_state(players)
    play(engine, st, [_Guessing(seed, s, seen, guesses) for s in range(players)], seed)
    return table(engine, st)


def test_a_marker_moves_as_without_the_rewrite_wherever_it_was_last_seen(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared zones, an ordered one, per-player piles (of more seats than a smaller game has) and piles on
    cards, a marker also carried by a plain move: the same games at 2 to 4 players, one engine for all of
    them (so a guess left by a game of 4 players meets one of 2), and the same narrated games."""
    new, old = _pawns(tmp_path, monkeypatch, True), _pawns(tmp_path, monkeypatch, False)
    source = new.program.generated.source
    assert source.count("MS.get(") >= 7 and ".extend(_vs" in source  # (moves, and the lists of stones without it)
    for players in (4, 2, 3, 4, 2):
        for seed in range(10):
            assert plain(new, players, seed) == plain(old, players, seed), (players, seed)
            assert trace(new, players, seed) == trace(old, players, seed), (players, seed)
            assert _scrambled(new, players, seed) == _scrambled(old, players, seed), (players, seed)


def test_a_marker_believed_where_last_seen_without_the_check_fails(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above notice a guess believed without checking that its pile holds the marker."""
    right = _pawns(tmp_path, monkeypatch, True)
    with monkeypatch.context() as patch:
        patch.setattr(marker_moves, "HELD", "{s} is not None")
        wrong = _pawns(tmp_path, monkeypatch, True)
    assert noticed(wrong, right, seeds=6)


def test_a_marker_believed_on_the_pile_last_seen_without_the_check_lists_other_options(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above notice a listing that believes the guess without checking that the pile holds it."""
    right = _pawns(tmp_path, monkeypatch, True)
    with monkeypatch.context() as patch:
        patch.setattr(marker_filters, "_HELD", "0 <= ({q} := {w}[1]) < len({p})")
        wrong = _pawns(tmp_path, monkeypatch, True)
    assert noticed(wrong, right, seeds=6, compare=_scrambled)


DEBT = """game "Debt"
players 4

counter rounds = 0

setup:
  pass

turn:
  let x = 0 - 1000000000000000000
  spend 2 coins:
    "sink" costs 1:
      let x = x - 1
  rounds += 1
  if rounds == 3:
    end game

rank p by highest rounds
"""


def test_a_payment_is_proved_within_the_bound_only_by_its_cost_test(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The spend's payment is stored as it is; a ``let`` of a local minus a number that no cost test covers
    keeps its bound test, and fails as before. A proof that did not ask for the cost test is noticed."""
    path = tmp_path / "debt.rules"
    path.write_text(DEBT, encoding="utf-8")
    right, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    source = right.program.generated.source
    assert "loc[1] = (loc[1] - 1)\n" in source  # the payment: as it is
    assert re.search(r"type\(_b\d+ := \(loc\[0\] - 1\)\) is int and MINNUM", source)  # the let of x: bounded
    errors = []
    for engine in (right, old):
        with pytest.raises(RulelangError) as exc:
            plain(engine, 4, 0)
        errors.append(exc.value.format())
    assert errors[0] == errors[1] and "beyond what rulelang keeps" in errors[0]

    def any_cost(rule: Any, opt: Any) -> list[int]:  # the proof without the cost test
        return [id(s) for s in opt.body if type(s).__name__ == "LetS"]

    with monkeypatch.context() as patch:
        patch.setattr(paid, "_paid_in", any_cost)
        wrong = _load(path, monkeypatch, True)
    assert noticed(wrong, right, seeds=2)


def _fox_move(engine: Engine) -> tuple[int, Any]:
    """Hippe Kippen's ``"move the fox to {c}" for c in all in chests of current if ... and not fox_on(c)``: its
    variable's slot and the conjunct its innermost loop tests (``not any(Fox in foxed of c)``)."""
    found = [x for r in engine.model.rules for x in unasked._nodes(r.body)
             if type(x) is m.OptionIR and x.label.parts and x.label.parts[0] == "move the fox to "]
    assert found
    opt = found[0]
    return opt.bindings[-1][0], conjuncts(fold(opt.cond))[-1]


def test_a_markers_absence_is_found_from_the_model_and_near_misses_are_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fox's absence from a chest's pile is the shape; a marker kind of two components, a pile not on
    components, a test of another variable, a kind that is no marker, a pile numbered from another component
    than 0, a second conjunct or no ``not`` are not (decided from the model's nodes, nothing emitted read)."""
    engine = _load(REPO / "games" / "hippe-kippen.rules", monkeypatch, True)
    model = engine.model
    slot, part = _fox_move(engine)
    gen = type("Gen", (), {})()
    gen.model, gen.comp = model, Analysis(model)
    gen.kind_of = gen.comp.kind_of
    foxed = next(z for z in model.zones if z.name == "foxed")
    fox = next(k.index for k in model.kinds if k.name == "Fox")
    assert marker_filters.marker_test(gen, [part], slot) == (gen.kind_of.index(fox), foxed.index)
    agg = part.operand

    def on(zone: int, owner: Any) -> Any:
        sel = attrs.evolve(agg.query.zones[0], zone=zone, owner=owner)
        return attrs.evolve(part, operand=attrs.evolve(agg, query=attrs.evolve(agg.query, zones=(sel,))))

    two = type("Gen", (), {})()  # a second Fox
    two.model, two.comp, two.kind_of = model, gen.comp, [*gen.kind_of, fox]
    card = next(k for k in model.kinds if k.cls != "marker" and k.count == 1) if any(
        k.cls != "marker" and k.count == 1 for k in model.kinds) else None
    no_marker = type("Gen", (), {})()  # the Fox's kind of another class
    no_marker.model = attrs.evolve(model, kinds=[attrs.evolve(k, cls="card") if k.index == fox else k
                                                 for k in model.kinds])
    no_marker.comp, no_marker.kind_of = gen.comp, gen.kind_of
    later = next(k.index for k in model.kinds if gen.comp.first_of_kind.get(k.index, 0) > 0 and k.cls != "marker")
    by_kind = type("Gen", (), {})()  # the piles kept per kind, that kind's first component not 0
    by_kind.model = attrs.evolve(model, zones=[attrs.evolve(z, per_class=None, per_kind=later)
                                               if z.index == foxed.index else z for z in model.zones])
    by_kind.comp, by_kind.kind_of = gen.comp, gen.kind_of
    hand = next(z.index for z in model.zones if z.name == "hand")
    beside = next(z.index for z in model.zones if z.name == "beside")
    misses = {
        "a marker kind of two components": (two, [part], slot),
        "a pile per player": (gen, [on(hand, m.Local(slot, m.PLAYER))], slot),
        "a shared zone": (gen, [on(beside, None)], slot),
        "a test of another variable": (gen, [on(foxed.index, m.Local(slot + 1, m.COMPONENT))], slot),
        "a kind that is no marker": (no_marker, [part], slot),
        "piles per kind from a later component": (by_kind, [part], slot),
        "a second conjunct": (gen, [part, part], slot),
        "no not": (gen, [agg], slot),
        "a count": (gen, [attrs.evolve(part, operand=attrs.evolve(agg, func="count"))], slot),
    }
    if card is not None:
        misses["one card, no marker"] = (gen, [attrs.evolve(part, operand=attrs.evolve(
            agg, query=attrs.evolve(agg.query, kinds=frozenset({card.index}))))], slot)
    for why, args in misses.items():
        assert marker_filters.marker_test(*args) is None, why
    with monkeypatch.context() as patch:
        patch.setattr(marker_filters, "NOT_ON", False)
        assert marker_filters.marker_test(gen, [part], slot) is None
