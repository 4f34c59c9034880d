"""What the equivalence tests of the compiler's fast paths compare (a build with a lever against one
without): a random game's final table, played plainly or recorded with digests, and the examples; an MCTS
agent's choices; where a step budget runs out; whether a deliberately broken build is noticed."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rulelang.agents.base import RandomAgent
from rulelang.agents.search import MctsAgent
from rulelang.engine.determinize import World, random_step
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.rng import Rng

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


def player_counts(engine: Engine) -> list[int]:
    """The game's fewest, default and most players, each once, in order."""
    model = engine.model
    return sorted({model.min_players, model.default_players, model.max_players})


def same_games(new: Engine, old: Engine, players: Iterable[int], seeds: Iterable[int]) -> None:
    """Assert that both builds play (``plain``) and record (``trace``) the same game at every count of
    ``players`` and every seed of ``seeds``."""
    for n, seed in itertools.product(list(players), list(seeds)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)


def mcts_choices(engine: Engine, players: int) -> list[Any]:
    """An MCTS agent's choices (and its stream after) at the first positions with a choice of a seeded game."""
    st = engine.new_state(players)
    rng = Rng(5, stream=3)
    out: list[Any] = []
    while not st.over and len(out) < 4:
        if not engine.is_chance(st):
            d = engine.pending(st)
            assert d is not None
            labels = list(d.labels or [])
            if len(labels) > 1:
                seat = d.player if d.player is not None else st.current
                agent = MctsAgent(3 + len(out), seat, iters=8, depth=30)
                out.append((st.step, agent.choose({}, labels, World(engine, st, seat)), agent.rng._state))
        random_step(engine, st, rng)
    return out


def budget_outcome(engine: Engine, players: int, seed: int) -> tuple[Any, ...]:
    """How a random game under the engine's step budget ends: ("played", step, zones), or ("error", the
    error's text) where the budget runs out."""
    try:
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        return "played", st.step, st.zones
    except RulelangError as exc:
        return "error", exc.format()


def noticed(wrong: Engine, right: Engine, seeds: int = 3, compare: Callable[[Engine, int, int], Any] = plain) -> bool:
    """Whether a deliberately broken build plays other games than the right one (``compare``'s outcome, four
    players, seeds 0 to ``seeds`` - 1) or fails on one: a broken rewrite must not pass unnoticed."""
    for seed in range(seeds):
        try:
            if compare(wrong, 4, seed) != compare(right, 4, seed):
                return True
        except Exception:  # noqa: BLE001 -- a broken build may as well fail: it must not pass unnoticed
            return True
    return False
