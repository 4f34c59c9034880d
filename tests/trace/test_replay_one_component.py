"""Traces of a game that names components one by one (``move c``, ``roll d``, ``reveal c``, ``the ... in``,
``faces of``, ``where face``) replay: compliant the fast way and the careful way alike, and a private
look of a die whose face is changed is refused where it stands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from step_support import recorded

import rulelang
from rulelang.engine.engine import Engine
from rulelang.trace.replay import Replayer, Trace, Verdict

RULES = '''game "Pick and peek"
players 2 to 3 default 3
attribute pips = 0
face One "1": pips 1
face Two "2": pips 2
face Three "3": pips 3
6 Die dice "die": One, Two, Three
1 Marker token
zone tray
zone cup "cup": per player, owner
zone turnup
counter score per player = 0 "points"
counter bid = 0 "the face bid"
setup:
  move all Die from box to tray
  move Marker from box to turnup
  for d in all in tray:
    roll d
turn:
  choose:
    "take {d}" for d in all in tray:
      move d from tray to cup of current
      reveal d to current
    "bid {f}" for f in faces of Die if f != One:
      set bid to pips of f
      for p in other players:
        for d in all in cup of p where face == f:
          move d to tray
          roll d
  score of current += count(all in cup of current where face == Three)
  if kind of the token in turnup == Marker and not any(all in tray):
    reveal all in cup of current to all
    end game
  if score of current >= 12:
    end game
rank p by highest score of p
'''


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    path = Path(tmp_path_factory.mktemp("one")) / "pick-and-peek.rules"
    path.write_text(RULES, encoding="utf-8")
    return rulelang.load_game(path)


def both_ways(engine: Engine, trace: Trace) -> Verdict:
    """Replay the fast way and the careful way; the verdicts and the final states agree."""
    out = []
    for fast in (True, False):
        replayer = Replayer(engine, trace)
        replayer.fast = fast
        out.append((replayer.run(), replayer))
    (quick, q), (careful, c) = out
    assert quick.to_json() == careful.to_json()
    if q.state is not None and c.state is not None:
        assert q.state.dumps() == c.state.dumps()
    return quick


@pytest.mark.parametrize("seed", range(6))
def test_recorded_games_replay_compliant_both_ways(engine: Engine, seed: int) -> None:
    trace, _result = recorded(engine, "pick-and-peek", 3, seed)
    assert both_ways(engine, trace).status == "compliant"


def test_a_changed_face_in_a_private_look_is_refused(engine: Engine) -> None:
    trace, _ = next((t, r) for t, r in (recorded(engine, "pick-and-peek", 3, s) for s in range(20))
                    if any(e["type"] == "private" for _line, e in t.events))
    i = next(i for i, (_line, e) in enumerate(trace.events) if e["type"] == "private")
    look: dict[str, Any] = dict(trace.events[i][1])
    label, _, face = look["seen"][0].partition("=")
    assert face in ("One", "Two", "Three")  # a die is seen with its face
    look["seen"] = [f"{label}={'One' if face != 'One' else 'Two'}"]
    changed = Trace(trace.path, trace.header, [*trace.events[:i], (trace.events[i][0], look), *trace.events[i + 1:]])
    verdict = both_ways(engine, changed)
    assert verdict.status == "malformed" and verdict.line == trace.events[i][0]
