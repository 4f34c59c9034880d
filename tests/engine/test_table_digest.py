"""The table digest, however it is computed: scheme 3 (traces of format 3) the sha256 of the table's
numbers, counters among them, as bytes; scheme 2 (format 2) the sha256 of the table's numbers as bytes
and its counters as JSON; scheme 1 (format 1) the sha256 of its compact JSON."""

from __future__ import annotations

import hashlib
import json
import marshal
import struct
from fractions import Fraction
from pathlib import Path

import pytest

from rulelang import State, load_game
from rulelang.agents.base import RandomAgent
from rulelang.engine import tablebytes
from rulelang.play import play
from rulelang.trace import format as trace_format

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def _reference(st: State) -> str:
    """The scheme-1 digest as trace format 1 defines it: compact JSON, fractions as strings."""
    table = [st.players, st.zones, st.faces, st.counters, st.current, st.turn, st.step, st.out]
    text = json.dumps(table, separators=(",", ":"), default=lambda v: str(v) if isinstance(v, Fraction) else None)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"), default=lambda v: str(v) if isinstance(v, Fraction) else None)


def _marshal(value, fractions: bool = False) -> bytes:
    """Version 2 of Python's marshal format for lists, whole numbers, True, False and None; with
    ``fractions``, a fraction as scheme 3 writes it: ``/``, the length of its text and its text."""
    if fractions and isinstance(value, Fraction):
        text = str(value).encode()
        return b"/" + struct.pack("<I", len(text)) + text
    if value is None or isinstance(value, bool):
        return {None: b"N", True: b"T", False: b"F"}[value]
    if isinstance(value, int):
        if -(2**31) <= value < 2**31:
            return b"i" + struct.pack("<i", value)
        digits, rest = [], abs(value)
        while rest:
            digits.append(rest % 2**15)
            rest //= 2**15
        return b"l" + struct.pack("<i", len(digits) * (1 if value > 0 else -1)) + b"".join(
            struct.pack("<H", d) for d in digits)
    if isinstance(value, float):
        return b"g" + struct.pack("<d", value)
    assert isinstance(value, list)
    return b"[" + struct.pack("<I", len(value)) + b"".join(_marshal(v, fractions) for v in value)


def _reference2(st: State) -> str:
    """The scheme-2 digest as docs/traces.md defines it, written out the plain way."""
    table = [st.players, st.current, st.turn, st.step, st.zones, st.faces, st.out]
    whole = all(isinstance(i, int) for z in st.zones for x in z for i in (x if isinstance(x, list) else [x])) \
        and all(isinstance(f, int) for f in st.faces)
    data = _marshal(table if whole else table[:4] + [None, None, st.out]) + b";" + _json(st.counters).encode()
    if not whole:
        data += b";" + _json([st.zones, st.faces]).encode()
    return hashlib.sha256(data).hexdigest()[:16]


def _reference3(st: State) -> str:
    """The scheme-3 digest as docs/traces.md defines it, written out the plain way: the faces, then
    ``[players, current, turn, step, zones, out, counters]``."""
    head = [st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters]
    return hashlib.sha256(_marshal(st.faces, True) + _marshal(head, True)).hexdigest()[:16]


@pytest.mark.parametrize("digest3", [True, False])
@pytest.mark.parametrize("game", GAMES)
def test_digest_of_every_turn_is_the_reference_one(game, digest3, monkeypatch):
    """Play writes each turn's digest of the scheme of the format it writes: 3, or 2 with ``DIGEST3`` off."""
    monkeypatch.setattr(trace_format, "DIGEST3", digest3)
    written = _reference3 if digest3 else _reference2
    engine = load_game(REPO / "games" / f"{game}.rules")
    players = engine.model.default_players
    checked = 0
    for seed in range(3):
        st = engine.new_state(players)

        def on_event(event, narration, st=st):
            nonlocal checked
            if event["type"] == "digest":
                assert event["digest"] == written(st)
                assert st.table_digest(3) == _reference3(st)
                assert st.table_digest(2) == _reference2(st)
                assert st.table_digest(1) == _reference(st)
                checked += 1

        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, on_event=on_event, digests=True)
        assert st.table_digest() == _reference2(st)
        assert st.table_digest(1) == _reference(st)
        assert st.table_digest(3) == _reference3(st)
    assert checked > 0


