"""Decisions per second through the OpenSpiel adapter, against the engine and OpenSpiel's own Python Kuhn poker.

    python benchmarks/adapters.py [GAME] [--games N] [--rounds R] [--seed S]

GAME is a .rules file (default: examples/kuhn-poker/kuhn-poker.rules). The script plays N
uniformly random games four ways, in the same process, interleaved in R rounds (the order
rotating each round) so that machine noise hits all alike, timed in CPU seconds (the machine
may be shared):

- the engine alone, by its fast path (``choice_size`` / ``apply_index``, ``apply_random``);
- the game through ``rulelang.envs.openspiel`` as an OpenSpiel algorithm drives it
  (``chance_outcomes``, ``legal_actions``, ``apply_action``), positions kept by history as the
  adapter keeps them (a history played again is looked up, not computed: see ``rulelang.envs.progress.Progress``);
- the same with nothing kept (every position computed afresh, as a game too large to keep);
- OpenSpiel's pure-Python ``python_kuhn_poker`` (shipped with open_spiel), driven the same way;
- with ``--floor``: the floor, the adapter's nodes (recorded in a first pass: who moves, the legal
  actions or chance outcomes) replayed by a pyspiel Python game that does nothing else, driven the
  same way: what pyspiel's C++ round trips (``apply_action`` calls back ``current_player`` and
  ``_apply_action``) and this loop cost per node. It prints the ceiling that leaves the adapter,
  engine time ÷ (engine time + floor time): an estimate (the engine's time counts its own loop as
  work) of the best ratio to the engine any adapter of the same tree can reach.

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
                    state.apply_action(sampled(state.chance_outcomes(), rng))
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
                    decisions += 1
            state.returns()  # an algorithm reads them at every terminal (the engine writes its result at the end)
        return decisions

    return run


def sampled(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn by its probability, as every side of the benchmark draws it."""
    r, acc, k = rng.random(), outcomes[0][1], 0
    while r >= acc and k + 1 < len(outcomes):
        k += 1
        acc += outcomes[k][1]
    return outcomes[k][0]


FLOOR_NAME = "rulelang_benchmark_floor"


def recorded_nodes(game, games: int, seed: int) -> list[list[tuple]]:
    """Each game's nodes as ``spiel_games`` meets them: ("chance", outcomes) or ("decide", legal actions)."""
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        nodes: list[tuple] = []
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                nodes.append(("chance", outcomes))
                state.apply_action(sampled(outcomes, rng))
            else:
                legal = state.legal_actions()
                nodes.append(("decide", legal))
                state.apply_action(legal[rng.randrange(len(legal))])
        out.append(nodes)
    return out


def floor_game(pyspiel, like, recorded: list[list[tuple]]):
    """A pyspiel Python game whose states replay ``recorded`` (game after game) and do nothing else."""
    chance_id, terminal_id = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
    players = like.num_players()
    game_type = pyspiel.GameType(
        short_name=FLOOR_NAME, long_name="recorded nodes, nothing else", dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION, utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL, max_num_players=players, min_num_players=players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False, parameter_specification={})
    info = pyspiel.GameInfo(num_distinct_actions=like.num_distinct_actions(),
                            max_chance_outcomes=like.max_chance_outcomes(), num_players=players, min_utility=-1.0,
                            max_utility=1.0, utility_sum=0.0, max_game_length=like.max_game_length())

    class FloorState(pyspiel.State):
        """Replays one recorded game's nodes."""

        def __init__(self, game, nodes: list[tuple]) -> None:
            super().__init__(game)
            self.nodes, self.at, self.end = nodes, 0, len(nodes)

        def current_player(self) -> int:
            return terminal_id if self.at >= self.end else chance_id if self.nodes[self.at][0] == "chance" else 0

        def is_terminal(self) -> bool:
            return self.at >= self.end

        def is_chance_node(self) -> bool:
            return self.at < self.end and self.nodes[self.at][0] == "chance"

        def chance_outcomes(self) -> list:
            return list(self.nodes[self.at][1])

        def legal_actions(self, *player: int) -> list:
            return list(self.nodes[self.at][1])

        def _legal_actions(self, player: int) -> list:
            return list(self.nodes[self.at][1])

        def _apply_action(self, action: int) -> None:
            self.at += 1

        def returns(self) -> list:
            return [0.0] * players

    class FloorGame(pyspiel.Game):
        """The recorded games, one after the other, round after round."""

        def __init__(self, params=None) -> None:
            super().__init__(game_type, info, params or {})
            self.next = 0

        def new_initial_state(self):
            state = FloorState(self, recorded[self.next % len(recorded)])
            self.next += 1
            return state

    pyspiel.register_game(game_type, FloorGame)
    return FloorGame()


def nothing_kept(game):
    """The game with no positions kept by history (``Progress.children``): each game computed afresh."""
    game.loaded.keep = 0
    return game


def main(argv: list[str] | None = None) -> int:
    """Run the comparison and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default=str(DEFAULT_GAME))
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--floor", action="store_true", help="also time the floor: the nodes replayed, nothing done")
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
                nothing_kept(load(args.game, max_game_length=DEFAULT_MAX_GAME_LENGTH + 1)), args.games, args.seed),
            "python_kuhn_poker": spiel_games(pyspiel.load_game("python_kuhn_poker"), args.games, args.seed),
        }
        if args.floor:
            fresh = nothing_kept(load(args.game, max_game_length=DEFAULT_MAX_GAME_LENGTH + 2))
            recorded = recorded_nodes(fresh, args.games, args.seed)
            sides["floor"] = spiel_games(floor_game(pyspiel, fresh, recorded), args.games, args.seed)
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
    if args.floor:
        engine_s, floor_s = seconds["engine"], seconds["floor"]
        print(f"floor: pyspiel and this loop, {1e6 * floor_s / args.rounds / args.games:.0f} µs a game "
              f"({1e6 * seconds['engine'] / args.rounds / args.games:.0f} µs for the engine)")
        print(f"ceiling, adapter / engine: {engine_s / (engine_s + floor_s):.2f}")
    print(f"ratio: {rate['adapter'] / rate['python_kuhn_poker']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
