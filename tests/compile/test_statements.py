"""Ordinary statements as the generator writes them: each shortcut gives what the long way gives.

Each case is a small rules file that runs without a decision; the test checks that the
shortcut was written (or, where it must not be, that it was not) and that the game's
counters hold the values the rules' words give:

- a statement ``for`` that cannot pause reads its value from its Python variable, unless
  the body binds the same name again (``let``);
- ``players still in`` gone through is a tuple kept by the values of ``st.out``;
- ``set`` of a counter to a number written there stores it as it is;
- the kinds of a zone, where no two components share a kind, are the components' kinds;
- ``any(Z where attr == x)`` looks for ``x`` among the zone's values of ``attr``;
- ``move k from ...``, where no two components share a kind, looks for k's one component;
- ``move (N if ... else M)`` takes a whole number as it is.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from rulelang import load_game
from rulelang.compile import runtime
from rulelang.errors import RulelangError


def _run(tmp_path: Path, text: str, players: int = 3) -> tuple[Any, str]:
    """Load a rules file, play it (it needs no decision) and return the final state and the generated source."""
    path = tmp_path / "t.rules"
    path.write_text(text, encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    st = engine.new_state(players)
    assert st.over
    return st, source


UNIQUE = """game "T"
players 3 to 4 default 3

attribute mark = ""
attribute points = 0

1 Red token "red": mark "warm", points 1
1 Green token "green": mark "cold", points 2
1 Blue token "blue": mark "cold", points 4
1 Gold token "gold": mark "shiny", points 8

zone pool
zone line: ordered
zone side
zone stash
"""


def test_for_reads_its_variable_and_a_let_of_the_same_name_is_kept(tmp_path: Path) -> None:
    st, source = _run(tmp_path, """game "T"
players 3 to 3 default 3

1 Bean token

counter total = 0
counter seen per player = 0

setup:
  for n in 1 to 3:
    let n = n * 10
    total += n
  for p in players:
    seen of p += 1
    seen of p += seat(p)

turn:
  end game

rank p by highest seen of p
""")
    assert st.counters[0] == 60  # 10 + 20 + 30: the body's 'let' rebinds n, read after it
    assert st.counters[1] == [2, 3, 4]
    # 'seen of p': the loop's variable, with no seat check (read as it is: statements.SEAT_VARIABLES)
    assert re.search(r"_w[0-9]+ = _v[0-9]+\n|C\[1\]\[_v[0-9]+\] = ", source)
    assert re.search(r"loc\[[0-9]+\] = (?:bounded\(|\((_b[0-9]+) if type\(\1 := )\(loc\[[0-9]+\] \* 10\)",
                     source)  # n read from loc after the let (bounded inline: CodeGen.bound)


def test_players_still_in_after_drop_outs(tmp_path: Path) -> None:
    st, _source = _run(tmp_path, """game "T"
players 4 to 4 default 4

1 Bean token

counter firsts = 0
counter seen per player = 0
counter rounds = 0

setup:
  pass

turn:
  rounds += 1
  for p in players still in:
    seen of p += 1
    if seat(p) == rounds + 1:
      drop out p
  set firsts to total(seat(p) for p in players still in)
  if rounds == 3:
    end game

rank p by highest seen of p
""", players=4)
    # round 1: all four seen, P2 drops out; round 2: P1, P3, P4 seen, P3 drops; round 3: P1, P4 seen, P4 drops
    assert st.counters[1] == [3, 1, 2, 3]
    assert st.counters[0] == 1  # only P1 is still in at the end
    assert st.out[0] == 0 and all(st.out[1:])


@pytest.mark.parametrize("out", [[0, 0, 0], [0, 3, 0], [2, 5, 7], [0, 0, 0, 0, 1, 0], []])
def test_players_in_matches_the_out_list(out: list[int]) -> None:
    want = tuple(p for p in range(len(out)) if not out[p])
    kept, players_in = runtime.seats_in()
    assert players_in(out) == want
    assert kept[tuple(out)] == want  # kept, and the same again
    assert players_in(list(out)) == want
    assert runtime.seats_in()[0] == {}  # another program's cache is its own


def test_set_to_a_number_stores_it(tmp_path: Path) -> None:
    st, source = _run(tmp_path, """game "T"
players 3 to 3 default 3

