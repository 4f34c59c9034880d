"""Counting both sides of a hand-written baseline (benchmarks/baseline_*.py) against its rules file.

Each side adds to a tally ``[decisions, options, one-option decisions, two-option decisions]``:
the rules file through ``CountingAgent`` (one per seat, picking uniformly like RandomAgent),
the baseline through ``CountingRng`` as its agent stream (every ``pick(n)`` is one decision
among ``n`` options; the baselines draw with ``pick``, as generated code does).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.play import play
from rulelang.rng import Rng


def _count(tally: list[int], options: int) -> None:
    tally[0] += 1
    tally[1] += options
    tally[2] += options == 1
    tally[3] += options == 2


class CountingAgent:
    """Picks uniformly like RandomAgent, counting decisions and their options."""

    needs_observation = False

    def __init__(self, seed: int, seat: int, tally: list[int]) -> None:
        self.rng = Rng(seed, 1 + seat)
        self.tally = tally

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:
        _count(self.tally, len(legal))
        return legal[self.rng.below(len(legal))]


class CountingRng(Rng):
    """The baseline's agent stream: every ``pick`` is one decision among n options."""

    __slots__ = ("tally",)

    def __init__(self, seed: int, stream: int, tally: list[int]) -> None:
        super().__init__(seed, stream)
        self.tally = tally

    def pick(self, n: int) -> int:
        """The same draw as ``Rng.pick``, counted as one decision among ``n``."""
        _count(self.tally, n)
        return super().pick(n)


class Script:
    """A stand-in for an agent stream: answers ``pick(n)`` from a script, records each n."""

    def __init__(self, *answers: int) -> None:
        self.answers = list(answers)
        self.asked: list[int] = []

    def pick(self, n: int) -> int:
        """The next scripted answer among ``n`` options."""
        self.asked.append(n)
        answer = self.answers.pop(0)
        assert 0 <= answer < n, f"scripted {answer} among {n} options"
        return answer


def play_paired(engine: Any, players: int, games: int,
                baseline: Callable[[Rng, Rng], dict]) -> tuple[list[int], list[int], list[tuple[Any, dict]]]:
    """Seeds 0..games-1 played by the rules file and by ``baseline(chance, agent)``, each counted.

    Returns the rules file's tally, the baseline's tally, and per seed (final state, baseline result).
    """
    dsl = [0, 0, 0, 0]  # decisions, options, one-option decisions, two-option decisions
    base = [0, 0, 0, 0]
    pairs = []
    for seed in range(games):
        st = engine.new_state(players)
        play(engine, st, [CountingAgent(seed, s, dsl) for s in range(players)], seed)
        pairs.append((st, baseline(Rng(seed, 0), CountingRng(seed, 1, base))))
    return dsl, base, pairs
