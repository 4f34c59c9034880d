"""Positions: a game situation written by hand ("the first player holds 5 red cards, ...").

A position is plain JSON::

    {"current": "P2",
     "zones": {"pool": ["2 Red", "Blue"], "hand of P2": ["4 Green"]},
     "counters": {"score": {"P1": 20, "P2": 24}},
     "faces": {"Green#1": "Six"},
     "turn": 12}

Every key is optional. A zone named here holds exactly the components it lists, in that
order; components are written as a label (``Green#2``), a kind (``Red``: any one of
them) or a count and a kind (``3 Red``). Components not named stay where the game's
setup put them; what setup had put in a named zone goes back to the box. Play goes on
with the turn of ``current``.
"""

from __future__ import annotations

import difflib
import re
from fractions import Fraction
from typing import Any

from rulelang.check.model import FACE, KIND, PLAYER, STR
from rulelang.compile.runtime import player_label
from rulelang.errors import RulelangError
from rulelang.numbers import MAX_NUMBER, bounded_text, normal, too_big
from rulelang.syntax.span import Span

_FRACTION = re.compile(r"^-?[0-9]{1,19}/[1-9][0-9]{0,18}$")
COUNTED = re.compile(r"^\s*([0-9]+)\s*[x×]?\s+(\S+)\s*$")  # "3 Red", "2x Blue" (ASCII digits: \d is any script's)


class PositionError(RulelangError):
    """A position that does not fit the game."""


def _suggest(name: str, names: list[str]) -> str | None:
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def _player(engine: Any, st: Any, text: Any, span: Span | None) -> int:
    labels = [player_label(p) for p in range(st.players)]
    if text not in labels:
        raise PositionError(f"position: unknown player {text!r}", span,
                            hint=f"players are {', '.join(labels)}")
    return labels.index(text)


def _counter_value(engine: Any, st: Any, counter: Any, value: Any, what: str, span: Span | None) -> Any:
    """A counter's value as a position writes it: a number (``"7/3"`` for a fraction) or a player."""
    if counter.type == PLAYER:
        if value == "nobody":
            return -1
        return _player(engine, st, value, span)
    if counter.type in (KIND, STR):
        return _kind_or_text(engine, counter, value, what, span)
    if counter.type == FACE:
        return _face(engine, value, what, span)
    if isinstance(value, str) and _FRACTION.match(value):
        number = normal(Fraction(value))
    elif isinstance(value, int) and not isinstance(value, bool):
        number = value
    else:
        raise PositionError(f"position: {what} must be a whole number", span,
                            hint='or a fraction, written as text: "7/3"')
    if too_big(number):
        raise PositionError(f"position: {what} is beyond the largest number rulelang keeps (10^18)", span)
    return number


def _kind_or_text(engine: Any, counter: Any, value: Any, what: str, span: Span | None) -> Any:
    """A kind counter's value as a position writes it (a kind's name, or "no kind"), or a text counter's."""
    if not isinstance(value, str):
        raise PositionError(f"position: {what} must be a {'kind' if counter.type == KIND else 'text'}, "
                            "written as a string", span)
    if counter.type == STR:
        return bounded_text(value, span)
    if value == "no kind":
        return -1
    names = [k.name for k in engine.model.kinds]
    if value not in names:
        raise PositionError(f"position: unknown kind {value!r} for {what}", span,
                            hint=_suggest(value, names) or "a kind's name from the rules, or \"no kind\"")
    return names.index(value)


def _face(engine: Any, value: Any, what: str, span: Span | None) -> int:
    """A face counter's value as a position writes it: a face's name, or "no face"."""
    if value == "no face":
        return -1
    names = [f.name for f in engine.model.faces]
    if not isinstance(value, str) or value not in names:
        raise PositionError(f"position: unknown face {value!r} for {what}", span,
                            hint=_suggest(str(value), names) or "a face's name from the rules, or \"no face\"")
    return names.index(value)


