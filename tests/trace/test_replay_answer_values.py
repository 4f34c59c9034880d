"""Traces of games that use answers as values (blocks per answer, with a choice inside one) and a
definition that decides replay compliant, the fast way and the careful way alike, and a changed
answer is a violation either way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.play import play
from rulelang.trace.format import header, result_line
from rulelang.trace.replay import Trace
from tests.trace.test_replay_feed import same_verdict

BIDS = """\
game "Sealed bids"
players 2 to 4

3 Gem tokens "gem"

zone pool "the pool"
zone won "gems won": per player

counter coins per player = 4 "coins"
counter bid per player = 0

define top_bid = max(bid of q for q in players)

define wins(p: player):
  if bid of p == 0:
    return false
  let ties = total(1 for q in players if bid of q == bid of p)
  return bid of p == top_bid and ties == 1

setup:
  move all from box to pool

turn:
  ask p in players:
    "bid {n}" for n in 1 to coins of p:
      set bid of p to n
      if n == coins of p:
        choose p:
          "all in, loudly":
            say "{p} goes all in!"
          "all in, quietly":
            pass
    "let {current} have it" if p != current:
      set bid of p to 0
    "pass":
      set bid of p to 0
  for p in players:
    if wins(p):
      coins of p -= bid of p
      choose p:
        "take a gem":
          move 1 from pool to won of p
        "take two coins":
          coins of p += 2
  if any(all in pool):
    move 1 from pool to box
  if not any(all in pool):
    end game

rank p by highest count(all in won of p), then highest coins of p
"""


def _recorded(engine: Any, path: str, players: int, seed: int) -> Trace:
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, on_event=lambda e, _n: events.append(e))
    head = header(engine, path, players, seed, ["random"] * players, {})
    head["_line"] = 1
    lines = list(enumerate(events, start=2))
    lines.append((len(events) + 2, result_line(st)))
    return Trace(f"<{path} {seed}>", head, lines)


@pytest.fixture(params=["bids", "goofspiel"])
def engine_and_path(request: pytest.FixtureRequest, tmp_path: Path) -> tuple[Any, str]:
    if request.param == "goofspiel":
        return load_game(ROOT / "examples" / "goofspiel" / "goofspiel.rules"), "examples/goofspiel/goofspiel.rules"
    path = tmp_path / "bids.rules"
    path.write_text(BIDS)
    return load_game(path), str(path)


def test_recorded_games_replay_compliant_both_ways(engine_and_path: tuple[Any, str]) -> None:
    engine, path = engine_and_path
    answered = 0
    for seed in range(1, 7):
        players = min(engine.model.max_players, 2 + seed % 3)
        trace = _recorded(engine, path, players, seed)
        answered += sum(1 for _l, e in trace.events if e["type"] == "action" and e["action"].startswith("bid"))
        verdict, replayer = same_verdict(engine, trace)
        assert verdict.status == "compliant", verdict.message
        assert replayer.doubted is False
    assert answered > 0


def test_a_changed_answer_is_a_violation_both_ways(engine_and_path: tuple[Any, str]) -> None:
    engine, path = engine_and_path
    trace = _recorded(engine, path, 2, 3)
    i = next(i for i, (_l, e) in enumerate(trace.events) if e["type"] == "action")
    line, event = trace.events[i]
    changed = {**event, "action": "bid 99"}
    bad = Trace(trace.path, trace.header, [*trace.events[:i], (line, changed), *trace.events[i + 1:]])
    verdict, _ = same_verdict(engine, bad)
    assert verdict.status == "violation"
    assert verdict.line == line
