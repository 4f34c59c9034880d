"""Counts of components and the others' seats as the generator writes them.

- ``count(K in Z)`` with a filter of the components alone (a mask) is the size of the mask's
  components met in Z (a component is in one place, once);
- ``count(k in Z)``, ``k`` a kind variable, is the size of k's components met in Z;
- a paused loop over ``other players`` keeps a copy of the others' row of the table.

Each case checks that the shortcut was written and that the counts are the ones the rules'
words give, with several components of a kind, none, and zones that hold other kinds too.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.play import play

KINDS = """game "T"
players 3 to 4 default 3

attribute warm = false

3 Red token "red": warm true
2 Green token "green"
4 Blue token "blue"
1 Gold token "gold": warm true

zone pool
zone line: ordered
zone side: per player, ordered
"""


def _run(tmp_path: Path, text: str, players: int = 3) -> tuple[Any, str]:
    """Load a rules file, play it (it needs no decision) and return the final state and the generated source."""
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    engine = load_game(path)
    st = engine.new_state(players)
    assert st.over
    return st, engine.program.generated.source


def test_count_of_a_kind_and_of_a_mask(tmp_path: Path) -> None:
    st, source = _run(tmp_path, KINDS + """
counter reds = 0
counter warms = 0
counter golds_left = 0
counter blues = 0
counter sides per player = 0

setup:
  move 2 Red from box to line
  move all Blue from box to line
  move all Gold from box to pool
  for p in players:
    if seat(p) == 2:
      move 1 Red from box to side of p
      move all Green from box to side of p
    if seat(p) == 3:
      move 1 Blue from line to side of p

turn:
  set reds to count(Red in line)
  set warms to count(all in line where warm) * 10 + count(all in pool where warm)
  set golds_left to count(Gold in box)
  set blues to count(Blue in line) * 10
  for p in players:
    blues += count(Blue in side of p)
  for p in players:
    set sides of p to count(all in side of p where warm)
  end game

rank p by highest sides of p
""")
    c = st.counters
    assert c[0] == 2  # two of the three Reds
    assert c[1] == 21  # the two Reds in line; the Gold in the pool
    assert c[2] == 0
    assert c[3] == 31  # three Blues left in line, one moved to side of 2
    assert c[4] == [0, 1, 0]
    assert ".intersection(" in source
    assert "sum(map(" not in source


def test_count_of_a_kind_variable(tmp_path: Path) -> None:
    st, source = _run(tmp_path, KINDS + """
counter seen = 0
counter most per player = 0

define in_side(k: kind, p: player) = count(k in side of p)

setup:
  move all Red from box to line
  move 3 Blue from box to line
  move 1 Green from box to line
  for p in players:
    if seat(p) == 1:
      move 2 Blue from line to side of p
      move 1 Red from line to side of p
    if seat(p) == 3:
      move all Green from box to side of p

turn:
  for k in kinds(all in line):
    set seen to seen * 10 + count(k in line)
  for p in players:
    set most of p to max(in_side(k, p) for k in kinds where true)
  end game

rank p by highest most of p
""")
    c = st.counters
    assert c[0] == 211  # kinds in line, in kinds' order: Red 2, Green 1, Blue 1
    assert c[1] == [2, 0, 1]
    assert "len(KI[" in source
    assert not re.search(r"KO\[_c[0-9]+\] == ", source)  # no component-by-component count of a kind left


def test_a_paused_loop_over_the_others_keeps_its_own_list(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text("""game "T"
players 2 to 4 default 3

counter asked per player = 0
counter rounds = 0

setup:
  pass

turn:
  for q in other players:
    choose q:
      "yes":
        asked of q += 10
      "no":
        asked of q += 1
  rounds += 1
  if rounds == 6:
    end game

rank p by highest asked of p
""", encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    # gone through as the table's row, copied into loc where the block leaves (at the choice: spills.LAZY_LOOPS)
    assert re.search(r"(_s\d+) = \(?OTHERS\[st\.players\]\[st\.current\]", source)  # (the table alone: OTHERS_ONLY)
    assert re.search(r"loc\[\d+\] = list\(_s\d+\)", source)
    for players in (2, 3, 4):
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(5, s) for s in range(players)], 5)
        asked = st.counters[0]
        # each of the 6 turns asks every player but the current one once: one answer per ask
        answers = [6 - (6 + players - 1 - p) // players for p in range(players)]
        assert [a // 10 + a % 10 for a in asked] == answers
        assert sum(answers) == 6 * (players - 1)


def test_sum_of_a_whole_number_attribute_over_a_mask(tmp_path: Path) -> None:
    st, source = _run(tmp_path, """game "T"
players 3 to 4 default 3

attribute warm = false
attribute points = 0

3 Red token "red": warm true, points 2
2 Green token "green": points 5
4 Blue token "blue": points -1
1 Gold token "gold": warm true, points 7

zone line: ordered
zone side: per player, ordered

counter warm_points = 0
counter blue_points = 0
counter side_points per player = 0

setup:
  move 2 Red from box to line
  move all Blue from box to line
  move all Green from box to line
  move all Gold from box to line
  for p in players:
    if seat(p) == 2:
      move 1 Blue from line to side of p
      move 1 Red from box to side of p

turn:
  set warm_points to sum(points of all in line where warm)
  set blue_points to sum(points of Blue in line) * 10 + sum(points of Blue in box)
  for p in players:
    set side_points of p to sum(points of all in side of p where warm) * 10 + sum(points of Blue in side of p)
  end game

rank p by highest side_points of p
""")
    c = st.counters
    assert c[0] == 2 + 2 + 7  # two Reds and the Gold; the Greens and Blues are not warm
    assert c[1] == -30  # three Blues in line (the fourth in side of P2), none in the box
    assert c[2] == [0, 19, 0]  # P2: one Red (2) and one Blue (-1)
    assert "sum(map(am" in source


def test_standings_count_a_kind_variable_without_a_memo(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(KINDS + """
define sole_most(k: kind, p: player) = count(k in side of p) > max(count(k in side of q) for q in players if q != p)

setup:
  for p in players:
    if seat(p) == 1:
      move 2 Red from box to side of p
      move 1 Blue from box to side of p
    if seat(p) == 2:
      move 1 Red from box to side of p
      move 2 Green from box to side of p
      move 1 Blue from box to side of p
    if seat(p) == 3:
      move 2 Blue from box to side of p

turn:
  end game

sheet score for p:
  "most": total(10 for k in kinds where true if sole_most(k, p))
  "fewest": min(count(k in side of p) for k in kinds where true if k != Gold)

rank p by highest score of p
""", encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    st = engine.new_state(3)
    assert st.over
    by_player = {entry["player"]: entry["sheets"]["score"] for entry in engine.standings(st)["standings"]}
    # P1: most Red (2 > 1); P2: most Green (2 > 0); P3: most Blue (2 > 1); fewest of Red, Green, Blue
    assert by_player["P1"] == {"most": 10, "fewest": 0}
    assert by_player["P2"] == {"most": 10, "fewest": 1}
    assert by_player["P3"] == {"most": 10, "fewest": 0}
    assert "kind_counts(" in source  # each side counted by kind once per standings (queries.counted_by_kind)
    assert not re.search(r"memo\[key\] = kind_counts\(", source)  # a list lookup: cheaper than a memo
