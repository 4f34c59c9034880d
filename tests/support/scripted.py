"""Chicken!'s tests drive the game by hand with ``Script``, built on ``rulelang.testing.Script``.

    s = Script(CHICKEN, players=2)          # P1 starts (random_first_player = false)
    s.choose("Go For It!")                  # P1's choice
    s.roll("Egg", "Chicken", "Fox", "Blank")  # the next four roll decisions, in order
    assert s.zone("right") == ["White#2"]
    assert s.score(0) == 0

This is the public helper (docs/testing.md) with the older conventions of these tests kept:
players by seat number (0 is P1), a per-player zone's owner as a second argument, and the
``score`` counter. Every answer checks that the pending decision is of the expected kind, so a
script that drifts from the rules fails where it drifts, not three steps later.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import rulelang
from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.testing import Script as PublicScript

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "games"
CHICKEN = GAMES / "chicken.rules"
EGGSPANSION = GAMES / "chicken-eggspansion.rules"


@cache
def load(path: str | Path, random_first_player: bool = False) -> Engine:
    """Load (once) the game in ``path``; by default P1 starts."""
    return rulelang.load_game(Path(path), options={"random_first_player": "true" if random_first_player else "false"})


def _owned(name: str, player: int | None) -> str:
    return name if player is None else f"{name} of {player_label(player)}"


class Script(PublicScript):
    """One game of Chicken! played by hand, players by seat number."""

    def __init__(self, game: Engine | str | Path, players: int = 2) -> None:
        engine = game if isinstance(game, Engine) else load(game)
        opt = engine.model.options.get("random_first_player")
        assert opt is None or opt.value is False, "Script needs an engine loaded with random_first_player=false"
        super().__init__(engine, players=players)

    @property
    def st(self) -> State:
        """The state played."""
        return self.state

    def labels(self) -> list[str]:
        """Labels of the pending decision (legal choices or chance outcomes)."""
        return list(self.decision.labels or [])

    def choose(self, label: str, player: int | None = None) -> Script:  # type: ignore[override]
        """Answer the pending choice with ``label``; ``player`` (0-based) checks whose choice it is."""
        super().choose(label, by=None if player is None else player_label(player))
        return self

    def pending_kind(self) -> str | None:
        """"choice", "roll", "draw", "first_player" or None (game over)."""
        what = self.pending()
        return "first_player" if what == "first player" else what

    def zone_ids(self, name: str, player: int | None = None) -> list[int]:
        """Component ids in zone ``name`` (of ``player`` for a per-player zone)."""
        return self._zone(_owned(name, player))[1]

    def zone(self, name: str, player: int | None = None) -> list[str]:  # type: ignore[override]
        """Labels of the components in a zone, e.g. ``["White#1", "Yellow#4"]``."""
        return super().zone(_owned(name, player))

    def kinds(self, name: str, player: int | None = None) -> list[str]:  # type: ignore[override]
        """Kind names of the components in a zone, sorted, e.g. ``["White", "White", "Yellow"]``."""
        return super().kinds(_owned(name, player))

    def shown(self, name: str, player: int | None = None) -> dict[str, str | None]:
        """Die label -> face name shown (None: not rolled) for a zone."""
        return self.faces(_owned(name, player))

    def score(self, player: int) -> int:
        """The score counter of ``player`` (0-based)."""
        return self.counter("score", player_label(player))

    def scores(self) -> list[int]:
        """Every player's score, by seat."""
        return [self.score(p) for p in range(self.st.players)]

    @property
    def current(self) -> int:  # type: ignore[override]
        """Seat (0-based) whose turn it is."""
        return self.st.current

    @property
    def result(self) -> dict[str, Any] | None:
        """The result once the game is over."""
        return self.st.result

    def observe(self, seat: int | None) -> dict[str, Any]:  # type: ignore[override]
        """What ``seat`` (None: a spectator) sees."""
        return self.engine.observe(self.st, seat)
