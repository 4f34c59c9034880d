"""A fixed-size numeric encoding of what a player observes.

The layout is fixed per game and number of players, read from the game's model (its
kinds, dice faces, zones and counters) and from the keys of one observation; every
later observation is encoded into the same slots. Anything an observation holds that
the layout has no slot for is an error, never dropped.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rulelang.engine.engine import Engine
from rulelang.envs.common import seat_label
from rulelang.errors import RulelangError
from rulelang.numbers import ascii_fraction


class EncodingError(RulelangError):
    """An observation that does not fit the game's fixed layout."""


class ObservationEncoder:
    """Turns ``Engine.observe`` dictionaries into flat lists of floats of one fixed length.

    Slots, in order: who observes (one-hot over seats), whose turn it is (one-hot), who
    is awaited (one-hot over seats and chance), the turn number, game over, an ``ask``
    pending; every counter (one per player for per-player counters): its value (a seat
    as its number, P1 is 1 and nobody 0) and whether it is hidden from this player; for
    each zone, whether its contents are visible, how many components it holds, and how
    many of each shown name it holds (a copy of a card by its kind, "Card"; a die by
    its label, "Red#1", or with the face it shows, "Red#1=Six"); the number of private
    looks and the names seen in the latest one.
    """

    def __init__(self, engine: Engine, players: int, template: dict[str, Any]) -> None:
        self.players = players
        tokens: list[str] = []
        seen: set[str] = set()
        labels = list(engine.shown_name)
        kinds = [k for k in engine.model.kinds for _ in range(k.count)]
        if len(kinds) != len(labels):
            raise EncodingError("the game's components do not match its kinds")  # pragma: no cover
        faces = engine.model.faces
        for label, kind in zip(labels, kinds):
            name = engine.shown_name[label]
            shown = [name] + [f"{name}={faces[f].name}" for f in dict.fromkeys(kind.faces)]
            for token in shown:
                if token not in seen:
                    seen.add(token)
                    tokens.append(token)
        for kind in engine.model.kinds:  # a look may name a card by its kind even where zones show labels
            if kind.name not in seen:
                seen.add(kind.name)
                tokens.append(kind.name)
        self.tokens = tokens
        self.token_index = {t: i for i, t in enumerate(tokens)}
        self.seats = [seat_label(p) for p in range(players)]
        self.counter_keys = self._counter_keys(template)
        self.zone_keys = list(template["zones"])
        self.head = 3 * players + 1 + 3  # you, current, waiting (+ chance), turn, over, ask
        self.zone_width = 2 + len(tokens)
        self.size = self.head + 2 * len(self.counter_keys) + len(self.zone_keys) * self.zone_width + 1 + len(tokens)
        self.names = self._slot_names()

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

    def _slot_names(self) -> list[str]:
        names = [f"you={s}" for s in self.seats] + [f"current={s}" for s in self.seats]
        names += [f"waiting_for={s}" for s in [*self.seats, "chance"]] + ["turn", "over", "ask"]
        for _group, name, who in self.counter_keys:
            shown = name if who is None else f"{name} of {who}"
            names += [shown, f"{shown}: hidden"]
        for zone in self.zone_keys:
            names += [f"{zone}: visible", f"{zone}: count"] + [f"{zone}: {t}" for t in self.tokens]
        names += ["looks"] + [f"last look: {t}" for t in self.tokens]
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
        for key in self.zone_keys:
            content = zones[key]
            if isinstance(content, dict):
                out[i + 1] = float(content["hidden"])
            else:
                out[i] = 1.0
                out[i + 1] = float(len(content))
                for token in content:
                    out[i + 2 + self._token(token)] += 1.0
            i += self.zone_width
        looks = obs.get("seen") or []
        out[i] = float(len(looks))
        if looks:
            for token in looks[-1]["components"]:
                out[i + 1 + self._token(token)] += 1.0
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
            try:
                return float(ascii_fraction(value))
            except ValueError:
                pass
        raise EncodingError(f"counter {name!r} holds {value!r}, which the encoding cannot read as a number")
