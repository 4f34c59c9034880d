"""What ``benchmarks/search.py`` counts of a search, pinned on every game: the iterations run and the
decisions their rollouts took (``MctsAgent.iterations``, ``rollout_decisions``), with the choice and the
agent's random stream after it, for seeded searches of the benchmark's size (``iters=50``) and of short
rollouts (``depth=3``, cut before the end), at the first positions of a seeded random game. The pins were
written by main's code (``5d257c7``) before the tree walk handed over to its rollout (``--pin``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from rulelang.agents.search import MctsAgent
from rulelang.engine.determinize import World, random_step
from rulelang.game import load_game
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
PINS = Path(__file__).with_name("search_counts.json")
GAMES = [*(f"games/{p.name}" for p in sorted((ROOT / "games").glob("*.rules"))),
         "examples/kuhn-poker/kuhn-poker.rules", "examples/goofspiel/goofspiel.rules"]
AGENTS = {"bench": dict(iters=50), "cut": dict(iters=20, depth=3)}


def counts(game: str, kind: str) -> list[list[Any]]:
    """[step, seat, choice, the stream after, iterations, rollout decisions] at three positions of a seeded
    random game where a seat has more than one option."""
    engine = load_game(ROOT / game)
    players = max(2, engine.model.min_players)
    st = engine.new_state(players)
    rng = Rng(5, stream=3)
    out: list[list[Any]] = []
    decisions = 0
    while not st.over and len(out) < 3:
        if not engine.is_chance(st):
            d = engine.pending(st)
            assert d is not None
            labels = list(d.labels or [])
            if len(labels) > 1 and decisions % 2 == 0:
                seat = d.player if d.player is not None else st.current
                agent = MctsAgent(21 + len(out), seat, **AGENTS[kind])
                choice = agent.choose({}, labels, World(engine, st, seat))
                out.append([st.step, seat, choice, agent.rng._state, agent.iterations, agent.rollout_decisions])
            decisions += 1
        random_step(engine, st, rng)
    return out


@pytest.mark.parametrize("kind", sorted(AGENTS))
@pytest.mark.parametrize("game", GAMES)
def test_search_counts_are_pinned(game: str, kind: str) -> None:
    found = counts(game, kind)
    assert found == json.loads(PINS.read_text(encoding="utf-8"))[f"{game} {kind}"]
    assert found and all(row[4] > 0 for row in found)  # (searches were run and counted)


if __name__ == "__main__" and sys.argv[1:] == ["--pin"]:  # write the pins (on main's code, before a change)
    PINS.write_text(json.dumps({f"{g} {k}": counts(g, k) for g in GAMES for k in sorted(AGENTS)}, indent=1) + "\n",
                    encoding="utf-8")
