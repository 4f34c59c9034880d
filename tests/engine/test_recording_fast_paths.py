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
