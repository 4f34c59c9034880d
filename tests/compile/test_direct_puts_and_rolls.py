"""Rewrites of moves and rolls, against the code written without them (same games, same traces, same
standings, same MCTS choices, same narration, same stops at a step limit and at a chance decision, same
replays, same errors):

- a move puts what it takes straight into its destination list: two fused moves out of one zone ``insort``
  each component as their pass meets it, a move of everything adds each source's list and empties it, a
  source tested for being the destination only where it may be (``moves.DIRECT_PUTS``);
- a roll with no trigger between two dice reads its dice from a local and tests the trace and the narration
  once (``chance.ROLL_AT_ONCE``);
- a random draw of one component draws it with no loop counting the draws down (``chance.DRAW_ONCE``);
- a ``repeat N times`` whose body cannot pause goes round ``range(N)`` (``statements.REPEAT_RANGES``).

Each is also shown to matter: a broken variant plays other games here.
"""

from __future__ import annotations

import itertools
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
    plain,
    player_counts,
    same_games,
    trace,
)
from step_support import recorded, same_stops, take_step

from rulelang.agents.base import RandomAgent
from rulelang.compile import chance, moves, statements
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.replay import Replayer

REPO = Path(__file__).resolve().parents[2]
FLAGS = [(moves, "DIRECT_PUTS"), (chance, "ROLL_AT_ONCE"), (chance, "DRAW_ONCE"), (statements, "REPEAT_RANGES")]
DICE = ["chicken", "chicken-eggspansion"]


def _pair(game: str) -> tuple[Engine, Engine]:
    path = REPO / "games" / f"{game}.rules"
    return build(path, FLAGS), build(path, FLAGS, False)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    new, old = _pair(game)
    assert new.program.generated.source != old.program.generated.source  # (every game moves everything once)
    players = player_counts(new)
    same_games(new, old, players, range(6))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old = flagged_builds(path, FLAGS)[:2]
    players = new.model.default_players
    same_games(new, old, [players], range(6))


def test_chicken_takes_both_rewrites(monkeypatch: pytest.MonkeyPatch) -> None:
    new, old = _pair("chicken")
    source, before = new.program.generated.source, old.program.generated.source
    assert "_mv" in before and "_t" in before
    assert "insort(_d" in source and ".roll_into(_dice" in source and ".roll_into(loc[" not in source
    assert ".roll_into(loc[" in before


@pytest.mark.parametrize("game", [*DICE, "barnyard"])
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    new, old = _pair(game)
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("game", GAMES)
def test_narrated_games_read_as_without_the_rewrites(game: str) -> None:
    """Narrated (the moves and rolls told as they happen), the same story and the same whole state."""
    new, old = _pair(game)
    for seed in range(2):
        told: list[Any] = []
        for engine in (new, old):
            players = engine.model.default_players
            st = engine.new_state(players)
            story: list[Any] = []
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True,
                 on_event=lambda event, narration, story=story: story.append((event, list(narration))))
            assert st.over and any(line.get("type") == "move" for _event, narration in story for line in narration)
            told.append((story, st.dumps()))
        assert told[0] == told[1], seed


@pytest.mark.parametrize("game", DICE)
def test_a_step_limit_stops_the_game_where_it_did(game: str) -> None:
    """Stopped at every step of its first 60 (amid the rolls too), the whole state is the same, frames' locals
    included."""
    new, old = _pair(game)
    for seed in range(2):
        same_stops(new, old, 4, seed, range(1, 61), view=State.dumps, stopped=True)


@pytest.mark.parametrize("game", [*DICE, "rule-the-roost"])
def test_chance_taken_one_decision_at_a_time_leaves_the_same_states(game: str) -> None:
    """With no chance stream in the state, each roll pauses for the engine: every state on the way (frames'
    locals included) is the same."""
    new, old = _pair(game)
    for seed in range(3):
        seen = []
        for engine in (new, old):
            st = engine.new_state(4)
            agents = [RandomAgent(seed, s) for s in range(4)]
            rng = Rng(seed, stream=0)
            states = [st.dumps()]
            while not st.over:
                take_step(engine, st, agents, rng)
                states.append(st.dumps())
            seen.append(states)
        assert len(seen[0]) > 20 and seen[0] == seen[1], seed


DRAWS = """game "Draws"
players 2 to 3

section "Components"

3 Red cards
3 Blue cards
2 Green cards

section "Setup"

zone bag "the bag"
zone table "the table"
counter drawn = 0

setup:
  move all from box to bag

turn:
  repeat 2 times:
    move 1 random Red from bag to table
  repeat count(all in table) times:
    set drawn to drawn + 1
  choose:
    "draw a Blue":
      move 1 random Blue from bag to table
    "draw any":
      move 1 random from bag to table
    "put back":
      move all from table to bag
  if drawn > 40:
    end game

when count(all in table) >= 7 "the table is full":
  move all Green from table to bag

rank p by highest drawn
"""


