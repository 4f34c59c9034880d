"""A fixed-size numeric encoding of what a player observes.

The layout is fixed per game and number of players, read from the game's model (its
kinds, dice faces, zones and counters) and from the keys of one observation; every
later observation is encoded into the same slots. Anything an observation holds that
the layout has no slot for is an error, never dropped.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.engine.engine import Engine
from rulelang.envs.actions import find_statements
from rulelang.envs.common import seat_label
from rulelang.errors import RulelangError
from rulelang.numbers import MAX_NUMBER, ascii_fraction


class EncodingError(RulelangError):
    """An observation that does not fit the game's fixed layout."""


class ObservationEncoder:
    """Turns ``Engine.observe`` dictionaries into flat lists of floats of one fixed length.

    Slots, in order: who observes (one-hot over seats), whose turn it is (one-hot), who
    is awaited (one-hot over seats and chance), the turn number, game over, an ``ask``
    pending; every counter (one per player for per-player counters): its value (a seat
    as its number, P1 is 1 and nobody 0; a kind as its number in declaration order, 1 the first and no
    kind 0; a text as its number among the texts the rules hold, see ``model_texts``, 1 the first in
    sorted order and the empty text 0) and whether it is hidden from this player; for
    each zone, how many components it holds, then (a zone only its owner sees) whether its
    contents are visible, then (a zone someone may see into) how many of each name it
    holds, for the names of the components that can ever be moved there (a copy of a card
    by its kind, "Card"; a die by its label, "Red#1", or with the face it shows,
    "Red#1=Six"): a hidden zone has only its count. Then the number of private looks and
    the names seen in the latest one.
    """

    def __init__(self, engine: Engine, players: int, template: dict[str, Any]) -> None:
        self.players = players
        model = engine.model
        faces = model.faces
        labels = engine.program.component_labels
        kind_of = engine.program.kind_of
        addressed = _kinds_addressed(model)  # kinds an action names by component: kept apart by label
        owners = {z.per_kind for z in model.zones if z.per_kind is not None}
        owners |= {k for z in model.zones if z.per_class is not None for k in z.per_class}
        # per kind: the names its components are counted by, in zones and in piles on components
        names_of_kind: dict[int, list[str]] = {}
        pile_names: dict[int, list[str]] = {}
        self.canon: dict[str, str] = {}  # a name an observation shows -> the name it is counted by
        self.canon_pile: dict[str, str] = {}
        for label, k in zip(labels, kind_of):
            kind = model.kinds[k]
            name = engine.shown_name[label]
            apart = k in addressed or k in owners
            variants = [(None, "")] + [(f, f"={faces[f].name}") for f in dict.fromkeys(kind.faces)]
            for _f, suffix in variants:
                shown = name + suffix
                counted = (name if apart else kind.name) + suffix
                self.canon[shown] = counted
                self.canon_pile[shown] = kind.name + suffix
                for table, token in ((names_of_kind, counted), (pile_names, kind.name + suffix)):
                    if token not in table.setdefault(k, []):
                        table[k].append(token)
        tokens: list[str] = []
        for k in sorted(names_of_kind):
            tokens.extend(t for t in names_of_kind[k] + pile_names[k] if t not in tokens)
        for kind in model.kinds:  # a look may name a card by its kind even where zones show labels
            if kind.name not in tokens:
                tokens.append(kind.name)
            self.canon.setdefault(kind.name, kind.name)
        self.tokens = tokens
        self.token_index = {t: i for i, t in enumerate(tokens)}
        self.seats = [seat_label(p) for p in range(players)]
        # a kind counter's value: the kind's number in declaration order (1 the first), no kind 0
        self.kind_numbers = {k.name: float(i + 1) for i, k in enumerate(model.kinds)} | {"no kind": 0.0}
        # a face counter's value: the face's number in declaration order (1 the first), no face 0
        self.face_numbers = {f.name: float(i + 1) for i, f in enumerate(model.faces)} | {"no face": 0.0}
        # a text counter's value: its number among every text the rules can give one (1 the first in
        # sorted order; the empty text 0)
        self.text_numbers = {t: float(i + 1) for i, t in enumerate(sorted(model_texts(model) - {""}))} | {"": 0.0}
        self.counter_keys = self._counter_keys(template)
        self.zone_keys = list(template["zones"])
        entering = kinds_entering(model)
        by_zone = {z.index: z for z in model.zones}
        self.zone_layout: list[tuple[str, bool, dict[str, int], dict[str, str]]] = []
        # per zone key: whether it has a visible slot, counted name -> slot, shown name -> counted name
        self.head = 3 * players + 1 + 3  # you, current, waiting (+ chance), turn, over, ask
        i = self.head + 2 * len(self.counter_keys)
        self.zone_start: list[int] = []
        names = self._head_names()
        for key in self.zone_keys:
            zone = by_zone[_zone_of(model, key)]
            self.zone_start.append(i)
            names.append(f"{key}: count")
            i += 1
            owner = zone.visibility == "owner"
            if owner:
                names.append(f"{key}: visible")
                i += 1
            slots: dict[str, int] = {}
            pile = zone.per_class is not None or zone.per_kind is not None
            if zone.visibility != "hidden":
                for k in sorted(entering.get(zone.index, ())):
                    for token in (pile_names if pile else names_of_kind).get(k, ()):
                        if token not in slots:
                            slots[token] = i
                            names.append(f"{key}: {token}")
                            i += 1
            self.zone_layout.append((key, owner, slots, self.canon_pile if pile else self.canon))
        self.looks_at = i
        names += ["looks"] + [f"last look: {t}" for t in tokens]
        self.size = i + 1 + len(tokens)
        self.names = names
        assert len(names) == self.size

    def _counter_keys(self, obs: dict[str, Any]) -> list[tuple[str, str, str | None]]:
        keys: list[tuple[str, str, str | None]] = []
        seats = {seat_label(p) for p in range(self.players)}
        for group in ("counters", "bookkeeping"):
            for name, value in obs[group].items():
                if isinstance(value, dict) and set(value) == seats:  # one value per player
                    keys.extend((group, name, who) for who in value)
                else:
                    keys.append((group, name, None))
        return keys

    def bounds(self, components: int) -> tuple[list[float], list[float]]:
        """Each slot's least and most value: one-hots and flags 0..1, counts 0..``components``, numbers as stored."""
        big = float(MAX_NUMBER)
        low = [0.0] * self.size
        high = [1.0] * self.size
        n = self.players
        high[3 * n + 1] = big  # the turn number
        i = self.head
        for _key in self.counter_keys:
            low[i], high[i] = -big, big
            i += 2
        for (_key, _owner, slots, _canon), at in zip(self.zone_layout, self.zone_start):
            high[at] = float(components)
            for slot in slots.values():
                high[slot] = float(components)
        high[self.looks_at] = big
        for slot in range(self.looks_at + 1, self.size):
            high[slot] = float(components)
        return low, high

    def _head_names(self) -> list[str]:
        names = [f"you={s}" for s in self.seats] + [f"current={s}" for s in self.seats]
        names += [f"waiting_for={s}" for s in [*self.seats, "chance"]] + ["turn", "over", "ask"]
        for _group, name, who in self.counter_keys:
            shown = name if who is None else f"{name} of {who}"
            names += [shown, f"{shown}: hidden"]
        return names

    def encode(self, obs: dict[str, Any]) -> list[float]:
        """The observation as ``size`` floats."""
        out = [0.0] * self.size
        n = self.players
        if obs["you"] is not None:
            out[self._seat(obs["you"])] = 1.0
        if obs["current"] is not None:  # a game played in rounds has no current player
            out[n + self._seat(obs["current"])] = 1.0
        waiting = obs.get("waiting_for")
        if waiting == "chance":
            out[3 * n] = 1.0
        elif waiting is not None:
            out[2 * n + self._seat(waiting)] = 1.0
        out[3 * n + 1] = float(obs["turn"])
        out[3 * n + 2] = 1.0 if obs["over"] else 0.0
        out[3 * n + 3] = 1.0 if obs.get("ask") else 0.0
        i = self.head
        groups = obs["counters"], obs["bookkeeping"]
        if sum(len(g) for g in groups) != len({(g, name) for g, name, _ in self.counter_keys}):
            raise EncodingError("an observation's counters differ from the game's")
        for group, name, who in self.counter_keys:
            value = obs[group][name]
            if who is not None:
                value = value[who]
            if isinstance(value, dict) and value.get("hidden") is True and len(value) == 1:
                out[i + 1] = 1.0
            else:
                out[i] = self._number(value, name)
            i += 2
        zones = obs["zones"]
        if len(zones) != len(self.zone_keys):
            raise EncodingError("an observation's zones differ from the game's",
                                hint=f"zones: {', '.join(zones)}")
        for (key, owner, slots, canon), at in zip(self.zone_layout, self.zone_start):
            content = zones[key]
            if isinstance(content, dict):
                out[at] = float(content["hidden"])
            else:
                out[at] = float(len(content))
                if owner:
                    out[at + 1] = 1.0
                for token in content:
                    slot = slots.get(canon.get(token, token))
                    if slot is None:
                        raise EncodingError(f"{token!r} in {key} has no slot in the encoding")
                    out[slot] += 1.0
        i = self.looks_at
        looks = obs.get("seen") or []
        out[i] = float(len(looks))
        if looks:
            for token in looks[-1]["components"]:
                out[i + 1 + self._token(self.canon.get(token, token))] += 1.0
        return out

    def _seat(self, label: str) -> int:
        try:
            return self.seats.index(label)
        except ValueError:
            raise EncodingError(f"unknown player {label!r} in an observation") from None

    def _token(self, token: str) -> int:
        index = self.token_index.get(token)
        if index is None:
            raise EncodingError(f"{token!r} in an observation has no slot in the encoding")
        return index

    def _number(self, value: Any, name: str) -> float:
        """A counter's value as a number: a seat as its number (P1 is 1, nobody 0), "7/3" as 7/3."""
        if isinstance(value, bool | int | float | Fraction):
            return float(value)
        if isinstance(value, str):
            if value in self.seats:
                return float(self.seats.index(value) + 1)
            if value == "nobody":
                return 0.0
            if value in self.kind_numbers:
                return self.kind_numbers[value]
            if value in self.face_numbers:
                return self.face_numbers[value]
            try:
                return float(ascii_fraction(value))
            except ValueError:
                pass
            if value in self.text_numbers:
                return self.text_numbers[value]
        raise EncodingError(f"counter {name!r} holds {value!r}, which the encoding cannot read as a number")


