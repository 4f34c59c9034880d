"""Replay taking recorded choices and answers inside the generated blocks gives the careful verdicts.

While replay's fast way is attached (``State.picking`` of three items, ``Feed``), a generated
block that reaches a ``choose`` takes the trace's recorded option there (``CodeGen.replay_take``:
the option found by its membership test, ``Feed.take``), and an ``ask`` takes every recorded
answer there (``CodeGen.pause_answers``: each answer found among those listed, ``Feed.pick``),
then runs on into the next block, without going back to the engine's loop. What a recorded
label reads as is worked out once per choice and label (``rows_for``).

None of that may change a verdict. Every game's recorded traces, and many copies of them with
one thing changed (another option, another answer, another player, a wrong or missing step, a
chance outcome changed, an event dropped, doubled, moved, or given an extra key, a private look
changed, the trace cut), are replayed the fast way and the careful way (event by event), and the
verdicts must agree field for field (status, message, line, step, player, rule, reason, legal
options, result), with the same final state. A last test breaks the mechanism on purpose (the
recorded option taken without checking its chooser) and requires these comparisons to notice.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from scripted import ROOT
from step_support import engine_for, recorded_game

from rulelang.engine.engine import Engine
from rulelang.rng import Rng
from rulelang.trace import feed as feed_module
from rulelang.trace.replay import Replayer, Trace, Verdict

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))
SEEDS = (1, 2, 3)
CHANGES = 24  # changed copies per recorded game

pytestmark = pytest.mark.usefixtures("at_root")


def replay(engine: Engine, trace: Trace, fast: bool) -> tuple[Verdict, Replayer]:
    replayer = Replayer(engine, trace)
    replayer.fast = fast
    return replayer.run(), replayer


def both_ways(engine: Engine, trace: Trace, sure: bool = False) -> Verdict:
    """The fast way's verdict, which must be the careful way's, field for field, with the same final state;
    ``sure``: the fast way must have given it without doubting (without replaying it the careful way)."""
    fast, fast_replayer = replay(engine, trace, fast=True)
    careful, careful_replayer = replay(engine, trace, fast=False)
    assert fast.to_json() == careful.to_json()
    states = [r.state.dumps() if r.state is not None else None for r in (fast_replayer, careful_replayer)]
    assert states[0] == states[1]
    assert not (sure and fast_replayer.doubted)
    return fast


@contextlib.contextmanager
def counting_in_blocks() -> Iterator[dict[str, int]]:
    """How many recorded choices (``take``, found) and answers or listed choices (``pick``) replay took
    from inside a generated block, and how many from the engine's loop."""
    counts = {"take in block": 0, "take in loop": 0, "pick in block": 0, "pick in loop": 0}
    take, pick = feed_module.Feed.take, feed_module.Feed.pick

    def where() -> str:
        caller = sys._getframe(2).f_code.co_filename
        return "in block" if caller.startswith("<rulelang-generated") else "in loop"

    def counted_take(self: Any, st: Any, spec: Any, loc: list) -> Any:
        opt = take(self, st, spec, loc)
        if opt is not None:
            counts["take " + where()] += 1
        return opt

    def counted_pick(self: Any, seat: int, n: int) -> int:
        counts["pick " + where()] += 1
        return pick(self, seat, n)

    feed_module.Feed.take = counted_take  # type: ignore[method-assign]
    feed_module.Feed.pick = counted_pick  # type: ignore[method-assign]
    try:
        yield counts
    finally:
        feed_module.Feed.take = take  # type: ignore[method-assign]
        feed_module.Feed.pick = pick  # type: ignore[method-assign]


def _replaced(trace: Trace, i: int, events: list[dict[str, Any]]) -> Trace:
    """``trace`` with its event ``i`` replaced by ``events`` (on the same line)."""
    line = trace.events[i][0]
    return Trace(trace.path, trace.header, [*trace.events[:i], *((line, e) for e in events), *trace.events[i + 1:]])


