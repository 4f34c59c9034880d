"""What the equivalence tests of the compiler's fast paths compare (a build with a lever against one
without): a random game's final table, played plainly or recorded with digests, and the examples."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted(str(p.relative_to(REPO)) for p in (REPO / "examples").glob("**/*.rules"))


def table(engine: Engine, st: State) -> dict[str, Any]:
    """The table of ``st`` as the levers must leave it: zones, counters, who is out, step, turn, faces,
    the result, standings and ranks."""
    return {"zones": st.zones, "counters": st.counters, "out": st.out, "step": st.step, "turn": st.turn,
            "faces": st.faces, "result": st.result, "standings": engine.standings(st), "ranks": engine.ranks(st)}


def played(engine: Engine, players: int, seed: int) -> tuple[State, dict[str, Any]]:
    """A plain random playout (no recording: the fast paths inside the blocks): its final state and table."""
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    return st, table(engine, st)


def plain(engine: Engine, players: int, seed: int) -> dict[str, Any]:
    """The final table of a plain random playout."""
    return played(engine, players, seed)[1]


def trace(engine: Engine, players: int, seed: int) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The events of a recorded random game (digests included) and its final table."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, digests=True,
         on_event=lambda event, _told: events.append(event))
    return events, table(engine, st)
