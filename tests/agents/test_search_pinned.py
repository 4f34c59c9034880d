"""The search agents' choices pinned on every game: the same choice and the same random draws for a
fixed seed, however the search is made fast (rollouts by the engine's pickers, determinizations,
the tree phase). The pins were written by main's code before any of that (``--pin`` below); those of ``mcts-deep``
and the last two whole games were added later, written by main's code before the tree walk, the lean
rollout ends and the shaped copies (``--pin-new``: only pins not there yet).

Each case plays a seeded random game, stops at a few positions where a seat decides, and asks
an MCTS (or greedy) agent of that seat for its choice; the pin is the choice and the agent's random
stream afterwards (so every draw of every iteration, rollouts included, is the same).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulelang.agents.search import GreedyAgent, MctsAgent
from rulelang.engine.determinize import World, random_step
from rulelang.game import load_game
from rulelang.play import play
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("search_pins.json")
GAMES = [*(f"games/{p.name}" for p in sorted((ROOT / "games").glob("*.rules"))),
         "examples/kuhn-poker/kuhn-poker.rules", "examples/leduc-poker/leduc-poker.rules",
         "examples/goofspiel/goofspiel.rules", "examples/blackjack/blackjack.rules"]
AGENTS = {"mcts-short": dict(iters=12, depth=6), "mcts-long": dict(iters=6, depth=200), "greedy": {},
          "mcts-deep": dict(iters=40),  # (deep: trees of several levels, walked by the engine's pickers)
          "mcts-50": dict(iters=50)}  # (benchmarks/search.py's searches: pinned before the cheaper tree phase)
POSITIONS = 4  # positions per game and agent
PLAYERS = {"games/barnyard.rules": 4, "games/rule-the-roost.rules": 4}


def _agent(kind: str, seed: int, seat: int) -> Any:
    if kind == "greedy":
        return GreedyAgent(seed, seat, samples=2)
    return MctsAgent(seed, seat, **AGENTS[kind])


def choices(game: str, kind: str) -> list[list[Any]]:
    """[step, seat, choice, the agent's stream state after] at the first positions of a seeded random game
    where a seat has more than one option (every few decisions)."""
    engine = load_game(ROOT / game)
    players = PLAYERS.get(game, engine.model.default_players)
    st = engine.new_state(players)
    rng = Rng(7, stream=3)
    out: list[list[Any]] = []
    decisions = 0
    while not st.over and len(out) < POSITIONS:
        if not engine.is_chance(st):
            d = engine.pending(st)
            assert d is not None
            labels = list(d.labels or [])
            if len(labels) > 1 and decisions % 3 == 0:
                seat = d.player if d.player is not None else st.current
                agent = _agent(kind, 11 + len(out), seat)
                choice = agent.choose({}, labels, World(engine, st, seat))
                out.append([st.step, seat, choice, agent.rng._state])
            decisions += 1
        random_step(engine, st, rng)
    return out


def full_game(game: str) -> list[Any]:
    """A whole game with MCTS in every seat: its choices and the final state's digest."""
    engine = load_game(ROOT / game)
    players = PLAYERS.get(game, engine.model.default_players)
    taken: list[str] = []

    class Recording(MctsAgent):
        def choose(self, observation: dict[str, Any], legal: list[str], world: World | None = None) -> str:
            action = super().choose(observation, legal, world)
            taken.append(action)
            return action

    st = engine.new_state(players)
    play(engine, st, [Recording(3, p, iters=8, depth=12) for p in range(players)], 3)
    return [taken, st.digest()]


FULL_GAMES = ["games/chicken.rules", "examples/kuhn-poker/kuhn-poker.rules", "examples/goofspiel/goofspiel.rules",
              "games/rooster-rush.rules", "games/rule-the-roost.rules",  # (these two: asks in the tree)
              "games/chicken-eggspansion.rules", "games/barnyard-2p.rules"]


def _pins() -> dict[str, Any]:
    return json.loads(PINS.read_text(encoding="utf-8"))


@pytest.mark.parametrize("kind", sorted(AGENTS))
@pytest.mark.parametrize("game", GAMES)
def test_search_choices_are_pinned(game: str, kind: str) -> None:
    assert choices(game, kind) == _pins()["positions"][f"{game} {kind}"]


@pytest.mark.parametrize("game", FULL_GAMES)
def test_whole_games_with_mcts_in_every_seat_are_pinned(game: str) -> None:
    assert full_game(game) == _pins()["games"][game]


if __name__ == "__main__" and sys.argv[1:] == ["--pin-new"]:  # add the pins not there yet (on main's code)
    pins = _pins()
    for g in GAMES:
        for k in sorted(AGENTS):
            if f"{g} {k}" not in pins["positions"]:
                pins["positions"][f"{g} {k}"] = choices(g, k)
    for g in FULL_GAMES:
        if g not in pins["games"]:
            pins["games"][g] = full_game(g)
    PINS.write_text(json.dumps(pins, indent=1) + "\n", encoding="utf-8")

if __name__ == "__main__" and sys.argv[1:] == ["--pin"]:  # write the pins (on main's code, before a change)
    pins = {"positions": {f"{g} {k}": choices(g, k) for g in GAMES for k in sorted(AGENTS)},
            "games": {g: full_game(g) for g in FULL_GAMES}}
    PINS.write_text(json.dumps(pins, indent=1) + "\n", encoding="utf-8")
