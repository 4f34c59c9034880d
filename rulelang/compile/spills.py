"""Values kept in Python variables and stored into ``loc`` only where the block may leave (a part of the
generator).

A loop that may pause keeps its list, its position and its value in ``loc`` so that the block resumed after
the pause goes on where it stopped; an inlined rule keeps its arguments there for the same reason. Nothing
else reads those slots while the block runs: its lines read the Python variables. With ``LAZY_LOOPS`` (loops)
and ``LAZY_ARGS`` (arguments) the slots are written only before the lines that may need them, each line that
may leave the block (a ``return``: a pause, a call, a decision) or hand ``loc`` on whole (to a picker, a
describer, a helper), instead of at every pass or call: ``spill`` puts the stores there.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m

LAZY_LOOPS = True
"""A paused ``for`` loop stores its list, position and value into ``loc`` only before leaving its block."""

LAZY_ARGS = True
"""An inlined rule's arguments are stored into ``loc`` only before leaving the block (see ``LAZY_LOOPS``)."""

BOUNDED_PARAMS = True
"""A rule's number parameter (or a local of a range of numbers within the bound) passed on as an argument is not
bounded again (it was, when it was bound)."""

SEAT_ARGS = True
"""An inlined rule's parameter given the current player is known to be a seat (never tested for one)."""

_RETURN = re.compile(r"\breturn\b")
_LOC_SLOT = re.compile(r"\bloc\[(\d+)\]")
_LOC_NAME = re.compile(r"\bloc\b")
_CLAUSES = ("elif ", "elif(", "else:", "except", "finally:")  # no statement goes before these


def needs(text: str, slots: set[int]) -> bool:
    """Whether a generated line may need the slots ``slots`` of ``loc`` written: it returns (the block may
    leave), hands ``loc`` on whole, or reads one of the slots."""
    if _RETURN.search(text):
        return True
    if "loc" not in text:
        return False
    rest = _LOC_SLOT.sub(lambda mt: "" if int(mt.group(1)) not in slots else mt.group(0), text)
    return bool(_LOC_NAME.search(rest))


def spill(L: list, start: int, ind: int, stores: list[str], slots: set[int]) -> None:
    """Put the store lines ``stores`` (which write the slots ``slots`` from variables that do not change in
    ``L[start:]``) before every line of ``L[start:]`` that may need them (``needs``), at its indentation, unless
    stored before it already in its block or a block around it (the lines after a store, up to the end of its
    block, run after it); where
    a line cannot have a statement put before it (an ``elif``, ``else``, a continued line, a line that is not
    text), once at ``L[start]`` (indentation ``ind``) instead, before all of them."""
    body = L[start:]
    out: list = []
    covered = None  # the indentation of the block that has them stored already (up to its end)
    for j, (i, text, sp) in enumerate(body):
        if type(text) is not str:
            break
        if covered is not None and i < covered:
            covered = None
        if covered is None and needs(text, slots):
            if text.lstrip().startswith(_CLAUSES) or (j > 0 and str(body[j - 1][1]).endswith("\\")):
                break
            out += [(i, s, sp) for s in stores]
            covered = i
        out.append((i, text, sp))
    else:
        L[start:] = out
        return
    sp = body[0][2] if body else None
    L[start:start] = [(ind, s, sp) for s in stores]


_BINDING_FIELDS = ("slot", "var", "qvar", "list_slot", "idx_slot")


def binds_but_let(node: Any, slot: int, bounded_range: Callable[[Any], bool] | None = None) -> bool:
    """Whether statements (or expressions) may write local ``slot`` other than by a ``let`` (which bounds
    a number it stores): the ``for``, ``pick``, ``ask``, ``choose`` and ``repeat`` variables, any other
    construct binding it; with ``bounded_range``, not counting a ``for`` or an option's ``for`` over an
    iterable it accepts (a range of whole numbers within the bound)."""
    if isinstance(node, (tuple, list)):
        return any(binds_but_let(x, slot, bounded_range) for x in node)
    if type(node) is m.Local or not attrs.has(type(node)):
        return False
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if f.name in _BINDING_FIELDS and value == slot and not (type(node) is m.LetS and f.name == "slot") \
                and not (type(node) is m.ForS and f.name == "var" and bounded_range is not None
                         and bounded_range(node.iterable)):
            return True
        if f.name == "bindings" and any(b[0] == slot and not (bounded_range is not None and bounded_range(b[1]))
                                        for b in value):
            return True
        if f.name != "span" and binds_but_let(value, slot, bounded_range):
            return True
    return False
