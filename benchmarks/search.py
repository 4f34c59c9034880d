"""MCTS search against plain playouts, on one game or every game.

Two players, or the fewest the game takes: MCTS in seat P1, random in the others.

    python benchmarks/search.py [GAME ...] [--iters N] [--depth D] [--games G] [--searches S] [--rounds R]

For each game, in one process and interleaved in R rounds (median taken; within a round, a share of the
playouts before each MCTS game):

- ``play()`` with random agents in every seat (the engine's fast path): decisions/s, every
  decision counted (forced ones too: the pickers are asked for those as well);
- G games with the MCTS agent (``mcts:iters=N,depth=D``; D defaults to the agent's own) in P1:
  only its ``choose`` calls are timed, its first S (``--searches``) per game, then it plays at random;
  iterations/s, and the decisions its rollouts took.

``ratio`` = (MCTS iterations/s x mean rollout decisions per iteration) / (``play()`` decisions/s):
how close a search spends its time at playout speed (1.0: all of it in rollouts as fast as
``play()``). The last line is ``ratio: X``, the smallest over the games measured.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang import load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.agents.search import MctsAgent  # noqa: E402
from rulelang.play import play  # noqa: E402

DEFAULT_DEPTH = MctsAgent(0, 0).depth


class Timed:
    """An MCTS agent whose ``choose`` calls are timed (a search with one legal action costs nothing);
    after ``limit`` searches it plays at random, untimed (so that a long game, Hippe Kippen's, ends soon)."""

    searches = True

    def __init__(self, inner: MctsAgent, limit: int) -> None:
        self.inner, self.seconds, self.limit = inner, 0.0, limit
        self.fallback = RandomAgent(inner.rng.next32(), 0)

    def choose(self, observation: dict[str, Any], legal: list[str], world: Any) -> str:
        """The inner agent's choice, timed (a random one after ``limit`` searches)."""
        if self.limit <= 0:
            return self.fallback.choose(observation, legal)
        if len(legal) > 1:
            self.limit -= 1
        start = time.process_time()
        action = self.inner.choose(observation, legal, world)
        self.seconds += time.process_time() - start
        return action


class Counting(RandomAgent):
    """A random agent that counts the decisions it is asked for (in an untimed run only)."""

    def __init__(self, seed: int, seat: int, count: list[int]) -> None:
        super().__init__(seed, seat)
        pick = self.rng.pick

        def choose_index(n: int) -> int:
            count[0] += 1
            return pick(n)

        self.choose_index = choose_index  # type: ignore[method-assign]


def seats(engine: Any) -> int:
    """Two players, or the fewest the game takes."""
    return max(2, engine.model.min_players)


def playouts(engine: Any, games: int, first: int = 0) -> tuple[int, float]:
    """Decisions and seconds of ``games`` random games by ``play()`` (seeds from ``first``; the decisions
    counted in a run of their own)."""
    count = [0]
    n = seats(engine)
    seeds = range(first, first + games)
    for g in seeds:
        play(engine, engine.new_state(n), [Counting(g, p, count) for p in range(n)], g)
    start = time.process_time()
    for g in seeds:
        play(engine, engine.new_state(n), [RandomAgent(g, p) for p in range(n)], g)
    return count[0], time.process_time() - start


def searches(engine: Any, games: int, iters: int, depth: int, limit: int, first: int = 0) -> tuple[int, int, float]:
    """Iterations, rollout decisions and seconds of the MCTS agent's searches in ``games`` games (seeds
    from ``first``)."""
    iterations = decisions = 0
    seconds = 0.0
    for g in range(first, first + games):
        timed = Timed(MctsAgent(g, 0, iters=iters, depth=depth), limit)
        play(engine, engine.new_state(seats(engine)), [timed] + [RandomAgent(g, p) for p in range(1, seats(engine))], g)
        iterations += timed.inner.iterations
        decisions += timed.inner.rollout_decisions
        seconds += timed.seconds
    return iterations, decisions, seconds


def main() -> None:
    """Measure every game named (default: all of games/) and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games/GAME.rules (default: every game)")
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    parser.add_argument("--games", type=int, default=2, help="games with the MCTS agent per round")
    parser.add_argument("--searches", type=int, default=30, help="MCTS searches per game at most (then random)")
    parser.add_argument("--playouts", type=int, default=200, help="random games by play() per round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    names = args.games_ or sorted(p.stem for p in (ROOT / "games").glob("*.rules"))
    print(f"MCTS iters={args.iters} depth={args.depth}, MCTS in P1 against random, {args.games} games "
          f"each, {args.rounds} rounds (medians)")
    print(f"  {'game':<22} {'play() dec/s':>12} {'iterations/s':>13} {'rollout dec/iter':>17} {'ratio':>6}")
    worst = None
    for name in names:
        engine = load_game(ROOT / "games" / f"{name}.rules")
        rates, iter_rates, per_iter, ratios = [], [], [], []
        for _ in range(args.rounds):
            # Interleaved within the round: a share of the playouts before each MCTS game, so that the
            # machine's load weighs on both sides alike (a busy spell then shifts the ratio less).
            n = iterations = decisions = 0
            s = seconds = 0.0
            for g in range(args.games):
                share = args.playouts // args.games + (g < args.playouts % args.games)
                first = g * (args.playouts // args.games) + min(g, args.playouts % args.games)
                dn, ds = playouts(engine, share, first)
                di, dd, dt = searches(engine, 1, args.iters, args.depth, args.searches, first=g)
                n, s, iterations, decisions, seconds = n + dn, s + ds, iterations + di, decisions + dd, seconds + dt
            play_rate, iter_rate, mean = n / s, iterations / seconds, decisions / iterations
            rates.append(play_rate)
            iter_rates.append(iter_rate)
            per_iter.append(mean)
            ratios.append(iter_rate * mean / play_rate)
        ratio = statistics.median(ratios)
        worst = ratio if worst is None else min(worst, ratio)
        print(f"  {name:<22} {statistics.median(rates):>12.0f} {statistics.median(iter_rates):>13.0f} "
              f"{statistics.median(per_iter):>17.1f} {ratio:>6.2f}", flush=True)
    print(f"ratio: {worst:.2f}")


if __name__ == "__main__":
    main()
