"""Local parallel runs: chunks taken from a shared counter by this process and forked workers.

The records (and so every aggregate) must not depend on how many processes play, how the
chunks fall, or which process plays which game; a short run starts no worker; a broken
game or a dead worker is an error, never a hang or a silent gap.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulelang.agents.spec import AgentSpec, seat_specs
from rulelang.game import load_game
from rulelang.sim import pool
from rulelang.sim.driver import SimError, simulate
from rulelang.sim.runner import BatchResult, SimJob, play_game
from rulelang.sim.summary import summarize

ROOT = Path(__file__).resolve().parents[2]
CHICKEN = str(ROOT / "games/chicken.rules")


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count the worker processes started (by this process's pid), forking even for short runs."""
    return _watch_starts(monkeypatch, os.getpid)


def _watch_starts(monkeypatch: pytest.MonkeyPatch, note: Callable[[], int]) -> list[int]:
    """What ``note()`` says as each worker process is started, forking even for short runs."""
    seen: list[int] = []
    real = pool._start_worker

    def watching(context: Any, job: SimJob, chunks: pool.Chunks) -> Any:
        seen.append(note())
        return real(context, job, chunks)

    monkeypatch.setattr(pool, "_start_worker", watching)
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)
    return seen


def _take_all(games: int, lanes: int, fixed: int | None = None, start: int = 0) -> list[range]:
    chunks = pool.Chunks(pool._context(), games, lanes, fixed, start=start)
    out = []
    while (part := chunks.take()) is not None:
        out.append(part)
    return out


def test_chunks_cover_every_game_once_and_shrink_towards_the_end() -> None:
    parts = _take_all(1000, 2, start=1)
    assert [i for p in parts for i in p] == list(range(1, 1000))
    sizes = [len(p) for p in parts]
    assert sizes == sorted(sizes, reverse=True)
    assert max(sizes) == pool.MAX_CHUNK and sizes[-1] == 1
    # The last chunks are small (the processes end together), and there are few chunks in all.
    assert sum(sizes[-4:]) <= 8 and len(parts) < 60
    assert [len(p) for p in _take_all(10, 2, fixed=4)] == [4, 4, 2]
    assert _take_all(0, 2) == []


def test_chunk_size_is_a_share_of_what_is_left() -> None:
    assert pool.chunk_size(80, 2) == 80 // (2 * pool.SHARE)
    assert pool.chunk_size(81, 2) == 80 // (2 * pool.SHARE) + 1
    assert pool.chunk_size(10_000, 2) == pool.MAX_CHUNK
    assert pool.chunk_size(3, 2) == 1
    assert pool.chunk_size(1, 8) == 1


def test_a_short_run_starts_no_worker() -> None:
    assert not pool.should_fork(0.001, 4)  # four more games of a millisecond: not worth a process
    assert not pool.should_fork(10.0, 1)  # one game left: this process plays it
    assert pool.should_fork(0.001, 1000)
    assert pool.should_fork(1.0, 2)


def test_workers_play_the_same_games_as_one_process(started: list[int]) -> None:
    engine = load_game(str(ROOT / "games/chicken-eggspansion.rules"))
    job = SimJob(str(ROOT / "games/chicken-eggspansion.rules"), (), 3,
                 (AgentSpec("greedy"), AgentSpec("random"), AgentSpec("random")), seed=11)
    one, _ = simulate(job, 24, jobs=1)
    assert started == []
    seen: list[int] = []
    two, _ = simulate(job, 24, jobs=2, on_batch=seen.append)
    assert started == [os.getpid()] and sum(seen) == 24 and len(seen) > 2
    three, _ = simulate(job, 24, jobs=3, batch_size=3)
    assert len(started) == 3
    assert one == two == three
    assert [r.index for r in two] == list(range(24))
    assert summarize(engine, job, one) == summarize(engine, job, two) == summarize(engine, job, three)


def test_workers_fork_with_the_loaded_objects_frozen_and_unfrozen_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """The objects alive when workers fork are out of the collector's generations (no collection writes
    to the pages both processes share); after the run they are back, and a caller's own freeze is kept."""
    import gc

    at_fork = _watch_starts(monkeypatch, gc.get_freeze_count)
    job = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=3)
    one, _ = simulate(job, 12, jobs=1)
    assert at_fork == [] and gc.get_freeze_count() == 0
    two, _ = simulate(job, 12, jobs=2)
    assert one == two
    assert len(at_fork) == 1 and at_fork[0] > 1000  # the engine, its generated code, the modules
    assert gc.get_freeze_count() == 0
    gc.freeze()  # someone else's freeze: left as it is
    try:
        frozen = gc.get_freeze_count()
        assert simulate(job, 12, jobs=2)[0] == one
        assert gc.get_freeze_count() > frozen // 2  # (objects freed since leave it)
    finally:
        gc.unfreeze()