def test_draws_of_one_and_repeats_play_as_without_the_rewrites(tmp_path: Path) -> None:
    """Draws of one filtered or not, from a bag that runs out of the kind, with a trigger on the zone drawn into,
    and repeats with and without a pause in their body: the same games, traces and states on the way."""
    path = tmp_path / "draws.rules"
    path.write_text(DRAWS, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    source, before = new.program.generated.source, old.program.generated.source
    assert source.count("in range(") > before.count("in range(")  # (the standings loop over seats in both)
    assert source.count("while loc[") < before.count("while loc[")
    for n, seed in itertools.product((2, 3), range(8)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)
        same_stops(new, old, n, seed, range(1, 30), view=State.dumps)
    for seed in range(4):
        seen = []
        for engine in (new, old):
            st = engine.new_state(2)
            agents = [RandomAgent(seed, s) for s in range(2)]
            rng = Rng(seed, stream=0)
            states = [st.dumps()]
            while not st.over:
                take_step(engine, st, agents, rng)
                states.append(st.dumps())
            seen.append(states)
        assert seen[0] == seen[1], seed


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 60, 200])
def test_the_step_budget_runs_out_where_it_did(budget: int) -> None:
    path = REPO / "games" / "chicken.rules"
    outcomes = [budget_outcome(build(path, FLAGS, on, budget), 4, 1) for on in (True, False)]
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("game", [*DICE, "barnyard"])
def test_recorded_games_replay_as_without_the_rewrites(game: str) -> None:
    """Recorded by one build and replayed by either: compliant, the same final states."""
    new, old = _pair(game)
    for seed in range(3):
        made, result = recorded(new, game, new.model.default_players, seed)
        assert made.events == recorded(old, game, old.model.default_players, seed)[0].events
        states = []
        for engine in (new, old):
            replayer = Replayer(engine, made)
            assert replayer.run().status == "compliant", seed
            assert replayer.state is not None and replayer.state.result == result
            states.append(replayer.state.dumps())
        assert states[0] == states[1], seed


def _broken(game: str, monkeypatch: pytest.MonkeyPatch, method: str, wrong: Any, owner: type = moves.MoveEmitter,
            ) -> Engine:
    with monkeypatch.context() as patch:
        patch.setattr(owner, method, wrong)
        return build(REPO / "games" / f"{game}.rules", FLAGS)


def test_a_destination_left_unsorted_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A move of everything that adds the sources' lists to a sorted zone without sorting it is noticed."""
    right = build(REPO / "games" / "chicken.rules", FLAGS)
    original = moves.MoveEmitter.move_all_direct

    def unsorted(self: Any, L: list, s: Any, ind: int) -> None:
        at = len(L)
        original(self, L, s, ind)
        L[at:] = [line for line in L[at:] if not line[1].endswith(".sort()")]

    wrong = _broken("chicken", monkeypatch, "move_all_direct", unsorted)
    assert wrong.program.generated.source != right.program.generated.source
    assert noticed(wrong, right)


def test_fused_moves_that_put_into_each_others_zone_play_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two fused moves each putting into the other's destination are noticed."""
    right = build(REPO / "games" / "chicken.rules", FLAGS)
    original = moves.MoveEmitter.emit_fused_puts

    def swapped(self: Any, L: list, a: Any, b: Any, after: tuple, ind: int) -> bool:
        at = len(L)
        out = original(self, L, a, b, after, ind)
        puts = [n for n in range(at, len(L)) if L[n][1].startswith("insort(")]
        first, second = L[puts[0]], L[puts[1]]
        L[puts[0]], L[puts[1]] = (first[0], second[1], first[2]), (second[0], first[1], second[2])
        return out

    wrong = _broken("chicken", monkeypatch, "emit_fused_puts", swapped)
    assert noticed(wrong, right)


def test_a_roll_that_does_not_count_its_steps_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """A roll at once that leaves the step count where it was is noticed."""
    right = build(REPO / "games" / "chicken.rules", FLAGS)
    original = chance.ChanceEmitter.roll_at_once

    def uncounted(self: Any, L: list, *args: Any) -> bool:
        at = len(L)
        out = original(self, L, *args)
        L[at:] = [line for line in L[at:] if not line[1].startswith("st.step += ")]
        return out

    wrong = _broken("chicken", monkeypatch, "roll_at_once", uncounted, owner=chance.ChanceEmitter)
    assert noticed(wrong, right)
