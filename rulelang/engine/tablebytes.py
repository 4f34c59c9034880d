"""The bytes a turn's digest hashes in trace formats 2 and 3 (``State.table_digest``), defined in
docs/traces.md: the table's numbers in Python's ``marshal`` format, version 2, which writes lists
and whole numbers in one call, several times faster than their JSON text.

The bytes are those of the definition whatever Python runs: marshal's output is checked against
:func:`marshal2`, a plain writer of the same bytes, when this module is imported, and that writer
is used instead should a Python ever write them otherwise."""

from __future__ import annotations

import json
import marshal
import struct
from fractions import Fraction
from typing import Any

_MAX_INT = 2**31 - 1


def marshal2(value: Any) -> bytes:
    """``value`` (lists, whole numbers, booleans and None, nested) as marshal version 2 writes it:
    a list is ``[`` and its length (4 bytes, little-endian) and its items; a whole number from -2**31
    to 2**31 - 1 is ``i`` and 4 bytes (little-endian, signed); a larger one ``l``, its count of
    15-bit digits (4 bytes, signed: negative for a negative number) and the digits of its magnitude
    (2 bytes each, the least significant first); True, False and None are ``T``, ``F`` and ``N``
    (and a float, never in a table, ``g`` and its 8 bytes)."""
    out = bytearray()
    _write(value, out)
    return bytes(out)


def marshal3(value: Any) -> bytes:
    """``value`` as :func:`marshal2` writes it, where a fraction (never in play; a hand-written position)
    is ``/``, the length of its text (4 bytes, little-endian) and its text, ``7/3`` (ASCII), instead of
    an error: the writing of a format-3 digest's bytes (``table_bytes3``)."""
    out = bytearray()
    _write(value, out, True)
    return bytes(out)


def _write(value: Any, out: bytearray, fractions: bool = False) -> None:
    if value is True or value is False or value is None:
        out += b"T" if value is True else b"F" if value is False else b"N"
    elif type(value) is int:
        if -_MAX_INT - 1 <= value <= _MAX_INT:
            out += b"i" + value.to_bytes(4, "little", signed=True)
        else:
            digits = []
            magnitude = abs(value)
            while magnitude:
                digits.append(magnitude & 0x7FFF)
                magnitude >>= 15
            count = len(digits) if value > 0 else -len(digits)
            out += b"l" + count.to_bytes(4, "little", signed=True)
            for d in digits:
                out += d.to_bytes(2, "little")
    elif type(value) is float:  # (never in a table; written as marshal writes it, all the same)
        out += b"g" + struct.pack("<d", value)
    elif type(value) is list:
        out += b"[" + len(value).to_bytes(4, "little")
        for item in value:
            _write(item, out, fractions)
    elif fractions and type(value) is Fraction:
        text = str(value).encode("ascii")
        out += b"/" + len(text).to_bytes(4, "little") + text
    else:
        raise ValueError(f"not part of a table: {value!r}")


_SAMPLE = [3, -1, 0, 2**31, -(2**40), 2**62 + 5, [[], [7, 255, 256]], True, False, None]
NATIVE = marshal.dumps(_SAMPLE, 2) == marshal2(_SAMPLE)  # whether this Python's marshal writes the bytes defined


def table_bytes(st: Any, counters_json: str) -> bytes:
    """The bytes of ``st``'s table that a format-2 turn digest hashes: ``marshal2`` of the list
    ``[players, current, turn, step, zones, faces, out]``, then ``;`` and the counters' compact
    JSON (``counters_json``: a fraction is a string there). Where the zones or the faces hold
    anything but whole numbers (never in play), both are written as None there instead, and their
    compact JSON, ``[zones, faces]``, follows the counters' after another ``;``."""
    tail = b";" + counters_json.encode()
    table = [st.players, st.current, st.turn, st.step, st.zones, st.faces, st.out]
    try:
        return (marshal.dumps(table, 2) if NATIVE else marshal2(table)) + tail
    except ValueError:  # (a fraction, say, in a position written by hand)
        text = json.dumps([st.zones, st.faces], separators=(",", ":"), default=str)
        table[4] = table[5] = None
        return marshal2(table) + tail + b";" + text.encode()


def table_bytes3(st: Any) -> bytes:
    """The bytes of ``st``'s table that a format-3 turn digest hashes: ``marshal3`` of the faces, then
    ``marshal3`` of the list ``[players, current, turn, step, zones, out, counters]`` (the faces first: a
    recorder keeps the hash of their bytes while they stay the same, ``state.faces_kept_digest3``).

    The writing is one-to-one (each list carries its length, each number its type and width, a bool
    is not a number): two tables that differ anywhere in these (a zone's ids or their order, a face,
    a counter, whose turn, the turn, the step, who is out) give different bytes. Written by
    ``marshal`` in C where it writes these bytes (``NATIVE``; a fraction makes it refuse), else by
    :func:`marshal3`."""
    head = [st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters]
    if NATIVE:
        try:
            return marshal.dumps(st.faces, 2) + marshal.dumps(head, 2)
        except ValueError:  # (a fraction, say, in a position written by hand)
            pass
    return marshal3(st.faces) + marshal3(head)
