"""Replay's membership test for a recorded choice gives the verdicts of listing every option.

Where the compiler proves that listing a ``choose``'s options cannot fail (given a guard
checked at run time), replay tests only the recorded option (``ChooseSpec.member``,
written by ``CodeGen.member_tests``) instead of listing them all (``ChooseSpec.enum``)
and searching the list. That must never change a verdict: each trace here is replayed
three ways, with the membership tests, without them (every choice listed, as before) and
the careful way (event by event), and the verdicts must agree field for field, with the
same final state. Where listing fails (a division by zero in another option's condition,
more tries than the options limit), replay must still say ``malformed`` at that line.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from step_support import engine_for, recorded, recorded_game

from rulelang import load_game
from rulelang.compile.program import CHOOSE
from rulelang.engine.engine import Engine
from rulelang.rng import Rng
from rulelang.trace import feed as feed_module
from rulelang.trace.replay import Replayer, Trace, Verdict

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))

pytestmark = pytest.mark.usefixtures("at_root")


def choose_specs(engine: Engine) -> list[Any]:
    return [ins[1] for rule in engine.code for ins in rule if ins and ins[0] == CHOOSE]


@contextlib.contextmanager
def without_members(engine: Engine) -> Iterator[None]:
    """Replay lists every choice's options, as before the membership tests."""
    specs = choose_specs(engine)
    saved = [spec.member for spec in specs]
    for spec in specs:
        spec.member = None
    try:
        yield
    finally:
        for spec, member in zip(specs, saved):
            spec.member = member


@contextlib.contextmanager
def counting_takes() -> Iterator[list[int]]:
    """How many recorded choices replay took by their membership test (without listing the options)."""
    taken = [0]
    original = feed_module.Feed.take

    def take(self: Any, st: Any, spec: Any, loc: list) -> Any:
        opt = original(self, st, spec, loc)
        taken[0] += opt is not None
        return opt

    feed_module.Feed.take = take  # type: ignore[method-assign]
    try:
        yield taken
    finally:
        feed_module.Feed.take = original  # type: ignore[method-assign]


def replay(engine: Engine, trace: Trace, fast: bool = True) -> tuple[Verdict, Replayer]:
    replayer = Replayer(engine, trace)
    replayer.fast = fast
    return replayer.run(), replayer


def three_ways(engine: Engine, trace: Trace) -> Verdict:
    """The verdict with membership tests, which must be the one without them and the careful way's,
    field for field, with the same final state."""
    member, member_replayer = replay(engine, trace)
    with without_members(engine):
        listed, listed_replayer = replay(engine, trace)
    careful, careful_replayer = replay(engine, trace, fast=False)
    assert member.to_json() == listed.to_json() == careful.to_json()
    states = [r.state.dumps() if r.state is not None else None
              for r in (member_replayer, listed_replayer, careful_replayer)]
    assert states[0] == states[1] == states[2]
    return member


def _with(trace: Trace, i: int, event: dict[str, Any] | None) -> Trace:
    line = trace.events[i][0]
    changed = [] if event is None else [(line, event)]
    return Trace(trace.path, trace.header, [*trace.events[:i], *changed, *trace.events[i + 1:]])


def _bent(label: str, rng: Rng) -> str:
    """A label changed a little: a character more, less or other, a number written another way."""
    how = rng.below(6)
    if how == 0:
        return label + "x"
    if how == 1:
        return label[:-1]
    if how == 2:
        at = rng.below(len(label))
        return label[:at] + ("Z" if label[at] != "Z" else "Y") + label[at + 1:]
    if how == 3:
        digits = [i for i, ch in enumerate(label) if ch.isdigit()]
        if digits:
            at = digits[rng.below(len(digits))]
            return label[:at] + "0" + label[at:]  # "3" -> "03": reads back as the same number
        return " " + label
    if how == 4:
        return label.upper()
    return ""


def changed_choices(engine: Engine, trace: Trace, seed: int, count: int) -> list[Trace]:
    """``count`` copies of ``trace``, each with one action changed: another option of this game (legal
    or not here), a bent label, another player, or the trace cut at an action."""
    rng = Rng(seed, stream=23)
    at = [i for i, (_line, event) in enumerate(trace.events) if event["type"] == "action"]
    labels = sorted({trace.events[i][1]["action"] for i in at})
    players = [f"P{p + 1}" for p in range(trace.header["players"])]
    out: list[Trace] = []
    while len(out) < count:
        i = at[rng.below(len(at))]
        event = trace.events[i][1]
        way = rng.below(5)
        if way == 0:  # an option of another state (often not legal here)
            out.append(_with(trace, i, {**event, "action": labels[rng.below(len(labels))]}))
        elif way == 1:  # the next action of the same player, a step early
            later = [j for j in at if j > i and trace.events[j][1]["player"] == event["player"]]
            if later:
                out.append(_with(trace, i, {**event, "action": trace.events[later[0]][1]["action"]}))
        elif way == 2:
            out.append(_with(trace, i, {**event, "action": _bent(event["action"], rng)}))
        elif way == 3:
            out.append(_with(trace, i, {**event, "player": players[rng.below(len(players))]}))
        else:  # cut just before or just after an action
            out.append(Trace(trace.path, trace.header, trace.events[:i + rng.below(2)]))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_recorded_games_take_their_choices_by_membership(game: str) -> None:
    engine = engine_for(game)
    with counting_takes() as taken:
        for seed in range(1, 13):
            if seed > 3 and taken[0]:
                break  # (some games choose rarely: more games until one did)
            verdict = three_ways(engine, recorded_game(game, seed))
            assert verdict.status == "compliant", verdict.message
    assert taken[0] > 0  # the membership tests did take recorded choices


