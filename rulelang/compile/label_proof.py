"""Whether a ``choose``'s legal options are sure to render different labels, whatever the state.

A recorded label must name one option: recording a game therefore renders every legal
option's label at each choice to find two that read alike (``Labels.check_unique``), which
costs a label per option where play itself renders none. Where the labels are different by
construction, that check can be skipped with nothing lost. :func:`labels_distinct` proves
it from the checked model, and says no whenever it cannot tell:

- within one option: its ``for`` ranges list each value once, and its label shows each
  ``for`` value by a hole of its own, written one way per value (a player, a kind whose
  display is its own, a component's label, a whole number of a range), with text after
  each such hole that tells where its text ends (its other holes read none of the values,
  so they show the same text in all of the option's labels);
- between options: a label without holes that the other option's texts cannot spell, texts before
  their first holes (or after their last) that differ, or an option with few labels (its holes all
  kinds or components) none of which the other's texts can spell.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import slots_read

_SEAT_RANGES = ("players", "others", "players_in", "others_in", "players_from")
# The characters a hole's text may hold, for the types whose values are not a finite list known here:
# a seat's label is "P" and digits (ranges list seats only, never "nobody"), a number of a range
# (bounded, whole) is digits and a sign.
_ALPHABETS = {m.PLAYER: frozenset("P0123456789"), m.INT: frozenset("-0123456789")}


def labels_distinct(model: m.Model, component_labels: Sequence[str], s: m.ChooseS) -> bool:
    """True only if no two legal options of ``s`` can ever render the same label."""
    kinds = [k.display for k in model.kinds]
    return _proved(model, component_labels, s, kinds if len(set(kinds)) == len(kinds) else None)


def kinds_alike(model: m.Model, component_labels: Sequence[str], s: m.ChooseS) -> tuple | None:
    """Where ``s``'s labels, not proved distinct by ``labels_distinct``, fail the proof only because
    kinds share a display: the test that makes them so at a choice, ``(where, class_of)``; else None.
    ``where`` maps an option's index to the positions of its ``for`` values that are kinds,
    ``class_of`` a kind to the number of its display where another kind shares it (-1: its own).
    The labels of the listed options are distinct if, for each option and each such position, the
    kinds listed there hold no two of one class (``rulelang.compile.runtime.kinds_apart``)."""
    kinds = [k.display for k in model.kinds]
    if len(set(kinds)) == len(kinds) or not _proved(model, component_labels, s, sorted(set(kinds))):
        return None
    shared = sorted({d for d in kinds if kinds.count(d) > 1})
    class_of = [shared.index(d) if d in shared else -1 for d in kinds]
    where = {i: tuple(j for j, (_slot, it) in enumerate(opt.bindings) if it.type == m.KIND)
             for i, opt in enumerate(s.options)}
    return {i: js for i, js in where.items() if js}, class_of


def _proved(model: m.Model, component_labels: Sequence[str], s: m.ChooseS, kinds: list[str] | None) -> bool:
    """``labels_distinct`` where a kind's text is one of ``kinds`` (None: not known here)."""
    texts: dict[str, list[str] | None] = {
        m.KIND: kinds,
        m.COMPONENT: list(component_labels) if len(set(component_labels)) == len(component_labels) else None,
        m.FACE: faces if len(set(faces := [f.display for f in model.faces])) == len(faces) else None,
    }
    shapes: list[list[Any]] = []
    finite: list[list[str] | None] = []
    for opt in s.options:
        parts = _merged(opt.label.parts)
        if opt.bindings and not _one_label_per_value(opt, parts, texts):
            return False
        shapes.append(parts)
        finite.append(_every_label(opt, parts, texts))
    for a in range(len(shapes)):
        for b in range(a + 1, len(shapes)):
            if _apart(shapes[a], shapes[b]):
                continue
            if not any(labels is not None and not any(x == "".join(other) if all(isinstance(p, str) for p in other)
                                                      else _spells(x, other) for x in labels)
                       for labels, other in ((finite[a], shapes[b]), (finite[b], shapes[a]))):
                return False
    return True


def _every_label(opt: m.OptionIR, parts: list[Any], texts: dict[str, list[str] | None]) -> list[str] | None:
    """Every label an option may render where each hole shows one of its ``for`` values of a type whose
    texts are known here (a kind, a component), at most ``_FEW`` of them; else None."""
    out = [""]
    for part in parts:
        values = [part] if isinstance(part, str) else texts.get(part.type) if type(part) is m.Local \
            and part.slot in {slot for slot, _it in opt.bindings} else None
        if values is None or len(out) * len(values) > _FEW:
            return None
        out = [x + v for x in out for v in values]
    return out