def test_more_jobs_than_games_start_no_idle_workers(started: list[int]) -> None:
    """'-j 1000' for 3 games started 1000 processes (and stalled a small machine): this process plays one."""
    job = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=5)
    records, _ = simulate(job, 3, jobs=1000, batch_size=1)
    assert len(started) == 1  # game 0 here, games 1 and 2 on this process and one worker
    assert [r.index for r in records] == [0, 1, 2]
    simulate(job, 1, jobs=1000)
    assert len(started) == 1  # one game: no worker


def test_a_slow_first_game_is_what_starts_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    count: list[int] = []
    real = pool._start_worker
    monkeypatch.setattr(pool, "_start_worker", lambda *a: count.append(1) or real(*a))
    job = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=5)
    monkeypatch.setattr(pool, "SOLO_SECONDS", 1e9)
    assert [r.index for r in simulate(job, 30, jobs=2)[0]] == list(range(30)) and count == []
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)
    assert [r.index for r in simulate(job, 30, jobs=2)[0]] == list(range(30)) and count == [1]


def _first_failure(job: SimJob, games: int) -> int:
    engine = load_game(job.path)
    for i in range(games):
        try:
            play_game(engine, job, i)
        except Exception:
            return i
    raise AssertionError("no game failed")


def test_the_earliest_broken_game_is_reported_for_any_number_of_workers(started: list[int]) -> None:
    base = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=3)
    engine = load_game(CHICKEN)
    first, _ = play_game(engine, base, 0)
    # Game 0 ends within the limit (so the workers start), some later game does not.
    job = SimJob(CHICKEN, (), 2, base.agents, seed=3, max_steps=first.step + 1)
    broken = _first_failure(job, 60)
    assert broken > 0
    messages = []
    for jobs, size in ((1, None), (2, None), (2, 1), (3, 2)):
        with pytest.raises(SimError) as caught:
            simulate(job, 60, jobs=jobs, batch_size=size)
        messages.append(str(caught.value))
    assert started  # the parallel runs did fork
    assert messages[0].startswith(f"game {broken} (seed {3 + broken}):")
    assert messages == [messages[0]] * 4


def test_a_worker_that_dies_is_an_error_not_a_gap(started: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    parent = os.getpid()
    real = pool.run_batch

    def dying(job: SimJob, indices: list[int]) -> BatchResult:
        if os.getpid() != parent:
            os._exit(3)
        return real(job, indices)

    monkeypatch.setattr(pool, "run_batch", dying)
    job = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=5)
    with pytest.raises(SimError, match=r"a worker process stopped \(exit code 3\)"):
        simulate(job, 40, jobs=2)
    assert started


def test_workers_started_without_fork_load_the_game_themselves(started: list[int],
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Where there is no fork (macOS, Windows), a worker starts empty and loads the rules itself."""
    import multiprocessing
    import threading

    monkeypatch.setattr(pool, "_context", lambda: multiprocessing.get_context("spawn"))
    from_worker = threading.Event()
    real = pool.run_batch

    def waiting(job: SimJob, indices: list[int]) -> BatchResult:
        if indices[0] > 0:  # this process waits (a minute at most) until the worker has sent a chunk
            from_worker.wait(60)
        return real(job, indices)

    job = SimJob(CHICKEN, (), 3, tuple(seat_specs(["random"], 3)), seed=9)
    one, _ = simulate(job, 30, jobs=1)

    def seen(n: int) -> None:
        if threading.current_thread() is not threading.main_thread():
            from_worker.set()

    monkeypatch.setattr(pool, "run_batch", waiting)  # this process only: a spawned worker imports its own
    two, _ = simulate(job, 30, jobs=2, batch_size=2, on_batch=seen)
    assert started and from_worker.is_set() and one == two


def test_a_worker_whose_parent_is_gone_takes_no_more_games() -> None:
    """A worker left behind by a killed command stops at its next chunk instead of playing the whole run."""
    job = SimJob(CHICKEN, (), 2, tuple(seat_specs(["random"], 2)), seed=5)
    chunks = pool.Chunks(pool._context(), 100, 2, None)
    mine, theirs = pool._context().Pipe(duplex=False)
    pool._worker(job, chunks, theirs, parent=-1)  # -1: never this process's parent
    assert chunks.take() == range(0, 25)  # nothing was taken
    with pytest.raises(EOFError):
        mine.recv()  # and the pipe was closed without a result
    mine, theirs = pool._context().Pipe(duplex=False)
    pool._worker(job, chunks, theirs, parent=os.getppid())
    assert chunks.take() is None  # with its parent there, it plays the rest
    assert mine.recv()[0] == 25
