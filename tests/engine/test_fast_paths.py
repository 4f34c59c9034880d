"""The fast paths of playouts and replay at their edges (that every mode plays the same games is
test_modes.py's family): the step limit, wrong rolls and answers, tampered traces, copies.

- Replay applies a run of recorded rolls in one call (``Engine.roll_recorded``) and an
  ``ask``'s recorded answer without building a Decision; the replayed state must be the
  one the careful path (``redact``, which never takes a fast path) reaches, and a wrong
  roll in the middle of a run must be reported at its own line.
"""

from __future__ import annotations

import functools

import pytest
from scripted import ROOT
from step_support import recorded

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.replay import Replayer, Trace

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))
SEEDS = range(1, 31)

pytestmark = pytest.mark.usefixtures("at_root")


@functools.cache
def engine_for(game: str) -> Engine:
    """games/GAME.rules, loaded once."""
    return load_game(ROOT / "games" / f"{game}.rules")


def fast(engine: Engine, players: int, seed: int) -> State:
    """Play the same game with play(), which lets the engine pick by index."""
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
    return st


def test_picking_keeps_the_step_limit() -> None:
    engine = engine_for("chicken")
    st = engine.new_state(4)
    with pytest.raises(RulelangError, match="did not end within 50 steps"):
        play(engine, st, [RandomAgent(3, s) for s in range(4)], 3, max_steps=50)
    assert 50 <= st.step < 60  # stopped at the first decision from step 50 on (a roll of dice may pass it)
    assert st.picking is None


def _runs_of_rolls(trace: Trace) -> list[int]:
    """Indices of roll events that follow another roll event (the middle of a run of rolls)."""
    out = []
    for i in range(1, len(trace.events)):
        a, b = trace.events[i - 1][1], trace.events[i][1]
        if a.get("roll") and b.get("roll"):
            out.append(i)
    return out


@pytest.mark.parametrize("change", ["face", "die"])
def test_a_wrong_roll_inside_a_run_is_reported_at_its_line(change: str) -> None:
    engine = engine_for("chicken")
    trace, _ = recorded(engine, "chicken", 4, 5)
    middle = _runs_of_rolls(trace)
    assert len(middle) > 10
    i = middle[len(middle) // 2]
    line, event = trace.events[i]
    event = dict(event)
    if change == "face":
        event["outcome"] = "Mole"  # no die of the game has it
    else:
        event["roll"] = trace.events[i - 1][1]["roll"]  # the die just rolled, again
    bad = Trace(trace.path, trace.header, [*trace.events[:i], (line, event), *trace.events[i + 1:]])
    verdict = Replayer(engine, bad).run()
    careful = Replayer(engine, bad, view=None, redact=True).run()
    assert verdict.status in ("violation", "malformed")
    assert verdict.line == line
    assert (verdict.status, verdict.line, verdict.steps) == (careful.status, careful.line, careful.steps)


def test_a_wrong_answer_to_an_ask_is_reported_at_its_line() -> None:
    engine = engine_for("rule-the-roost")
    trace, _ = recorded(engine, "rule-the-roost", 4, 2)
    answers = [i for i, (_line, e) in enumerate(trace.events) if e.get("type") == "action"]
    # find an action that answers an ask: replay up to it and look at what is pending
    for i in answers:
        prefix = Trace(trace.path, trace.header, trace.events[:i])
        r = Replayer(engine, prefix)
        r.run()
        assert r.state is not None
        if engine.ask_answers(r.state) is not None:
            break
    else:
        pytest.fail("no ask in this game")
    line, event = trace.events[i]
    bad = Trace(trace.path, trace.header,
                [*trace.events[:i], (line, {**event, "action": "not an answer"}), *trace.events[i + 1:]])
    verdict = Replayer(engine, bad).run()
    assert verdict.status == "violation"
    assert verdict.line == line
    assert "not an answer" in verdict.message


def test_every_game_is_covered() -> None:
    assert {"chicken", "barnyard", "rule-the-roost"} <= set(GAMES)


def _tampered(trace: Trace, engine: Engine, seed: int) -> list[Trace]:
    """Copies of ``trace`` with one event changed to something plausible: another face, kind, or action."""
    rng = Rng(seed, stream=9)
    faces = [f.name for f in engine.model.faces]
    kinds = [k.name for k in engine.model.kinds]
    actions = [e["action"] for _line, e in trace.events if e.get("type") == "action"]
    out = []
    for _ in range(12):
        i = rng.below(len(trace.events) - 1)
        line, event = trace.events[i]
        event = dict(event)
        if "roll" in event:
            event["outcome"] = faces[rng.below(len(faces))]
        elif "draw" in event:
            event["outcome"] = kinds[rng.below(len(kinds))]
        elif event.get("type") == "action":
            event["action"] = actions[rng.below(len(actions))]
        else:
            continue
        out.append(Trace(trace.path, trace.header, [*trace.events[:i], (line, event), *trace.events[i + 1:]]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_tampered_traces_get_the_careful_verdict(game: str) -> None:
    """Whatever the fast paths of replay accept or refuse, the verdict is the one the careful path gives."""
    engine = engine_for(game)
    players = engine.model.default_players
    statuses = set()
    for seed in SEEDS[:4]:
        trace, _ = recorded(engine, game, players, seed)
        for bad in _tampered(trace, engine, seed):
            quick = Replayer(engine, bad).run()
            careful = Replayer(engine, bad, view=None, redact=True).run()
            assert (quick.status, quick.line, quick.step, quick.steps, quick.reason, quick.message) == (
                careful.status, careful.line, careful.step, careful.steps, careful.reason, careful.message)
            statuses.add(quick.status)
    assert "violation" in statuses  # the changes did break the rules somewhere


def test_a_copy_is_independent_where_play_changes_it() -> None:
    """State.copy (cheaper than a deep copy) still shares nothing that play or an agent could change."""
    engine = engine_for("rule-the-roost")
    st = fast(engine, 4, 3)
    assert any(st.seen)
    new = st.copy()
    assert new.dumps() == st.dumps()
    before = st.dumps()
    new.seen[0].append({"turn": 99, "where": "x", "components": []})
    next(looks for looks in new.seen if looks)[0]["components"].append("x")
    new.zones[1].append(0)
    new.result["winners"].append("P9")  # type: ignore[index]
    assert st.dumps() == before
