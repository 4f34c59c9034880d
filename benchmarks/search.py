"""MCTS decisions per second on every game (2 players: MCTS in seat P1, random in P2).

    python benchmarks/search.py [GAME ...] [--iters N] [--depth D] [--games G]

Counts only decisions with more than one legal action (a forced one costs nothing)
and times only the MCTS agent's ``choose`` calls.
"""

from __future__ import annotations

import argparse
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


class Timed:
    """An MCTS agent whose real decisions are counted and timed."""

    searches = True

    def __init__(self, inner: MctsAgent) -> None:
        self.inner, self.decisions, self.seconds = inner, 0, 0.0

    def choose(self, observation: dict[str, Any], legal: list[str], world: Any) -> str:
        start = time.perf_counter()
        action = self.inner.choose(observation, legal, world)
        if len(legal) > 1:
            self.seconds += time.perf_counter() - start
            self.decisions += 1
        return action


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games_", nargs="*", metavar="GAME", help="games/GAME.rules (default: every game)")
    parser.add_argument("--iters", type=int, default=50)
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--games", type=int, default=2, help="games per rules file")
    args = parser.parse_args()
    names = args.games_ or sorted(p.stem for p in (ROOT / "games").glob("*.rules"))
    print(f"MCTS iters={args.iters} depth={args.depth}, 2 players (MCTS against random), {args.games} games each")
    print(f"  {'game':<22} {'decisions':>9} {'decisions/s':>12} {'iterations/s':>13}")
    for name in names:
        engine = load_game(ROOT / "games" / f"{name}.rules")
        timed = Timed(MctsAgent(0, 0, iters=args.iters, depth=args.depth))
        for g in range(args.games):
            timed.inner = MctsAgent(g, 0, iters=args.iters, depth=args.depth)
            play(engine, engine.new_state(2), [timed, RandomAgent(g, 1)], g)
        rate = timed.decisions / timed.seconds
        print(f"  {name:<22} {timed.decisions:>9} {rate:>12.2f} {rate * args.iters:>13.0f}")


if __name__ == "__main__":
    main()
