"""Replay's probes (``rulelang.trace.feed.probe_for``): the recorded option of a choice tested by a
function written out once per choice and label, instead of ``find_member``'s generic loop over the
rows of ``rows_for``. Every probe must answer as ``find_member`` does (the same option, the same
exactness, the same locals left) on every game's recorded and changed traces; and a replay with
probes must give the verdict (every field, the same final state) of a replay without them and of
the careful way, on traces changed in any one place. Replay with the seed's stream draws every
chance in the engine's loop (``Picking.kept``): changed draws, shuffles, picks and first players
must get the careful way's verdict too.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.rng import Rng
from rulelang.trace import feed as feed_module
from rulelang.trace.format import CHANCE_FROM_SEED, header, result_line
from rulelang.trace.replay import Replayer, Trace, Verdict
from tests.trace.test_replay_feed import GAMES, engine_for, recorded_game, tampered
from tests.trace.test_replay_membership import _bent

pytestmark = pytest.mark.usefixtures("at_root")


def probe_agrees(feed: Any, st: Any, spec: Any, loc: list, label: str) -> bool:
    """Whether ``label`` names an option of ``spec`` now, asserting that the probe and ``find_member`` agree on
    it: the same option, the same exactness, the same locals left (each on its own copy of ``loc``)."""
    mine, theirs = loc[:], loc[:]
    got = feed_module.probe_for(spec, label, feed.tables)(st, mine)
    want = feed_module.find_member(st, spec, theirs, label, {})
    assert (got is None) == (want is None), label
    if got is not None:
        assert got[0] is want[0] and got[1] == want[1]
    assert mine == theirs
    return got is not None


@functools.cache
def seeded_game(game: str, seed: int) -> Trace:
    """A random game recorded as ``rulelang run --trace`` records it: every chance outcome from the seed
    (the header's ``"chance": "seed"``) and a digest of the table as each turn begins."""
    engine = engine_for(game)
    players = engine.model.default_players
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, events=events, digests=True)
    head = header(engine, f"games/{game}.rules", players, seed, ["random"] * players, {}, chance=CHANCE_FROM_SEED)
    head["_line"] = 1
    lines = [*enumerate(events, start=2), (len(events) + 2, result_line(st))]
    return Trace(f"<{game} seed {seed}>", head, lines)


def traces_of(game: str, seeds: range) -> Iterator[Trace]:
    """Recorded games of ``game``, with free chance and with chance from the seed, for each of ``seeds``."""
    for seed in seeds:
        yield recorded_game(game, seed)[0]
        yield seeded_game(game, seed)


@contextmanager
def checked_probes() -> Iterator[list[int]]:
    """Every probe made while inside checks each answer against ``find_member``'s (on a copy of the
    locals): the same option, the same exactness, the same locals after. Yields [probes called,
    options found]."""
    seen = [0, 0]
    original = feed_module.probe_for

    def probe_for(spec: Any, action: str, tables: Any) -> Any:
        probe = original(spec, action, tables)

        def checked(st: Any, loc: list) -> Any:
            copy = loc[:]
            want = feed_module.find_member(st, spec, copy, action, {})
            got = probe(st, loc)
            seen[0] += 1
            seen[1] += got is not None
            assert (got is None) == (want is None)
            if got is not None:
                assert got[0] is want[0] and got[1] == want[1]
            assert loc == copy
            return got

        if tables.probes.get((id(spec), action)) is probe:
            tables.probes[id(spec), action] = checked  # (kept for the next time, as the probe itself was)
        return checked

    feed_module.probe_for = probe_for  # type: ignore[assignment]
    try:
        yield seen
    finally:
        feed_module.probe_for = original  # type: ignore[assignment]


@contextmanager
def fresh_tables(engine: Engine) -> Iterator[None]:
    """The engine's feed tables (rows read, probes made) made afresh inside, and again after."""
    feed_module.TABLES.pop(engine, None)
    try:
        yield
    finally:
        feed_module.TABLES.pop(engine, None)


@contextmanager
def without_probes() -> Iterator[None]:
    """Replay's feed without probes: every recorded option found by ``find_member``, as before them."""
    original = feed_module.probe_for

    def probe_for(spec: Any, action: str, tables: Any) -> Any:
        read = tables.read
        return lambda st, loc: feed_module.find_member(st, spec, loc, action, read)

    feed_module.probe_for = probe_for  # type: ignore[assignment]
    try:
        yield
    finally:
        feed_module.probe_for = original  # type: ignore[assignment]


def replay(engine: Engine, trace: Trace, fast: bool = True) -> tuple[Verdict, Replayer]:
    """The verdict of replaying ``trace`` (the fast way, falling back when in doubt, or the careful way)."""
    replayer = Replayer(engine, trace)
    replayer.fast = fast
    return replayer.run(), replayer


