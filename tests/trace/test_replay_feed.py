"""Replay's fast way (the engine takes the trace's rolls, draws, picks, choices and answers inside
its own loop, ``rulelang.trace.feed.Feed``) gives exactly the careful way's verdict.

The careful way is ``Replayer.fast = False``: each event applied one at a time, as before the
fast way existed. Recorded games must replay the fast way from start to end (``doubted``
stays False: the fast way did not hand the trace to the careful way); a trace changed in any
one place (another face, die, drawn kind, pick, action, player or step, an event left out,
moved or repeated, a private look changed or moved, a comment, a digest, a cut) must get the
careful way's verdict, field for field, on every game in ``games/``.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest
from scripted import ROOT
from step_support import recorded

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace.format import header, result_line
from rulelang.trace.replay import Replayer, Trace, Verdict

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))

pytestmark = pytest.mark.usefixtures("at_root")


@functools.cache
def engine_for(game: str) -> Engine:
    """games/GAME.rules, loaded once."""
    return load_game(ROOT / "games" / f"{game}.rules")


@functools.cache
def recorded_game(game: str, seed: int) -> tuple[Trace, dict[str, Any]]:
    """A recorded random game of the default number of players, as an in-memory trace, and its result."""
    engine = engine_for(game)
    return recorded(engine, game, engine.model.default_players, seed)


def replay(engine: Engine, trace: Trace, fast: bool) -> tuple[Verdict, Replayer]:
    """The verdict of replaying ``trace`` the fast way (falling back when in doubt) or the careful way."""
    replayer = Replayer(engine, trace)
    replayer.fast = fast
    return replayer.run(), replayer


def same_verdict(engine: Engine, trace: Trace) -> tuple[Verdict, Replayer]:
    """Replay ``trace`` both ways; the verdicts (every field) and final states must be the same."""
    quick, quick_replayer = replay(engine, trace, True)
    careful, careful_replayer = replay(engine, trace, False)
    assert quick.to_json() == careful.to_json()
    assert careful_replayer.doubted is False
    if quick_replayer.state is not None and careful_replayer.state is not None:
        assert quick_replayer.state.dumps() == careful_replayer.state.dumps()
    return quick, quick_replayer


def _with(trace: Trace, i: int, event: dict[str, Any] | None) -> Trace:
    """``trace`` with its event ``i`` replaced by ``event`` (left out when None)."""
    line = trace.events[i][0]
    changed = [] if event is None else [(line, event)]
    return Trace(trace.path, trace.header, [*trace.events[:i], *changed, *trace.events[i + 1:]])


def _kinds(trace: Trace) -> dict[str, list[int]]:
    """Indices of the trace's events by what they are: roll, draw, pick, shuffle, first_player, action, private."""
    out: dict[str, list[int]] = {}
    for i, (_line, event) in enumerate(trace.events):
        kind = event["type"]
        if kind == "chance":
            kind = next(k for k in ("roll", "draw", "pick", "shuffle", "first_player") if k in event)
        out.setdefault(kind, []).append(i)
    return out


