"""Playing a whole game: chance from a seeded stream, choices from agents, events out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.agents.base import Agent
from rulelang.compile.runtime import player_label
from rulelang.engine.determinize import World
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.rng import Rng
from rulelang.trace.format import digest_line

EventSink = Callable[[dict[str, Any], list[dict[str, Any]]], None]


def play(
    engine: Engine,
    state: State,
    agents: list[Agent],
    seed: int,
    max_steps: int = 100_000,
    on_event: EventSink | None = None,
    narrate: bool = False,
    digests: bool = False,
) -> State:
    """Play ``state`` to the end; call ``on_event(trace_event, narration)`` after each step.

    Dice are rolled as soon as the rules roll them (with the chance stream of ``seed``);
    every die still gives its own trace event, in order. With ``digests`` (and ``on_event``), a
    step after which a new turn (or round) has begun is followed by a digest event of the table
    (``digest_line``), as ``rulelang run --trace`` records.
    """
    chance = Rng(seed, stream=0)
    if narrate:
        state.log = []
    wants_view = [getattr(agent, "needs_observation", True) for agent in agents]
    by_index = [hasattr(agent, "choose_index") and not wants_view[i] for i, agent in enumerate(agents)]
    searching = [getattr(agent, "searches", False) for agent in agents]
    is_chance = engine.is_chance
    recording = on_event is not None
    state.chance_rng = chance
    state.chance_events = [] if recording else None
    if not recording and state.log is None and all(by_index):
        # Nobody looks at anything: the engine takes every choice and ask itself, by index.
        state.picking = ([agent.choose_index for agent in agents], max_steps)  # type: ignore[attr-defined]
    try:
        while not state.over:
            if state.step >= max_steps:
                raise RulelangError(
                    f"the game did not end within {max_steps} steps", engine.where_span(state),
                    hint="raise --max-steps, or check the rules' end condition",
                )
            step = state.step
            turn = state.turn
            looked = [len(seen) for seen in state.seen] if recording else None
            size = engine.choice_size(state)
            if size is not None and by_index[size[0]]:
                # A plain choice for an agent that picks by position: no labels, no Decision.
                seat, i = size[0], agents[size[0]].choose_index(size[1])  # type: ignore[attr-defined]
                action = ""
                if recording and engine.labels_distinct(state):  # (no two options can read alike)
                    action = engine.option_label(state, i)
                elif recording:  # a recorded label must name one option: two that read alike are an error now
                    labels = engine.pending(state).labels  # type: ignore[union-attr]
                    labels.check_unique()  # type: ignore[union-attr]
                    action = labels[i]  # type: ignore[index]
                engine.apply_index(state, i)
                events = [_action_event(step, seat, action)] if recording else []
            elif size is None and (asked := engine.ask_answers(state)) is not None and by_index[asked[0]]:
                # An ask answered by an agent that picks by position: no Decision, no observation.
                seat = asked[0]
                action = engine.answer(state, asked, agents[seat].choose_index(len(asked[1])))  # type: ignore[attr-defined]
                events = [_action_event(step, seat, action)] if recording else []
            elif is_chance(state):
                events = engine.apply_random(state, chance, events=recording)
            else:
                d = engine.pending(state)
                assert d is not None
                seat = d.player if d.player is not None else state.current
                seen = engine.observe(state, seat) if wants_view[seat] else {}
                if recording and d.labels is not None and hasattr(d.labels, "check_unique") \
                        and not engine.labels_distinct(state):
                    d.labels.check_unique()
                if searching[seat]:  # a search agent also gets determinizations of its own seat's view
                    action = agents[seat].choose(seen, list(d.labels or []), World(engine, state, seat))  # type: ignore[call-arg]
                else:
                    action = agents[seat].choose(seen, d.labels or [])
                engine.apply(state, action, player=seat)
                events = [_action_event(step, seat, action)]
            if recording:
                assert on_event is not None and state.chance_events is not None and looked is not None
                events += state.chance_events  # dice rolled on the way to the next decision
                state.chance_events.clear()
                for p, before in enumerate(looked):  # private looks the rules gave during this step
                    for look in state.seen[p][before:]:
                        events.append({"type": "private", "to": player_label(p),  # not a step of its own
                                       "where": look["where"], "seen": look["components"]})
                if digests and state.turn != turn and not state.over:
                    events.append(digest_line(state))  # not a step of its own
                for i, event in enumerate(events):
                    on_event(event, (state.log or []) if i == 0 else [])
            if state.log is not None:
                state.log = []
    finally:
        state.chance_rng = None
        state.chance_events = None
        state.picking = None
    return state


def _action_event(step: int, seat: int, action: str) -> dict[str, Any]:
    return {"type": "action", "step": step + 1, "player": player_label(seat), "action": action}
