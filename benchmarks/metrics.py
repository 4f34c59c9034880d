"""What watching costs: ``simulate --metrics`` against plain playouts, one process, random agents.

    python benchmarks/metrics.py [GAME] [--games N] [--rounds R] [--players P]

Each round plays the same games plain and watched (``SimJob(metrics=True)``: the leaders
read at each turn's end, the options counted at each decision, every decision through the
simulation's loop), alternating which goes first; the records must agree apart from what
watching adds (checked). The last line is ``ratio: X``, the watched run's time over the plain
run's (summed over rounds).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import attrs  # noqa: E402

from rulelang.agents.spec import seat_specs  # noqa: E402
from rulelang.sim.runner import SimJob, engines_for, run_batch  # noqa: E402


def main() -> None:
    """Time plain and watched playouts of the same games and print their ratio."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="?", default="chicken")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    path = str(ROOT / "games" / f"{args.game}.rules")
    probe = SimJob(path, (), 2, ())
    engine, _ = engines_for(probe)
    players = args.players or engine.model.default_players
    plain = SimJob(path, (), players, tuple(seat_specs(("random",), players)))
    watched = attrs.evolve(plain, metrics=True)
    run_batch(plain, [0, 1])
    run_batch(watched, [0, 1])
    per = max(1, args.games // args.rounds)
    totals = {"plain": 0.0, "watched": 0.0}
    for r in range(args.rounds):
        part = list(range(r * per, (r + 1) * per))
        order = [("plain", plain), ("watched", watched)]
        got = {}
        for name, job in order if r % 2 == 0 else order[::-1]:
            start = time.perf_counter()
            got[name] = run_batch(job, part).records
            totals[name] += time.perf_counter() - start
        assert [attrs.evolve(x, leaders=(), branching=()) for x in got["watched"]] == list(got["plain"])
    games = per * args.rounds
    print(f"{engine.model.title}: {games} random games, {players} players, {args.rounds} interleaved rounds")
    for name, seconds in totals.items():
        print(f"  {name:<8} {games / seconds:8.1f} games/s  ({seconds:.3f} s)")
    print(f"ratio: {totals['watched'] / totals['plain']:.3f}")


if __name__ == "__main__":
    main()
