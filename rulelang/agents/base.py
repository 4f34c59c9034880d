"""Agents choose among legal actions, seeing only their own observation."""

from __future__ import annotations

from typing import Any, Protocol

from rulelang.rng import Rng


class Agent(Protocol):
    """Anything that picks one of the legal action labels."""

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        """Return one of ``legal``."""
        ...  # pragma: no cover


class RandomAgent:
    """Picks uniformly among the legal actions with its own seeded stream."""

    needs_observation = False

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = Rng(seed, stream=1 + seat)
        self.choose_index = self.rng.pick  # type: ignore[method-assign]  # the same pick as below, fewer calls

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        """A uniformly random legal action."""
        return legal[self.rng.below(len(legal))]

    def choose_index(self, n: int) -> int:
        """The same pick as :meth:`choose`, by position: no label needs to be written out."""
        return self.rng.below(n)


class FirstAgent:
    """Always picks the first legal action (useful for scripted, repeatable tests)."""

    needs_observation = False

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        """The first legal action."""
        return legal[0]


AGENT_KINDS = ("random", "human", "first")
