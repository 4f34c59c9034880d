"""Recording play written lean, against the writing before (same events, digests included, on every game and
example, kept in a list or handed on):

- a chance step that play's own loop meets while recording drawn and kept as the engine's loop draws it,
  without a Decision and its labels (``acting.CHANCE_RECORDED``);
- a turn's digest hashed in one pass, the counters' bytes kept by their marshal bytes
  (``state.DIGEST_ONE_PASS``): the same digest as ``table_bytes`` hashes, odd tables too;
- a list recorder's test of a step under way made once, a turn's digest made in place
  (``play.RECORDER_LEAN``), the faces' bytes kept while they hold the same numbers (``play.FACES_KEPT``,
  ``state.faces_kept_digest``).

A broken variant of each of the digests and of the list recorder is noticed here. These are the writers of
format 2 (``trace.format.DIGEST3`` off here); format 3's are tested in ``test_digest3_recording.py``.
"""

from __future__ import annotations

import hashlib
import itertools
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES

from rulelang import load_game
from rulelang import play as play_module
from rulelang.agents.base import RandomAgent
from rulelang.engine import acting
from rulelang.engine import state as state_module
from rulelang.engine.determinize import random_playout
from rulelang.engine.engine import Engine
from rulelang.engine.state import State, _whole_text, faces_kept_digest
from rulelang.engine.tablebytes import table_bytes
from rulelang.play import ListRecorder, play
from rulelang.rng import Rng
from rulelang.trace import format as trace_format

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
FLAGS = [(acting, "CHANCE_RECORDED"), (state_module, "DIGEST_ONE_PASS"), (play_module, "RECORDER_LEAN"),
         (play_module, "FACES_KEPT")]


@pytest.fixture(autouse=True)
def _format_2(monkeypatch: pytest.MonkeyPatch) -> None:
    """(The recorders of format 2: turn digests of scheme 2.)"""
    monkeypatch.setattr(trace_format, "DIGEST3", False)


def recordings(engine: Engine, players: int, seed: int) -> list[Any]:
    """A random game's events kept in a list with digests and without, and handed on (``on_event``) with
    digests; each with the final state."""
    out: list[Any] = []
    for digests, listed in ((True, True), (False, True), (True, False)):
        events: list[dict[str, Any]] = []
        st = engine.new_state(players)
        agents = [RandomAgent(seed, s) for s in range(players)]
        if listed:
            play(engine, st, agents, seed, events=events, digests=digests)
        else:
            play(engine, st, agents, seed, digests=digests,
                 on_event=lambda event, _told, kept=events: kept.append(event))
        out.append((events, st.dumps()))
    return out


