"""Simulate throughput: local --jobs 1 against --jobs 2 (and Ray on 2 CPUs), random agents.

    python benchmarks/simulate.py [GAME] [--games N] [--rounds R] [--no-ray]

The game is loaded, and a few games are played, before any timing (so neither run pays the
first calls). Each round times ``--jobs 1`` and ``--jobs 2`` on the same games, alternating
which goes first; every run must give the same records (checked). Per round it prints:

- the wall-clock speed-up of ``--jobs 2`` (what a user sees; on a loaded machine the second
  process may find no free core, so this says little unless the load is below about 1);
- the CPU seconds per game of both runs, and the extra CPU the two processes of ``--jobs 2``
  used together (forking, passing records, and two busy processes slowing each other);
- an estimate of the speed-up on an idle 2-core machine that a loaded machine does not skew:
  the CPU time of ``--jobs 1`` over that of the busier of the two processes of ``--jobs 2``
  (this one, which plays games too, and its worker), since on two free cores they run side
  by side and the run lasts as long as the busier one.

After the rounds, a second estimate: the CPU time of ``--jobs 1`` over half the CPU time of
both processes of ``--jobs 2`` (what the run would last if the games were split evenly, as
they are on two free cores). On a loaded machine the split follows which process the
scheduler lets run, so the busier process plays more games than on an idle machine and the
first estimate is lower than the idle machine's; the second leaves that out and keeps the
extra CPU per game of running two processes (start-up, passing records, and two busy
processes slowing each other: shared caches, and on a loaded machine more switching), also
printed as the ratio of CPU per game.

The last line is ``speed-up: WALL (CPU estimate EST)``: the median wall-clock speed-up of the
rounds, and the estimate from the CPU seconds summed over all rounds (steadier than any
one round: on a loaded machine the CPU time of the same games varies by 20% from run to run).
Ray, unless ``--no-ray``: started before timing (its start-up time is printed apart).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang.agents.spec import seat_specs  # noqa: E402
from rulelang.game import load_game  # noqa: E402
from rulelang.sim.driver import simulate  # noqa: E402
from rulelang.sim.runner import GameRecord, SimJob  # noqa: E402


def _cpu() -> tuple[float, float]:
    """CPU seconds (user + system) used so far by this process and by its ended child processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def _timed(job: SimJob, games: int, jobs: int) -> tuple[list[GameRecord], float, float, float]:
    """(records, wall seconds, this process's CPU seconds, its workers' CPU seconds) of one run."""
    own, workers = _cpu()
    start = time.perf_counter()
    records, _ = simulate(job, games, jobs=jobs)
    seconds = time.perf_counter() - start
    own2, workers2 = _cpu()
    return records, seconds, own2 - own, workers2 - workers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="chicken")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--no-ray", action="store_true")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    path = str(ROOT / "games" / f"{args.game}.rules")
    if not Path(path).exists():
        parser.error(f"no game {args.game!r} in games/")
    n = load_game(path).model.default_players
    job = SimJob(path, (), n, tuple(seat_specs(["random"], n)), seed=1)
    print(f"{args.game}: {args.games} games, {n} players, random agents, {args.rounds} rounds; "
          f"load {os.getloadavg()[0]:.2f}")
    simulate(job, min(args.games, 20), jobs=1)  # load and warm up before any timing
    walls, ones, cpu1, busier, both, base = [], [], 0.0, 0.0, 0.0, None
    for r in range(args.rounds):
        load = os.getloadavg()[0]
        runs = {}
        for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
            runs[jobs] = _timed(job, args.games, jobs)
        base = base or runs[1][0]
        assert runs[1][0] == base and runs[2][0] == base, "--jobs 2 gave other records than --jobs 1"
        _, wall1, own1, kids1 = runs[1]
        _, wall2, own2, kids2 = runs[2]
        one, two = own1 + kids1, own2 + kids2
        walls.append(wall1 / wall2)
        ones.append(wall1)
        cpu1, busier, both = cpu1 + one, busier + max(own2, kids2), both + two
        ms = 1000 / args.games
        extra = 100 * (two / one - 1)
        print(f"  round {r + 1} (load {load:.2f} -> {os.getloadavg()[0]:.2f}): "
              f"--jobs 1 {args.games / wall1:.1f} games/s, --jobs 2 {args.games / wall2:.1f} games/s: "
              f"wall x{walls[-1]:.2f}\n"
              f"    CPU per game: --jobs 1 {one * ms:.3f} ms, --jobs 2 {two * ms:.3f} ms ({extra:+.1f}%; "
              f"this process {own2:.2f} s, worker {kids2:.2f} s); idle 2-core estimate x{one / max(own2, kids2):.2f}")
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
        assert records == base, "Ray gave other records than --jobs 1"
        ratio = statistics.median(ones) / seconds
        print(f"  ray, 2 CPUs: {args.games / seconds:.1f} games/s (x{ratio:.2f} of --jobs 1)")
        ray.shutdown()
    print(f"load after: {os.getloadavg()[0]:.2f}")
    print(f"CPU estimate with the games split evenly (both processes' CPU, halved): {2 * cpu1 / both:.2f}; "
          f"CPU per game --jobs 2 over --jobs 1: {both / cpu1:.3f}")
    print(f"speed-up: {statistics.median(walls):.2f} (CPU estimate {cpu1 / busier:.2f})")


if __name__ == "__main__":
    main()