@pytest.mark.parametrize("game", GAMES)
def test_changed_choices_get_the_same_verdict_with_and_without_membership(game: str) -> None:
    engine = engine_for(game)
    statuses: set[str] = set()
    for seed in range(1, 4):
        for bad in changed_choices(engine, recorded_game(game, seed), seed, 20):
            statuses.add(three_ways(engine, bad).status)
    assert {"violation", "incomplete"} <= statuses


def small_game(tmp_path: Path, name: str, setup: str, choice: str) -> Engine:
    path = tmp_path / f"{name}.rules"
    path.write_text(f"""game "T"
players 2 to 2

60 Bean tokens

zone pot: per player

counter d = 1
counter total = 0

setup:
{setup}

turn:
  choose:
{choice}
  set total to total + 1
  if total >= 3:
    end game

rank p by highest total
""", encoding="utf-8")
    return load_game(path)


def test_a_division_by_zero_in_another_option_is_still_malformed(tmp_path: Path) -> None:
    """The recorded option is legal, but listing the options divides by zero in another one: the rules fail."""
    def choice(d: int) -> str:
        return f"""    "take {{n}}" for n in 1 to count(all in pot of current):
      set d to {d}
    "share" if 6 / d > 1:
      set d to {d}"""
    setup = "  move 5 from box to pot of P1\n  move 5 from box to pot of P2"
    good, bad = small_game(tmp_path, "good", setup, choice(1)), small_game(tmp_path, "bad", setup, choice(0))
    assert all(spec.member is None for spec in choose_specs(bad))  # '/ d' may fail: always listed
    trace = recorded(good, "good", 2, 4)[0]
    assert three_ways(good, trace).status == "compliant"
    verdict = three_ways(bad, trace)  # after the first choice d is 0: listing the next one divides by it
    assert verdict.status == "malformed"
    assert "divi" in verdict.message
    assert verdict.line == next(line for line, event in trace.events if event["type"] == "action")


def test_more_tries_than_the_options_limit_is_still_malformed(tmp_path: Path) -> None:
    """The recorded option is legal, but its ranges would be tried more than the options limit allows."""
    choice = """    "take {a} {b} {c}" for a in 1 to count(all in pot of current) for b in 1 to count(all in pot of current) for c in 1 to count(all in pot of current):
      pass
    "pass":
      pass"""  # noqa: E501
    few = small_game(tmp_path, "few", "  move 4 from box to pot of P1\n  move 4 from box to pot of P2", choice)
    many = small_game(tmp_path, "many", "  move 4 from box to pot of P1\n  move 56 from box to pot of P2", choice)
    for engine in (few, many):
        (spec,) = choose_specs(engine)
        assert spec.member is not None and spec.member[0] is not None  # a bound checked at run time
    trace = recorded(few, "few", 2, 2)[0]
    with counting_takes() as taken:
        assert three_ways(few, trace).status == "compliant"
    assert taken[0] >= 3  # both players' choices taken by membership while the pots are small
    verdict = three_ways(many, trace)
    assert verdict.status == "malformed"  # P2 holds 56: 56 + 56^2 + 56^3 tries
    assert "more than 100000 options" in verdict.message
    actions = [line for line, event in trace.events if event["type"] == "action"]
    assert verdict.line == actions[0]  # P1's choice taken, the rules fail listing P2's


def test_a_player_that_may_be_nobody_is_guarded(tmp_path: Path) -> None:
    """A choice whose ranges read a rule's player gets a guard: that player must be a seat."""
    engine = engine_for("rooster-rush")
    guarded = [spec for spec in choose_specs(engine) if spec.member is not None and spec.member[0] is not None]
    assert guarded
    st = engine.new_state(engine.model.default_players)
    loc = [None] * 200
    assert all(spec.member[0](st, loc) is False for spec in guarded)  # no seat in loc yet: list the options


@pytest.mark.parametrize("game", GAMES)
def test_digests_of_the_careful_state_hold(game: str) -> None:
    """A digest checkpoint of the state the careful way reaches (locals included) holds with membership
    tests too, also where they leave other values in the frame's locals than listing would."""
    engine = engine_for(game)
    trace = recorded_game(game, 1)
    at = [i for i, (_line, event) in enumerate(trace.events) if event["type"] == "action"]
    for i in (at[len(at) // 3], at[len(at) // 2], at[-1]):
        for end in (len(trace.events), i + 1):  # the whole trace, or cut after the checkpoint
            wrong = (trace.events[i][0], {"type": "digest", "digest": "0" * 16})
            verdict = three_ways(engine, Trace(trace.path, trace.header,
                                               [*trace.events[:i + 1], wrong, *trace.events[i + 1:end]]))
            assert verdict.status == "malformed"
            found = re.search(r"the replayed state is '([0-9a-f]{16})'", verdict.message)
            assert found is not None, verdict.message
            digest = (trace.events[i][0], {"type": "digest", "digest": found.group(1)})
            checked = Trace(trace.path, trace.header, [*trace.events[:i + 1], digest, *trace.events[i + 1:end]])
            ended = ("compliant",) if end > i + 1 else ("compliant", "incomplete")
            assert three_ways(engine, checked).status in ended
