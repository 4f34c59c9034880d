"""Agent specifications from the command line: ``random``, ``greedy:samples=2``, ``mcts:iters=200``."""

from __future__ import annotations

import math
from typing import Any

import attrs

from rulelang.agents.base import Agent, FirstAgent, RandomAgent
from rulelang.agents.bounds import MAX_C, MAX_DEPTH, MAX_ITERS, MAX_SAMPLES
from rulelang.agents.human import HumanAgent
from rulelang.agents.search import GreedyAgent, MctsAgent
from rulelang.numbers import ascii_decimal, ascii_whole

# Each kind and its parameters with their types, defaults and largest values (docs/simulate.md, "Bounds").
PARAMS: dict[str, dict[str, tuple[type, Any]]] = {
    "random": {},
    "first": {},
    "human": {},
    "greedy": {"samples": (int, 1)},
    "mcts": {"iters": (int, 200), "c": (float, 0.7), "depth": (int, 200)},
}
BOUNDS: dict[str, int | float] = {"samples": MAX_SAMPLES, "iters": MAX_ITERS, "depth": MAX_DEPTH, "c": MAX_C}
KINDS = tuple(PARAMS)


class AgentSpecError(ValueError):
    """An agent specification that does not name a known agent or parameter."""


@attrs.frozen
class AgentSpec:
    """An agent kind with its parameters (plain data: it travels to worker processes)."""

    kind: str
    params: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        if not self.params:
            return self.kind
        return self.kind + ":" + ",".join(f"{k}={v}" for k, v in self.params)

    def make(self, seed: int, seat: int) -> Agent:
        """A fresh agent for ``seat`` in the game played with ``seed``."""
        p = dict(self.params)
        if self.kind == "random":
            return RandomAgent(seed, seat)
        if self.kind == "first":
            return FirstAgent()
        if self.kind == "human":
            return HumanAgent(seat)
        if self.kind == "greedy":
            return GreedyAgent(seed, seat, **p)
        return MctsAgent(seed, seat, **p)


def parse_agent(text: str) -> AgentSpec:
    """``"mcts:iters=50,c=1.0"`` -> AgentSpec; raise AgentSpecError with what is wrong."""
    kind, _, rest = text.strip().partition(":")
    kind = kind.strip().lower()
    if kind not in PARAMS:
        raise AgentSpecError(f"unknown agent {kind!r}; agents: {', '.join(KINDS)}")
    allowed = PARAMS[kind]
    params: dict[str, Any] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq:
            raise AgentSpecError(f"{item!r} is not NAME=VALUE (e.g. mcts:iters=200)")
        if name not in allowed:
            known = ", ".join(allowed) or "none"
            raise AgentSpecError(f"agent {kind!r} has no parameter {name!r} (parameters: {known})")
        typ = allowed[name][0]
        top = BOUNDS[name]
        try:  # ASCII digits only: int() and float() would also read "١٢", "1_000" and "nan"
            params[name] = ascii_whole(value) if typ is int else ascii_decimal(value)
        except ValueError:
            if typ is int:
                raise AgentSpecError(f"{kind}:{name} must be a int (a whole number in the digits 0-9), "
                                     f"not {value.strip()[:40]!r}") from None
            params[name] = math.nan  # refused just below, with the finite-number message
        if typ is int and params[name] < 1:
            raise AgentSpecError(f"{kind}:{name} must be at least 1")
        if typ is int and params[name] > top:
            raise AgentSpecError(f"{kind}:{name} must be at most {top:,}, not {params[name]:,}")
        if typ is float and not 0 <= params[name] <= top:  # nan and inf make every choice look alike
            raise AgentSpecError(f"{kind}:{name} must be a finite number, 0 or more (at most {top:g}), "
                                 f"in the digits 0-9, not {value.strip()[:40]!r}")
    return AgentSpec(kind, tuple(sorted(params.items())))


def seat_specs(texts: tuple[str, ...] | list[str], players: int) -> list[AgentSpec]:
    """One spec per seat: one value for every seat, or one per seat (missing seats play random)."""
    specs = [parse_agent(t) for t in texts] or [AgentSpec("random")]
    if len(specs) == 1:
        return specs * players
    if len(specs) > players:
        raise AgentSpecError(f"{len(specs)} agents for {players} players")
    return specs + [AgentSpec("random")] * (players - len(specs))