1 Bean token

counter mode per player = 5
counter level = 0

setup:
  for p in players:
    set mode of p to seat(p) * 0 + 7
  set mode of P2 to 2
  set level to 3
  level += 4

turn:
  end game

rank p by highest mode of p
""")
    assert st.counters[0] == [7, 2, 7]
    assert st.counters[1] == 7
    assert "C[1] = 3" in source  # written as it is, no bound to check
    assert "bounded(" in source  # the computed values and the addition are still bounded


def test_kinds_of_a_zone_of_unique_kinds_in_kind_order(tmp_path: Path) -> None:
    st, source = _run(tmp_path, UNIQUE + """
counter order = 0
counter sides = 0
counter lined = 0

setup:
  move all Gold from box to line
  move all Blue from box to line
  move all Red from box to line
  move all Green from box to side
  move all Red from line to side

turn:
  for k in kinds(all in line):
    set order to order * 10 + points of k
  for k in kinds(all in side):
    set sides to sides * 10 + points of k
  for k in kinds(all in line where points > 4):
    lined += points of k
  end game

rank p by highest order
""")
    # kinds in the kinds' order (Red, Green, Blue, Gold), whatever order the ordered zone holds them in
    assert st.counters[0] == 48
    assert st.counters[1] == 12
    assert st.counters[2] == 8
    assert "sorted({KO[" not in source  # no set of kinds to build: each component is its own kind


def test_kinds_of_a_zone_with_shared_kinds_stay_a_set(tmp_path: Path) -> None:
    _st, source = _run(tmp_path, """game "T"
players 3 to 3 default 3

2 Bean token
2 Pea token

zone pot

counter n = 0

setup:
  move all from box to pot

turn:
  for k in kinds(all in pot):
    n += 1
  end game

rank p by highest n
""")
    assert "[KO[" not in source  # not the list of each component's kind: two components share one
    assert _st.counters[0] == 2


@pytest.mark.parametrize(("zone_setup", "want"), [
    ("", 0),  # an empty zone: nothing to look for
    ("  move all Green from box to pool\n", 1),  # cold is there
    ("  move all Red from box to pool\n  move all Gold from box to pool\n", 0),  # warm and shiny only
    ("  move all Red from box to stash\n  move all Blue from box to side\n", 1),  # in the second zone
])
def test_any_where_an_attribute_equals_a_value(tmp_path: Path, zone_setup: str, want: int) -> None:
    st, source = _run(tmp_path, UNIQUE + f"""
counter found = 0
counter found2 = 0

setup:
{zone_setup}  pass

turn:
  for k in kinds where points == 2:
    if any(all in pool where mark == mark of k):
      set found to 1
    if any(all in pool, side where mark == mark of k):
      set found2 to 1
  end game

rank p by highest found
""")
    assert " in map(av" in source
    assert st.counters[0] == (want if "stash" not in zone_setup else 0)
    assert st.counters[1] == want


@pytest.mark.parametrize(("where", "want"), [("pool", [0, 3, 0]), ("side", [0, 3, 0]), ("stash", [0, 0, 0])])
def test_move_a_kind_of_one_component(tmp_path: Path, where: str, want: list[int]) -> None:
    st, source = _run(tmp_path, UNIQUE + f"""
zone held: per player
counter got per player = 0
counter left = 0

setup:
  move all Blue from box to {where}
  move all Gold from box to pool

turn:
  for k in kinds where points == 4:
    move k from pool, side to held of P2
    move k from side to held of P1
  for p in players:
    set got of p to count(all in held of p) * 3
  set left to count(all in pool, side, stash)
  end game

rank p by highest got of p
""")
    assert st.counters[0] == want
    assert st.counters[1] == (2 if where == "stash" else 1)  # Gold stays in the pool (and Blue in the stash)
    assert "_one" in source and "KC.get(" not in source  # (moves.KINDS_LISTED: each component is its kind's number)


def test_move_a_kind_from_its_own_zone_moves_nothing(tmp_path: Path) -> None:
    st, _source = _run(tmp_path, UNIQUE + """
counter n = 0
counter order = 0

setup:
  move all Gold from box to line
  move all Blue from box to line
  move all Red from box to line
  move all Green from box to pool

