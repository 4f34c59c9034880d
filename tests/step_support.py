"""One decision of a random game taken through the engine's decision interface (no fast driver loop)."""

from __future__ import annotations

from typing import Any

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State


def take_step(engine: Engine, st: State, agents: list[RandomAgent], chance: Any, events: bool = False) -> Any:
    """Take the pending decision of ``st``: a choice or an answer by its agent's pick by index, chance
    sampled from ``chance``. Returns None for a choice or an answer, and for chance what
    ``Engine.apply_random`` returns (its trace events, an empty list without ``events``)."""
    size = engine.choice_size(st)
    asked = engine.ask_answers(st) if size is None else None
    if size is not None:
        engine.apply_index(st, agents[size[0]].choose_index(size[1]))
        return None
    if asked is not None:
        engine.answer(st, asked, agents[asked[0]].choose_index(len(asked[1])))
        return None
    assert engine.is_chance(st)
    return engine.apply_random(st, chance, events=events)
