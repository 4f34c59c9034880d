"""Recording play takes its decisions and its chance inside the generated blocks and the engine's loop
(``Picking.record``); narrated play takes every one the careful way (a Decision each). Both record the
same trace events, digests included, for every shipped game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
CHANCE_KEYS = ("shuffle", "draw", "first_player", "pick", "roll")
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _events(engine: Any, players: int, seed: int, narrate: bool) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=narrate, digests=True,
         on_event=lambda event, _told: events.append(event))
    return events


@pytest.mark.parametrize("game", GAMES)
def test_recorded_events_are_the_careful_ways(game: str) -> None:
    engine = load_game(REPO / "games" / f"{game}.rules")
    kinds: set[str] = set()
    for players in sorted({engine.model.min_players, engine.model.default_players}):
        for seed in range(4):
            fast = _events(engine, players, seed, narrate=False)
            assert fast == _events(engine, players, seed, narrate=True), (players, seed)
            kinds |= {key for e in fast if e["type"] == "chance" for key in CHANCE_KEYS if key in e}
    assert kinds  # every shipped game has chance of some kind


def test_every_kind_of_chance_is_recorded_somewhere() -> None:
    kinds: set[str] = set()
    for game in GAMES:
        engine = load_game(REPO / "games" / f"{game}.rules")
        for e in _events(engine, engine.model.default_players, 1, narrate=False):
            if e["type"] == "chance":
                kinds |= {key for key in CHANCE_KEYS if key in e}
    assert kinds == set(CHANCE_KEYS)


@pytest.mark.parametrize("game", GAMES)
def test_events_kept_in_a_list_are_those_handed_on_one_by_one(game: str) -> None:
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = engine.model.default_players
    looked = 0
    for seed in range(6):
        for digests in (True, False):
            handed: list[dict[str, Any]] = []
            st = engine.new_state(players)
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, digests=digests,
                 on_event=lambda event, _told, handed=handed: handed.append(event))
            kept: list[dict[str, Any]] = []
            st2 = engine.new_state(players)
            play(engine, st2, [RandomAgent(seed, s) for s in range(players)], seed, digests=digests, events=kept)
            assert kept == handed, (seed, digests)
            assert st2.looks == sum(map(len, st2.seen)) == st.looks  # (the count the recorder tests)
            looked += st2.looks
            assert any(e["type"] == "digest" for e in kept) == (digests and st2.turn > 1)
    if any("private" in e["type"] for e in handed):
        assert looked


def test_a_list_of_events_and_a_narration_are_not_both_kept() -> None:
    engine = load_game(REPO / "games" / "chicken.rules")
    with pytest.raises(ValueError, match="not both"):
        play(engine, engine.new_state(2), [RandomAgent(1, 0), RandomAgent(1, 1)], 1, events=[], narrate=True)


def test_a_private_look_given_between_turns_is_recorded_in_the_list() -> None:
    """Rule the Roost deals hands that players look at: the list has the same private events as the
    events handed on, at the same places."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    kept: list[dict[str, Any]] = []
    play(engine, engine.new_state(3), [RandomAgent(2, s) for s in range(3)], 2, events=kept, digests=True)
    assert [e for e in kept if e["type"] == "private"]
