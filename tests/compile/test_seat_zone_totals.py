"""``total(count(all in Z of q) for q in players)`` (Z kept per player) read as ``sum(map(len, Z))`` and tested
against 0 as ``any(Z)`` (``seat_totals.SEAT_ZONE_TOTALS``), against the helper that loops over the seats (same
games, same traces, same standings, same MCTS choices, same stops at a step limit, same replays). A broken
variant (the test against 0 turned round) plays other games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    plain,
    player_counts,
    same_games,
)
from step_support import recorded, same_stops

from rulelang.agents.base import RandomAgent
from rulelang.compile import seat_totals
from rulelang.engine.state import State
from rulelang.play import play
from rulelang.trace.replay import Replayer

REPO = Path(__file__).resolve().parents[2]
ROOST = REPO / "games" / "rule-the-roost.rules"


FLAGS = [(seat_totals, "SEAT_ZONE_TOTALS")]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrite(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    if game == "rule-the-roost":  # its end test: the deck and every hand empty
        assert "(not any(Z[" in new.program.generated.source
        assert "(not any(Z[" not in old.program.generated.source
        assert changed
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(6))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrite(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(4))


def test_mcts_chooses_as_without_the_rewrite() -> None:
    new, old = flagged_builds(ROOST, FLAGS)[:2]
    got = mcts_choices(new, 4)
    assert got and got == mcts_choices(old, 4)


@pytest.mark.parametrize("players", [2, 4])
def test_a_step_limit_stops_rule_the_roost_where_it_did(players: int) -> None:
    new, old = flagged_builds(ROOST, FLAGS)[:2]
    for seed in range(2):
        same_stops(new, old, players, seed, range(1, 31), view=State.dumps, stopped=True)


def test_recorded_games_replay_as_without_the_rewrite() -> None:
    new, old = flagged_builds(ROOST, FLAGS)[:2]
    for seed in range(2):
        made, result = recorded(new, "rule-the-roost", 4, seed)
        assert made.events == recorded(old, "rule-the-roost", 4, seed)[0].events
        states = []
        for engine in (new, old):
            replayer = Replayer(engine, made)
            assert replayer.run().status == "compliant", seed
            assert replayer.state is not None and replayer.state.result == result
            states.append(replayer.state.dumps())
        assert states[0] == states[1], seed


HANDS = """game "Hands"
players 2 to 4

section "Components"

6 Red cards "red"
6 Blue cards "blue"

section "Setup"

zone deck "the deck": ordered
zone hand: per player, owner
zone pile "the pile"
counter held = 0

setup:
  move all from box to deck
  shuffle deck
  for p in players:
    move 2 from deck to hand of p

turn:
  set held to total(count(all in hand of q) for q in players)
  say "{held} cards in hands, {total(count(Red in hand of q) for q in players)} red"
  if total(count(all in hand of q) for q in players) > 0 and any(all in hand of current):
    move 1 from hand of current to pile
  else:
    if any(all in deck):
      move 1 from deck to hand of current
  if total(count(all in hand of q) for q in players) != 0:
    say "someone still holds a card"
  if not any(all in deck) and total(count(all in hand of q) for q in players) == 0:
    end game

rank p by highest count(Red in pile) + held
"""


def test_totals_read_as_values_and_tested_play_as_without_the_rewrite(tmp_path: Path) -> None:
    """The total stored, told, tested with ``>``, ``!=`` and ``==``; a filtered count left as it was."""
    path = tmp_path / "hands.rules"
    path.write_text(HANDS, encoding="utf-8")
    new, old = flagged_builds(path, FLAGS)[:2]
    source = new.program.generated.source
    assert "sum(map(len, Z[" in source and "(not any(Z[" in source and " any(Z[" in source
    assert "sum(map(len, Z[" not in old.program.generated.source
    for players in (2, 3, 4):
        told: list[Any] = []
        for engine in (new, old):
            st = engine.new_state(players)
            story: list[Any] = []
            play(engine, st, [RandomAgent(1, s) for s in range(players)], 1, narrate=True,
                 on_event=lambda event, narration, story=story: story.append((event, narration)))
            assert st.over and any("cards in hands" in str(n) for _e, n in story)
            told.append((story, st.dumps(), engine.standings(st)))
        assert told[0] == told[1], players
    same_games(new, old, [2, 3, 4], range(5))


def test_the_test_against_zero_turned_round_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    right = build(ROOST, FLAGS)
    turned = seat_totals.compared_with_zero

    def wrong_way(model: Any, e: Any) -> str | None:
        found = turned(model, e)
        return None if found is None else found.replace("(not any(", "(any(")

    with monkeypatch.context() as patch:
        patch.setattr(seat_totals, "compared_with_zero", wrong_way)
        wrong = build(ROOST, FLAGS)
    assert "(any(Z[" in wrong.program.generated.source
    assert noticed(wrong, right, compare=plain)
