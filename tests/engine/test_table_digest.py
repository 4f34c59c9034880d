"""The table digest: the sha256 of the compact JSON of the table, however it is computed."""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulelang import State, load_game
from rulelang.agents.base import RandomAgent
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _reference(st: State) -> str:
    """The digest as the trace format defines it: compact JSON, fractions as strings."""
    table = [st.players, st.zones, st.faces, st.counters, st.current, st.turn, st.step, st.out]
    text = json.dumps(table, separators=(",", ":"), default=lambda v: str(v) if isinstance(v, Fraction) else None)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@pytest.mark.parametrize("game", GAMES)
def test_digest_of_every_turn_is_the_json_one(game):
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = engine.model.default_players
    checked = 0
    for seed in range(3):
        st = engine.new_state(players)

        def on_event(event, narration, st=st):
            nonlocal checked
            if event["type"] == "digest":
                assert event["digest"] == _reference(st)
                checked += 1

        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, on_event=on_event, digests=True)
        assert st.table_digest() == _reference(st)
    assert checked > 0


@pytest.mark.parametrize("value", [Fraction(7, 3), True, False, -5, [Fraction(1, 2), 3], [[True], [-1]]])
def test_digest_writes_fractions_and_bools_as_json_does(value):
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    st.counters = [value, 1, [2, 3]]
    st.faces = [-1, 0] + ([value] if not isinstance(value, list) else [])
    assert st.table_digest() == _reference(st)
