"""The Ray back end: batches of game indices as Ray tasks, on a cluster or a local Ray it starts.

Each task is :func:`rulelang.sim.runner.run_batch`, the same function local processes
run, so the records (and therefore every statistic) are the same as ``--backend local``.
The rules files are read by the workers at the paths given: on a cluster, run from a
directory every node sees (a shared file system), or start Ray with a ``working_dir``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rulelang.sim.runner import BatchResult, SimJob, batches, run_batch

RAY_NEEDED = "--backend ray needs Ray: pip install 'rulelang[ray]'"


class RayUnavailable(RuntimeError):
    """Ray is not installed."""


def ray_batch_size(games: int, cpus: int) -> int:
    """Games per task: about four tasks per CPU, at least 10 games (each task well over 10 ms)."""
    return max(10, min(200, games // max(1, 4 * cpus)))


def _package_root() -> str:
    """The directory that holds the ``rulelang`` package this process runs."""
    import rulelang

    return str(Path(rulelang.__file__).resolve().parent.parent)


def run_ray(job: SimJob, games: int, address: str | None = None, batch_size: int | None = None,
            on_batch: Callable[[int], None] | None = None, num_cpus: int | None = None,
            runtime_env: dict[str, Any] | None = None) -> Iterator[BatchResult]:
    """Play ``games`` games of ``job`` as Ray tasks; yield the batches in index order.

    Without ``address`` a local Ray is started (with ``num_cpus`` CPUs) whose workers
    run the same rulelang code as this process; with one, the cluster there is used.
    """
    try:
        import ray
    except ImportError:
        raise RayUnavailable(RAY_NEEDED) from None
    started = False
    if not ray.is_initialized():
        if address:
            ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
        else:
            env = runtime_env or {"env_vars": {"PYTHONPATH": os.pathsep.join(
                filter(None, [_package_root(), os.environ.get("PYTHONPATH", "")]))}}
            ray.init(num_cpus=num_cpus, runtime_env=env, include_dashboard=False, log_to_driver=False,
                     configure_logging=False)
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        job = job if Path(job.path).is_absolute() or address else _absolute(job)
        task = ray.remote(run_batch)
        parts = batches(games, batch_size or ray_batch_size(games, cpus))
        refs = [task.remote(job, part) for part in parts]
        if on_batch:
            pending = list(refs)
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for r in ready:
                    on_batch(len(ray.get(r).records))
        for ref in refs:
            result = ray.get(ref)
            yield result
            if result.error:
                return
    finally:
        if started:
            ray.shutdown()


def _absolute(job: SimJob) -> SimJob:
    """The job with its rules path made absolute (local Ray workers start in another directory)."""
    import attrs

    return attrs.evolve(job, path=str(Path(job.path).resolve()))
