"""Fewer trips through the engine's loop: decisions taken inside generated blocks, the turn's start fused.

- While the engine's pickers pick by position (``State.picking``, as ``play()`` sets it for
  random agents), a block that reaches a ``choose`` or an ``ask`` takes it itself
  (``CodeGen.pause_pick``, ``CodeGen.pause_answers``) and returns ``TAKEN``; otherwise it
  pauses as before and ``Engine._run`` takes the decision. An ask whose answers read no
  answer lists each player's answers once, where it finds who is asked (``ask_listed_once``).
  After such a decision the block runs the next block itself, with a fresh step budget
  (``CodeGen.taken``), except every ``CHAIN``-th step, so that decisions never nest deeper.
- The driver's end of a turn continues into the next turn's start, which calls the turn
  rule's first block (``CodeGen.turn_start``).

The games must be exactly those played by the same rules compiled without either
(decisions all taken by ``Engine._run``), and those played one decision at a time.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from step_support import one_at_a_time, played, same_stops

from rulelang import IllegalAction, load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import codegen, emit
from rulelang.engine.engine import Engine
from rulelang.play import play

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))

pytestmark = pytest.mark.usefixtures("at_root")

# A pause inside a loop (take beans until "stop"), a choice that is often empty (skipped), an
# ask of the others with a conditional answer, a choice by another player inside a loop over
# the answers, and a per-player trigger fired by moves at every one of those points.
RULES = """game "T"
players 2 to 4 default 3

12 Bean tokens

zone pot: per player
zone pile

counter got per player = 0
counter turns = 0

setup:
  move all from box to pile

turn:
  let done = false
  while not done:
    choose:
      "take {n}" for n in 1 to 2 if count(all in pile) >= n:
        move (n) from pile to pot of current
      "stop":
        let done = true
  choose:
    "give {q} one" for q in other players if any(all in pot of current):
      move 1 from pot of current to pot of q
  ask e in other players:
    "object" if any(all in pot of e)
    "let it be"
  for e in other players:
    if answer of e == "object":
      choose e:
        "fine":
          got of e += 1
        "put one back" if any(all in pot of e):
          move 1 from pot of e to pile
  turns += 1
  if turns >= 15:
    end game

when any player p has count(all in pot of p) >= 4 "a full pot":
  got of p += 1
  move 2 from pot of p to pile

rank p by highest got of p
"""


def unfused(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every decision left to the engine's loop and the turn's start not fused."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "pause_pick", lambda self, L, s, pc, ind, who: self.pause(L, pc, ind))
        patch.setattr(codegen.CodeGen, "pause_answers",
                      lambda self, L, pc, var, slot, asked, ind, sp: self.pause(L, pc, ind))
        patch.setattr(codegen.CodeGen, "ask_listed_once", lambda self, L, s, var, slot, asked, ind: None)
        real = codegen.CodeGen.turn_start

        def plain_start(self: Any, model: Any) -> list:
            lines = real(self, model)
            return [*lines[:-1], (1, "return left", None)]  # push the turn rule's frame, do not call its block

        patch.setattr(codegen.CodeGen, "turn_start", plain_start)
        engine = load_game(path)
    source = engine.program.generated.source
    assert f"return {emit.TAKEN}" not in source and "_turn0[2], _turn0, left)" not in source
    return engine




@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = tmp_path / "t.rules"
    path.write_text(RULES, encoding="utf-8")
    return load_game(path), unfused(path, monkeypatch)


def test_the_small_game_takes_its_decisions_in_its_blocks(small: tuple[Engine, Engine]) -> None:
    fused, _careful = small
    source = fused.program.generated.source
    assert source.count(f"return {emit.TAKEN}") >= 5  # the choices and the ask, where their blocks reach them
    assert "return r1_0(st, _turn0[2], _turn0, left)" in source  # the next turn starts in the same block
    actions: list[str] = []
    triggers: list[dict[str, Any]] = []

    def sink(event: dict[str, Any], narration: list[dict[str, Any]]) -> None:
        actions.append(event.get("action", ""))
        triggers.extend(e for e in narration if e.get("type") == "trigger")

    for seed in range(1, 21):  # recorded: every decision through the engine's loop, to see what the game does
        play(fused, fused.new_state(3), [RandomAgent(seed, s) for s in range(3)], seed, on_event=sink, narrate=True)
    for label in ("take 2", "stop", "object", "let it be", "fine", "put one back"):
        assert label in actions, label
    assert any(a.startswith("give ") for a in actions) and triggers


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_small_game_plays_the_same_games(small: tuple[Engine, Engine], players: int) -> None:
    fused, careful = small
    for seed in range(1, 61):
        got, error = played(fused, players, seed)
        want, want_error = played(careful, players, seed)
        assert (error, want_error) == ("", "")
        assert got.dumps() == want.dumps(), seed
        assert (got.step, got.turn, got.result) == (want.step, want.turn, want.result), seed
        assert got.dumps() == one_at_a_time(fused, players, seed).dumps(), seed


def test_the_step_limit_stops_at_the_same_place(small: tuple[Engine, Engine]) -> None:
    """Stopped by ``max_steps`` anywhere (inside the loop of choices, between two answers of an ask),
    the fused game is left exactly where the engine's loop leaves it, with the same error."""
    fused, careful = small
    full, _ = played(careful, 3, 7)
    assert full.step > 40
    same_stops(fused, careful, 3, 7, range(1, 41), stopped=True, view=lambda st: (st.dumps(), st.stack))


