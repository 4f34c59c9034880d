"""Trace format 3 (``trace.format.DIGEST3``): turn digests of scheme 3, the table's numbers with its counters
written in one ``marshal`` pass, the faces first and their hash kept by the recorder while they stay the same
(``state.faces_kept_digest3``), against format 2's writing (``DIGEST3`` off):

- the same events on every game (min/default/max players) and every example, kept in a list and handed on,
  apart from the header's format and the digests' values, with a digest at the same places;
- each format-3 digest is ``State.table_digest(3)`` of the table then, with the faces kept and without
  (``play.FACES_KEPT``), odd tables too (fractions, bools, floats, numbers past 32 bits);
- a broken variant of the kept digest (faces aliased, counters left out) is noticed.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES

from rulelang import load_game
from rulelang import play as play_module
from rulelang.agents.base import RandomAgent
from rulelang.engine import state as state_module
from rulelang.engine.determinize import random_playout
from rulelang.engine.engine import Engine
from rulelang.engine.state import State, faces_kept_digest3
from rulelang.play import ListRecorder, play
from rulelang.rng import Rng
from rulelang.trace import format as trace_format
from tests.engine.test_lean_recording import odd_tables

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def recorded(engine: Engine, players: int, seed: int, digest3: bool, kept: bool,
             monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """A random game recorded with digests, kept in a list and handed on (``on_event``, where each digest is
    also checked against ``table_digest`` of the scheme written, at the moment it is made); each with the
    final state."""
    out: list[Any] = []
    with monkeypatch.context() as patch:
        patch.setattr(trace_format, "DIGEST3", digest3)
        patch.setattr(play_module, "FACES_KEPT", kept)
        for listed in (True, False):
            events: list[dict[str, Any]] = []
            st = engine.new_state(players)
            agents = [RandomAgent(seed, s) for s in range(players)]
            if listed:
                play(engine, st, agents, seed, events=events, digests=True)
            else:
                def told(event: dict[str, Any], _narration: Any, st: State = st, events: list = events) -> None:
                    if event["type"] == "digest":
                        assert event["digest"] == st.table_digest(3 if digest3 else 2)
                    events.append(event)

                play(engine, st, agents, seed, digests=True, on_event=told)
            out.append((events, st.dumps()))
    return out


def without_digest_values(recording: list[Any]) -> list[Any]:
    """The recording with each digest's value left out (its place and turn kept)."""
    return [([{**e, "digest": None} if e["type"] == "digest" else e for e in events], final)
            for events, final in recording]


def digests_of(recording: list[Any]) -> list[list[str]]:
    return [[e["digest"] for e in events if e["type"] == "digest"] for events, _final in recording]


def same_but_digests(engine: Engine, players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    new = recorded(engine, players, seed, True, True, monkeypatch)
    unkept = recorded(engine, players, seed, True, False, monkeypatch)
    old = recorded(engine, players, seed, False, True, monkeypatch)
    assert new == unkept, (players, seed)  # (the faces kept: the same digests)
    assert without_digest_values(new) == without_digest_values(old), (players, seed)
    assert new[0] == new[1]  # (kept in a list and handed on: the same events)
    three, two = digests_of(new)[0], digests_of(old)[0]
    assert len(three) == len(two) and all(a != b for a, b in zip(three, two)), (players, seed)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_records_format_3_as_format_2_but_the_digests(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = sorted({engine.model.min_players, engine.model.default_players, engine.model.max_players})
    for n, seed in itertools.product(players, range(3)):
        same_but_digests(engine, n, seed, monkeypatch)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_records_format_3_as_format_2_but_the_digests(example: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / example)
    for seed in range(3):
        same_but_digests(engine, engine.model.default_players, seed, monkeypatch)


def test_the_header_names_the_format_written(monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / "games" / "chicken.rules")
    assert trace_format.header(engine, "g", 3, 1, ["random"] * 3, {})["format"] == "rulelang-trace/3"
    monkeypatch.setattr(trace_format, "DIGEST3", False)
    assert trace_format.header(engine, "g", 3, 1, ["random"] * 3, {})["format"] == "rulelang-trace/2"
    assert trace_format.written_scheme() == 2


@pytest.mark.parametrize("game", ["chicken", "rule-the-roost", "hippe-kippen"])
def test_digests_with_the_faces_kept_are_table_digest_3(game: str) -> None:
    """Faces kept from one table to the next (changed, unchanged, odd values among them) give each its digest."""
    engine = load_game(REPO / "games" / f"{game}.rules")
    kept: list[Any] = [None, None]
    tables = odd_tables(engine)
    for st in tables + tables[::-1]:
        for faces in (st.faces, st.faces[:-1] + [True], st.faces[:-1] + [1.0], st.faces + [2**33], st.faces[:]):
            copy = st.copy()
            copy.faces = faces
            assert faces_kept_digest3(copy, kept) == copy.table_digest(3)
        assert faces_kept_digest3(st, kept) == faces_kept_digest3(st, kept) == st.table_digest(3)


def test_odd_tables_have_their_own_format_3_digests() -> None:
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    tables = odd_tables(engine)
    assert len({st.table_digest(3) for st in tables}) == len(tables)


def kept_digests(st: State) -> list[tuple[str, str]]:
    """A format-3 recorder's turn digests of ``st`` as its faces change in place and stay (a new turn each
    time), each with ``table_digest(3)``."""
    recorder = ListRecorder([], True, st)
    assert recorder.faces is not None and recorder.scheme == 3
    got = []
    for change in (None, None, 5, None, None, 2, 2, None):
        if change is not None:
            st.faces[0] = change
        st.turn += 1
        st.step += 1
        events: list[dict[str, Any]] = []
        recorder._looks_and_digest(st, events)
        got.append((events[-1]["digest"], st.table_digest(3)))
    return got


def test_faces_changed_and_kept_digest_as_defined(monkeypatch: pytest.MonkeyPatch) -> None:
    """Faces changed in place between digests and kept again are hashed as they are; a recorder that kept
    the state's own list (not a copy: always equal) would be noticed."""
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(3)
    random_playout(engine, st, Rng(1), 5)
    got = kept_digests(st.copy())
    assert all(a == b for a, b in got) and len({a for a, _b in got}) == len(got)

    def aliased(st: State, kept: list) -> str:
        digest = faces_kept_digest3(st, kept)
        kept[0] = st.faces
        return digest

    monkeypatch.setattr(play_module, "faces_kept_digest3", aliased)
    assert any(a != b for a, b in kept_digests(st.copy()))


def test_a_kept_digest_without_the_counters_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The equivalence above would notice a kept digest that left the counters out."""
    engine = load_game(REPO / "games" / "chicken.rules")
    right = recorded(engine, 3, 2, True, True, monkeypatch)
    real = state_module.faces_kept_digest3

    def forgetful(st: State, kept: list) -> str:
        counters, st.counters = st.counters, []
        try:
            return real(st, kept)
        finally:
            st.counters = counters

    monkeypatch.setattr(play_module, "faces_kept_digest3", forgetful)
    monkeypatch.setattr(play_module, "DIGEST_LEAN", False)  # (the lean recorder digests most turns itself)
    with pytest.raises(AssertionError):  # (handed on: checked against table_digest(3) as it is made)
        recorded(engine, 3, 2, True, True, monkeypatch)
    events: list[dict[str, Any]] = []
    st = engine.new_state(3)
    play(engine, st, [RandomAgent(2, s) for s in range(3)], 2, events=events, digests=True)
    assert digests_of([(events, None)]) != digests_of(right[:1])
