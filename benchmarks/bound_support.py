"""Shared by the layout bounds (``bound_*.py``): the three sides timed in interleaved rounds."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