def both(engine: Engine, players: int, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    """``recordings`` with the lean writing and with the writing before."""
    got = []
    for on in (True, False):
        with monkeypatch.context() as patch:
            for module, name in FLAGS:
                patch.setattr(module, name, on)
            got.append(recordings(engine, players, seed))
    return got[0], got[1]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_records_as_before(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = sorted({engine.model.min_players, engine.model.default_players, engine.model.max_players})
    for n, seed in itertools.product(players, range(4)):
        lean, before = both(engine, n, seed, monkeypatch)
        assert lean == before, (n, seed)
        assert any(e["type"] == "digest" for e in lean[0][0]) and any(e["type"] == "chance" for e in lean[0][0])


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_records_as_before(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / example)
    for seed in range(4):
        lean, before = both(engine, engine.model.default_players, seed, monkeypatch)
        assert lean == before, seed


def careful_digest(st: State) -> str:
    """The digest as docs/traces.md defines it: the table's bytes, then the counters' compact JSON."""
    return hashlib.sha256(table_bytes(st, _whole_text(st.counters))).hexdigest()[:16]


def odd_tables(engine: Engine) -> list[State]:
    """Tables of a game as play leaves them, and with odd values written by hand: fractions, bools, floats,
    numbers past 32 bits, in the zones, the faces and the counters."""
    tables = []
    for seed in range(3):
        st = engine.new_state(engine.model.default_players)
        random_playout(engine, st, Rng(seed), 10 + 7 * seed)
        tables.append(st)
    base = tables[-1]
    for where, value in itertools.product(("zones", "faces", "counters"),
                                          (Fraction(1, 3), True, False, 1.0, 2**40, -(2**33), [1, [2]])):
        st = base.copy()
        held = getattr(st, where)
        if where == "zones":
            held.append([value] if not isinstance(value, list) else value)
        else:
            held.append(value)
        tables.append(st)
    return tables


@pytest.mark.parametrize("game", ["chicken", "rule-the-roost", "hippe-kippen"])
def test_one_pass_digests_hash_the_bytes_defined(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = load_game(REPO / "games" / f"{game}.rules")
    for st in odd_tables(engine):
        want = careful_digest(st)
        for _ in range(2):  # (the second time from the counters' bytes kept)
            assert st.table_digest() == want
        with monkeypatch.context() as patch:
            patch.setattr(state_module, "DIGEST_ONE_PASS", False)
            assert st.table_digest() == want


@pytest.mark.parametrize("game", ["chicken", "rule-the-roost", "hippe-kippen"])
def test_digests_with_the_faces_kept_hash_the_bytes_defined(game: str) -> None:
    """Faces kept from one table to the next (changed, unchanged, odd values among them) give each its digest."""
    engine = load_game(REPO / "games" / f"{game}.rules")
    kept: list[Any] = [None, None]
    tables = odd_tables(engine)
    for st in tables + tables[::-1]:
        for faces in (st.faces, st.faces[:-1] + [True], st.faces[:-1] + [1.0], st.faces + [2**33], st.faces[:]):
            copy = st.copy()
            copy.faces = faces
            assert faces_kept_digest(copy, kept) == careful_digest(copy)
        assert faces_kept_digest(st, kept) == faces_kept_digest(st, kept) == careful_digest(st)


def test_recording_keeps_the_faces_only_where_they_hold_ints(monkeypatch: pytest.MonkeyPatch) -> None:
    """A table whose faces hold a bool when play begins is digested the careful way throughout."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    got = []
    for odd in (False, True):
        digests = []
        for kept in (True, False):
            st = engine.new_state(4)
            if odd:
                st.faces.append(True)
            events: list[dict[str, Any]] = []
            with monkeypatch.context() as patch:
                patch.setattr(play_module, "FACES_KEPT", kept)
                assert (ListRecorder([], True, st).faces is None) == (odd or not kept)
                play(engine, st, [RandomAgent(3, s) for s in range(4)], 3, events=events, digests=True)
            digests.append([e["digest"] for e in events if e["type"] == "digest"])
        assert digests[0] == digests[1] and digests[0]
        got.append(digests[0])
    assert got[0] != got[1]  # (the bool appended is hashed)


def test_a_one_pass_digest_without_the_counters_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above would notice a one-pass digest that forgot the counters' text."""
    engine = load_game(REPO / "games" / "chicken.rules")
    monkeypatch.setattr(state_module, "_COUNTERS_TAIL", _Forgetful())
    assert any(st.table_digest() != careful_digest(st) for st in odd_tables(engine))


class _Forgetful(dict):
    """A store of the counters' bytes that keeps only ``;``: a broken one-pass digest."""

    def __setitem__(self, key: bytes, value: bytes) -> None:
        super().__setitem__(key, b";")

    def get(self, key: bytes, default: Any = None) -> Any:
        return super().get(key, default)


def test_a_lean_recorder_that_skips_the_step_end_is_noticed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above would notice a list recorder that leaves a step's looks and digest out."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")

    def took(self: ListRecorder, st: State, seat: int, action: str) -> None:
        self.open = True
        self.add({"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action})

    right = recordings(engine, 4, 1)
    monkeypatch.setattr(ListRecorder, "took", took)
    assert recordings(engine, 4, 1)[:2] != right[:2]


def test_recording_draws_its_first_chance_without_a_decision(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule the Roost's first shuffle, met in play's own loop, is drawn without a Decision while recording."""
    engine = load_game(REPO / "games" / "rule-the-roost.rules")
    made: dict[bool, int] = {}
    real = Engine.pending
    for on in (True, False):
        made[on] = 0

        def pending(self: Engine, st: State, on: bool = on) -> Any:
            made[on] += 1
            return real(self, st)

        with monkeypatch.context() as patch:
            patch.setattr(acting, "CHANCE_RECORDED", on)
            patch.setattr(Engine, "pending", pending)
            recordings(engine, 4, 2)
    assert made[True] == 0 and made[False] >= 3


def kept_digests(st: State) -> list[tuple[str, str]]:
    """A recorder's turn digests of ``st`` as its faces change in place and stay (a new turn each time), each
    with the digest defined."""
    recorder = ListRecorder([], True, st)
    assert recorder.faces is not None
    got = []
    for change in (None, None, 5, None, None, 2, 2, None):
        if change is not None:
            st.faces[0] = change
        st.turn += 1
        st.step += 1
        events: list[dict[str, Any]] = []
        recorder._looks_and_digest(st, events)
        got.append((events[-1]["digest"], careful_digest(st)))
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
        digest = faces_kept_digest(st, kept)
        kept[0] = st.faces
        return digest

    monkeypatch.setattr(play_module, "faces_kept_digest", aliased)
    assert any(a != b for a, b in kept_digests(st.copy()))