def tampered(engine: Engine, trace: Trace, seed: int, count: int) -> list[tuple[str, Trace]]:
    """``count`` copies of ``trace``, each changed in one place, in one of many ways."""
    rng = Rng(seed, stream=11)
    faces = [f.name for f in engine.model.faces]
    kinds = [k.name for k in engine.model.kinds]
    dice = [label for label, k in zip(engine.program.component_labels, engine.program.kind_of)
            if engine.die_faces[k]]
    where = _kinds(trace)
    actions = [trace.events[i][1]["action"] for i in where.get("action", [])]
    players = [f"P{p + 1}" for p in range(trace.header["players"])]
    n = len(trace.events) - 1  # (the result line stays last)
    out: list[tuple[str, Trace]] = []
    ways = ["face", "die", "draw", "pick", "action", "player", "step", "drop", "swap", "repeat", "private",
            "move private", "comment", "digest", "cut", "steps off"]
    while len(out) < count:
        way = ways[rng.below(len(ways))]
        i = rng.below(n)
        event = dict(trace.events[i][1])
        if way == "face" and where.get("roll"):
            i = where["roll"][rng.below(len(where["roll"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "outcome": faces[rng.below(len(faces))]})))
        elif way == "die" and where.get("roll"):
            i = where["roll"][rng.below(len(where["roll"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "roll": dice[rng.below(len(dice))]})))
        elif way == "draw" and where.get("draw"):
            i = where["draw"][rng.below(len(where["draw"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "outcome": kinds[rng.below(len(kinds))]})))
        elif way == "pick" and where.get("pick"):
            i = where["pick"][rng.below(len(where["pick"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "outcome": players[rng.below(len(players))]})))
        elif way == "action" and actions:
            i = where["action"][rng.below(len(where["action"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "action": actions[rng.below(len(actions))]})))
        elif way == "player" and actions:
            i = where["action"][rng.below(len(where["action"]))]
            out.append((way, _with(trace, i, {**trace.events[i][1], "player": players[rng.below(len(players))]})))
        elif way == "step" and "step" in event:
            out.append((way, _with(trace, i, {**event, "step": event["step"] + rng.below(3) - 1})))
        elif way == "drop":
            out.append((way, _with(trace, i, None)))
        elif way == "swap" and i + 1 < n:
            events = list(trace.events)
            (a, x), (b, y) = events[i], events[i + 1]
            events[i], events[i + 1] = (a, y), (b, x)
            out.append((way, Trace(trace.path, trace.header, events)))
        elif way == "repeat":
            events = list(trace.events)
            events.insert(i + 1, events[i])
            out.append((way, Trace(trace.path, trace.header, events)))
        elif way == "private" and where.get("private"):
            i = where["private"][rng.below(len(where["private"]))]
            seen = list(trace.events[i][1].get("seen", []))
            seen = seen[1:] if len(seen) > 1 else [*seen, "x"]
            out.append((way, _with(trace, i, {**trace.events[i][1], "seen": seen})))
        elif way == "move private" and where.get("private"):
            j = where["private"][rng.below(len(where["private"]))]
            events = list(trace.events)
            moved = events.pop(j)
            events.insert(max(0, j - 1 - rng.below(4)), moved)
            out.append((way, Trace(trace.path, trace.header, events)))
        elif way == "comment":
            events = list(trace.events)
            events.insert(i, (trace.events[i][0], {"type": "comment", "text": "hello"}))
            out.append((way, Trace(trace.path, trace.header, events)))
        elif way == "digest":
            events = list(trace.events)
            events.insert(i, (trace.events[i][0], {"type": "digest", "digest": "0123456789abcdef"}))
            out.append((way, Trace(trace.path, trace.header, events)))
        elif way == "cut":
            out.append((way, Trace(trace.path, trace.header, trace.events[:i])))
        elif way == "steps off":  # an event without its step number: the careful way takes it
            event.pop("step", None)
            out.append((way, _with(trace, i, event)))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_recorded_games_replay_the_fast_way(game: str) -> None:
    """Every recorded game replays compliant without the careful way, to the careful way's final state."""
    engine = engine_for(game)
    for seed in range(1, 9):
        trace, result = recorded_game(game, seed)
        verdict, replayer = same_verdict(engine, trace)
        assert verdict.status == "compliant", verdict.message
        assert verdict.result == result
        assert replayer.doubted is False


@pytest.mark.parametrize("game", GAMES)
def test_changed_traces_get_the_careful_verdict(game: str) -> None:
    """Whatever is changed in a trace, the fast way's verdict is the careful way's, field for field."""
    engine = engine_for(game)
    statuses: set[str] = set()
    doubted = 0
    for seed in range(1, 4):
        trace, _ = recorded_game(game, seed)
        for _way, bad in tampered(engine, trace, seed, 25):
            verdict, replayer = same_verdict(engine, bad)
            statuses.add(verdict.status)
            doubted += replayer.doubted
    assert {"violation", "malformed"} <= statuses
    assert doubted > 0  # the fast way did hand changed traces to the careful way


