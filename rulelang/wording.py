"""How player counts read in messages (shared by the engine, the narration and the command line)."""

from __future__ import annotations

__all__ = ["player_counts_text", "players_text"]


def players_text(n: int) -> str:
    """``"1 player"``, ``"3 players"``."""
    return f"{n} player" if n == 1 else f"{n} players"


def player_counts_text(low: int, high: int, joiner: str = " to ") -> str:
    """How many a game takes: ``"2 players"`` for exactly two, ``"2 to 6 players"`` (``joiner`` between)."""
    return players_text(low) if low == high else f"{low}{joiner}{high} players"