def model_texts(model: m.Model) -> set[str]:
    """Every text the checked rules can give a text counter without writing it out of parts: their
    text constants, the text values of attributes (and their defaults) and of options."""
    texts: set[str] = set()
    for attribute in model.attributes.values():
        if isinstance(attribute.default, str):
            texts.add(attribute.default)
    for owner in (*model.kinds, *model.faces):
        texts.update(v for v in owner.values.values() if isinstance(v, str))
    texts.update(o.value for o in model.options.values() if isinstance(o.value, str))
    seen: set[int] = set()
    stack: list[Any] = [model.counters, model.rules, model.triggers]
    while stack:
        node = stack.pop()
        if id(node) in seen or isinstance(node, str | int | float | bool | Fraction) or node is None:
            continue
        seen.add(id(node))
        if type(node) is m.Const:
            if node.type == m.STR and isinstance(node.value, str):
                texts.add(node.value)
        elif isinstance(node, list | tuple | set | frozenset):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.values())
        elif attrs.has(type(node)):
            stack.extend(getattr(node, f.name) for f in attrs.fields(type(node)) if f.name != "span")
    return texts


def _zone_of(model: Any, key: str) -> int:
    """The zone an observation's zone key names ("hand of P2", "under of Card#1", "middle")."""
    best = None
    for z in model.zones:
        if key == z.name or key.startswith(z.name + " of "):
            if best is None or len(z.name) > len(best.name):
                best = z
    if best is None:
        raise EncodingError(f"the observation names a zone {key!r} the game does not have")  # pragma: no cover
    return best.index


