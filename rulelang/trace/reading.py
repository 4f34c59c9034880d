"""Reading a trace: its lines as JSON objects, its header first, each event of a known type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import attrs

from rulelang.errors import RulelangError
from rulelang.safeio import (
    MAX_TRACE_BYTES,
    InputError,
    decode_text,
    json_too_deep,
    long_number_place,
    read_input,
)
from rulelang.syntax.span import Span, register_source
from rulelang.trace.format import TRACE_FORMAT, TRACE_FORMATS

CHANCE_KEYS = ("roll", "draw", "shuffle", "first_player", "pick")
_FORMATS = list(TRACE_FORMATS)  # (for the hint: "1, 2 and 3")
EVENT_TYPES = ("chance", "action", "private", "digest", "result", "comment")


class TraceError(RulelangError):
    """A trace that cannot be read as a trace (the rules are not the issue)."""

@attrs.define
class Trace:
    """A trace read from JSON Lines: its header and its events with their line numbers."""

    path: str
    header: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]]

    @property
    def digest_scheme(self) -> int:
        """How this trace's table digests are computed (``State.table_digest``), from its format."""
        return TRACE_FORMATS[self.header["format"]]


def read_trace(path: str | Path) -> Trace:
    """Parse a trace file; raise TraceError with the line number on anything malformed."""
    shown = Path(path).as_posix()
    try:
        text = decode_text(read_input(path, "trace file", MAX_TRACE_BYTES, shown), "trace file", shown)
    except InputError as exc:
        raise TraceError(exc.message, exc.span, hint=exc.hint) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    register_source(shown, text)
    header: dict[str, Any] | None = None
    events: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or raw.lstrip().startswith("//"):
            continue
        span = Span(shown, number, 1, number, len(raw) + 1)
        try:
            event = json.loads(raw)
        except RecursionError:
            raise TraceError(f"line {number} nests JSON too deeply", span,
                             hint="each line of a trace is one flat JSON object") from None
        except json.JSONDecodeError as exc:
            raise TraceError(f"line {number} is not valid JSON: {exc.msg}",
                             Span(shown, number, exc.colno, number, exc.colno + 1),
                             hint="each line of a trace is one JSON object") from None
        except ValueError:  # a number of thousands of digits, which Python will not read
            col = long_number_place(raw)[1]
            raise TraceError(f"line {number} holds a number too long to read",
                             Span(shown, number, col, number, col + 1),
                             hint="numbers in a trace are steps, seeds and counts: a few digits each") from None
        if json_too_deep(event):
            raise TraceError(f"line {number} nests JSON too deeply", span,
                             hint="each line of a trace is one flat JSON object") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise TraceError("each line of a trace must be a JSON object with a \"type\"", span)
        if header is None:
            if event["type"] != "header":
                raise TraceError("a trace starts with a header line", span,
                                 hint='{"type": "header", "format": "' + TRACE_FORMAT + '", "file": ..., "players": N}')
            header = event
            header["_line"] = number
            continue
        if event["type"] not in EVENT_TYPES:
            raise TraceError(f"unknown event type {event['type']!r}", span,
                             hint="event types: " + ", ".join(EVENT_TYPES))
        events.append((number, event))
    if header is None:
        raise TraceError(f"{shown} is empty: a trace starts with a header line")
    fmt = header.get("format")
    if not isinstance(fmt, str) or fmt not in TRACE_FORMATS:
        raise TraceError(f"unknown trace format {fmt!r}", Span(shown, header["_line"], 1, header["_line"], 2),
                         hint=f"this rulelang reads {', '.join(_FORMATS[:-1])} and {_FORMATS[-1]}")
    return Trace(shown, header, events)


def line_span(trace: Trace, line: int) -> Span:
    """The place of line ``line`` of ``trace`` (for its errors)."""
    return Span(trace.path, line, 1, line, 2)