def state_of(replayer: Replayer) -> str | None:
    """The replayed final state, as text."""
    return replayer.state.dumps() if replayer.state is not None else None


def _later_actions(trace: Trace, count: int) -> Iterator[Trace]:
    """Copies of ``trace`` with one action replaced by the next other action its player takes (a label
    that reads as an option of the choice, often not a legal one now)."""
    events = trace.events
    made = 0
    for i, (line, event) in enumerate(events):
        if event["type"] != "action":
            continue
        later = next((e for _l, e in events[i + 1:] if e["type"] == "action" and e["player"] == event["player"]
                      and e["action"] != event["action"]), None)
        if later is not None and made < count:
            made += 1
            yield Trace(trace.path, trace.header,
                        [*events[:i], (line, {**event, "action": later["action"]}), *events[i + 1:]])


def _bent_actions(trace: Trace, seed: int, count: int) -> Iterator[Trace]:
    """Copies of ``trace`` with one action's label changed a little (``_bent``: a character more, less
    or other, a number written another way, "3" as "03", which reads back as the same value)."""
    rng = Rng(seed, stream=12)
    events = trace.events
    actions = [i for i, (_line, event) in enumerate(events) if event["type"] == "action"]
    for _ in range(count if actions else 0):
        i = actions[rng.below(len(actions))]
        line, event = events[i]
        yield Trace(trace.path, trace.header,
                    [*events[:i], (line, {**event, "action": _bent(event["action"], rng)}), *events[i + 1:]])


@pytest.mark.parametrize("game", GAMES)
def test_probes_answer_as_find_member(game: str) -> None:
    """On recorded and changed traces of every game, each probe's answer is find_member's."""
    engine = engine_for(game)
    with fresh_tables(engine), checked_probes() as seen:
        for seed, trace in enumerate(traces_of(game, range(1, 3))):
            assert replay(engine, trace)[0].status == "compliant"
            for _way, bad in tampered(engine, trace, seed + 100, 15):
                replay(engine, bad)
            for bad in _later_actions(trace, 12):
                replay(engine, bad)
            for bad in _bent_actions(trace, seed, 24):
                replay(engine, bad)
    if game != "rooster-rush":  # (its choices are listed: replay takes none by a membership test)
        assert seen[1] > 100 and seen[0] > seen[1]  # probes found options, and refused some: not vacuous


@pytest.mark.parametrize("game", GAMES)
def test_changed_traces_get_the_same_verdict_with_and_without_probes(game: str) -> None:
    """A trace changed in one place gets the same first error (every field, the same final state) with
    probes, without them, and the careful way; and recorded games never leave the fast way."""
    engine = engine_for(game)
    statuses: set[str] = set()
    for seed, trace in enumerate(traces_of(game, range(1, 3))):
        verdict, replayer = replay(engine, trace)
        assert verdict.status == "compliant" and replayer.doubted is False
        for _way, bad in tampered(engine, trace, seed + 200, 15):
            with fresh_tables(engine):
                quick, quick_replayer = replay(engine, bad)
            with fresh_tables(engine), without_probes():
                old, old_replayer = replay(engine, bad)
            careful, careful_replayer = replay(engine, bad, fast=False)
            assert quick.to_json() == old.to_json() == careful.to_json()
            assert state_of(quick_replayer) == state_of(old_replayer) == state_of(careful_replayer)
            statuses.add(quick.status)
    assert {"violation", "malformed"} <= statuses


def _chance_changed(engine: Engine, trace: Trace) -> Iterator[Trace]:
    """Copies of ``trace`` with one chance event other than a roll changed: another outcome (for a
    shuffle, two places swapped), or its step off by one."""
    kinds = [k.name for k in engine.model.kinds]
    players = [f"P{p + 1}" for p in range(trace.header["players"])]
    for i, (line, event) in enumerate(trace.events):
        if event["type"] != "chance" or "roll" in event:
            continue
        outcome = event["outcome"]
        if "shuffle" in event:
            others = [outcome[1::-1] + outcome[2:]] if len(outcome) > 1 and outcome[0] != outcome[1] else []
        elif "draw" in event:
            others = [k for k in kinds if k != outcome][:2]
        else:
            others = [p for p in players if p != outcome][:2]
        changed = [{**event, "outcome": other} for other in others] + [{**event, "step": event["step"] + 1}]
        for new in changed:
            yield Trace(trace.path, trace.header, [*trace.events[:i], (line, new), *trace.events[i + 1:]])


