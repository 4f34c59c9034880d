"""Asks proved to ask nobody, and the tests of answers nobody can have given, against the code written without
those rewrites (``unasked.NOBODY_ASKED``, ``unasked.UNSAID_ANSWERS``): same games, traces, standings, MCTS
choices, stops at a step limit (the table, the answers, the rules on the stack; not the frames' locals and
entry points, laid out otherwise without the dead code) and step budgets. The proof is shown to hold only where
it should (not for a decider who may be the current player, nor with three players), and a build that wrongly
takes an ask for one of nobody plays other games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, budget_outcome, mcts_choices, noticed, plain, player_counts, same_games
from step_support import same_stops

from rulelang import load_game
from rulelang.check import model as m
from rulelang.compile import answers, steps, unasked
from rulelang.engine.engine import Engine
from rulelang.engine.state import State

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
FLAGS = ("NOBODY_ASKED", "UNSAID_ANSWERS")
TWO = REPO / "games" / "barnyard-2p.rules"


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool, budget: int | None = None) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        for name in FLAGS:
            patch.setattr(unasked, name, on)
        return load_game(path) if budget is None else load_game(path, budget=budget)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    changed = new.program.generated.source != old.program.generated.source
    assert changed == (game == "barnyard-2p")  # (the one game with an ask of nobody)
    if changed:
        same_games(new, old, player_counts(new), range(4))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_is_written_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    assert new.program.generated.source == old.program.generated.source


def test_barnyard_2p_asks_nobody_and_reads_no_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _load(TWO, monkeypatch, True), _load(TWO, monkeypatch, False)
    source, before = new.program.generated.source, old.program.generated.source
    assert "st.answers[" in before and "st.answers[" not in source  # the Excuse Me! loops are gone
    assert len([1 for line in source.splitlines() if line.startswith("def r")]) \
        < len([1 for line in before.splitlines() if line.startswith("def r")])  # no pause at the asks
    assert mcts_choices(new, 2) == mcts_choices(old, 2)
    for seed in range(2):
        same_stops(new, old, 2, seed, range(1, 41), view=_table, stopped=True)


def _table(st: State) -> dict[str, Any]:
    """The state as ``State.to_json`` writes it, but of each frame only its rule: the locals of a rule whose
    dead code is not written are laid out otherwise (fewer slots), its entry points numbered otherwise."""
    data = st.to_json()
    data["stack"] = [frame[0] for frame in data["stack"]]
    return data


@pytest.mark.parametrize("flag", FLAGS)
def test_each_rewrite_alone_plays_as_without_them(flag: str, monkeypatch: pytest.MonkeyPatch) -> None:
    old = _load(TWO, monkeypatch, False)
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        for name in FLAGS:
            patch.setattr(unasked, name, name == flag)
        new = load_game(TWO)
    assert new.program.generated.source != old.program.generated.source
    same_games(new, old, [2], range(3))


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int, monkeypatch: pytest.MonkeyPatch) -> None:
    outcomes = [budget_outcome(_load(TWO, monkeypatch, on, budget), 2, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


def test_an_ask_taken_for_one_of_nobody_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Four-player Barnyard Roundup with its Excuse Me ask wrongly proved to ask nobody: other games."""
    path = REPO / "games" / "barnyard.rules"
    right = _load(path, monkeypatch, True)

    def everyone_empty(model: m.Model) -> unasked.Facts:
        asks = frozenset(id(x) for r in model.rules for x in unasked._nodes(r.body) if type(x) is m.AskS)
        return unasked.Facts(asks, True)

    with monkeypatch.context() as patch:
        patch.setattr(unasked, "_prove", everyone_empty)
        wrong = _load(path, monkeypatch, True)
    assert wrong.program.generated.source != right.program.generated.source
    assert noticed(wrong, right, 3)


DECIDER = """game "E"
players 2 to MOST default 2

2 Red cards
2 Token cards

zone table
zone held: per player

counter n = 0

setup:
  move all Red from box to table

turn:
  choose:
    "before {q}" for q in other players:
      decide(WHO)
  n += 1
  if n >= 4:
    end game

rule decide(d: player):
  ask e in other players if e != d:
    "now" if any(Token in held of e)
    "later"
  for e in other players:
    if answer of e == "now":
      n += 1

rank p by highest count(all in held of p)
"""


