"""Replay throughput against playout throughput, in events per second.

    python benchmarks/replay.py GAME [--games N] [--players P] [--seed S] [--rounds R] [--profile K]

GAME names ``games/GAME.rules`` (``chicken``, ``chicken-eggspansion``; any other game
in games/ works too). The script first
records N seeded random playouts of it in memory (``rulelang.play.play`` with
``events`` collecting every chance event and action, as ``rulelang run --trace``
does, plus the header and result lines), untimed. Then, interleaved over R rounds
(alternating which side goes first), it measures

- **playout**: the same N games played again from scratch by the engine with random
  agents (``engine.new_state`` + ``play``, no events collected), and
- **recording playout**: the same N games played again while collecting every event, a
  digest of the table as each turn begins, the header and the result line (with the final
  state's digest), as ``rulelang run --trace`` does and as the traces replayed were recorded
  (without writing them), and
- **replay**: the N recorded traces replayed by ``rulelang.trace.replay.Replayer``
  (built from in-memory ``Trace`` objects, so no file reading or JSON parsing is
  timed), each of which must come out ``compliant`` with the recorded result; the traces
  are run's (the header's ``"chance": "seed"``, so every outcome is checked against the
  seed, and a digest as each turn begins), and
- **free replay**: the same traces without the header's ``"chance"`` and the digests, as
  traces were before they had them (free chance: no outcome checked against the seed),

both in events per second, an event being one chance outcome or one action (the result
line is not counted). The last line printed is ``ratio: X``: replay events/s divided
by playout events/s; ``replay / recording playout: Y`` divides by the recording playout's
events/s (a recorded game does the same work per event), and ``replay / free replay: Z``
by the free replay's (what checking the seed and the digests costs). Replay
knows every outcome in advance, so the project's goal is a ratio of at least 1.5. With
``--profile K``, one more (untimed) replay pass runs under cProfile and its top K
entries by internal time go to stderr.

Exit status: 0 on success, 1 if the .rules file does not load, a game fails or a
replay is not compliant, 2 on a usage error.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang import ErrorList, RulelangError, load_game  # noqa: E402
from rulelang.agents.base import RandomAgent  # noqa: E402
from rulelang.engine.engine import Engine  # noqa: E402
from rulelang.play import play  # noqa: E402
from rulelang.trace.format import CHANCE_FROM_SEED, header, result_line  # noqa: E402
from rulelang.trace.replay import Replayer, Trace  # noqa: E402


def known_games() -> list[str]:
    """The games this can measure: every games/GAME.rules (the Chicken! ones are the tracked figures)."""
    return sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))


def record(engine: Engine, game_file: str, players: int, seed: int) -> tuple[Trace, int, dict[str, Any]]:
    """Play one random game and keep its trace in memory, as ``rulelang run --trace`` writes it (chance from
    the seed, a digest as each turn begins); return (trace, events, result)."""
    events: list[dict[str, Any]] = []
    state = engine.new_state(players)
    play(engine, state, [RandomAgent(seed, s) for s in range(players)], seed, events=events, digests=True)
    head = header(engine, game_file, players, seed, ["random"] * players, {}, chance=CHANCE_FROM_SEED)
    head["_line"] = 1
    lines = [(number, event) for number, event in enumerate(events, start=2)]
    lines.append((len(events) + 2, result_line(state)))
    assert state.result is not None
    steps = sum(1 for event in events if event["type"] in ("chance", "action"))  # private looks are not steps
    return Trace(f"<{game_file} seed {seed}>", head, lines), steps, state.result


def free(trace: Trace) -> Trace:
    """``trace`` without the header's "chance" and the turn digests: free chance, as traces were before."""
    head = {k: v for k, v in trace.header.items() if k != "chance"}
    return Trace(trace.path, head, [(n, e) for n, e in trace.events if e["type"] != "digest"])


def run_playouts(engine: Engine, players: int, seeds: range) -> tuple[float, int]:
    """Play one fresh random game per seed; return (seconds, events)."""
    events = 0
    start = time.perf_counter()
    for seed in seeds:
        state = engine.new_state(players)
        play(engine, state, [RandomAgent(seed, s) for s in range(players)], seed)
        events += state.step
    return time.perf_counter() - start, events


def run_recording_playouts(engine: Engine, game_file: str, players: int, seeds: range) -> tuple[float, int]:
    """Play one fresh random game per seed collecting its events with a digest as each turn begins, and
    its header and result line (with the final state's digest), as ``rulelang run --trace`` does and as
    the replayed traces were recorded (without writing them); return (seconds, events)."""
    events = 0
    start = time.perf_counter()
    for seed in seeds:
        kept: list[dict[str, Any]] = []
        state = engine.new_state(players)
        play(engine, state, [RandomAgent(seed, s) for s in range(players)], seed, events=kept, digests=True)
        kept.insert(0, header(engine, game_file, players, seed, ["random"] * players, {}, chance=CHANCE_FROM_SEED))
        kept.append(result_line(state))  # (with the final state's digest, which replay checks)
        events += state.step
    return time.perf_counter() - start, events