@pytest.mark.parametrize("game", GAMES)
def test_changed_draws_shuffles_and_picks_get_the_careful_verdict(game: str) -> None:
    """Chance drawn in the engine's loop from the seed's stream (Picking.kept) is matched with the
    trace's: every changed draw, shuffle, pick or first player gets the careful way's verdict."""
    engine = engine_for(game)
    changed = 0
    for seed in range(1, 3):
        trace = seeded_game(game, seed)
        verdict, replayer = replay(engine, trace)
        assert verdict.status == "compliant" and replayer.doubted is False
        for bad in _chance_changed(engine, trace):
            quick, quick_replayer = replay(engine, bad)
            careful, careful_replayer = replay(engine, bad, fast=False)
            assert quick.to_json() == careful.to_json()
            assert state_of(quick_replayer) == state_of(careful_replayer)
            assert quick.status != "compliant"
            changed += 1
    assert changed > 0


@pytest.mark.parametrize("game", GAMES)
def test_probes_answer_as_find_member_for_other_labels(game: str) -> None:
    """At every choice replay takes by its membership test, the probe of each label recorded in the
    game (most of them not an option there, or not a legal one) answers as find_member does: the
    same option or none, the same exactness, the same locals."""
    engine = engine_for(game)
    trace = seeded_game(game, 1)
    labels = sorted({event["action"] for _line, event in trace.events if event["type"] == "action"})
    original = feed_module.Feed.take
    counts = [0, 0, 0]  # (probes tried, options found, options refused)

    def take(self: Any, st: Any, spec: Any, loc: list) -> Any:
        if spec.member is not None:
            for label in labels:
                found = probe_agrees(self, st, spec, loc, label)
                counts[0] += 1
                counts[1 if found else 2] += 1
        return original(self, st, spec, loc)

    with fresh_tables(engine):
        feed_module.Feed.take = take  # type: ignore[method-assign]
        try:
            for seed in range(1, 3):
                verdict, _ = replay(engine, seeded_game(game, seed))
                assert verdict.status == "compliant"
        finally:
            feed_module.Feed.take = original  # type: ignore[method-assign]
    if game != "rooster-rush":  # (its choices are listed: replay takes none by a membership test)
        assert counts[1] > 0 and counts[2] > counts[1]



COINS = """\
game "Coins"
players 3 to 3 default 3

counter coins per player = 0 "coins"

setup:
  pass

turn:
  choose:
    "take a coin":
      coins of current += 1
    "spend a coin" if coins of current > 1:
      coins of current -= 2
    "drop all {coins of current}" if coins of current > 2:
      coins of current -= coins of current
    "give one to {q}" for q in other players if coins of current > 0:
      coins of current -= 1
      coins of q += 1
    "give {q} and {r} one each" for q in other players for r in other players if q != r and coins of current > 1:
      coins of current -= 2
      coins of q += 1
      coins of r += 1
  if coins of current > 4:
    end game

rank p by highest coins of p
"""


def test_probes_refuse_what_find_member_refuses(tmp_path: Any) -> None:
    """A game whose options are often not legal where their label is recorded: at every choice, each
    label (legal, illegal, or not an option) is probed as find_member tries it, with the same answer."""
    path = tmp_path / "coins.rules"
    path.write_text(COINS)
    engine = load_game(path)
    labels = ["take a coin", "spend a coin", "spend a coin!", "give one to P1", "give one to P2", "give one to P3",
              "give one to P4", "give one to P01", "give P1 and P2 one each", "give P2 and P3 one each",
              "give P3 and P1 one each", "give P1 and P1 one each", "give P2 and P1 one each",
              "give P1 and P3 one each", "drop all 3", "drop all 4", "drop all 03", "drop all 0"]
    original = feed_module.Feed.take
    counts = [0, 0]  # (options found, options refused)

    def take(self: Any, st: Any, spec: Any, loc: list) -> Any:
        for label in labels:
            counts[not probe_agrees(self, st, spec, loc, label)] += 1
        return original(self, st, spec, loc)

    feed_module.Feed.take = take  # type: ignore[method-assign]
    try:
        for seed in range(1, 6):
            events: list[dict[str, Any]] = []
            st = engine.new_state(3)
            play(engine, st, [RandomAgent(seed, s) for s in range(3)], seed, events=events, digests=True)
            head = header(engine, "coins.rules", 3, seed, ["random"] * 3, {}, chance=CHANCE_FROM_SEED)
            head["_line"] = 1
            trace = Trace("<coins>", head, [*enumerate(events, start=2), (len(events) + 2, result_line(st))])
            verdict, replayer = replay(engine, trace)
            assert verdict.status == "compliant" and replayer.doubted is False
    finally:
        feed_module.Feed.take = original  # type: ignore[method-assign]
    assert counts[0] > 0 and counts[1] > counts[0]