def _zone_slot(engine: Any, st: Any, key: str, span: Span | None) -> tuple[Any, list[int]]:
    model = engine.model
    names = [z.name for z in model.zones]
    name, _, owner = key.partition(" of ")
    zone = next((z for z in model.zones if z.name == name.strip()), None)
    if zone is not None and zone.index == 0:
        raise PositionError("position: the box cannot be named", span,
                            hint="components not named stay where setup put them; to take one out of play, "
                                 "name the zones it should not be in")
    if zone is None:
        raise PositionError(f"position: unknown zone {name.strip()!r}", span, hint=_suggest(name.strip(), names))
    if zone.per_class is not None:
        labels = engine.program.component_labels
        owners = [lb for lb, k in zip(labels, engine.program.kind_of) if k in zone.per_class]
        if owner.strip() not in owners:
            raise PositionError(f"position: zone '{zone.name}' is a pile on each component: say which", span,
                                hint="write " + ", ".join(f'"{zone.name} of {lb}"' for lb in owners[:3]) + ", ...")
        return zone, st.zones[zone.index][labels.index(owner.strip())]
    if zone.per_kind is not None:
        kind = model.kinds[zone.per_kind]
        if kind.count == 0:
            raise PositionError(f"position: zone '{zone.name}' is one per {kind.name}, and the game has none", span)
        first = engine.program.kind_of.index(zone.per_kind)
        labels = engine.program.component_labels[first : first + kind.count]
        if owner.strip() not in labels:
            raise PositionError(f"position: zone '{zone.name}' is one per {kind.name}: say which", span,
                                hint="write " + ", ".join(f'"{zone.name} of {lb}"' for lb in labels))
        return zone, st.zones[zone.index][labels.index(owner.strip())]
    if zone.per_player:
        if not owner:
            raise PositionError(f"position: zone '{zone.name}' is per player", span,
                                hint=f"write \"{zone.name} of P1\"")
        return zone, st.zones[zone.index][_player(engine, st, owner.strip(), span)]
    if owner:
        raise PositionError(f"position: zone '{zone.name}' is shared, not per player", span)
    return zone, st.zones[zone.index]


def _count(digits: str) -> int:
    """A count written in a position: more digits than any game has components read as too many
    (Python will not even read a number of thousands of digits)."""
    return int(digits) if len(digits) <= 18 else MAX_NUMBER


