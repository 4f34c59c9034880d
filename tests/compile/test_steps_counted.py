"""Four rewrites of how steps and the loop budget are counted (``rulelang/compile/steps.py``), against the code
written without them (same games, same traces with digests, same standings, same MCTS choices, the same stops
at the step limit in the middle of a block, the same runaway errors at every loop budget):

- ``ANSWERS_COUNTED``: an ask's run of answers taken in a block is taken in one loop that only picks and gives
  (the limit tested once, the step counted once) where the pickers are ``Rng.pick`` and nothing records;
- ``NESTED_BUDGETS``: a loop holding loops counted once (``budget_once``) tests neither its own count nor theirs
  where the budget left covers the most it can spend, and counts its passes once, after (``PASSES_ONCE``);
- ``LEAN_DRIVER``: the driver's block between turns tests no turn given where no rule gives one, and sets its
  frame's entry point back only on its ways out; the turn rule's end runs it at once (``TURN_CHAINED``);
- ``ask_lists.LISTED_AT_ONCE``: an ask's answers without conditions, fixed or mapped from one binding's values,
  listed as one list; who is asked found with the player stored into the ask's local once (``ASKED_LOCAL``).

Each is also shown to matter: a deliberately broken variant of either plays other games or fails otherwise.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    budget_outcome,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    player_counts,
    same_games,
)
from step_support import played

from rulelang.agents.base import RandomAgent
from rulelang.compile import ask_lists, steps
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]


FLAGS = [(steps, "ANSWERS_COUNTED"), (steps, "NESTED_BUDGETS"), (steps, "PASSES_ONCE"), (steps, "LEAN_DRIVER"),
         (steps, "TURN_CHAINED"), (steps, "ASKED_LOCAL"), (ask_lists, "LISTED_AT_ONCE")]


_PAIRS: dict[str, tuple[Engine, Engine]] = {}


def _pair(path: Path) -> tuple[Engine, Engine]:
    key = str(path)
    if key not in _PAIRS:
        _PAIRS[key] = (build(path, FLAGS), build(path, FLAGS, False))
    return _PAIRS[key]


def _stops(engine: Engine, players: int, seed: int, limit: int) -> tuple[Any, ...]:
    st, error = played(engine, players, seed, max_steps=limit)
    return st.dumps(), st.step, st.answers, error


def test_the_rewrites_apply_to_the_games_they_are_for(monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair(REPO / "games" / "rooster-rush.rules")
    assert "    return [*map(tk" in new.program.generated.source
    assert "    return [*map(tk" not in old.program.generated.source
    for game in ("rooster-rush", "barnyard"):
        new, old = _pair(REPO / "games" / f"{game}.rules")
        source, before = new.program.generated.source, old.program.generated.source
        assert source.count("st.step += len(") > before.count("st.step += len("), game
        assert source.count("if left < ") > before.count("if left < "), game


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair(REPO / "games" / f"{game}.rules")
    players = player_counts(new)
    same_games(new, old, players, range(6))


@pytest.mark.parametrize("game", GAMES)
def test_every_game_stops_at_the_step_limit_where_it_did(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair(REPO / "games" / f"{game}.rules")
    players = new.model.default_players
    for seed, limit in itertools.product((1, 2), range(1, 70)):
        assert _stops(new, players, seed, limit) == _stops(old, players, seed, limit), (seed, limit)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair(REPO / example)
    players = new.model.default_players
    same_games(new, old, [players], range(4))
    for limit in (1, 3, 7, 20):
        assert _stops(new, players, 1, limit) == _stops(old, players, 1, limit), limit


@pytest.mark.parametrize("game", GAMES)
def test_mcts_chooses_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair(REPO / "games" / f"{game}.rules")
    got = mcts_choices(new, new.model.default_players)
    assert got == mcts_choices(old, old.model.default_players)


def _run_out(engine: Engine, players: int, seed: int) -> tuple[Any, ...]:
    """How a random game under the engine's loop budget ends: its state and the error's text, if one."""
    try:
        st = engine.new_state(players)
    except RulelangError as exc:  # (before the first decision: no state to compare)
        return "", exc.format()
    try:
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    except RulelangError as exc:
        return st.dumps(), exc.format()
    return st.dumps(), ""


BUDGETS = [1, 2, 3, 5, 9, 17, 30, 45, 60, 120, 200, 290, 600]
PLAYED_OUT = 3  # budgets in a row under which every game played to its end: the larger ones are not tried


@pytest.mark.parametrize("game", GAMES)
def test_the_loop_budget_runs_out_where_it_did(game: str) -> None:
    """At each budget of BUDGETS, from the smallest, the same outcome with and without the rewrites, until
    PLAYED_OUT budgets in a row let every game play to its end (a larger budget then only leaves more loops
    without tests, as the default budget of the other tests does: each budget costs two compiles)."""
    path = REPO / "games" / f"{game}.rules"
    played_out = 0
    for budget in BUDGETS:
        new, old = (build(path, FLAGS, on, budget) for on in (True, False))
        players = new.model.default_players
        outcome = budget_outcome(new, players, 1)
        assert outcome == budget_outcome(old, players, 1), budget
        ends = [_run_out(new, players, seed) for seed in (1, 2)]
        for seed, end in zip((1, 2), ends):
            assert end == _run_out(old, players, seed), (budget, seed)
        played_out = played_out + 1 if outcome[0] == "played" and not any(error for _, error in ends) else 0
        if played_out == PLAYED_OUT:
            break
    assert played_out == PLAYED_OUT or budget == BUDGETS[-1], "the budgets never let the game play to its end"


def test_turns_run_away_where_they_did(tmp_path: Path) -> None:
    """Turns without a decision (after the first) run out of the budget in the driver: the same error, in the
    same state."""
    path = tmp_path / "idle.rules"
    path.write_text(IDLE, encoding="utf-8")
    for budget in (3, 10, 50):
        new, old = (build(path, FLAGS, on, budget) for on in (True, False))
        assert "fr[1] = 1\n        runaway(" in new.program.generated.source
        got, want = _run_out(new, 2, 0), _run_out(old, 2, 0)
        assert got == want and "turns" in got[1], budget


IDLE = """game "Idle"
players 2

