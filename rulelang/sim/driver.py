"""Running a simulation on a back end (local processes or Ray) and gathering its records in order."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterable
from typing import TextIO

from rulelang.sim.pool import run_local
from rulelang.sim.runner import BatchResult, GameRecord, SimJob, engines_for


class SimError(Exception):
    """A game of the run broke the rules engine (message formatted like a compiler's)."""


class Progress:
    """'playing: 120/1000 games' on a stream: on a terminal, one line redrawn at most ten times a second;
    elsewhere (a log file, a pipe), a line of its own at most every ten seconds and at the end."""

    def __init__(self, total: int, label: str = "playing", stream: TextIO | None = None) -> None:
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.started = time.perf_counter()
        self._shown = 0.0
        self._closed = False
        self._lock = threading.Lock()
        isatty = getattr(self.stream, "isatty", None)
        self._tty = bool(isatty and isatty())
        self._every = 0.1 if self._tty else 10.0

    def __call__(self, n: int) -> None:
        with self._lock:
            self.done += n
            now = time.perf_counter()
            if now - self._shown >= self._every or self.done >= self.total:
                if not self._tty and self.done < self.total and not self._shown:
                    self._shown = now  # (not a terminal: the first line after ten seconds, not at once)
                    return
                self._shown = now
                rate = self.done / max(now - self.started, 1e-9)
                line = f"{self.label}: {self.done}/{self.total} games ({rate:.1f} games/s)"
                self.stream.write(f"\r{line}" if self._tty else f"{line}\n")
                self.stream.flush()

    def close(self) -> None:
        """End the progress line (once)."""
        if self._closed or not self.done:
            return
        self._closed = True
        if not self._tty:
            return  # (each line ended itself)
        self.stream.write("\n")
        self.stream.flush()


def gather(results: Iterable[BatchResult]) -> tuple[list[GameRecord], list[int] | None]:
    """All records in index order and the summed coverage counts; raise SimError at a broken game."""
    records: list[GameRecord] = []
    coverage: list[int] | None = None
    for result in results:
        if result.error:
            raise SimError(result.error)
        records.extend(result.records)
        if result.coverage is not None:
            coverage = list(result.coverage) if coverage is None else [a + b for a, b in zip(coverage, result.coverage)]
    records.sort(key=lambda r: r.index)
    return records, coverage


def simulate(job: SimJob, games: int, jobs: int = 1, backend: str = "local", address: str | None = None,
             batch_size: int | None = None, on_batch: Callable[[int], None] | None = None,
             ) -> tuple[list[GameRecord], list[int] | None]:
    """Play ``games`` games of ``job``; the result does not depend on ``jobs``, batches or back end.

    Raises CoverageUnavailable here, before any game is sent anywhere, if coverage is
    asked of an engine that cannot count it.
    """
    if job.coverage:
        engines_for(job)
    if backend == "ray":
        from rulelang.sim.ray_backend import run_ray

        return gather(run_ray(job, games, address=address, batch_size=batch_size, on_batch=on_batch,
                              num_cpus=jobs))
    return gather(run_local(job, games, jobs, on_batch=on_batch, batch_size=batch_size))
