"""A move skips the checks of the triggers whose conditions it cannot change, proved from the checked model
(``untouched.UNTOUCHED``), and a check's loop over the seats reads the seat from its variable
(``untouched.CHECK_SEATS``): against the code that checks every trigger reading a zone the move touches, the same
games, traces, standings, MCTS choices and errors on every game and example; the proof's cases one by one; and a
broken proof (one that says a move moves no kind at all) is noticed."""

from __future__ import annotations

from pathlib import Path

import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    player_counts,
    same_games,
    trace,
)

from rulelang import load_game
from rulelang.check import model as m
from rulelang.compile import untouched

REPO = Path(__file__).resolve().parents[2]


FLAGS = [(untouched, "UNTOUCHED"), (untouched, "CHECK_SEATS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_proof(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    if game.startswith("barnyard"):  # (the Robbers and Excuse Mes moved, and the flip without Crows)
        assert new.program.generated.source.count("chk") < old.program.generated.source.count("chk")
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(10))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_proof(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(6))


@pytest.mark.parametrize("game", ["barnyard", "barnyard-2p"])
def test_mcts_chooses_as_without_the_proof(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


def test_a_proof_that_says_nothing_moves_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Crows moved to a pen without the check of 'a multiple of 3 Crows' play other games."""
    path = REPO / "games" / "barnyard.rules"
    right = build(path, FLAGS)
    with monkeypatch.context() as patch:
        patch.setattr(untouched, "moved_kinds", lambda model, s, facts: frozenset())
        wrong = build(path, FLAGS)
    assert noticed(wrong, right)


PROOF = """game "Proof"
players 2

section "Components"

4 Red cards
4 Blue cards
2 Gold cards

section "Setup"

zone deck "the deck": ordered
zone hand: per player
zone pile: per player
counter flag = 0

setup:
  move all from box to deck
  shuffle deck

turn:
  move 1 from deck to hand of current
  if any(Gold in hand of current):
    move all Red from hand of current to pile of current
  else:
    say "no gold"
    move all from hand of current to pile of current
  if not any(Red in hand of current):
    let x = 1
    move all from hand of current to pile of current
  move all Blue from hand of current to pile of current
  move all except Gold from hand of current to pile of current
  if not any(all in deck):
    end game

when any player p has count(Gold in pile of p) >= 1 "gold":
  set flag to 1

when any player p has count(Red in pile of p) >= 2 "reds":
  set flag to 2

rank p by highest count(all in pile of p)
"""


def test_the_kinds_a_move_can_move(tmp_path: Path) -> None:
    """Each move of PROOF, with what is known before it, against the two triggers: only a count of kinds the
    move cannot move is left unchecked."""
    path = tmp_path / "proof.rules"
    path.write_text(PROOF, encoding="utf-8")
    model = load_game(path).model
    facts = untouched.absent_facts(model)
    moves = [s for s in _statements(model.rules[model.turn_rule].body) if type(s) is m.MoveS]
    red, blue, gold = (next(k.index for k in model.kinds if k.name == n) for n in ("Red", "Blue", "Gold"))
    every = frozenset(range(len(model.kinds)))
    kinds = [untouched.moved_kinds(model, s, facts.get(id(s), ())) for s in moves]
    # draw one (to a hand: no trigger reads it); Reds (gold held); all, no Gold held; all, no Red held (after
    # a let); Blues; all but Gold
    assert kinds == [every, {red}, every - {gold}, every - {red}, {blue}, every - {gold}]
    gold_t, red_t = model.triggers
    skipped = [(untouched.untouched(model, s, gold_t, facts.get(id(s), ())),
                untouched.untouched(model, s, red_t, facts.get(id(s), ()))) for s in moves]
    assert skipped == [(True, True), (True, False), (True, False), (False, True), (True, True), (True, False)]


def _statements(body: tuple) -> list:
    out = []
    for s in body:
        out.append(s)
        if type(s) is m.IfS:
            for _c, b in s.branches:
                out += _statements(b)
            out += _statements(s.orelse or ())
    return out


def test_proof_game_plays_as_without_the_proof(tmp_path: Path) -> None:
    path = tmp_path / "proof.rules"
    path.write_text(PROOF, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed in range(10):
        assert trace(new, 2, seed) == trace(old, 2, seed), seed