def test_a_wrong_die_in_a_run_of_rolls_is_caught() -> None:
    """A roll naming another die of the same kind, in the middle of a run the engine rolls at once."""
    engine = engine_for("chicken")
    trace, _ = recorded_game("chicken", 5)
    runs = [i for i in range(1, len(trace.events)) if "roll" in trace.events[i][1] and "roll" in trace.events[i - 1][1]]
    i = runs[len(runs) // 2]
    event = {**trace.events[i][1], "roll": trace.events[i - 1][1]["roll"]}  # the die just rolled, again
    verdict, replayer = same_verdict(engine, _with(trace, i, event))
    assert verdict.status == "violation"
    assert verdict.line == trace.events[i][0]
    assert replayer.doubted


def test_a_wrong_face_is_caught_where_it_is() -> None:
    engine = engine_for("chicken")
    trace, _ = recorded_game("chicken", 6)
    i = _kinds(trace)["roll"][40]
    verdict, replayer = same_verdict(engine, _with(trace, i, {**trace.events[i][1], "outcome": "Mole"}))
    assert verdict.status == "malformed"  # no die of the game has that face
    assert verdict.line == trace.events[i][0]
    assert replayer.doubted


def test_a_wrong_draw_is_caught_where_it_is() -> None:
    engine = engine_for("chicken-eggspansion")
    trace, _ = recorded_game("chicken-eggspansion", 3)
    draws = _kinds(trace)["draw"]
    drawn = {trace.events[i][1]["outcome"] for i in draws}
    i = draws[len(draws) // 2]
    other = next(k.name for k in engine.model.kinds if k.name != trace.events[i][1]["outcome"] and k.name in drawn)
    verdict, replayer = same_verdict(engine, _with(trace, i, {**trace.events[i][1], "outcome": other}))
    assert verdict.status in ("violation", "compliant")  # another kind the bag held: the game goes on otherwise
    assert replayer.doubted


def test_a_cut_trace_stops_where_it_ends() -> None:
    """A trace that stops before a choice is incomplete, and the fast way stops there too (no doubt)."""
    engine = engine_for("barnyard")
    trace, _ = recorded_game("barnyard", 2)
    actions = _kinds(trace)["action"]
    cut = Trace(trace.path, trace.header, trace.events[:actions[len(actions) // 2]])
    verdict, replayer = same_verdict(engine, cut)
    assert verdict.status == "incomplete"
    assert replayer.doubted is False


def test_private_looks_are_checked_the_fast_way() -> None:
    """A private look that is not what the rules showed is refused, at its line, as the careful way does."""
    engine = engine_for("rule-the-roost")
    trace, _ = recorded_game("rule-the-roost", 2)
    i = _kinds(trace)["private"][3]
    verdict, replayer = same_verdict(engine, _with(trace, i, {**trace.events[i][1], "seen": ["Nothing"]}))
    assert verdict.status == "malformed"
    assert verdict.line == trace.events[i][0]
    assert replayer.doubted


def test_a_trace_from_a_position_replays_the_fast_way() -> None:
    """A game played from a position (its header carries it) replays the fast way, as the careful way does."""
    engine = engine_for("chicken")
    position = {"current": "P2", "zones": {"coop": ["2 Yellow", "Orange"], "held of P2": ["4 White", "Yellow"]},
                "counters": {"score": {"P1": 20, "P2": 24}}, "turn": 12}
    events: list[dict[str, Any]] = []
    st = engine.new_state(4, position=position, setup_seed=3)
    play(engine, st, [RandomAgent(3, s) for s in range(4)], 3, on_event=lambda e, _n: events.append(e))
    head = header(engine, "games/chicken.rules", 4, 3, ["random"] * 4, {})
    head["position"] = position
    head["_line"] = 1
    lines = [*enumerate(events, start=2), (len(events) + 2, result_line(st))]
    verdict, replayer = same_verdict(engine, Trace("<position>", head, lines))
    assert verdict.status == "compliant", verdict.message
    assert verdict.result == st.result
    assert replayer.doubted is False