section "Setup"

counter n = 0

setup:
  pass

turn:
  set n to n + 1
  if n == 1:
    choose:
      "wait":
        pass
      "hurry":
        set n to 2
  if n > 1000000:
    end game

rank p by highest n
"""


def test_answers_picked_by_another_players_picker_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice the run of answers picked by the first seat's picker for everyone."""
    path = REPO / "games" / "rooster-rush.rules"
    right = build(path, FLAGS)
    taken = steps.answers_counted

    def first_seat(gen: Any, L: list, *args: Any) -> None:
        start = len(L)
        taken(gen, L, *args)
        who = args[3][2]
        L[start:] = [(i, t.replace(f"[{who}]({args[7]})", f"[0]({args[7]})"), s) for i, t, s in L[start:]]

    with monkeypatch.context() as patch:
        patch.setattr(steps, "answers_counted", first_seat)
        wrong = build(path, FLAGS)
    assert "[0](" in wrong.program.generated.source
    assert noticed(wrong, right)


def test_a_nested_budget_that_spends_more_than_it_tests_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The loop budget above would notice a nested loop run without its test where the budget may run out
    (the test made against none of what it spends: never taken)."""
    path = REPO / "games" / "rooster-rush.rules"
    nested = steps.budget_nested

    def short(L: list, head: int, most: int, ind: int, seq: str | None = None) -> None:
        nested(L, head, 0, ind, seq)

    with monkeypatch.context() as patch:
        patch.setattr(steps, "budget_nested", short)
        wrong = [build(path, FLAGS, True, budget) for budget in (5, 10, 17, 30, 45)]
    right = [build(path, FLAGS, True, budget) for budget in (5, 10, 17, 30, 45)]
    assert any(budget_outcome(w, 4, seed) != budget_outcome(r, 4, seed) for w, r in zip(wrong, right)
               for seed in range(4))


def test_a_driver_that_leaves_its_entry_point_unset_is_noticed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The runaway above would notice a driver that does not set its entry point back on its way out."""
    path = tmp_path / "idle.rules"
    path.write_text(IDLE, encoding="utf-8")
    lean = steps.lean_driver

    def unset(model: Any, lines: list) -> list:
        return [line for line in lean(model, lines) if line[1] != "fr[1] = 1"]

    right = build(path, FLAGS, True, 10)
    with monkeypatch.context() as patch:
        patch.setattr(steps, "lean_driver", unset)
        wrong = build(path, FLAGS, True, 10)
    assert wrong.program.generated.source != right.program.generated.source
    assert _run_out(wrong, 2, 0) != _run_out(right, 2, 0)