turn:
  for k in kinds where points == 8:
    move k from line to line
    move k from side, line to line
  for k in kinds where points == 2:
    move k from pool to pool
    move k from side, pool to side
  for c in all in line:
    set order to order * 10 + points of c
  set n to count(all in side) * 10 + count(all in pool)
  end game

rank p by highest n
""")
    assert st.counters[1] == 841  # the ordered zone keeps its order: nothing left it
    assert st.counters[0] == 10


def test_move_a_number_given_by_if_else(tmp_path: Path) -> None:
    st, source = _run(tmp_path, UNIQUE + """
counter n = 0

define how_many = (3 if players == 3 else 2)

setup:
  move all from box to line

turn:
  move (how_many) from line to pool
  set n to count(all in pool)
  end game

rank p by highest n
""")
    assert st.counters[0] == 3
    assert "max(0, (3 if" in source


SIDED = """game "T"
players 3 to 3 default 3

attribute shows = false
attribute vehicle = ""

face Up "up": shows true
face Down "down"

1 AChip token "A chip": vehicle "A", sides (Up 1 / 2, Down 1 / 2)
1 BChip token "B chip": vehicle "B", sides (Up 1 / 2, Down 1 / 2)
1 Stone token "stone"

zone pool
zone spun: unrolled

counter a_up = 0
counter b_up = 0
counter any_up = 0
counter a_spun_up = 0
counter not_up = 0
counter stone_seen = 0
"""


@pytest.mark.parametrize(("moves", "want"), [
    ("  turn all AChip in pool to Up\n  turn all BChip in pool to Down\n", [1, 0, 1, 0, 1, 1]),
    ("  turn all in pool where vehicle != \"\" to Down\n", [0, 0, 0, 0, 1, 1]),
    ("  turn all in pool where vehicle != \"\" to Up\n  move all AChip from pool to spun\n", [0, 1, 1, 0, 1, 1]),
    ("  turn all in pool where vehicle != \"\" to Up\n  move all from pool to spun\n", [0, 0, 0, 0, 0, 0]),
])
def test_any_by_face_looks_for_the_few_that_can_pass(tmp_path: Path, moves: str, want: list[int]) -> None:
    st, source = _run(tmp_path, SIDED + f"""
setup:
  move all from box to pool
{moves}
turn:
  if any(all in pool where vehicle == "A" and shows):
    set a_up to 1
  if any(all in pool where vehicle == "B" and shows):
    set b_up to 1
  if any(all in pool where shows):
    set any_up to 1
  if any(all in spun where vehicle == "A" and shows):
    set a_spun_up to 1
  if any(all in pool where not shows):
    set not_up to 1
  if any(all in pool where vehicle == ""):
    set stone_seen to 1
  end game

rank p by highest a_up
""")
    assert st.counters == want
    assert "(F[0] == 0 and 0 in Z[" in source  # the A chip, face Up, looked for



ASK = """game "T"
players 3 to 3 default 3

1 Gold token "{gold}"
1 Silver token "{silver}"

zone table
zone won: per player

setup:
  move all from box to table

turn:
  ask p in players:
    "grab {{kind of c}}" for c in all in table
    "wait"
  end game

rank p by highest count(all in won of p)
"""


def test_answers_per_component_of_unique_kinds_are_listed_without_a_check(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(ASK.format(gold="gold", silver="silver"), encoding="utf-8")
    engine = load_game(path)
    assert "same_answers(" not in engine.program.generated.source  # they cannot read alike
    st = engine.new_state(3)
    assert engine.legal_actions(st, 0) == ["grab gold", "grab silver", "wait"]


@pytest.mark.parametrize(("gold", "silver"), [("coin", "coin"), ("wait", "silver")])
def test_answers_that_may_read_alike_are_still_checked(tmp_path: Path, gold: str, silver: str) -> None:
    path = tmp_path / "t.rules"
    text = ASK.format(gold=gold, silver=silver)
    if gold == "wait":
        text = text.replace('"grab {kind of c}"', '"{kind of c}"')
    path.write_text(text, encoding="utf-8")
    engine = load_game(path)
    assert "same_answers(" in engine.program.generated.source
    with pytest.raises(RulelangError, match="two answers are both labelled"):
        engine.new_state(3)


def test_an_inlined_rule_reads_its_arguments_and_a_let_of_one_is_kept(tmp_path: Path) -> None:
    st, source = _run(tmp_path, """game "T"
