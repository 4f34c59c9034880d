"""Random games for tests: one decision at a time through the engine's decision interface, or
recorded whole as an in-memory trace."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.format import header, result_line
from rulelang.trace.replay import Trace


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


def played(engine: Engine, players: int, seed: int, max_steps: int = 100_000) -> tuple[State, str]:
    """A random game played with play() (the engine picks by position); the error text if it stopped."""
    st = engine.new_state(players)
    try:
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, max_steps=max_steps)
    except RulelangError as exc:
        return st, str(exc)
    return st, ""


def same_stops(fast: Engine, slow: Engine, players: int, seed: int, limits: range,
               view: Callable[[State], Any] = State.dumps, stopped: bool = False) -> None:
    """Stopped by ``max_steps`` at each of ``limits``, the game of seed ``seed`` is left by ``fast`` as
    by ``slow`` (as ``view`` shows the states), with the same error (with ``stopped``, always the
    step limit's)."""
    for limit in limits:
        got, error = played(fast, players, seed, max_steps=limit)
        want, want_error = played(slow, players, seed, max_steps=limit)
        assert error == want_error, limit
        assert not stopped or "did not end within" in error, limit
        assert view(got) == view(want), limit


def one_at_a_time(engine: Engine, players: int, seed: int) -> State:
    """The same game, each decision (shuffles too) taken through the engine's decision interface."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    st.chance_rng = Rng(seed, stream=0)
    while not st.over:
        take_step(engine, st, agents, st.chance_rng)
    st.chance_rng = None
    return st


def recorded(engine: Engine, game: str, players: int, seed: int) -> tuple[Trace, dict[str, Any]]:
    """A random game of ``games/GAME.rules`` recorded as an in-memory trace, and its result."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, on_event=lambda e, _n: events.append(e))
    head = header(engine, f"games/{game}.rules", players, seed, ["random"] * players, {})
    head["_line"] = 1
    lines = list(enumerate(events, start=2))
    lines.append((len(events) + 2, result_line(st)))
    assert st.result is not None
    return Trace(f"<{game} {seed}>", head, lines), st.result


# A two-player game of one choice: its first option is written where OPTION stands.
NUMBERS = """\
game "Numbers"
players 2 to 2 default 2

counter score per player = 0 "points"

setup:
  pass

turn:
  choose:
    OPTION:
      score of current += 1
    "stop":
      pass
  if score of current > 3:
    end game

rank p by highest score of p
"""


GAMES_DIR = Path(__file__).resolve().parents[2] / "games"


@functools.cache
def engine_for(game: str) -> Engine:
    """games/GAME.rules, loaded once."""
    return load_game(GAMES_DIR / f"{game}.rules")


@functools.cache
def recorded_game(game: str, seed: int) -> Trace:
    """A random game of games/GAME.rules at its default players, recorded once."""
    engine = engine_for(game)
    return recorded(engine, game, engine.model.default_players, seed)[0]
