"""OpenSpiel's MCTS plays a rulelang game against random players.

    pip install -e '.[openspiel]'
    python examples/openspiel_mcts.py games/chicken.rules --games 2 --simulations 20

Each game, seat P1 is OpenSpiel's Monte-Carlo tree search bot (UCT with random
rollouts) and every other seat picks uniformly at random; the script prints each game's
returns and the bot's mean return (+1 is a win, -1 a loss, with two players).

MCTS searches the true game state, so it sees what its player could not: use it on
games without hidden information that matters (Chicken! hides nothing a player could
use); for card games with hidden hands, use an algorithm for imperfect information
(CFR on information states, for instance) instead.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from open_spiel.python.algorithms import mcts

from rulelang.envs.openspiel import load
from rulelang.errors import RulelangError


def play_one(game, bot: mcts.MCTSBot, rng: np.random.RandomState) -> list[float]:
    """One game: P1 searches, the others play at random; chance samples its listed probabilities."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(actions, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state.returns()


def main(argv: list[str] | None = None) -> int:
    """Run the match; the exit status is 1 when the game cannot be loaded."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rules", help="a .rules file")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=20, help="MCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        game = load(args.rules, players=args.players)
    except RulelangError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    rng = np.random.RandomState(args.seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(args.seed + 1))
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=args.simulations, evaluator=evaluator,
                       random_state=np.random.RandomState(args.seed + 2))
    total = 0.0
    for i in range(args.games):
        returns = play_one(game, bot, rng)
        total += returns[0]
        print(f"game {i + 1}: returns {[round(r, 2) for r in returns]}")
    print(f"MCTS (P1) mean return over {args.games} games: {total / args.games:+.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