class _Wrong:
    """An agent that picks by position and always gives an index past the end."""

    needs_observation = False

    def choose_index(self, n: int) -> int:
        return n

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:  # pragma: no cover
        return legal[0]


def test_a_pick_past_the_options_is_an_illegal_action(small: tuple[Engine, Engine]) -> None:
    fused, careful = small
    line = RULES.splitlines().index("    choose:") + 1
    for engine in (fused, careful):
        st = engine.new_state(2)
        with pytest.raises(IllegalAction, match=r"there is no option 3 here") as info:
            play(engine, st, [_Wrong(), _Wrong()], 1)  # type: ignore[list-item]
        assert info.value.span is not None and info.value.span.line == line  # the first choose: take 1, take 2, stop


class _Last(_Wrong):
    """An agent that picks the last option ("stop" at once)."""

    def choose_index(self, n: int) -> int:
        return n - 1


def test_an_answer_past_the_answers_is_an_illegal_action(small: tuple[Engine, Engine]) -> None:
    """P1 stops at once, has nothing to give (that choice is skipped), asks P2, who answers past the end."""
    line = RULES.splitlines().index("  ask e in other players:") + 1
    for engine in small:
        st = engine.new_state(2)
        with pytest.raises(IllegalAction, match=r"there is no answer 1 here") as info:
            play(engine, st, [_Last(), _Wrong()], 1)  # type: ignore[list-item]
        assert info.value.span is not None and info.value.span.line == line
        assert st.step == 1  # P1's "stop"


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_the_same_games_fused_or_not(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{game}.rules"
    fused, careful = load_game(path), unfused(path, monkeypatch)
    assert f"return {emit.TAKEN}" in fused.program.generated.source
    players = fused.model.default_players
    for seed in range(1, 6 if game == "hippe-kippen" else 16):
        got, error = played(fused, players, seed)
        want, want_error = played(careful, players, seed)
        assert error == want_error, seed
        assert got.dumps() == want.dumps(), seed


# The answers allowed to a player depend on what the players before answered: listed when each answers.
FOLLOW = """game "F"
players 2 to 4 default 4

6 Bean tokens

zone pot: per player
zone pile

counter turns = 0

setup:
  move all from box to pile

turn:
  ask e in players:
    "lead" if answer of P1 == "" or e == P1
    "follow" if answer of P1 == "lead" and e != P1
    "wait"
  for e in players:
    if answer of e == "follow" and any(all in pile):
      move 1 from pile to pot of e
    if answer of e == "lead" and any(all in pot of e):
      move 1 from pot of e to pile
  turns += 1
  if turns >= 8:
    end game

rank p by highest count(all in pot of p)
"""


def test_answers_that_read_answers_are_listed_when_each_answers(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.rules"
    path.write_text(FOLLOW, encoding="utf-8")
    fused, careful = load_game(path), unfused(path, monkeypatch)
    source = fused.program.generated.source
    assert f"return {emit.TAKEN}" in source and "_ls" not in source  # answered in the block, not listed at once
    follows = 0
    for seed in range(1, 31):
        got, error = played(fused, 4, seed)
        want, _ = played(careful, 4, seed)
        assert error == "" and got.dumps() == want.dumps() == one_at_a_time(fused, 4, seed).dumps(), seed
        follows += sum(len(z) for z in got.zones[1])
    assert follows > 0


# Long runs of decisions with nothing between them, and a loop without end after one option.
LONG = """game "L"
players 2 to 3 default 2

counter turns = 0
counter level = 0

setup:
  set level to 0

turn:
  repeat 300 times:
    choose:
      "up":
        level += 1
      "stay":
        level += 0
  ask e in other players:
    "ok"
  choose:
    "go on":
      turns += 1
    "spin" if turns == 2:
      while true:
        level += 0
  if turns >= 3:
    end game

rank p by highest level
"""


def _depth() -> int:
    frame, n = sys._getframe(), 0
    while frame is not None:
        frame, n = frame.f_back, n + 1
    return n


def test_decisions_taken_one_after_another_do_not_nest_deeper(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """300 choices in a row are taken in blocks, each running the next at once, yet at most
    ``emit.CHAIN`` of them run one inside the other: the game plays under a low recursion limit."""
    path = tmp_path / "l.rules"
    path.write_text(LONG, encoding="utf-8")
    fused, careful = load_game(path), unfused(path, monkeypatch)
    assert "(st, loc, fr, BUDGET)" in fused.program.generated.source
    limit = sys.getrecursionlimit()
    for seed in (1, 2, 3):
        want, want_error = played(careful, 2, seed)
        sys.setrecursionlimit(_depth() + emit.CHAIN + 60)
        try:
            got, error = played(fused, 2, seed)
        finally:
            sys.setrecursionlimit(limit)
        assert error == want_error, seed
        assert got.dumps() == want.dumps(), seed
        assert got.step > 900


def test_a_runaway_after_a_decision_taken_in_a_block_is_the_same_error(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The step budget after a decision taken in a block is the engine's own, fresh."""
    path = tmp_path / "l.rules"
    path.write_text(LONG, encoding="utf-8")
    fused = Engine(load_game(path).program, budget=500)
    careful = Engine(unfused(path, monkeypatch).program, budget=500)
    spins = 0
    for seed in range(1, 9):
        got, error = played(fused, 2, seed)
        want, want_error = played(careful, 2, seed)
        assert error == want_error and got.dumps() == want.dumps(), seed
        spins += "ran 500 steps without asking for a decision" in error
    assert spins > 0


# Options of one to four innermost ranges that nothing reads: listed lazily, picked in the block.
RANGES = """game "R"
players 2 to 3 default 3

counter a per player = 0
counter turns = 0

setup:
  set turns to 0

turn:
  choose:
    "one {n}" for n in 1 to 3:
      a of current += n
    "two {n} {q}" for n in 1 to 2 for q in players:
      a of q += n
    "three {n} {q} {m}" for n in 1 to 2 for q in other players for m in 2 to 4:
      a of q += n * m
    "four {n} {q} {m} {r}" for n in 1 to 2 for q in players for m in 1 to 3 for r in other players:
      a of q += n + m
      a of r -= 1
  turns += 1
  if turns >= 30:
    end game

rank p by highest a of p
"""


def test_combinations_of_innermost_ranges_are_picked_as_listed(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "r.rules"
    path.write_text(RANGES, encoding="utf-8")
    fused, careful = load_game(path), unfused(path, monkeypatch)
    assert "pick_option(" in fused.program.generated.source and "elif len(" in fused.program.generated.source
    labels: set[str] = set()
    for seed in range(1, 41):
        got, _ = played(fused, 3, seed)
        want, _ = played(careful, 3, seed)
        assert got.dumps() == want.dumps() == one_at_a_time(fused, 3, seed).dumps(), seed
    events: list[dict[str, Any]] = []
    for seed in range(1, 4):  # every kind of option is taken
        play(fused, fused.new_state(3), [RandomAgent(seed, s) for s in range(3)], seed,
             on_event=lambda e, _n: events.append(e))
    labels |= {e["action"].split()[0] for e in events if e.get("type") == "action"}
    assert labels == {"one", "two", "three", "four"}
