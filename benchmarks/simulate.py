"""Simulate throughput: local --jobs 1, --jobs 2, and Ray on 2 CPUs (random agents).

    python benchmarks/simulate.py [GAME] [--games N] [--no-ray]

The game is loaded before timing (local workers are forked from the process that loaded
it, so they start with it); Ray is started before timing (its start-up time is printed
apart); all three runs must give the same records, which the script checks. The CPU time
of this process and of the local workers is printed too, and from it what ``--jobs 2``
would give on an idle 2-core machine (an estimate that a loaded machine does not skew:
this process's CPU time plus half the workers', against the CPU time of ``--jobs 1``).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang.agents.spec import seat_specs  # noqa: E402
from rulelang.game import load_game  # noqa: E402
from rulelang.sim.driver import simulate  # noqa: E402
from rulelang.sim.runner import SimJob, engines_for  # noqa: E402


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) used so far by this process and by its finished child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="chicken")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    path = str(ROOT / "games" / f"{args.game}.rules")
    n = load_game(path).model.default_players
    job = SimJob(path, (), n, tuple(seat_specs(["random"], n)), seed=1)
    print(f"{args.game}: {args.games} games, {n} players, random agents; load {os.getloadavg()[0]:.2f}")
    engines_for(job)  # the game is loaded (parsed, checked, compiled) before timing, for every run alike
    results = {}
    cpu = {}
    for label, kwargs in [("local --jobs 1", {"jobs": 1}), ("local --jobs 2", {"jobs": 2})]:
        own, workers = _cpu()
        start = time.perf_counter()
        records, _ = simulate(job, args.games, **kwargs)
        seconds = time.perf_counter() - start
        own2, workers2 = _cpu()
        results[label] = (records, seconds)
        cpu[kwargs["jobs"]] = (own2 - own, workers2 - workers)
        print(f"  {label:<16} {args.games / seconds:8.1f} games/s  (CPU: this process {own2 - own:.2f} s, "
              f"workers {workers2 - workers:.2f} s)")
    # What an idle 2-core machine would give: this process's CPU time plus the workers' shared
    # by two cores, against the CPU time of --jobs 1 (not a measurement of wall time).
    one = sum(cpu[1])
    two = cpu[2][0] + cpu[2][1] / 2
    print(f"  CPU-time estimate of --jobs 2 on an idle 2-core machine: {one / two:.2f}x")
    if not args.no_ray:
        import ray

        start = time.perf_counter()
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False,
                 runtime_env={"env_vars": {"PYTHONPATH": str(ROOT)}})
        print(f"  (Ray start-up {time.perf_counter() - start:.1f} s, not counted)")
        simulate(job, 20, backend="ray")  # warm the workers (they load the game once each)
        start = time.perf_counter()
        records, _ = simulate(job, args.games, backend="ray")
        seconds = time.perf_counter() - start
        results["ray, 2 CPUs"] = (records, seconds)
        print(f"  {'ray, 2 CPUs':<16} {args.games / seconds:8.1f} games/s")
        ray.shutdown()
    base = results["local --jobs 1"]
    for label, (records, seconds) in results.items():
        assert records == base[0], f"{label} gave other records"
        print(f"  speed-up of {label}: {base[1] / seconds:.2f}x")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