def _facts(source: str, tmp_path: Path) -> unasked.Facts:
    path = tmp_path / "e.rules"
    path.write_text(source)
    return unasked._prove(load_game(path).model)


@pytest.mark.parametrize(("most", "who", "empty"), [("2", "q", True), ("3", "q", False), ("2", "current", False)])
def test_an_ask_is_proved_to_ask_nobody_only_where_it_does(most: str, who: str, empty: bool, tmp_path: Path) -> None:
    got = _facts(DECIDER.replace("MOST", most).replace("WHO", who), tmp_path)
    assert bool(got.empty) == empty and got.all_empty == empty


# An ask that asks nobody at run time, where nothing proves it when the code is written: the others of a game
# of one player (an empty range), or a filter no one passes (nobody holds a Token). As the rules read (an ask
# that asks nobody is skipped; a player not asked answered ""), play goes on at once and nobody has an answer.
EMPTY = """game "E"
players LOW to 3 default LOW

2 Red cards
2 Token cards

zone table
zone held: per player

counter n = 0
counter heard = 0

setup:
  move all Red from box to table

turn:
  choose:
    "go":
      decide(current)
  n += 1
  if n >= 4:
    end game

rule decide(d: player):
ASK
  for e in players:
    if answer of e != "":
      heard += 1

rank p by highest count(all in held of p)
"""
ASKS = {
    "the others of one player": ("1", """  ask e in other players:
    "now" if any(Token in held of e)
    "later"
"""),
    "the others of one player, filtered": ("1", """  ask e in other players if e != d:
    "now" if any(Token in held of e)
    "later"
"""),
    "a filter no one passes": ("2", """  ask e in other players if any(Token in held of e):
    "now"
    "later"
"""),
    "a filter no one passes, answers with blocks": ("2", """  ask e in players if e != d and any(Token in held of e):
    "now":
      n += 1
    "later"
"""),
    "a filter no one passes, in a loop": ("2", """  for r in 1 to 2:
    ask e in other players if any(Token in held of e):
      "now {c}" for c in all in held of e
      "later"
"""),
}
ASK_FLAGS = ((unasked, "NOBODY_ASKED"), (unasked, "UNSAID_ANSWERS"), (steps, "ASKED_LOCAL"),
             (steps, "ANSWERS_COUNTED"), (answers, "ANSWERS_AT_ONCE"))


@pytest.mark.parametrize("shape", sorted(ASKS))
def test_an_ask_of_nobody_at_run_time_is_skipped_with_no_answers(shape: str, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    low, ask = ASKS[shape]
    path = tmp_path / "e.rules"
    path.write_text(EMPTY.replace("LOW", low).replace("ASK\n", ask))
    built = []
    for on in (True, False):
        with monkeypatch.context() as patch:
            patch.setenv("RULELANG_NO_CACHE", "1")
            for module, name in ASK_FLAGS:
                patch.setattr(module, name, on)
            built.append(load_game(path))
    new, old = built
    for n in player_counts(new):
        for seed in range(2):
            got = plain(new, n, seed)
            assert got["result"] is not None, (n, seed)  # the game ended
            if low == "2" or n == 1:  # (asked nobody: nobody has an answer)
                assert got["counters"][1] == 0, (n, seed)
    same_games(new, old, player_counts(new), range(2))
    assert mcts_choices(new, 3) == mcts_choices(old, 3)


def test_an_ask_over_an_empty_range_without_its_player_held_before_fails(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The store of who was asked last, moved after the loop (``steps.asked_local``), wrongly taken for one over a
    range never empty: with one player the others are none, the loop binds nobody and its store fails."""
    low, ask = ASKS["the others of one player, filtered"]
    path = tmp_path / "e.rules"
    path.write_text(EMPTY.replace("LOW", low).replace("ASK\n", ask))
    held = steps.asked_local
    every = m.IterIR("players", None, None, None, m.PLAYER)
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(steps, "asked_local", lambda gen, L, head, ind, var, p, exprs, seat, it, sp: held(
            gen, L, head, ind, var, p, exprs, seat, every, sp))
        wrong = load_game(path)
    with pytest.raises(UnboundLocalError):
        plain(wrong, 1, 0)
    plain(_load(path, monkeypatch, True), 1, 0)
