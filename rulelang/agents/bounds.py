"""The largest values of the agents' parameters (docs/simulate.md, "Bounds"): light, for ``--help`` texts."""

from __future__ import annotations

MAX_SAMPLES = 1_000  # greedy:samples=, positions sampled per decision
MAX_ITERS = 100_000  # mcts:iters=, iterations per decision
MAX_DEPTH = 10_000  # mcts:depth=, random moves per playout
MAX_C = 100.0  # mcts:c=, the exploration constant
