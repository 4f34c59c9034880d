"""Playing a run's games on several local processes: this one and workers forked from it.

Every process (this one included, so ``--jobs 2`` forks one worker) takes the next chunk of
game indices from a counter they share, plays it, and this process collects the records.
Chunks are a share of the games still untaken (guided scheduling): large while much is left,
one or two games at the end, so that the processes finish together without paying the
per-chunk cost of many small ones. A run too short to gain from a second process (judged
from the time its first game took) is played here alone. Game ``i`` is the same game in any
process, so the records do not depend on the split.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

import attrs

from rulelang.errors import ErrorList, RulelangError
from rulelang.sim.runner import BatchResult, CoverageUnavailable, SimJob, batches, engines_for, run_batch

# A run whose games would all be played here in less than this (estimated from the first
# game) starts no worker: starting one (fork, its first page copies, the pipe) costs a few ms.
SOLO_SECONDS = 0.05
# Chunks hold at most this many games (progress stays live) and about 1/(SHARE x processes)
# of the games still untaken.
MAX_CHUNK = 50
SHARE = 2


def chunk_size(untaken: int, lanes: int, largest: int = MAX_CHUNK) -> int:
    """How many of the ``untaken`` games the next chunk holds, with ``lanes`` processes playing."""
    return max(1, min(largest, -(-untaken // (SHARE * max(1, lanes)))))


def should_fork(first_seconds: float, left: int) -> bool:
    """Whether ``left`` more games, each about as long as the first (``first_seconds``), are worth a worker."""
    return left > 1 and first_seconds * left >= SOLO_SECONDS


class Chunks:
    """The next untaken game index, shared by every process of the run (taken under a lock)."""

    def __init__(self, context: Any, games: int, lanes: int, fixed: int | None, start: int = 0) -> None:
        """With ``context`` None the counter is this process's own (no shared memory or semaphore to make)."""
        self.games, self.lanes, self.fixed = games, lanes, fixed
        self._next = context.RawValue("q", start) if context is not None else _Box(start)
        self._lock = context.Lock() if context is not None else threading.Lock()

    def take(self) -> range | None:
        """The next chunk of game indices, or None when every game is taken."""
        with self._lock:
            lo = self._next.value
            if lo >= self.games:
                return None
            hi = min(self.games, lo + (self.fixed or chunk_size(self.games - lo, self.lanes)))
            self._next.value = hi
        return range(lo, hi)

    def stop(self) -> None:
        """Take every game left, so that no process starts another chunk (after an error)."""
        with self._lock:
            self._next.value = self.games


@attrs.define
class _Box:
    """A counter for one process (what a shared ``RawValue`` is for several)."""

    value: int


def _worker(job: SimJob, chunks: Chunks, conn: Connection, parent: int) -> None:
    """A worker process: play chunks until none is left (or the process that started it is gone)."""
    try:
        while os.getppid() == parent and (part := chunks.take()) is not None:
            result = run_batch(job, list(part))
            conn.send((part.start, result))
            if result.error:
                chunks.stop()
                break
    except (KeyboardInterrupt, BrokenPipeError):  # Ctrl-C reaches the whole process group; or the
        pass  # parent stopped reading: this process ends quietly
    finally:
        conn.close()


def _context() -> Any:
    """Fork on Linux (workers start with the loaded game), else the platform's default (they load it)."""
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux") else None)