def changed_traces(engine: Engine, game: str, trace: Trace, seed: int, count: int) -> list[Trace]:
    """``count`` copies of ``trace``, each with one thing changed (see the module's docstring)."""
    rng = Rng(seed, stream=31)
    events = [event for _line, event in trace.events]
    actions = [i for i, e in enumerate(events) if e["type"] == "action"]
    chances = [i for i, e in enumerate(events) if e["type"] == "chance"]
    privates = [i for i, e in enumerate(events) if e["type"] == "private"]
    labels = sorted({e["action"] for s in SEEDS for _l, e in recorded_game(game, s).events if e["type"] == "action"})
    players = [f"P{p + 1}" for p in range(trace.header["players"])]
    faces = sorted({f.name for f in engine.model.faces}) or ["x"]
    kinds = sorted({k.name for k in engine.model.kinds})

    def pick(items: list[Any]) -> Any:
        return items[rng.below(len(items))]

    out: list[Trace] = []
    while len(out) < count:
        way = rng.below(12)
        if way <= 2 and actions:  # another option or answer of this game (often legal here too)
            i = pick(actions)
            out.append(_replaced(trace, i, [{**events[i], "action": pick(labels)}]))
        elif way == 3 and actions:  # another player
            i = pick(actions)
            out.append(_replaced(trace, i, [{**events[i], "player": pick(players)}]))
        elif way == 4 and actions:  # a step wrong, or left out (allowed)
            i = pick(actions)
            event = dict(events[i])
            if rng.below(2):
                event["step"] += pick([-1, 1, 2])
            else:
                del event["step"]
            out.append(_replaced(trace, i, [event]))
        elif way == 5 and chances:  # a chance outcome changed
            i = pick(chances)
            event = dict(events[i])
            outcome = event["outcome"]
            if "roll" in event:
                event["outcome"] = pick(faces)
            elif "draw" in event:
                event["outcome"] = pick(kinds)
            elif isinstance(outcome, list):  # a shuffle: two components swapped, or one left out
                order = list(outcome)
                if len(order) > 1 and rng.below(2):
                    a, b = rng.below(len(order)), rng.below(len(order))
                    order[a], order[b] = order[b], order[a]
                else:
                    order = order[1:]
                event["outcome"] = order
            else:  # a first player or a pick
                event["outcome"] = pick(players)
            out.append(_replaced(trace, i, [event]))
        elif way == 6:  # an event dropped
            out.append(_replaced(trace, rng.below(len(events) - 1), []))
        elif way == 7:  # an event doubled
            i = rng.below(len(events) - 1)
            out.append(_replaced(trace, i, [events[i], events[i]]))
        elif way == 8:  # an event moved one place on
            i = rng.below(len(events) - 2)
            out.append(_replaced(_replaced(trace, i + 1, [events[i + 1], events[i]]), i, []))
        elif way == 9:  # an extra key, or a comment before it
            i = rng.below(len(events) - 1)
            extra = [{**events[i], "note": 1}] if rng.below(2) else [{"type": "comment", "text": "x"}, events[i]]
            out.append(_replaced(trace, i, extra))
        elif way == 10 and privates:  # a private look changed
            i = pick(privates)
            event = dict(events[i])
            event["seen"] = list(event.get("seen", []))[1:] if event.get("seen") else ["x"]
            out.append(_replaced(trace, i, [event]))
        elif way == 11:  # cut before or after an event
            i = rng.below(len(events))
            out.append(Trace(trace.path, trace.header, trace.events[:i + rng.below(2)]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_recorded_games_take_their_decisions_in_the_blocks(game: str) -> None:
    """Recorded games are compliant both ways, and the fast way took their decisions inside the blocks."""
    engine = engine_for(game)
    with counting_in_blocks() as counts:
        for seed in SEEDS:
            verdict = both_ways(engine, recorded_game(game, seed), sure=True)
            assert verdict.status == "compliant", verdict.message
    assert counts["take in block"] + counts["pick in block"] > 0
    # choices with membership tests and asks are taken in the blocks (the engine's loop takes the
    # choices it lists, and those met where a block cannot go on, such as right after a roll it paused at)
    assert counts["take in block"] + counts["pick in block"] > counts["take in loop"] + counts["pick in loop"]


@pytest.mark.parametrize("game", GAMES)
def test_changed_traces_get_the_careful_verdict(game: str) -> None:
    engine = engine_for(game)
    statuses: set[str] = set()
    for seed in SEEDS:
        for changed in changed_traces(engine, game, recorded_game(game, seed), seed, CHANGES):
            statuses.add(both_ways(engine, changed).status)
    assert {"compliant", "violation", "incomplete", "malformed"} <= statuses


def test_the_comparison_notices_a_broken_take(monkeypatch: pytest.MonkeyPatch) -> None:
    """Broken on purpose: a recorded option taken without checking who records it. The fast way then
    takes another player's action where the careful way finds a violation, and the comparison says so."""
    original = feed_module.Feed.take

    def careless(self: Any, st: Any, spec: Any, loc: list) -> Any:
        j = self.at + len(self.made)
        if j < self.n and self.evs[j]["type"] == "action" and "player" in self.evs[j]:
            event = self.evs[j]
            self.evs[j] = {**event, "player": self.labels[st.current]}  # (what the check would have read)
            try:
                return original(self, st, spec, loc)
            finally:
                self.evs[j] = event
        return original(self, st, spec, loc)

    game = "chicken"
    engine = engine_for(game)
    trace = recorded_game(game, 1)
    actions = [i for i, (_line, event) in enumerate(trace.events) if event["type"] == "action"]
    i = actions[len(actions) // 2]
    event = trace.events[i][1]
    other = next(p for p in (f"P{n + 1}" for n in range(trace.header["players"])) if p != event["player"])
    wrong = _replaced(trace, i, [{**event, "player": other}])
    assert both_ways(engine, wrong).status == "violation"
    monkeypatch.setattr(feed_module.Feed, "take", careless)
    with pytest.raises(AssertionError):
        both_ways(engine, wrong)


def _shuffles_changed(event: dict[str, Any], kinds: list[str]) -> list[dict[str, Any]]:
    """A recorded shuffle changed in each way replay must judge as the careful way does."""
    order = list(event["outcome"])
    out = [dict(event), {**event, "outcome": order[::-1]}, {**event, "outcome": order[1:]},
           {**event, "outcome": [*order, order[0]]}, {**event, "outcome": [*order[1:], kinds[0]]},
           {**event, "outcome": [*order[1:], "nothing"]}, {**event, "outcome": ",".join(order)},
           {**event, "shuffle": event["shuffle"] + "s"}, {**event, "note": 1}, {**event, "step": event["step"] + 1}]
    if len(order) > 1:
        out.append({**event, "outcome": [order[1], order[0], *order[2:]]})
    return out


@pytest.mark.parametrize("game", GAMES)
def test_changed_shuffles_get_the_careful_verdict(game: str) -> None:
    """Replay applies a recorded shuffle without the careful way's Decision (``Replayer._shuffled``):
    every shuffle of a recorded game, changed in many ways, gets the careful verdict."""
    engine = engine_for(game)
    kinds = sorted({k.name for k in engine.model.kinds})
    trace = recorded_game(game, 1)
    shuffles = [i for i, (_line, event) in enumerate(trace.events) if "shuffle" in event]
    statuses: set[str] = set()
    for i in shuffles[:4]:
        for event in _shuffles_changed(trace.events[i][1], kinds):
            statuses.add(both_ways(engine, _replaced(trace, i, [event])).status)
    if shuffles:
        assert {"compliant", "violation", "malformed"} <= statuses