CHIMES = """game "Chimes"
players 2

section "Components"

4 Bell tokens "bell"

section "Setup"

zone pile "the pile"
zone rung "the rung bells"
counter n = 0

setup:
  move all from box to pile

when not any(all in pile) "the pile is empty":
  for k in 1 to 4:
    set n to n + 1
  move all from rung to pile

turn:
  choose:
    "ring":
      for p in players:
        for k in 1 to 3:
          set n to n + 1
        move 1 from pile to rung
        for k in 1 to 3:
          set n to n + 1
    "rest":
      set n to n + 1
  if n > 200:
    end game

rank p by highest n
"""


def _chimes(tmp_path: Path, on: bool, budget: int) -> Engine:
    path = tmp_path / "chimes.rules"
    path.write_text(CHIMES, encoding="utf-8")
    return build(path, FLAGS, on, budget)


def test_a_trigger_in_a_loop_leaves_it_with_the_budget_it_did(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A trigger fired in a loop counted once hands the engine's loop the budget left, its passes so far taken:
    every budget runs out where it did (a runaway in the trigger's rule, or after it, in the loop's next pass)."""
    errors = 0
    for budget in range(2, 40):
        new, old = _chimes(tmp_path, True, budget), _chimes(tmp_path, False, budget)
        assert "return left - _i" in new.program.generated.source
        for seed in range(3):
            got = _run_out(new, 2, seed)
            assert got == _run_out(old, 2, seed), (budget, seed)
            errors += bool(got[1])
    assert errors


def test_a_loop_left_without_its_passes_counted_is_noticed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The budgets above would notice a loop left by a trigger with the budget as if no pass had been made."""
    with monkeypatch.context() as patch:
        patch.setattr(steps, "_counted_so_far", lambda text, passes: text)
        wrong = [_chimes(tmp_path, True, budget) for budget in range(14, 22)]
    right = [_chimes(tmp_path, True, budget) for budget in range(14, 22)]
    assert any(_run_out(w, 2, 0) != _run_out(r, 2, 0) for w, r in zip(wrong, right))


def test_turns_without_decisions_do_not_nest_deeper(tmp_path: Path) -> None:
    """Thousands of turns without a decision, each run at once from the last: the game ends as it did, the
    engine's loop taking over every ``CHAIN``-th turn (no Python recursion grows with the turns)."""
    path = tmp_path / "long.rules"
    path.write_text(IDLE.replace("1000000", "5000"), encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    assert re.search(r"return r\d+_2\(st, fr\[2\], fr, left\)", new.program.generated.source)
    got = _run_out(new, 2, 0)
    assert got == _run_out(old, 2, 0) and not got[1] and '"turn":5' in got[0]


def test_an_asked_local_left_unstored_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The stops at the step limit above would notice the ask's local not stored after the loop that finds who
    is asked (a stop before the first answer shows it)."""
    real = steps.asked_local

    def unstored(gen: Any, L: list, *args: Any) -> None:
        start = len(L)
        real(gen, L, *args)
        if len(L) > start and L[-1][1].startswith("loc["):
            del L[-1]

    for game in ("rooster-rush",):
        path = REPO / "games" / f"{game}.rules"
        right = build(path, FLAGS)
        with monkeypatch.context() as patch:
            patch.setattr(steps, "asked_local", unstored)
            wrong = build(path, FLAGS)
        players = right.model.default_players
        assert any(_stops(wrong, players, seed, limit) != _stops(right, players, seed, limit)
                   for seed, limit in itertools.product((1, 2), range(1, 70))), game