def run_local(job: SimJob, games: int, jobs: int, on_batch: Callable[[int], None] | None = None,
              batch_size: int | None = None) -> Iterator[BatchResult]:
    """Play ``games`` games on up to ``jobs`` processes; yield the batches in index order.

    ``on_batch(n)`` is called with the number of games of each batch as it finishes
    (in any order), for progress. ``batch_size``, if given, fixes the batches' size.
    """
    if jobs > 1 and games > 1:
        yield from run_pool(job, games, jobs, on_batch=on_batch, batch_size=batch_size)
        return
    for part in batches(games, batch_size or max(1, min(MAX_CHUNK, games // 16))):
        result = run_batch(job, part)
        if on_batch:
            on_batch(len(result.records))
        yield result
        if result.error:
            return


def run_pool(job: SimJob, games: int, jobs: int, on_batch: Callable[[int], None] | None = None,
             batch_size: int | None = None) -> list[BatchResult]:
    """Play ``games`` games on up to ``jobs`` processes (this one included): the chunks in index order.

    The list stops at the first chunk with an error (the earliest broken game of the run),
    as a run on one process would. ``on_batch(n)`` is called as each chunk ends.
    """
    done: list[tuple[int, BatchResult]] = []
    lock = threading.Lock()

    def finished(start: int, result: BatchResult) -> None:
        with lock:
            done.append((start, result))
        if on_batch:
            on_batch(len(result.records))

    try:
        engines_for(job)  # loaded before the first game is timed (and once: forked workers start with it)
    except (RulelangError, ErrorList, CoverageUnavailable):
        pass  # the first game reports it
    started = time.perf_counter()
    first = run_batch(job, [0])
    finished(0, first)
    if first.error or games == 1:
        return _in_order(done)
    fork = jobs > 1 and should_fork(time.perf_counter() - started, games - 1)
    lanes = min(jobs, games - 1) if fork else 1
    context = _context() if lanes > 1 else None
    chunks = Chunks(context, games, lanes, batch_size, start=1)
    workers: list[Any] = []
    reader = None
    # Objects alive now (the loaded game, the engine, the imported modules) move out of the garbage
    # collector's generations before forking: a collection in either process then does not write
    # to their pages, which would copy each page shared with the other process (copy-on-write).
    frozen = lanes > 1 and gc.isenabled() and gc.get_freeze_count() == 0
    if frozen:
        gc.freeze()
    try:
        conns = []
        for _ in range(lanes - 1):
            try:
                process, conn = _start_worker(context, job, chunks)
            except OSError:  # no more processes to be had: the ones started (and this one) play it all
                break
            workers.append(process)
            conns.append(conn)
        if conns:
            reader = threading.Thread(target=_read, args=(conns, finished, chunks, games), daemon=True)
            reader.start()
        while (part := chunks.take()) is not None:
            result = run_batch(job, list(part))
            finished(part.start, result)
            if result.error:
                chunks.stop()
                break
        if reader is not None:
            reader.join()
        for process in workers:
            process.join()
    except BaseException:
        chunks.stop()
        for process in workers:
            process.terminate()
        for process in workers:
            process.join()
        raise
    finally:
        if frozen:
            gc.unfreeze()
    results = _in_order(done)
    played = sum(len(r.records) for r in results)
    if not (results and results[-1].error) and played != games:
        codes = ", ".join(str(p.exitcode) for p in workers if p.exitcode)
        results.append(BatchResult((), error=f"a worker process stopped (exit code {codes or '?'}) before its "
                                             f"games were played: {played} of {games} games played"))
    return results


def _start_worker(context: Any, job: SimJob, chunks: Chunks) -> tuple[Any, Connection]:
    """Start a worker process: (the process, the end of the pipe its results arrive on)."""
    mine, theirs = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(job, chunks, theirs, os.getpid()), daemon=True)
    process.start()
    theirs.close()
    return process, mine


def _read(conns: list[Connection], finished: Callable[[int, BatchResult], None], chunks: Chunks,
          games: int) -> None:
    """Collect the workers' chunks as they arrive, until every worker has closed its pipe."""
    live = list(conns)
    while live:
        for conn in wait(live):
            assert isinstance(conn, Connection)
            try:
                start, result = conn.recv()
            except (EOFError, OSError):
                live.remove(conn)
                conn.close()
                continue
            except Exception as exc:  # a message that does not unpickle: that worker's results are lost
                live.remove(conn)
                conn.close()  # its next send fails, and it ends
                chunks.stop()
                start, result = games, BatchResult((), error=f"the results of a worker process were unreadable: {exc}")
            if result.error:
                chunks.stop()
            finished(start, result)


def _in_order(done: list[tuple[int, BatchResult]]) -> list[BatchResult]:
    """The chunks sorted by their first game, up to and including the first with an error."""
    out = []
    for _, result in sorted(done, key=lambda pair: pair[0]):
        out.append(result)
        if result.error:
            break
    return out