def apply_position(engine: Any, st: Any, position: Any, span: Span | None = None) -> None:
    """Lay ``position`` out on ``st`` (a state paused before its first turn); validate it."""
    if not isinstance(position, dict):
        raise PositionError("position: must be a JSON object", span)
    known = {"current", "zones", "counters", "faces", "turn", "comment", "players", "out"}
    for key in position:
        if key not in known:
            raise PositionError(f"position: unknown key {key!r}", span, hint=_suggest(key, sorted(known)))
    if "players" in position and type(position["players"]) is not int:
        raise PositionError(f"position: 'players' must be a whole number, not {position['players']!r}", span)
    if "players" in position and position["players"] != st.players:
        raise PositionError(f"position: it is for {position['players']} players, but {st.players} play", span,
                            hint="leave out --players to play the position's number, or change its \"players\"")
    program = engine.program
    model = engine.model
    labels = program.component_labels
    by_label = {label: c for c, label in enumerate(labels)}
    kinds = {k.name: k for k in model.kinds}
    zones = position.get("zones", {})
    if not isinstance(zones, dict):
        raise PositionError("position: 'zones' must map zone names to lists of components", span)
    # 1. resolve every listed component, specific labels first
    wanted: list[tuple[Any, list[int], list[Any]]] = []
    taken: dict[int, str] = {}
    requests: list[tuple[str, list, int, str]] = []  # (zone key, target list, slot index, kind)
    for key, items in zones.items():
        zone, target = _zone_slot(engine, st, key, span)
        if not isinstance(items, list):
            raise PositionError(f"position: zone {key!r} must list its components", span)
        resolved: list[Any] = []
        for item in items:
            if not isinstance(item, str):
                raise PositionError(f"position: {item!r} in {key!r} is not a component", span)
            m = COUNTED.match(item)
            count, name = (_count(m.group(1)), m.group(2)) if m else (1, item.strip())
            if name in by_label and not m:
                c = by_label[name]
                if c in taken:
                    raise PositionError(f"position: {name} is in two places ({taken[c]!r} and {key!r})", span,
                                        hint="each component can be in one zone only")
                taken[c] = key
                resolved.append(c)
                continue
            if m and name in by_label:
                raise PositionError(f"position: {item!r}: a count goes with a kind, not with one component", span,
                                    hint=f"write {name!r} alone, or a count and a kind like '2 {name.split('#')[0]}'")
            if name not in kinds:
                raise PositionError(f"position: unknown component {name!r} in {key!r}", span,
                                    hint=_suggest(name, list(kinds) + list(by_label)))
            if count > kinds[name].count:
                raise PositionError(f"position: more {name} than the game has ({kinds[name].count})", span,
                                    hint=f"the game has {kinds[name].count} {name}; some may already be listed "
                                         "elsewhere")
            for _ in range(count):
                resolved.append(None)
                requests.append((key, resolved, len(resolved) - 1, name))
        wanted.append((zone, target, resolved))
    # 2. fill kind requests with free components of that kind, preferring ones already there
    for key, resolved, index, name in requests:
        kind = kinds[name]
        target = next(t for z, t, r in wanted if r is resolved)
        free = [c for c in range(len(labels)) if program.kind_of[c] == kind.index and c not in taken]
        free.sort(key=lambda c: (c not in target, c))
        if not free:
            raise PositionError(
                f"position: more {name} than the game has ({kind.count})", span,
                hint=f"the game has {kind.count} {name}; some may already be listed elsewhere",
            )
        c = free[0]
        taken[c] = key
        resolved[index] = c
    # 3. move: listed components leave wherever they are; named zones hold exactly their list
    listed = set(taken)
    for zone_lists in st.zones:
        lists = zone_lists if zone_lists and isinstance(zone_lists[0], list) else [zone_lists]
        for lst in lists:
            lst[:] = [c for c in lst if c not in listed]
    box = st.zones[0]
    for zone, target, resolved in wanted:
        box.extend(target)
        target[:] = resolved if zone.ordered else sorted(resolved)
        if zone.unrolled:
            for c in resolved:
                st.faces[c] = -1
    box.sort()
    # 4. faces, counters, whose turn
    faces = position.get("faces", {})
    if not isinstance(faces, dict):
        raise PositionError("position: 'faces' must map dice to face names", span)
    for label, face_name in faces.items():
        if label not in by_label:
            raise PositionError(f"position: unknown die {label!r}", span, hint=_suggest(label, list(by_label)))
        c = by_label[label]
        kind = model.kinds[program.kind_of[c]]
        if not isinstance(face_name, str):
            raise PositionError(f"position: the face of {label} is a face's name, not {face_name!r}", span)
        index = program.face_index[kind.index].get(face_name)
        if index is None:
            raise PositionError(f"position: {label} has no face {face_name!r}", span,
                                hint="its faces: " + ", ".join(program.face_labels[kind.index]))
        st.faces[c] = index
    counters = position.get("counters", {})
    if not isinstance(counters, dict):
        raise PositionError("position: 'counters' must map counter names to values", span)
    for name, value in counters.items():
        counter = next((k for k in model.counters if k.name == name), None)
        if counter is None:
            raise PositionError(f"position: unknown counter {name!r}", span,
                                hint=_suggest(name, [k.name for k in model.counters]))
        if counter.per_player:
            if not isinstance(value, dict):
                raise PositionError(f"position: counter '{name}' is per player: give {{\"P1\": n, ...}}", span)
            for who, v in value.items():
                seat = _player(engine, st, who, span)
                st.counters[counter.index][seat] = _counter_value(engine, st, counter, v, f"{name} of {who}", span)
        else:
            st.counters[counter.index] = _counter_value(engine, st, counter, value, f"counter '{name}'", span)
    if "current" in position:
        st.current = _player(engine, st, position["current"], span)
    if "turn" in position:
        turn = position["turn"]
        if not isinstance(turn, int) or isinstance(turn, bool) or turn < 1 or too_big(turn):
            raise PositionError("position: 'turn' is the number of the turn about to start (1 or more)", span)
        st.turn = turn - 1
    if "out" in position:
        _out(engine, st, position["out"], span)
    st.armed = None  # watched again from the first turn played from here: what holds then fires
    st.pending_cache = None


def _out(engine: Any, st: Any, out: Any, span: Span | None) -> None:
    """``"out": ["P3"]`` or ``{"P3": 2}``: players who dropped out (in that turn or round; 1 when not said)."""
    if isinstance(out, list):
        out = {who: 1 for who in out}
    if not isinstance(out, dict):
        raise PositionError("position: 'out' lists the players who dropped out: [\"P3\"] or {\"P3\": 2}", span)
    for who, when in out.items():
        seat = _player(engine, st, who, span)
        if not isinstance(when, int) or isinstance(when, bool) or when < 1:
            raise PositionError(f"position: {who} dropped out in a turn or round numbered 1 or more, not {when!r}",
                                span)
        st.out[seat] = when
