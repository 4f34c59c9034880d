"""What an information state costs with perfect recall: a player's earlier views found from the last
position's, against the same views found by playing the game again from its start.

    python benchmarks/infostate.py [GAME] [--games N] [--rounds R] [--seed S]

GAME is a .rules file (default: examples/leduc-poker/leduc-poker.rules). Over R interleaved rounds the
script walks the same N random games through ``rulelang.envs.openspiel`` (2 players), asking at every
decision for the information-state tensor of the player to move, as CFR and other solvers ask for it,

- **kept**: as the adapter finds the views (from those kept at the position before), and
- **played again**: the same with what was kept forgotten at every node (every player's views found
  by playing the game again from its start, as before they were kept),

checks first (untimed, 3 games) that both give the same tensors, and prints µs per decision for each. The last line is
``ratio: X``, the played-again time ÷ the kept time (how many times faster the kept way is).

Exit status: 0 on success, 1 if the game does not load or the sides differ, 2 without OpenSpiel.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang import ErrorList, RulelangError  # noqa: E402

DEFAULT_GAME = ROOT / "examples" / "leduc-poker" / "leduc-poker.rules"


def walk(game: object, games: int, seed: int, forget: bool, keep: list | None = None) -> tuple[float, int]:
    """Walk ``games`` random games asking each decision's information-state tensor of the player to
    move (with ``forget``, the views kept are dropped first; ``keep``: a list the tensors go to);
    return (seconds, decisions)."""
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()  # type: ignore[attr-defined]
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            if forget:
                state._progress.views = {}
            tensor = state.information_state_tensor(state.current_player())
            if keep is not None:
                keep.append(tensor)
            decisions += 1
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    return time.perf_counter() - start, decisions


def main(argv: list[str] | None = None) -> int:
    """Measure and print the ratio for one game; return the exit status."""
    parser = argparse.ArgumentParser(prog="python benchmarks/infostate.py", description=__doc__.split("\n")[0])
    parser.add_argument("game", nargs="?", default=str(DEFAULT_GAME), help="a .rules file (default: Leduc poker)")
    parser.add_argument("--games", type=int, default=200, help="random games per side (default 200)")
    parser.add_argument("--rounds", type=int, default=4, help="interleaved rounds (default 4)")
    parser.add_argument("--seed", type=int, default=0, help="the walk's seed (default 0)")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 100_000 or not 1 <= args.rounds <= 100 or args.seed < 0:
        parser.error("--games 1..100000, --rounds 1..100, --seed >= 0")
    try:
        from rulelang.envs.openspiel import load
    except ImportError:
        print("needs the openspiel extra: pip install 'rulelang[openspiel]'", file=sys.stderr)
        return 2
    try:
        game = load(args.game, players=2)
    except (RulelangError, ErrorList) as exc:
        print(exc.format(), file=sys.stderr)
        return 1
    kept_tensors: list = []
    again_tensors: list = []
    walk(game, min(3, args.games), args.seed, False, kept_tensors)  # (untimed: the same tensors both ways)
    walk(game, min(3, args.games), args.seed, True, again_tensors)
    if kept_tensors != again_tensors:
        print("the two ways gave different information states", file=sys.stderr)
        return 1
    per = -(-args.games // args.rounds)
    times = {False: 0.0, True: 0.0}
    counts = {False: 0, True: 0}
    for r in range(args.rounds):
        for forget in ((False, True) if r % 2 == 0 else (True, False)):
            t, n = walk(game, per, args.seed + r, forget)
            times[forget] += t
            counts[forget] += n
    if counts[False] != counts[True]:
        print("the two ways walked different games", file=sys.stderr)
        return 1
    kept, again = (times[f] / counts[f] * 1e6 for f in (False, True))
    print(f"{Path(args.game).name}: {counts[False]} decisions in {per * args.rounds} random games, "
          f"{args.rounds} rounds")
    print(f"  kept          {kept:9.1f} µs per decision with its information-state tensor")
    print(f"  played again  {again:9.1f} µs per decision")
    print(f"ratio: {again / kept:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