def kinds_entering(model: Any) -> dict[int, set[int]]:
    """Per zone, the kinds whose components can ever be in it (the box holds every kind at first)."""
    every = {k.index for k in model.kinds}
    out: dict[int, set[int]] = {0: set(every)}
    for rule in model.rules:
        for s in find_statements(rule.body, (m.MoveS, m.MoveMarkerS)):
            if isinstance(s, m.MoveMarkerS):
                out.setdefault(s.dest.zone, set()).add(s.kind)
                continue
            q = s.query
            kinds = set(q.kinds) if q.kinds is not None and not q.kind_locals else every
            out.setdefault(s.dest.zone, set()).update(kinds)
    return out


def _kinds_addressed(model: Any) -> set[int]:
    """The kinds whose components some ``choose`` option or ``ask`` answer ranges over one by one."""
    every = {k.index for k in model.kinds}
    out: set[int] = set()
    for rule in model.rules:
        for s in find_statements(rule.body, (m.ChooseS, m.AskS)):
            ranges = [b for opt in s.options for b in opt.bindings] if isinstance(s, m.ChooseS) else \
                [b for d in s.dynamic if d is not None for b in d[1]]
            for _slot, it in ranges:
                if it.type == m.COMPONENT and it.query is not None:
                    q = it.query
                    out |= set(q.kinds) if q.kinds is not None and not q.kind_locals else every
    return out