_FEW = 4096


def _merged(parts: Sequence[Any]) -> list[Any]:
    """A label's parts with secret holes as plain holes and neighbouring texts joined into one."""
    out: list[Any] = []
    for part in parts:
        if isinstance(part, m.SecretPart):
            part = part.expr
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] += part
        elif not (isinstance(part, str) and not part):
            out.append(part)
    return out


def _apart(a: list[Any], b: list[Any]) -> bool:
    """Whether no label of one option can be a label of the other: a label without holes that the
    other's texts cannot spell, or texts before the first holes (or after the last) that differ."""
    whole_a = all(isinstance(p, str) for p in a)
    whole_b = all(isinstance(p, str) for p in b)
    if whole_a and whole_b:
        return "".join(a) != "".join(b)
    if whole_a or whole_b:
        whole, other = ("".join(a), b) if whole_a else ("".join(b), a)
        return not _spells(whole, other)
    start_a, start_b = _fixed(a), _fixed(b)
    if not (start_a.startswith(start_b) or start_b.startswith(start_a)):
        return True
    end_a, end_b = _fixed(a[::-1]), _fixed(b[::-1])
    return not (end_a.endswith(end_b) or end_b.endswith(end_a))


def _spells(whole: str, parts: list[Any]) -> bool:
    """Whether ``whole`` may be a label of the template ``parts`` (its holes showing any text)."""
    first, last = _fixed(parts), _fixed(parts[::-1])
    end = len(whole) - len(last)
    if end < len(first) or not whole.startswith(first) or not whole.endswith(last):
        return False
    at = len(first)
    inner = parts[1:] if isinstance(parts[0], str) else parts
    inner = inner[:-1] if inner and isinstance(inner[-1], str) else inner
    for piece in inner:  # each text between two holes, found leftmost in turn (as early as it can be)
        if isinstance(piece, str):
            found = whole.find(piece, at, end)
            if found < 0:
                return False
            at = found + len(piece)
    return True


def _fixed(parts: list[Any]) -> str:
    """The text before the first hole of ``parts``."""
    return parts[0] if parts and isinstance(parts[0], str) else ""


def _one_label_per_value(opt: m.OptionIR, parts: list[Any], texts: dict[str, list[str] | None]) -> bool:
    """Whether the option lists each combination of its ``for`` values once and renders each its own label."""
    slots = [slot for slot, _it in opt.bindings]
    if not all(_lists_once(it) for _slot, it in opt.bindings):
        return False
    shown: set[int] = set()
    for i, part in enumerate(parts):
        if isinstance(part, str):
            continue
        if type(part) is not m.Local or part.slot not in slots:
            if slots_read([part]) & set(slots):
                return False  # a hole showing something else of the values: its text is not known here
            continue  # a hole that reads none of them: the same text for all of this option's labels
        it = opt.bindings[slots.index(part.slot)][1]
        if part.type != it.type or part.type not in (m.PLAYER, m.INT, m.KIND, m.COMPONENT, m.FACE) \
                or part.type in texts and texts[part.type] is None:
            return False  # (a kind's display, or a component's label, that is not its own)
        shown.add(part.slot)
        after = parts[i + 1] if i + 1 < len(parts) else None
        if after is None:
            continue  # the label's last hole: the text left is its own
        if not isinstance(after, str):
            return False  # two holes side by side: where one ends is not known
        if not _ends_before(part.type, after, texts):
            return False
    return shown == set(slots)


def _lists_once(it: m.IterIR) -> bool:
    """Whether a ``for`` range lists each of its values once, written one way each."""
    if it.kind in _SEAT_RANGES or it.kind in ("kinds_where", "range", "kinds", "faces"):
        return True
    q = it.query
    if q is None or q.count_expr is not None or q.count is not None or q.quantity not in ("all", "default"):
        return False
    zones = [sel.zone for sel in q.zones]
    return len(set(zones)) == len(zones)  # (one zone named twice, for two owners who may be one, lists twice)


def _ends_before(type_: str, after: str, texts: dict[str, list[str] | None]) -> bool:
    """Whether a hole of ``type_`` followed by the text ``after`` can be read off a label in one way only:
    no value's text followed by ``after`` starts another value's text followed by ``after``."""
    alphabet = _ALPHABETS.get(type_)
    if alphabet is not None:
        return after[0] not in alphabet
    values = texts.get(type_)
    if values is None:
        return False
    followed = sorted(v + after for v in values)  # (texts starting with one come right after it)
    return not any(b.startswith(a) for a, b in zip(followed, followed[1:]))
