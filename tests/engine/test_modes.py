"""Every mode of play plays the same games: one family of tests, every shipped game x every mode.

A construct is written once (rulelang/compile/); what differs between plain play, recording, replay and
coverage is the mode the state carries (``State.picking``: its pickers, step limit, replay's ``take`` and
the recorder), which the emitted code and the engine's loop read at each decision they take. So every
mode is checked here against one reference: the game taken one decision at a time through the engine's
decision interface (``choice_size``/``apply_index``, ``ask_answers``/``answer``, ``apply_random``), with
its trace events recorded the careful way (``play`` while narrating, when nothing is taken in a block).

Each mode must give the same final state (the same state hash) and, where it makes a trace, the same
events, event for event:

- ``play``: ``play()`` with pickers by position attached (decisions taken in the blocks);
- ``record``: ``play()`` recording every event with turn digests (events made where each decision is taken);
- ``narrate``: ``play()`` recording and narrating (every decision through ``play``'s own loop);
- ``simulate``: the simulator's playout (``sim.runner.play_game``);
- ``coverage``: the coverage variant of the generated code, recording;
- ``replay`` and ``replay-careful``: the recorded trace replayed the fast way (``trace/feed.py``, decisions
  taken in the blocks) and the careful way (event by event): compliant, the same result, the same state.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from scripted import ROOT
from step_support import take_step

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.agents.spec import seat_specs
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.sim.runner import SimJob, play_game
from rulelang.trace.format import header, result_line
from rulelang.trace.replay import Replayer, Trace

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))
MODES = ("play", "record", "narrate", "simulate", "coverage", "replay", "replay-careful")
SEEDS = range(1, 9)

pytestmark = pytest.mark.usefixtures("at_root")


@functools.cache
def engine_for(game: str, coverage: bool = False) -> Engine:
    """games/GAME.rules, loaded once (with coverage counting: its own engine on the same program)."""
    engine = load_game(ROOT / "games" / f"{game}.rules")
    return Engine(engine.program, coverage=True) if coverage else engine


def counts(engine: Engine) -> list[int]:
    """The fewest, the default and the most players."""
    model = engine.model
    return sorted({model.min_players, model.default_players, model.max_players})


def agents(seed: int, players: int) -> list[RandomAgent]:
    return [RandomAgent(seed, s) for s in range(players)]


@functools.cache
def reference(game: str, players: int, seed: int) -> tuple[str, str, tuple]:
    """The game one decision at a time (its final state and state hash), and its trace events recorded
    the careful way."""
    engine = engine_for(game)
    st = engine.new_state(players)
    chance = Rng(seed, stream=0)
    st.chance_rng = chance
    pickers = agents(seed, players)
    while not st.over:
        take_step(engine, st, pickers, chance)
    st.chance_rng = None
    return st.dumps(), st.digest(), tuple(recorded(engine, players, seed, narrate=True)[1])


def recorded(engine: Engine, players: int, seed: int, narrate: bool = False) -> tuple[State, list[dict[str, Any]]]:
    """A game played with ``play()``, every event recorded (with turn digests)."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, agents(seed, players), seed, on_event=lambda e, _n: events.append(e), narrate=narrate,
         digests=True)
    st.log = None
    return st, events


def played(mode: str, game: str, players: int, seed: int) -> tuple[State, list[dict[str, Any]] | None]:
    """The game of ``seed`` played in ``mode``: its final state, and its trace events if it makes any."""
    engine = engine_for(game)
    if mode == "play":
        st = engine.new_state(players)
        play(engine, st, agents(seed, players), seed)
        return st, None
    if mode in ("record", "narrate"):
        return recorded(engine, players, seed, narrate=mode == "narrate")
    if mode == "coverage":
        covering = engine_for(game, coverage=True)
        st, events = recorded(covering, players, seed)
        assert covering.coverage is not None and any(covering.coverage)
        return st, events
    if mode == "simulate":
        job = SimJob(str(ROOT / "games" / f"{game}.rules"), (), players, tuple(seat_specs(["random"], players)),
                     seed=seed)
        st, _first = play_game(engine, job, 0)
        return st, None
    st, events = recorded(engine, players, seed)
    head = header(engine, f"games/{game}.rules", players, seed, ["random"] * players, {})
    head["_line"] = 1
    lines = [*enumerate(events, start=2), (len(events) + 2, result_line(st))]
    trace = Trace(f"games/{game}.rules", head, lines)
    replayer = Replayer(engine, trace)
    replayer.fast = mode == "replay"
    verdict = replayer.run()
    assert verdict.status == "compliant", verdict.message
    assert verdict.result == st.result
    # (the fast way may still doubt and go the careful way, at a digest where listing would have left
    # other locals: see test_replay_membership.py; what the verdict and the state are is what counts here)
    assert replayer.state is not None
    return replayer.state, events


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game", GAMES)
def test_every_mode_plays_the_same_games(game: str, mode: str) -> None:
    for players in counts(engine_for(game)):
        for seed in SEEDS:
            want_state, want_hash, want_events = reference(game, players, seed)
            st, events = played(mode, game, players, seed)
            assert st.dumps() == want_state, (players, seed)
            assert st.digest() == want_hash
            if events is not None:
                assert events == list(want_events), (players, seed)
            assert st.picking is None and st.chance_events is None  # nothing of the mode left on the state


def test_every_game_and_mode_is_covered() -> None:
    assert {"chicken", "barnyard", "rule-the-roost", "hippe-kippen", "rooster-rush"} <= set(GAMES)
    assert len(MODES) == 7