players 3 to 3 default 3

1 Bean token

counter total = 0
counter seen per player = 0

rule bump(n: number, p: player):
  let n = n + 1
  total += n
  seen of p += n

setup:
  for p in players:
    bump(seat(p) * 10, p)

turn:
  end game

rank p by highest seen of p
""")
    assert st.counters[1] == [11, 21, 31]  # n read after the let, p from its variable
    assert st.counters[0] == 63
    assert re.search(r"_, _v[0-9]+, = loc\[[0-9]+\], loc\[[0-9]+\], = ", source)  # p named, n not (_ instead)


PAUSING = """game "T"
players 3 to 3 default 3

1 Bean token

counter score per player = 0
counter calls = 0

rule offer(p: player, base: number):
  score of p += base
  choose p:
    "take {n}" for n in 1 to 2:
      score of p += n * base
  score of p += 1000 * seat(p) + base

setup:
  pass

turn:
  for p in players:
    score of p += 100
    offer(p, seat(p))
    calls += 1
    score of p += calls * 10000
  end game

rank p by highest score of p
"""


def test_loops_and_inlined_rules_that_pause_read_their_values_again_after_the_pause(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(PAUSING, encoding="utf-8")
    engine = load_game(path)
    st = engine.new_state(3)
    for p, pick in enumerate(["take 1", "take 2", "take 2"]):
        assert engine.legal_actions(st, p) == ["take 1", "take 2"]
        engine.apply(st, pick, player=p)
    assert st.over
    base = [1, 2, 3]
    n = [1, 2, 2]
    assert st.counters[0] == [100 + b + k * b + 1000 * b + b + 10000 * (p + 1)
                              for p, (b, k) in enumerate(zip(base, n))]
    assert st.counters[1] == 3


def test_an_ask_always_answerable_is_put_to_every_player_without_listing(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(ASK.format(gold="gold", silver="silver"), encoding="utf-8")
    engine = load_game(path)
    source = engine.program.generated.source
    assert not re.search(r"if a[0-9]+\(st, loc\):", source)  # "wait" is always there: nothing to list first
    st = engine.new_state(3)
    assert engine.pending(st).players == [0, 1, 2]


@pytest.mark.parametrize(("setup", "asked"), [("  move all from box to table\n", [0, 1, 2]), ("  pass\n", None)])
def test_an_ask_with_no_fixed_answer_asks_only_those_with_answers(tmp_path: Path, setup: str,
                                                                   asked: list[int] | None) -> None:
    path = tmp_path / "t.rules"
    text = ASK.format(gold="gold", silver="silver").replace('    "wait"\n', "")
    path.write_text(text.replace("  move all from box to table\n", setup), encoding="utf-8")
    engine = load_game(path)
    assert re.search(r"if a[0-9]+\(st, loc\):", engine.program.generated.source)
    st = engine.new_state(3)
    if asked is None:
        assert st.over  # nothing to grab: nobody is asked, the game goes on to its end
    else:
        assert engine.pending(st).players == asked
        assert engine.legal_actions(st, 1) == ["grab gold", "grab silver"]


def test_a_total_of_a_number_over_players_counts_them(tmp_path: Path) -> None:
    st, source = _run(tmp_path, """game "T"
players 4 to 4 default 4

1 Bean token

counter before = 0
counter after = 0
counter others = 0

setup:
  pass

turn:
  set before to total(2 for p in players still in)
  drop out P3
  set after to total(1 for p in players still in)
  set others to total(3 for p in players)
  end game

rank p by highest before
""", players=4)
    assert st.counters == [8, 3, 12]
    # the players still in counted from the block's tuple, looked up again after the drop out
    assert "len(_seats_in)" in source
    assert re.search(r"^( *)drop_out\(st, .*\)\n\1_seats_in = \(SEATS_IN.get\(tuple\(st.out\)\)", source, re.M)


def test_answers_from_a_zone_named_twice_are_still_checked(tmp_path: Path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(ASK.format(gold="gold", silver="silver").replace("all in table", "all in table, table"),
                    encoding="utf-8")
    engine = load_game(path)
    assert "same_answers(" in engine.program.generated.source
    with pytest.raises(RulelangError, match="two answers are both labelled"):
        engine.new_state(3)
