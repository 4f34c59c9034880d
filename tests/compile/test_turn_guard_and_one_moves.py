"""The turn driver's trigger test before its check; one component moved by bisection without a list
of one; a run of ids that starts at the first id (or ends at the last) cut without bisecting that end.

At each change of turn the driver checks the triggers that read the current player; where their
conditions cannot fail it first tests them against their flags (``CodeGen.check_guard``), as after
statements. ``move 1 K from ZONE``, K a run of ids in a zone kept sorted, pops the top of the run and
puts it (``CodeGen.put_one``). ``move all K ...`` cuts K's run out of each sorted list with bisections,
none for an end of the run that is an end of every id. The games must be exactly those played
without any of this (``test_trigger_guards.general``: no guards, no runs of ids).

The small game's turn also offers three options each under a condition before a plain one: a
choice taken inside a block by position (plain playouts) must take the option that listing them
takes (recorded play); it once compared the position with each option's count without taking
the earlier options' counts off.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from scripted import ROOT

from rulelang import load_game
from tests.compile.test_trigger_guards import general, same_games

pytestmark = pytest.mark.usefixtures("at_root")


def test_chicken_uses_all_three() -> None:
    source = load_game(ROOT / "games" / "chicken.rules").program.generated.source
    driver = source[source.index("def r12_2"):]
    assert re.search(r"if \(st\.armed is not None and .*\) and chk\d+\(st\):", driver)
    # hatching: the top Yellow die of the Coop popped and put in the middle (its face cleared)
    assert re.search(r"(_i\d+) = bisect_right\((_s\d+), 7\) - 1\n\s+if \1 >= 0 and \2\[\1\] >= 4:\n"
                     r"\s+(_c\d+) = \2\.pop\(\1\)\n\s+insort\(_d\d+, \3\)", source)
    # the Yellow and Orange dice (ids 4 to 15, the last id) cut from the top of each list
    assert re.search(r"(_i\d+) = bisect_left\((_s\d+), 4\)\n\s+(_t\d+) = \2\[\1:\]\n\s+del \2\[\1:\]", source)
    # the White dice (ids 0 to 3) cut from the bottom
    assert re.search(r"(_j\d+) = bisect_right\((_s\d+), 3\)\n\s+(_t\d+) = \2\[:\1\]\n\s+del \2\[:\1\]", source)


RULES = """game "One moves"
players 2 to 3 default 2

attribute points = 0
face A: points 1
face B: points 2
face C

4 Red dice "Red die": A, B, C
3 Blue dice "Blue die": A, B, B
5 Bead tokens

zone cup: unrolled
zone tray
zone line: ordered
zone mine: per player, ordered

counter score per player = 0

setup:
  move all Red from box to cup
  move all Blue from box to cup
  move all Bead from box to tray

turn:
  choose:
    "red to tray" if any(Red in cup):
      move 1 Red from cup to tray
    "blue to line" if any(Blue in cup):
      move 1 Blue from cup to line at bottom
    "bead to mine" if any(Bead in tray):
      move 1 Bead from tray to mine of current
    "roll":
      roll all in tray
      score of current += sum(points of all in tray)
      move 1 Red from tray to cup
      move all Blue from line to mine of current at top
  if score of current >= 12 or not any(all in cup):
    end game

rank p by highest score of p
"""


def test_a_small_game_with_each_put(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.rules"
    path.write_text(RULES, encoding="utf-8")
    fast = load_game(path)
    source = fast.program.generated.source
    assert source.count(".insert(0, ") >= 1  # a die put at the bottom of an ordered zone
    assert re.search(r"(_c\d+) = _s\d+\.pop\(_i\d+\)\n\s+F\[\1\] = -1\n\s+insort", source)  # into unrolled dice
    careful = general(path, monkeypatch)
    for players in (2, 3):
        same_games(fast, careful, players, range(1, 31))
