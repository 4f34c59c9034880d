"""Shared by the layout bounds (``bound_*.py``): the three sides timed in interleaved rounds, and the check
that a bound plays the engine's own games."""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import Any


def rates(sides: dict[str, Callable[[], None]], games: int, rounds: int) -> dict[str, float]:
    """Games/s of each side (each call plays ``games`` games), the median of ``rounds`` rounds whose
    order alternates, so that machine noise hits every side alike."""
    times: dict[str, list[float]] = {name: [] for name in sides}
    for r in range(rounds):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        for name in order:
            start = time.perf_counter()
            sides[name]()
            times[name].append(time.perf_counter() - start)
    return {name: games / statistics.median(t) for name, t in times.items()}


def checked_and_timed(title: str, engine: Any, players: int, games: int, rounds: int,
                      bound: Callable[[int], Any], baseline: Callable[[int], Any],
                      outcome: Callable[[Any], Any]) -> int:
    """Check that ``bound(seed)`` gives the engine's ``outcome`` of the same random game on 50 seeds, then
    print each side's games/s (the engine's ``play``, the bound, the baseline, each playing seeds 0 to
    ``games`` - 1), the engine's ratios to the baseline and to the bound, and last ``ratio: X`` (bound ÷
    baseline); exit status 1 if a seed's games differ, else 0."""
    from rulelang.agents.base import RandomAgent
    from rulelang.play import play

    def engine_game(seed: int) -> Any:
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        return st

    for seed in range(50):
        got, want = bound(seed), outcome(engine_game(seed))
        if got != want:
            print(f"seed {seed}: the bound gives {got}, the engine {want}", file=sys.stderr)
            return 1
    seeds = range(games)

    def each_seed(game: Callable[[int], Any]) -> Callable[[], None]:
        def side() -> None:
            for seed in seeds:
                game(seed)
        return side

    sides = {"engine": each_seed(engine_game), "bound": each_seed(bound), "baseline": each_seed(baseline)}
    rate = rates(sides, games, rounds)
    print(f"{title}, {players} players, {games} games x {rounds} rounds; same games checked on 50 seeds")
    for name in sides:
        print(f"  {name:9} {rate[name]:9.1f} games/s")
    print(f"engine / baseline: {rate['engine'] / rate['baseline']:.3f}")
    print(f"engine / bound: {rate['engine'] / rate['bound']:.3f}")
    print(f"ratio: {rate['bound'] / rate['baseline']:.3f}")
    return 0
