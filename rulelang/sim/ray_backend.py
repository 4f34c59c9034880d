"""The Ray back end: batches of game indices as Ray tasks, on a cluster or a local Ray it starts.

Each task is :func:`rulelang.sim.runner.run_batch`, the same function local processes
run, so the records (and therefore every statistic) are the same as ``--backend local``.
The rules files are read by the workers at the paths given: on a cluster, run from a
directory every node sees (a shared file system), or start Ray with a ``working_dir``.

The cluster is the one ``address`` names, else the one ``$RAY_ADDRESS`` names (as Ray's own
tools do), else a local Ray started for the run. Whatever goes wrong on the Ray side (no
cluster there, a bad address, a worker that dies) is a :class:`RayFailure` with a hint.
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


class RayFailure(RuntimeError):
    """Ray could not run the simulation: the message says what went wrong, ``hint`` what to try."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def cluster_address(address: str | None) -> str | None:
    """The cluster to use: ``address`` if given, else ``$RAY_ADDRESS`` if set (``local`` or empty: none)."""
    if address:
        return address
    env = os.environ.get("RAY_ADDRESS", "").strip()
    return env if env and env.lower() != "local" else None


def _why(exc: BaseException) -> str:
    """One line of what Ray said (its messages can run to pages)."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return f"{type(exc).__name__}: {text[:300]}{'...' if len(text) > 300 else ''}"


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

    Without ``address`` (and without ``$RAY_ADDRESS``) a local Ray is started (with
    ``num_cpus`` CPUs) whose workers run the same rulelang code as this process; with one,
    the cluster there is used. Raises RayUnavailable without Ray, RayFailure when Ray fails.
    """
    given = bool(address)
    try:
        import ray
    except ImportError:
        raise RayUnavailable(RAY_NEEDED) from None
    except Exception as exc:  # a broken installation fails in many ways on import
        raise RayFailure(f"Ray is installed but does not import ({_why(exc)})",
                         "reinstall it: pip install --force-reinstall 'rulelang[ray]'") from None
    address = cluster_address(address)
    where = f"the Ray cluster at {address}" + (" (from $RAY_ADDRESS)" if not given and address else "")
    started = False
    if not ray.is_initialized():
        try:
            if address:
                ray.init(address=address, runtime_env=runtime_env, log_to_driver=False)
            else:
                env = runtime_env or {"env_vars": {"PYTHONPATH": os.pathsep.join(
                    filter(None, [_package_root(), os.environ.get("PYTHONPATH", "")]))}}
                # "local": a new Ray for this run, even when another one runs on this machine ('ray start')
                ray.init(address="local", num_cpus=num_cpus, runtime_env=env, include_dashboard=False,
                         log_to_driver=False, configure_logging=False)
        except Exception as exc:
            if address:
                raise RayFailure(f"cannot connect to {where}: {_why(exc)}",
                                 "check the address (HOST:PORT of the head node, as 'ray start --head' printed "
                                 "it) and that the cluster is up ('ray status'); unset RAY_ADDRESS and leave out "
                                 "--address to start a local Ray") from None
            raise RayFailure(f"cannot start a local Ray: {_why(exc)}",
                             "try --backend local, or start Ray yourself ('ray start --head') and pass "
                             "--address") from None
        started = True
    try:
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
            results = (ray.get(ref) for ref in refs)
            for result in results:
                yield result
                if result.error:
                    return
        except (RayFailure, GeneratorExit, KeyboardInterrupt):
            raise
        except Exception as exc:
            raise RayFailure(f"a Ray task failed on {where if address else 'the local Ray'}: {_why(exc)}",
                             "every node needs the same rulelang (pip install 'rulelang[ray]') and the rules "
                             "files at the same path (docs/simulate.md, 'Ray'); --backend local plays the same "
                             "games here") from None
    finally:
        if started:
            ray.shutdown()


def _absolute(job: SimJob) -> SimJob:
    """The job with its rules path made absolute (local Ray workers start in another directory)."""
    import attrs

    return attrs.evolve(job, path=str(Path(job.path).resolve()))
