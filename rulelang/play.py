"""Playing a whole game: chance from a seeded stream, choices from agents, events out."""

from __future__ import annotations

from typing import Any, Callable

from rulelang.agents.base import Agent
from rulelang.compile.compiler import player_label
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.rng import Rng

EventSink = Callable[[dict[str, Any], list[dict[str, Any]]], None]


def play(
    engine: Engine,
    state: State,
    agents: list[Agent],
    seed: int,
    max_steps: int = 100_000,
    on_event: EventSink | None = None,
    narrate: bool = False,
) -> State:
    """Play ``state`` to the end; call ``on_event(trace_event, narration)`` after each step."""
    chance = Rng(seed, stream=0)
    if narrate:
        state.log = []
    while not state.over:
        if state.step >= max_steps:
            raise RulelangError(
                f"the game did not end within {max_steps} steps", engine.where_span(state),
                hint="raise --max-steps, or check the rules' end condition",
            )
        d = engine.pending(state)
        assert d is not None
        if d.kind == "chance":
            outcome = d.sample(chance)
            event: dict[str, Any] = {"type": "chance", "step": state.step + 1, **d.event, "outcome": outcome}
            engine.apply(state, outcome)
        else:
            seat = d.player if d.player is not None else state.current
            legal = list(d.labels or [])
            action = agents[seat].choose(engine.observe(state, seat), legal)
            event = {"type": "action", "step": state.step + 1, "player": player_label(seat), "action": action}
            engine.apply(state, action)
        if on_event is not None:
            narration = state.log or []
            on_event(event, narration)
        if state.log is not None:
            state.log = []
    return state
