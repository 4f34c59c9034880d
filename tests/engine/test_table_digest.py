"""The table digest, however it is computed: scheme 2 (traces of format 2) the sha256 of the table's
numbers as bytes, scheme 1 (format 1) the sha256 of its compact JSON."""

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
    """The scheme-1 digest as trace format 1 defines it: compact JSON, fractions as strings."""
    table = [st.players, st.zones, st.faces, st.counters, st.current, st.turn, st.step, st.out]
    text = json.dumps(table, separators=(",", ":"), default=lambda v: str(v) if isinstance(v, Fraction) else None)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"), default=lambda v: str(v) if isinstance(v, Fraction) else None)


def _reference2(st: State) -> str:
    """The scheme-2 digest as docs/traces.md defines it, written out the plain way."""
    lists = []
    for zone in st.zones:
        lists.extend(zone if zone and isinstance(zone[0], list) else [zone])
    numbers = [len(x) for x in lists] + [i for x in lists for i in x]
    if all(0 <= n < 256 for n in numbers):
        ids = b"b" + bytes(numbers)
    else:
        ids = b"q" + b"".join(n.to_bytes(8, "little", signed=True) for n in numbers)
    if not all(isinstance(f, int) for f in st.faces):  # (a bool is its number, 0 or 1)
        faces = b"j" + _json(st.faces).encode()
    elif all(-128 <= f < 128 for f in st.faces):
        faces = b"b" + b"".join(f.to_bytes(1, "little", signed=True) for f in st.faces)
    else:
        faces = b"q" + b"".join(f.to_bytes(8, "little", signed=True) for f in st.faces)
    out = b"q" + b"".join(n.to_bytes(8, "little", signed=True) for n in st.out)
    head = f"{st.players},{st.current},{st.turn},{st.step},{len(lists)};".encode()
    data = head + ids + b";" + faces + b";" + out + b";" + _json(st.counters).encode()
    return hashlib.sha256(data).hexdigest()[:16]


@pytest.mark.parametrize("game", GAMES)
def test_digest_of_every_turn_is_the_reference_one(game):
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = engine.model.default_players
    checked = 0
    for seed in range(3):
        st = engine.new_state(players)

        def on_event(event, narration, st=st):
            nonlocal checked
            if event["type"] == "digest":
                assert event["digest"] == _reference2(st)
                assert st.table_digest(1) == _reference(st)
                checked += 1

        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, on_event=on_event, digests=True)
        assert st.table_digest() == _reference2(st)
        assert st.table_digest(1) == _reference(st)
    assert checked > 0


@pytest.mark.parametrize("value", [Fraction(7, 3), True, False, -5, [Fraction(1, 2), 3], [[True], [-1]]])
def test_digest_writes_fractions_and_bools_as_json_does(value):
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    st.counters = [value, 1, [2, 3]]
    st.faces = [-1, 0] + ([value] if not isinstance(value, list) else [])
    assert st.table_digest(1) == _reference(st)
    assert st.table_digest() == _reference2(st)


@pytest.mark.parametrize("big", [255, 256, 10**6])
def test_digest_of_large_ids_faces_and_lists(big):
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    st.zones[0] = [big, 3]
    st.faces = [big % 200 - 1, -1]
    assert st.table_digest() == _reference2(st)
    st.zones[1] = list(range(300))
    st.faces = [big, -1]
    assert st.table_digest() == _reference2(st)
    assert st.table_digest(1) == _reference(st)


def test_digests_tell_tables_apart_and_an_unknown_scheme_is_an_error():
    engine = load_game(REPO / "games" / "chicken.rules")
    a, b = engine.new_state(4), engine.new_state(4)
    assert a.table_digest() == b.table_digest()
    b.zones[0], b.zones[1] = b.zones[0][:-1], b.zones[1] + b.zones[0][-1:]  # one die moved to the next zone
    assert a.table_digest() != b.table_digest()
    b = engine.new_state(4)
    b.counters = [[0, 0, 0, 1]] if a.counters == [[0, 0, 0, 0]] else [[9, 9, 9, 9]]
    assert a.table_digest() != b.table_digest()
    with pytest.raises(ValueError):
        a.table_digest(3)
