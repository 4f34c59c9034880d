"""Pieces every part of the checker shares, low in the layering (it imports no other check module but the model).

The local names of a rule (:class:`RuleScope`), the recording of errors (:class:`Reporter`, :class:`Skip`),
the hint that suggests a close name, the types of rule parameters, and :func:`reads` (which zones, counters
and players an expression reads; the compiler uses it too).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable as TIterable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.check.model import BOOL, COMPONENT, INT, KIND, PLAYER, STR
from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

BOX = "box"
PARAM_TYPES = {"player": PLAYER, "kind": KIND, "number": INT, "text": STR, "truth": BOOL, "component": COMPONENT}


def split_param(raw: str) -> tuple[str, str | None]:
    """``"k:kind"`` -> ("k", "kind"); ``"k"`` -> ("k", None)."""
    name, _, type_name = raw.partition(":")
    return name, type_name or None


class Skip(Exception):
    """Raised after an error is recorded, to abandon the construct being checked."""


def type_of_value(value: Any) -> str:
    """The rulelang type of a literal value: truth, number or text."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    return STR


def suggest(name: str, candidates: TIterable[str]) -> str | None:
    """A hint naming the candidate closest to a misspelt ``name``, or None when none is close."""
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class RuleScope:
    """Local names of one rule body, with slot allocation."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = [{}]
        self.nslots = 0

    def new_slot(self) -> int:
        """A fresh local slot of the rule."""
        self.nslots += 1
        return self.nslots - 1

    def bind(self, name: str, type_: str) -> int:
        """Bind ``name`` in the innermost frame to a fresh slot of ``type_``; return the slot."""
        slot = self.new_slot()
        self.frames[-1][name] = m.Local(slot, type_)
        return slot

    def bind_expr(self, name: str, expr: Any) -> None:
        """Bind ``name`` to a checked expression (a parameter of a definition being expanded)."""
        self.frames[-1][name] = expr

    def lookup(self, name: str) -> Any | None:
        """What ``name`` is bound to, innermost frame first, or None."""
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def names(self) -> list[str]:
        """Every local name in scope (for suggestions)."""
        return [n for f in self.frames for n in f]

    def push(self) -> None:
        """Open a frame (a nested block)."""
        self.frames.append({})

    def pop(self) -> None:
        """Close the innermost frame."""
        self.frames.pop()


class Reporter:
    """Where the checks record their errors: every part of the checker reports through these two methods."""

    errors: list[RulelangError]

    def error(self, message: str, span: Span | None, hint: str | None = None) -> None:
        """Record an error at ``span`` (checking goes on)."""
        self.errors.append(RulelangError(message, span, hint))

    def fail(self, message: str, span: Span | None, hint: str | None = None) -> Skip:
        """Record an error at ``span`` and return the exception that abandons the construct being checked."""
        self.error(message, span, hint)
        return Skip()


def reads(expr: Any) -> tuple[set[int], set[int], bool]:
    """Which zones and counters an expression reads, and whether it reads ``current``."""
    zones: set[int] = set()
    counters: set[int] = set()
    current = False

    def walk(e: Any) -> None:
        nonlocal current
        if isinstance(e, (tuple, list)):
            for x in e:
                walk(x)
            return
        if not attrs.has(type(e)):
            return
        if isinstance(e, m.CounterGet):
            counters.add(e.counter)
        elif isinstance(e, m.ZoneSel):
            zones.add(e.zone)
        elif isinstance(e, m.CurrentPlayer) or (isinstance(e, m.After) and e.player is None):
            current = True
        elif isinstance(e, m.IterIR) and e.kind in ("others", "others_in"):
            current = True
        for field in attrs.fields(type(e)):
            walk(getattr(e, field.name))

    walk(expr)
    return zones, counters, current
