"""Drive a rulelang game from a script: answer each pending decision by hand.

    s = Script(CHICKEN, players=2)          # P1 starts (random_first_player = false)
    s.choose("Go For It!")                  # P1's choice
    s.roll("Egg", "Chicken", "Fox", "Blank")  # the next four roll decisions, in order
    assert s.zone("right") == ["White#2"]
    assert s.score(0) == 0

Every answer asserts that the pending decision is of the expected kind, so a script
that drifts from the rules fails where it drifts, not three steps later.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import rulelang
from rulelang.engine.decision import Decision
from rulelang.engine.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
CHICKEN = GAMES / "chicken.rules"
EGGSPANSION = GAMES / "chicken-eggspansion.rules"


@cache
def load(path: str | Path, random_first_player: bool = False) -> Engine:
    """Load (once) the game in ``path``; by default P1 starts."""
    return rulelang.load_game(Path(path), options={"random_first_player": "true" if random_first_player else "false"})


class Script:
    """One game played by hand: each method answers the pending decision(s)."""

    def __init__(self, game: Engine | str | Path, players: int = 2) -> None:
        self.engine = game if isinstance(game, Engine) else load(game)
        opt = self.engine.model.options.get("random_first_player")
        assert opt is None or opt.value is False, "Script needs an engine loaded with random_first_player=false"
        self.st = self.engine.new_state(players)
        self.history: list[tuple[str, Any]] = []

    # ------------------------------------------------------------------ decisions
    @property
    def decision(self) -> Decision:
        """The pending decision (fails when the game is over)."""
        d = self.engine.pending(self.st)
        assert d is not None, f"the game is over ({self.st.result}), but the script goes on"
        return d

    def labels(self) -> list[str]:
        """Labels of the pending decision (legal choices or chance outcomes)."""
        return list(self.decision.labels or [])

    def choose(self, label: str, player: int | None = None) -> Script:
        """Answer the pending choice with ``label``; ``player`` (0-based) checks whose choice it is."""
        d = self.decision
        assert d.kind == "choice", f"expected a choice, but chance is pending: {d.event} {d.labels}"
        if player is not None:
            assert d.player == player, f"expected P{player + 1} to choose, but it is P{(d.player or 0) + 1}"
        assert label in (d.labels or []), f"{label!r} is not offered; offered: {d.labels}"
        self.engine.apply(self.st, label)
        self.history.append(("choose", label))
        return self

    def next_roll(self) -> str | None:
        """Label of the die whose roll is pending, or None when no roll is pending."""
        d = self.engine.pending(self.st)
        if d is None or d.kind != "chance" or "roll" not in d.event:
            return None
        return d.event["roll"]

    def roll(self, *faces: str) -> list[str]:
        """Answer the next ``len(faces)`` roll decisions in order; returns the labels of the dice rolled."""
        rolled = []
        for face in faces:
            d = self.decision
            assert d.kind == "chance" and "roll" in d.event, (
                f"expected a roll (for {face!r}), but pending is {d.kind} {d.event} {d.labels}"
            )
            assert face in (d.labels or []), f"{d.event['roll']} has no face {face!r}; faces: {d.labels}"
            rolled.append(d.event["roll"])
            self.engine.apply(self.st, face)
            self.history.append(("roll", (d.event["roll"], face)))
        return rolled

    def roll_dice(self, faces: dict[str, str]) -> list[str]:
        """Roll by die label: ``{"White#1": "Egg", ...}``; every pending roll must be in ``faces``."""
        rolled = []
        while (die := self.next_roll()) is not None and die in faces:
            rolled += self.roll(faces[die])
        missing = set(faces) - set(rolled)
        assert not missing, f"dice {sorted(missing)} were not rolled; pending: {self.decision.event}"
        return rolled

    def draw(self, *kinds: str) -> Script:
        """Answer the next ``len(kinds)`` random draws (e.g. from the Seed Bag) with these kinds."""
        for kind in kinds:
            d = self.decision
            assert d.kind == "chance" and "draw" in d.event, (
                f"expected a draw (of {kind!r}), but pending is {d.kind} {d.event} {d.labels}"
            )
            assert kind in (d.labels or []), f"cannot draw {kind!r}; possible: {d.labels}"
            self.engine.apply(self.st, kind)
            self.history.append(("draw", kind))
        return self

    def pending_kind(self) -> str | None:
        """"choice", "roll", "draw", "first_player" or None (game over)."""
        d = self.engine.pending(self.st)
        if d is None:
            return None
        if d.kind == "choice":
            return "choice"
        for key in ("roll", "draw", "first_player"):
            if key in d.event:
                return key
        return "chance"

    # ------------------------------------------------------------------ reading the state
    def _zone(self, name: str) -> Any:
        for z in self.engine.model.zones:
            if z.name == name:
                return z
        raise KeyError(f"no zone {name!r}")

    def zone_ids(self, name: str, player: int | None = None) -> list[int]:
        """Component ids in zone ``name`` (of ``player`` for a per-player zone)."""
        z = self._zone(name)
        content = self.st.zones[z.index]
        if z.per_player:
            assert player is not None, f"zone {name!r} is per player: say whose"
            return list(content[player])
        assert player is None, f"zone {name!r} is shared"
        return list(content)

    def zone(self, name: str, player: int | None = None) -> list[str]:
        """Labels of the components in a zone, e.g. ``["White#1", "Yellow#4"]``."""
        labels = self.engine.program.component_labels
        return [labels[c] for c in self.zone_ids(name, player)]

    def kinds(self, name: str, player: int | None = None) -> list[str]:
        """Kind names of the components in a zone, sorted, e.g. ``["White", "White", "Yellow"]``."""
        kinds = self.engine.model.kinds
        return sorted(kinds[self.engine.program.kind_of[c]].name for c in self.zone_ids(name, player))

    def shown(self, name: str, player: int | None = None) -> dict[str, str | None]:
        """Die label -> face name shown (None: not rolled) for a zone."""
        return {self.engine.program.component_labels[c]: self._face(c) for c in self.zone_ids(name, player)}

    def _face(self, c: int) -> str | None:
        f = self.st.faces[c]
        return None if f < 0 else self.engine.model.faces[f].name

    def face(self, label: str) -> str | None:
        """Face name shown by the component ``label`` (None: not rolled)."""
        return self._face(self.engine.program.component_labels.index(label))

    def where(self, label: str) -> str:
        """The zone holding component ``label``: "middle", "held of P2", ..."""
        c = self.engine.program.component_labels.index(label)
        for z in self.engine.model.zones:
            content = self.st.zones[z.index]
            if z.per_player:
                for p, lst in enumerate(content):
                    if c in lst:
                        return f"{z.name} of P{p + 1}"
            elif c in content:
                return z.name
        raise AssertionError(f"{label} is in no zone")

    def score(self, player: int) -> int:
        """The score counter of ``player`` (0-based)."""
        for c in self.engine.model.counters:
            if c.name == "score":
                return self.st.counters[c.index][player]
        raise KeyError("no score counter")

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.st.players)]

    @property
    def current(self) -> int:
        """Seat (0-based) whose turn it is."""
        return self.st.current

    @property
    def over(self) -> bool:
        return self.st.over

    @property
    def result(self) -> dict[str, Any] | None:
        return self.st.result

    def observe(self, seat: int | None) -> dict[str, Any]:
        return self.engine.observe(self.st, seat)