@pytest.mark.parametrize("value", [Fraction(7, 3), True, False, -5, [Fraction(1, 2), 3], [[True], [-1]]])
def test_digest_writes_fractions_and_bools_as_json_does(value):
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    st.counters = [value, 1, [2, 3]]
    st.faces = [-1, 0] + ([value] if not isinstance(value, list) else [])
    assert st.table_digest(1) == _reference(st)
    assert st.table_digest() == _reference2(st)
    assert st.table_digest(3) == _reference3(st)


@pytest.mark.parametrize("big", [255, 256, 10**6])
def test_digest_of_large_ids_faces_and_lists(big):
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    st.zones[0] = [big, 3]
    st.faces = [big % 200 - 1, -1]
    assert st.table_digest() == _reference2(st)
    assert st.table_digest(3) == _reference3(st)
    st.zones[1] = list(range(300))
    st.faces = [big, -1]
    assert st.table_digest() == _reference2(st)
    assert st.table_digest(1) == _reference(st)
    assert st.table_digest(3) == _reference3(st)


@pytest.mark.parametrize("value", [[], [0, -1, 2**31 - 1, -(2**31), 2**31, -(2**31) - 1, 2**90, -(2**90)],
                                   [[1, [2, [True, False, None]]], [[], []]]])
def test_the_plain_writer_writes_what_marshal_writes(value):
    assert tablebytes.NATIVE
    assert tablebytes.marshal2(value) == marshal.dumps(value, 2) == _marshal(value)
    assert tablebytes.marshal3(value) == _marshal(value, True)


def test_the_format_3_writer_writes_fractions_and_tells_them_from_numbers():
    value = [Fraction(7, 3), 2, Fraction(2, 1), [Fraction(-1, 2)]]
    assert tablebytes.marshal3(value) == _marshal(value, True)
    assert tablebytes.marshal3([Fraction(2, 1)]) != tablebytes.marshal3([2])
    with pytest.raises(ValueError):
        tablebytes.marshal2(value)


def test_a_python_whose_marshal_differs_gets_the_same_digests(monkeypatch):
    engine = load_game(REPO / "games" / "barnyard.rules")
    st = engine.new_state(4)
    play(engine, st, [RandomAgent(3, s) for s in range(4)], 3)  # (a table with something everywhere)
    want, want3 = st.table_digest(), st.table_digest(3)
    monkeypatch.setattr(tablebytes, "NATIVE", False)
    assert st.table_digest() == want == _reference2(st)
    assert st.table_digest(3) == want3 == _reference3(st)


def test_digests_tell_tables_apart_and_an_unknown_scheme_is_an_error():
    engine = load_game(REPO / "games" / "chicken.rules")
    a, b = engine.new_state(4), engine.new_state(4)
    assert a.table_digest() == b.table_digest()
    b.zones[0], b.zones[1] = b.zones[0][:-1], b.zones[1] + b.zones[0][-1:]  # one die moved to the next zone
    assert a.table_digest() != b.table_digest()
    b = engine.new_state(4)
    b.counters = [[0, 0, 0, 1]] if a.counters == [[0, 0, 0, 0]] else [[9, 9, 9, 9]]
    assert a.table_digest() != b.table_digest()
    assert a.table_digest(3) != b.table_digest(3)
    with pytest.raises(ValueError):
        a.table_digest(4)


@pytest.mark.parametrize("a, b", [(1, True), (0, False), (2, Fraction(2, 1)), ([1, 2], [True, 2])])
def test_counters_that_compare_equal_but_write_apart_get_their_own_digests(a, b):
    """(Counters' text is looked up by their bytes: 1 and True, equal in Python, are told apart.)"""
    engine = load_game(REPO / "games" / "chicken.rules")
    st = engine.new_state(4)
    seen, seen3 = set(), set()
    for value in (a, b, a, b):
        st.counters = [value, [value]]
        assert st.table_digest() == _reference2(st)
        assert st.table_digest(3) == _reference3(st)
        seen.add(st.table_digest())
        seen3.add(st.table_digest(3))
    assert len(seen) == len(seen3) == 2
