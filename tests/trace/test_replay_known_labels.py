"""Replay's kept label texts for a choice over kinds whose labels cannot be read back.

A label such as "hatch {k} from the Coop" over ``for k in kinds(...)`` is not read back
into its kind when two kinds share a display name; replay then tries the range's values in
the order listed (``find_member``'s ``KNOWN`` rows), keeping per choice and recorded action
whether each value's label reads as that action instead of rendering it at every
decision. The verdicts must be those of listing every option and of the careful way, field
for field: a recorded kind that is not in the range, a display shared by two kinds (one
of them present), a bent label, a cut trace.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from step_support import recorded

from rulelang import load_game
from rulelang.engine.engine import Engine
from rulelang.trace import feed as feed_module
from rulelang.trace.replay import Trace
from tests.trace.test_replay_membership import choose_specs, counting_takes, engine_for, recorded_game, three_ways

pytestmark = pytest.mark.usefixtures("at_root")

# Two kinds shown as "Red": a label naming one cannot tell which (one of them is in the pool at a time).
SHARED = """game "Shared"
players 2 to 2

3 Ruby tokens "Red"
3 Garnet tokens "Red"
3 Sky tokens "Blue"

zone pool: public
zone pot: per player

counter total = 0

setup:
  move all Ruby, Sky from box to pool

turn:
  choose:
    "take {k}" for k in kinds(all in pool):
      move 1 k from pool to pot of current
    "swap" if any(Ruby in pool):
      move all Ruby from pool to box
      move all Garnet from box to pool
    "pass":
      pass
  set total to total + 1
  if total >= 8:
    end game

rank p by highest count(all in pot of p)
"""


def known_rows(engine: Engine) -> int:
    """How many of the engine's choices have an option that replay tries as ``_KNOWN``."""
    found = 0
    for spec in choose_specs(engine):
        if spec.member is None:
            continue
        for prefix, _whole, _test, _values, _exact, _read_back, opt in spec.member[1]:
            rows = feed_module.rows_for(spec, prefix + "Red", {}) if prefix else ()
            found += any(row is not None and row[0] == feed_module.KNOWN and row[6] is opt for row in rows)
    return found


def _with(trace: Trace, i: int, event: dict[str, Any] | None) -> Trace:
    line = trace.events[i][0]
    changed = [] if event is None else [(line, event)]
    return Trace(trace.path, trace.header, [*trace.events[:i], *changed, *trace.events[i + 1:]])


def variants(trace: Trace, template: str, names: list[str]) -> list[Trace]:
    """Copies of ``trace`` with one of its actions of ``template`` ("take {}") naming each kind in
    ``names`` instead (present or not), bent, or the trace cut there."""
    prefix = template.partition("{}")[0]
    at = [i for i, (_line, event) in enumerate(trace.events)
          if event["type"] == "action" and event["action"].startswith(prefix)]
    assert at
    out = []
    for i in at[:: max(1, len(at) // 4)]:
        event = trace.events[i][1]
        for name in names:
            out.append(_with(trace, i, {**event, "action": template.format(name)}))
        out.append(_with(trace, i, {**event, "action": event["action"] + "x"}))
        out.append(_with(trace, i, {**event, "action": event["action"].lower()}))
        out.append(Trace(trace.path, trace.header, trace.events[:i]))
        out.append(Trace(trace.path, trace.header, trace.events[:i + 1]))
    return out


@pytest.fixture
def shared(tmp_path: Path) -> Engine:
    path = tmp_path / "shared.rules"
    path.write_text(SHARED, encoding="utf-8")
    return load_game(path)


def test_the_kinds_choice_is_tried_by_kept_texts(shared: Engine) -> None:
    assert known_rows(shared) == 1
    assert known_rows(engine_for("chicken-eggspansion")) >= 1  # "hatch {k} from the Coop": 2 "Blue the Dog"s


def test_a_shared_display_takes_the_kind_present(shared: Engine) -> None:
    statuses = set()
    with counting_takes() as taken:
        for seed in range(1, 7):
            trace = recorded(shared, "shared", 2, seed)[0]
            assert three_ways(shared, trace).status == "compliant"
            for bad in variants(trace, "take {}", ["Red", "Blue", "Green", "Ruby", ""]):
                statuses.add(three_ways(shared, bad).status)
    assert taken[0] > 0
    assert {"compliant", "violation", "incomplete"} <= statuses


def test_changed_hatches_get_the_careful_verdict() -> None:
    engine = engine_for("chicken-eggspansion")
    names = ["Blue the Dog", "Mother Hen", "White", "Yellow", "Orange", "Purple", "blue the dog"]
    statuses = set()
    for seed in (1, 2):
        for bad in variants(recorded_game("chicken-eggspansion", seed), "hatch {} from the Coop", names):
            statuses.add(three_ways(engine, bad).status)
    assert {"compliant", "violation", "incomplete"} <= statuses


def test_the_comparison_notices_wrong_kept_texts(shared: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """Kept texts that say every value reads as the action: replay takes the first kind listed, which
    the careful way does not (the check above is not vacuous)."""
    original = feed_module.rows_for

    def rows_for(spec: Any, action: str, read: dict) -> tuple:
        rows = original(spec, action, read)
        for row in rows:
            if row is not None and row[0] == feed_module.KNOWN:
                row[4].update({value: True for value in range(10)})
        return rows

    monkeypatch.setattr(feed_module, "rows_for", rows_for)
    differ = 0
    for seed in range(1, 7):
        trace = recorded(shared, "shared", 2, seed)[0]
        try:
            three_ways(shared, trace)
        except AssertionError:
            differ += 1
    assert differ > 0