def run_replays(engine: Engine, traces: list[Trace]) -> tuple[float, int, list[Any]]:
    """Replay each trace; return (seconds, events, verdicts)."""
    verdicts = []
    start = time.perf_counter()
    for trace in traces:
        verdicts.append(Replayer(engine, trace).run())
    seconds = time.perf_counter() - start
    return seconds, sum(v.steps for v in verdicts), verdicts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python benchmarks/replay.py",
        description="Replay events/s of recorded random games of games/GAME.rules vs. playout events/s.",
    )
    parser.add_argument("game", metavar="GAME", help="games/GAME.rules: " + ", ".join(known_games()))
    parser.add_argument("--games", "-n", type=int, default=500, help="games recorded and replayed (default 500)")
    parser.add_argument("--players", "-p", type=int, default=None, help="players (default: the game's default)")
    parser.add_argument("--seed", "-s", type=int, default=1, help="seed of the first game; game i uses seed+i")
    parser.add_argument("--rounds", "-r", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--profile", type=int, default=0, metavar="K",
                        help="also profile one replay pass and print its top K entries to stderr")
    args = parser.parse_args(argv)

    if args.game not in known_games():
        parser.error(f"unknown GAME {args.game!r}: known games are {', '.join(known_games())}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.profile < 0:
        parser.error("--profile must be 0 or more")
    path = ROOT / "games" / f"{args.game}.rules"
    game_file = path.relative_to(ROOT).as_posix()
    try:
        engine = load_game(path)
    except (RulelangError, ErrorList) as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    model = engine.model
    players = model.default_players if args.players is None else args.players
    if not model.min_players <= players <= model.max_players:
        parser.error(f"{model.title} takes {model.min_players} to {model.max_players} players, not {players}")

    seeds = range(args.seed, args.seed + args.games)
    try:
        recorded = [record(engine, game_file, players, seed) for seed in seeds]
    except RulelangError as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    traces = [t for t, _, _ in recorded]
    free_traces = [free(t) for t in traces]
    total_events = sum(n for _, n, _ in recorded)

    rounds = min(args.rounds, args.games)
    bounds = [args.games * r // rounds for r in range(rounds + 1)]
    play_time = replay_time = record_time = free_time = 0.0
    play_events = replay_events = record_events = free_events = 0
    try:
        for r in range(rounds):
            lo, hi = bounds[r], bounds[r + 1]
            sides = ["play", "record", "replay", "free"] if r % 2 == 0 else ["free", "replay", "record", "play"]
            for side in sides:
                if side == "record":
                    t, n = run_recording_playouts(engine, game_file, players, seeds[lo:hi])
                    record_time, record_events = record_time + t, record_events + n
                elif side == "play":
                    t, n = run_playouts(engine, players, seeds[lo:hi])
                    play_time, play_events = play_time + t, play_events + n
                else:
                    t, n, verdicts = run_replays(engine, (traces if side == "replay" else free_traces)[lo:hi])
                    if side == "replay":
                        replay_time, replay_events = replay_time + t, replay_events + n
                    else:
                        free_time, free_events = free_time + t, free_events + n
                    for i, verdict in enumerate(verdicts, start=lo):
                        if verdict.status != "compliant" or verdict.result != recorded[i][2]:
                            print(f"game {i} (seed {seeds[i]}) does not replay: {verdict.status}: {verdict.message}",
                                  file=sys.stderr)
                            return 1
    except RulelangError as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    if not play_events == replay_events == record_events == free_events == total_events:
        print(f"event counts differ: recorded {total_events}, played {play_events}, "
              f"played recording {record_events}, replayed {replay_events}",
              file=sys.stderr)
        return 1

    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        run_replays(engine, traces)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(args.profile)
        print(out.getvalue(), file=sys.stderr)

    play_rate = play_events / play_time
    replay_rate = replay_events / replay_time
    record_rate = record_events / record_time
    free_rate = free_events / free_time
    print(f"{model.title}: {args.games} recorded random games, {players} players, seeds "
          f"{seeds.start}..{seeds.stop - 1}, {total_events} events ({total_events / args.games:.1f}/game), "
          f"{rounds} interleaved rounds; {game_file}")
    print(f"  playout            {play_rate:10.0f} events/s  ({play_time:.3f} s)")
    print(f"  recording playout  {record_rate:10.0f} events/s  ({record_time:.3f} s)")
    print(f"  replay             {replay_rate:10.0f} events/s  ({replay_time:.3f} s)")
    print(f"  free replay        {free_rate:10.0f} events/s  ({free_time:.3f} s)")
    print(f"replay / recording playout: {replay_rate / record_rate:.3f}")
    print(f"replay / free replay: {replay_rate / free_rate:.3f}")
    print(f"ratio: {replay_rate / play_rate:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
