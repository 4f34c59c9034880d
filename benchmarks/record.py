"""What recording costs: a recording playout against a plain playout of the same games.

    python benchmarks/record.py GAME [--games N] [--players P] [--seed S] [--rounds R]

GAME names ``games/GAME.rules`` (any game in games/). Over R rounds, interleaved and
alternating which side goes first, the script plays the same N seeded random games

- **plain**: ``engine.new_state`` + ``play`` with random agents, no events collected, and
- **recording**: the same games keeping every event in a list (``play(..., events=...)``), with a
  digest of the table as each turn begins: what ``rulelang run --trace`` does before it writes its
  lines (nothing is written or serialised here, so the figure is the engine's own cost);
- **events only**: the same without the turn digests, as ``rulelang run`` (without
  ``--trace``) and ``simulate --report`` record;

and checks that every side took the same number of steps. The last line printed is
``ratio: X``: recording seconds divided by plain seconds (1.0: recording is free; the
goal of issue 24 is at most 1.5 on every game); the line before it, ``events only:``, the
same without digests.

Exit status: 0 on success, 1 if the .rules file does not load or the two sides differ,
2 on a usage error.
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

from benchmarks.replay import run_playouts as plain  # noqa: E402  (the same plain playouts as replay.py)
from rulelang import ErrorList, RulelangError, load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.play import play  # noqa: E402


def known_games() -> list[str]:
    """The games this can measure: every games/GAME.rules."""
    return sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))


def recording(engine: Engine, players: int, seeds: range, digests: bool = True) -> tuple[float, int, int]:
    """Play the same games keeping every event in a list, with turn digests (as ``run --trace`` does before
    writing) or without; return (seconds, steps, events kept)."""
    steps = kept_total = 0
    start = time.perf_counter()
    for seed in seeds:
        kept: list[Any] = []
        state = engine.new_state(players)
        play(engine, state, [RandomAgent(seed, s) for s in range(players)], seed, events=kept, digests=digests)
        steps += state.step
        kept_total += len(kept)
    return time.perf_counter() - start, steps, kept_total


def main(argv: list[str] | None = None) -> int:
    """Measure and print the recording ratio of one game; return the exit status."""
    parser = argparse.ArgumentParser(prog="python benchmarks/record.py",
                                     description="Recording playouts against plain playouts, same games, same run.")
    parser.add_argument("game", help=f"one of: {', '.join(known_games())}")
    parser.add_argument("--games", type=int, default=500, help="games per side (default 500)")
    parser.add_argument("--players", type=int, default=None, help="players (default: the game's default count)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds (default 5)")
    args = parser.parse_args(argv)
    if args.game not in known_games():
        parser.error(f"unknown game {args.game!r}: one of {', '.join(known_games())}")
    if not 1 <= args.games <= 1_000_000 or not 1 <= args.rounds <= min(args.games, 1000) or args.seed < 0:
        parser.error("--games 1..1000000, --rounds 1..min(games, 1000), --seed >= 0")
    try:
        engine = load_game(str(ROOT / "games" / f"{args.game}.rules"))
    except (RulelangError, ErrorList) as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    low, high = engine.model.min_players, engine.model.max_players
    players = args.players if args.players is not None else engine.model.default_players
    if not low <= players <= high:
        parser.error(f"{args.game} is for {low} to {high} players")
    size = -(-args.games // args.rounds)
    plain_time = record_time = events_time = 0.0
    plain_steps = record_steps = events_steps = events = 0
    for r in range(args.rounds):
        seeds = range(args.seed + r * size, args.seed + min(args.games, (r + 1) * size))
        sides = ("plain", "record", "events")
        for side in sides[r % 3:] + sides[:r % 3]:  # (each side first in turn)
            if side == "plain":
                t, n = plain(engine, players, seeds)
                plain_time += t
                plain_steps += n
            elif side == "record":
                t, n, k = recording(engine, players, seeds)
                record_time += t
                record_steps += n
                events += k
            else:
                t, n, _k = recording(engine, players, seeds, digests=False)
                events_time += t
                events_steps += n
    if not plain_steps == record_steps == events_steps:
        print(f"the sides differ: plain took {plain_steps} steps, recording {record_steps}, events only "
              f"{events_steps}", file=sys.stderr)
        return 1
    print(f"{engine.model.title}: {args.games} random games, {players} players, seeds {args.seed}.."
          f"{args.seed + args.games - 1}, {args.rounds} rounds")
    print(f"  plain      {plain_steps / plain_time:10.0f} steps/s  ({plain_time:.3f} s)")
    print(f"  recording  {record_steps / record_time:10.0f} steps/s  ({record_time:.3f} s, {events} events kept)")
    print(f"  events     {events_steps / events_time:10.0f} steps/s  ({events_time:.3f} s, no turn digests)")
    print(f"events only: {events_time / plain_time:.3f}")
    print(f"ratio: {record_time / plain_time:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
