"""Decisions per second through the OpenSpiel adapter, against the engine and OpenSpiel's own Python Kuhn poker.

    python benchmarks/adapters.py [GAME] [--games N] [--rounds R] [--seed S]

GAME is a .rules file (default: examples/kuhn-poker/kuhn-poker.rules). The script plays N
uniformly random games four ways, in the same process, interleaved in R rounds (the order
rotating each round) so that machine noise hits all alike, timed in CPU seconds (the machine
may be shared):

- the engine alone, by its fast path (``choice_size`` / ``apply_index``, ``apply_random``);
- the game through ``rulelang.envs.openspiel`` as an OpenSpiel algorithm drives it
  (``chance_outcomes``, ``legal_actions``, ``apply_action``), positions kept by history as the
  adapter keeps them (a history played again is looked up, not computed: see ``_Progress``);
- the same with nothing kept (every position computed afresh, as a game too large to keep);
- OpenSpiel's pure-Python ``python_kuhn_poker`` (shipped with open_spiel), driven the same way.

A decision is one player action with more than one legal option, on every side: chance is not
counted, nor a forced step (the adapter's ``skip_forced`` applies those itself; the engine's are
played but not counted). The adapter and ``python_kuhn_poker`` run the same loop with the same
random choices, and read the returns at the end of each game as algorithms do (the engine writes its
result, standings and payoffs, at the end of each game). It prints each side's decisions/s, the
adapter's ratio to the engine's, and as its last line ``ratio: X``: the adapter's decisions/s
divided by ``python_kuhn_poker``'s.

Exit status: 0 on success, 1 if the game does not load, 2 without OpenSpiel.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from rulelang import RulelangError, load_game  # noqa: E402
from rulelang.rng import Rng  # noqa: E402

DEFAULT_GAME = ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules"


def engine_games(path: Path, games: int, seed: int) -> Callable[[], int]:
    """N random games by the engine's fast path; returns the decisions made."""
    engine = load_game(path)
    players = engine.model.default_players

    def run() -> int:
        decisions = 0
        for g in range(games):
            st = engine.new_state(players)
            chance, pick = Rng(seed + g, stream=0), Rng(seed + g, stream=1)
            while not st.over:
                if engine.is_chance(st):
                    engine.apply_random(st, chance, events=False)
                    continue
                size = engine.choice_size(st)
                if size is None:  # an ask
                    answers = engine.ask_answers(st)
                    assert answers is not None
                    options = len(answers[1])
                    engine.answer(st, answers, pick.below(options))
                else:
                    options = size[1]
                    engine.apply_index(st, pick.below(options))
                decisions += options > 1  # a forced step is no decision, as with the adapter's skip_forced
        return decisions

    return run


def spiel_games(game, games: int, seed: int) -> Callable[[], int]:
    """N random games of a pyspiel game driven as algorithms drive it; returns the decisions made."""

    def run() -> int:
        rng = random.Random(seed)
        decisions = 0
        for _ in range(games):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    r, acc, k = rng.random(), outcomes[0][1], 0
                    while r >= acc and k + 1 < len(outcomes):
                        k += 1
                        acc += outcomes[k][1]
                    state.apply_action(outcomes[k][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            state.returns()  # an algorithm reads them at every terminal (the engine writes its result at the end)
        return decisions

    return run


def _nothing_kept(game):
    """The game with no positions kept by history (``_Progress.children``): each game computed afresh."""
    game.loaded.keep = 0
    return game


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(DEFAULT_GAME))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        import pyspiel
        from open_spiel.python.games import kuhn_poker  # noqa: F401  (registers python_kuhn_poker)

        from rulelang.envs.openspiel import DEFAULT_MAX_GAME_LENGTH, load
    except ImportError as exc:
        print(f"needs OpenSpiel: {exc}", file=sys.stderr)
        return 2
    try:
        sides = {
            "engine": engine_games(Path(args.game), args.games, args.seed),
            "adapter": spiel_games(load(args.game), args.games, args.seed),
            "adapter, nothing kept": spiel_games(
                _nothing_kept(load(args.game, max_game_length=DEFAULT_MAX_GAME_LENGTH + 1)), args.games, args.seed),
            "python_kuhn_poker": spiel_games(pyspiel.load_game("python_kuhn_poker"), args.games, args.seed),
        }
    except RulelangError as err:
        print(err, file=sys.stderr)
        return 1
    names = list(sides)
    seconds = dict.fromkeys(names, 0.0)
    decisions = dict.fromkeys(names, 0)
    for r in range(args.rounds):
        for name in names[r % len(names):] + names[:r % len(names)]:
            start = time.process_time()
            decisions[name] += sides[name]()
            seconds[name] += time.process_time() - start
    rate = {name: decisions[name] / seconds[name] for name in names}
    for name in names:
        print(f"{name}: {rate[name]:,.0f} decisions/s ({decisions[name]} decisions in {seconds[name]:.2f} s)")
    print(f"adapter / engine: {rate['adapter'] / rate['engine']:.2f}")
    print(f"adapter, nothing kept / engine: {rate['adapter, nothing kept'] / rate['engine']:.2f}")
    print(f"adapter, nothing kept / python_kuhn_poker: {rate['adapter, nothing kept'] / rate['python_kuhn_poker']:.2f}")
    print(f"ratio: {rate['adapter'] / rate['python_kuhn_poker']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
