"""Random playouts per second: a game written in rulelang against a hand-written one.

    python benchmarks/playouts.py GAME [--games N] [--players P] [--seed S] [--rounds R]

GAME names ``games/GAME.rules`` (``chicken``, ``chicken-eggspansion``, ``barnyard``,
``barnyard-2p``, ``rule-the-roost``). The script
plays N random games of it through the rulelang engine and N random games of the
plain-Python baseline of the same rules, in the same process, interleaved in R rounds
(alternating which side goes first) so that machine noise hits both alike. Game ``i``
uses seed ``S + i`` on both sides. It prints games/s for each, rulelang's decisions
(chance outcomes and actions) per second and, as its last line,
``ratio: X``: rulelang games/s divided by hand-written games/s.

Exit status: 0 on success, 1 if the .rules file does not load or a game fails, 2 on a
usage error (unknown GAME, bad numbers).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks import (  # noqa: E402
    baseline_barnyard,
    baseline_chicken,
    baseline_hippe_kippen,
    baseline_roost,
    baseline_rooster_rush,
)
from rulelang import ErrorList, RulelangError, load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.play import play  # noqa: E402
from rulelang.rng import Rng  # noqa: E402

# GAME -> (hand-written playout function, its keyword arguments).
# A baseline is called as fn(players, chance=Rng(seed, 0), agent=Rng(seed, 1), **kwargs)
# and returns (winner seat, turns played); the turns are summed for the turns/game figure,
# a quick check that both sides play the same game.
BASELINES: dict[str, tuple[Callable[..., Any], dict[str, Any]]] = {
    "chicken": (baseline_chicken.playout, {"eggspansion": False}),
    "chicken-eggspansion": (baseline_chicken.playout, {"eggspansion": True}),
    "barnyard": (baseline_barnyard.playout, {"two_player": False}),
    "barnyard-2p": (baseline_barnyard.playout, {"two_player": True}),
    "rule-the-roost": (baseline_roost.playout, {}),
    "rooster-rush": (baseline_rooster_rush.playout, {}),
    "hippe-kippen": (baseline_hippe_kippen.playout, {}),
}


def _usage_error(parser: argparse.ArgumentParser, message: str) -> None:
    parser.error(message)  # prints usage and the message to stderr, exits 2


def run_dsl(engine: Engine, players: int, seeds: range) -> tuple[float, int, int]:
    """Play one random game per seed through the engine; return (seconds, turns played, decisions)."""
    turns = steps = 0
    start = time.perf_counter()
    for seed in seeds:
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        turns += st.turn
        steps += st.step
    return time.perf_counter() - start, turns, steps


def run_baseline(fn: Callable[..., Any], kwargs: dict[str, Any], players: int, seeds: range) -> tuple[float, int]:
    """Play one random game per seed with the hand-written code; return (seconds, turns played)."""
    turns = 0
    start = time.perf_counter()
    for seed in seeds:
        result = fn(players, chance=Rng(seed, 0), agent=Rng(seed, 1), **kwargs)
        if isinstance(result, tuple) and len(result) > 1 and isinstance(result[1], int):
            turns += result[1]
    return time.perf_counter() - start, turns


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/playouts.py",
        description="Random playouts/s of games/GAME.rules through rulelang vs. a hand-written baseline.",
    )
    parser.add_argument("game", metavar="GAME", help="one of: " + ", ".join(sorted(BASELINES)))
    parser.add_argument("--games", "-n", type=int, default=1000, help="playouts per side (default 1000)")
    parser.add_argument("--players", "-p", type=int, default=None, help="players (default: the game's default)")
    parser.add_argument("--seed", "-s", type=int, default=1, help="seed of the first game; game i uses seed+i")
    parser.add_argument("--rounds", "-r", type=int, default=10, help="interleaved rounds (default 10)")
    args = parser.parse_args(argv)

    if args.game not in BASELINES:
        _usage_error(parser, f"unknown GAME {args.game!r}: known games are {', '.join(sorted(BASELINES))}")
    if args.games < 1:
        _usage_error(parser, "--games must be at least 1")
    if args.rounds < 1:
        _usage_error(parser, "--rounds must be at least 1")
    path = ROOT / "games" / f"{args.game}.rules"
    try:
        engine = load_game(path)
    except (RulelangError, ErrorList) as exc:  # the rules file is broken
        print(exc.format(), file=sys.stderr)
        return 1
    model = engine.model
    players = model.default_players if args.players is None else args.players
    if not model.min_players <= players <= model.max_players:
        _usage_error(parser, f"{model.title} takes {model.min_players} to {model.max_players} players, not {players}")
    fn, kwargs = BASELINES[args.game]

    rounds = min(args.rounds, args.games)
    bounds = [args.seed + args.games * r // rounds for r in range(rounds + 1)]
    dsl_time = base_time = 0.0
    dsl_turns = base_turns = dsl_steps = 0
    try:
        for r in range(rounds):
            seeds = range(bounds[r], bounds[r + 1])
            # Alternate which side runs first, so warm-up and drift do not favour one.
            if r % 2 == 0:
                t, n, k = run_dsl(engine, players, seeds)
                dsl_time, dsl_turns, dsl_steps = dsl_time + t, dsl_turns + n, dsl_steps + k
                t, n = run_baseline(fn, kwargs, players, seeds)
                base_time, base_turns = base_time + t, base_turns + n
            else:
                t, n = run_baseline(fn, kwargs, players, seeds)
                base_time, base_turns = base_time + t, base_turns + n
                t, n, k = run_dsl(engine, players, seeds)
                dsl_time, dsl_turns, dsl_steps = dsl_time + t, dsl_turns + n, dsl_steps + k
    except RulelangError as exc:  # a game broke the rules engine's limits
        print(exc.format(), file=sys.stderr)
        return 1

    dsl_rate = args.games / dsl_time
    base_rate = args.games / base_time
    print(f"{model.title}: {args.games} random playouts per side, {players} players, seeds "
          f"{args.seed}..{args.seed + args.games - 1}, {rounds} interleaved rounds")
    baseline_file = f"benchmarks/{fn.__module__.rsplit('.', 1)[-1]}.py"
    rows = [
        ("rulelang", path.relative_to(ROOT).as_posix(), dsl_rate, dsl_time, dsl_turns),
        ("hand-written", baseline_file, base_rate, base_time, base_turns),
    ]
    for name, source, rate, seconds, turns in rows:
        per_game = f", {turns / args.games:.1f} turns/game" if turns else ""
        print(f"  {name:<12} {rate:9.1f} games/s  ({seconds:.3f} s{per_game}; {source})")
    print(f"  decisions (chance and actions): {dsl_steps / dsl_time:.0f}/s through rulelang")
    print(f"ratio: {dsl_rate / base_rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
