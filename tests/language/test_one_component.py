"""One component as a query, the shared name of numbered components, faces (issue 26 items 3, 4, part of 5).

Each test plays a small game whose outcome depends on the construct: the component a player picks is the
one that moves (``move d from tray to kept``), ``move c to Z`` takes it from wherever it is, ``roll d``
rolls that die only, ``reveal c to p`` shows it with its face, ``where face == X`` tests the face,
``for f in faces of Die`` ranges over faces, ``the ... in Z`` is the only component there (else an
error), and ``Bid`` stands for ``Bid1`` .. ``Bid4`` wherever a set of kinds is read.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest
from language_support import game

from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.narrate import Narrator
from rulelang.views import redact_narration

ROOT = Path(__file__).resolve().parents[2]

DICE = '''
attribute pips = 0
face One "1": pips 1
face Two "2": pips 2
face Six "6": pips 6
3 Red dice "red die": One, Two, Six
zone tray
zone kept "kept": per player
zone cup "cup": per player, owner
'''


def zone(engine: Engine, st: State, name: str, player: int | None = None) -> list[str]:
    """The labels of the components in a zone (of ``player`` for a per-player zone)."""
    z = next(z for z in engine.model.zones if z.name == name)
    ids = st.zones[z.index] if player is None else st.zones[z.index][player]
    return [engine.program.component_labels[c] for c in ids]


def counter(engine: Engine, st: State, name: str) -> Any:
    """A counter's value."""
    return st.counters[next(c.index for c in engine.model.counters if c.name == name)]


def labels(engine: Engine, st: State) -> list[str]:
    """The legal actions of the pending decision."""
    d = engine.pending(st)
    assert d is not None
    return list(d.labels or [])


TRAY = {"current": "P1", "zones": {"tray": ["Red#1", "Red#2", "Red#3"]},
        "faces": {"Red#1": "One", "Red#2": "Six", "Red#3": "Six"}}


def test_the_die_a_player_picks_is_the_die_that_moves(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        setup:
          pass
        turn:
          choose:
            "keep {d}" for d in all in tray:
              move d from tray to kept of current
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position=TRAY)
    assert labels(engine, st) == ["keep Red#1", "keep Red#2", "keep Red#3"]
    engine.apply(st, "keep Red#2")  # Red#3 shows the same face: it stays
    assert zone(engine, st, "kept", 0) == ["Red#2"] and zone(engine, st, "tray") == ["Red#1", "Red#3"]


def test_move_c_to_a_zone_takes_it_from_wherever_it_is(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        counter moved = 0
        setup:
          pass
        turn:
          for d in all in kept of P2:
            move d to tray
          when_done
        rule when_done:
          set moved to count(all in tray)
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position={"current": "P1", "zones": {"kept of P2": ["Red#1", "Red#3"],
                                                                  "tray": ["Red#2"]}})
    assert st.over and zone(engine, st, "tray") == ["Red#1", "Red#2", "Red#3"] and counter(engine, st, "moved") == 3
    assert zone(engine, st, "kept", 1) == []


def test_move_c_from_a_zone_it_is_not_in_is_an_error_naming_where_it_is(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        setup:
          pass
        turn:
          for d in all in tray:
            move d from kept of current to tray
          end game
        rank p by lowest seat(p)
    '''))
    with pytest.raises(RulelangError, match="Red#1 is not in P1's kept: it is in tray") as err:
        engine.new_state(2, position=TRAY)
    assert err.value.span is not None and err.value.span.line == 17  # the move


def test_move_c_from_several_zones_takes_it_from_the_one_it_is_in(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        setup:
          pass
        turn:
          for d in all in tray, kept of P2:
            move d from kept of P2, tray to kept of current
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position={"current": "P1", "zones": {"kept of P2": ["Red#3"], "tray": ["Red#1"]}})
    assert zone(engine, st, "kept", 0) == ["Red#1", "Red#3"]


def test_roll_d_rolls_that_die_only_and_checks_triggers(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        counter sixes = 0
        setup:
          pass
        turn:
          for d in all in tray where pips < 6:
            roll d
          end game
        when count(all in tray where face == Six) == 3 "three sixes":
          set sixes to 3
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position=TRAY)
    d = engine.pending(st)
    assert d is not None and d.kind == "chance" and d.event["roll"] == "Red#1"  # Red#2 and Red#3 show Six
    engine.apply(st, "Six")
    assert st.over and counter(engine, st, "sixes") == 3


def test_reveal_c_shows_the_die_with_its_face_to_that_player_only(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        setup:
          pass
        turn:
          for d in all in cup of current:
            reveal d to P2
          reveal all in cup of current to all
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, narrate=True, position={"current": "P1", "zones": {"cup of P1": ["Red#1", "Red#3"]},
                                                       "faces": {"Red#1": "Two", "Red#3": "Six"}})
    seen = engine.observe(st, 1)["seen"]
    assert [look["components"] for look in seen] == [["Red#1=Two"], ["Red#3=Six"], ["Red#1=Two", "Red#3=Six"]]
    assert seen[0]["where"] == "P1's cup"
    narrated = Narrator().lines(st.log or [])
    assert "  P2 looks at P1's cup: Red#1 2" in narrated
    assert "  everyone sees P1's cup: Red#1 2, Red#3 6" in narrated
    as_p1 = Narrator().lines(redact_narration(engine, st.log or [], 0))
    assert "  P2 looks at P1's cup: 1 component (seen by P2 only)" in as_p1  # no face leaks to P1
    assert not any("Red#1 2" in line and "P2 looks" in line for line in as_p1)


def test_where_face_tests_the_face_a_die_shows(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        counter sixes = 0
        counter not_two = 0
        setup:
          pass
        turn:
          set sixes to count(all in tray where face == Six)
          set not_two to count(all in tray where face != Two and Red)
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position=TRAY)
    assert counter(engine, st, "sixes") == 2 and counter(engine, st, "not_two") == 3


def test_for_f_in_faces_of_a_die_ranges_over_its_faces_shown_by_display(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + dedent('''
        counter bid = 0
        setup:
          pass
        turn:
          choose:
            "bid {f}" for f in faces of Red if f != One:
              set bid to pips of f * 10 + count(all in tray where face == f)
          end game
        rank p by lowest seat(p)
    '''))
    st = engine.new_state(2, position=TRAY)
    assert labels(engine, st) == ["bid 2", "bid 6"]
    engine.apply(st, "bid 6")
    assert counter(engine, st, "bid") == 62


def test_faces_listed_twice_are_ranged_over_once_in_the_order_listed(tmp_path: Path) -> None:
    engine = game(tmp_path, '''
        face Heads
        face Tails
        1 Coin die: Tails, Heads, Tails
        setup:
          for f in faces of Coin:
            say "{f}"
        turn:
          end game
        rank p by lowest seat(p)
    ''')
    st = engine.new_state(2, narrate=True)
    assert [e["text"] for e in st.log or [] if e["type"] == "say"] == ["Tails", "Heads"]


THE = '''
attribute points = 0
1 Crown card: points 7
2 Cow cards: points 3
zone turnup
zone pool
counter got = 0
setup:
  pass
turn:
  set got to points of the card in turnup
  end game
rank p by lowest seat(p)
'''


def test_the_card_in_a_zone_is_the_only_one_there(tmp_path: Path) -> None:
    engine = game(tmp_path, THE)
    st = engine.new_state(2, position={"current": "P1", "zones": {"turnup": ["Cow#2"], "pool": ["Crown"]}})
    assert counter(engine, st, "got") == 3


@pytest.mark.parametrize(("held", "what"), [([], "no component"), (["Cow#1", "Crown"], "2 components")])
def test_the_card_in_a_zone_is_an_error_unless_exactly_one(tmp_path: Path, held: list[str], what: str) -> None:
    engine = game(tmp_path, THE)
    with pytest.raises(RulelangError, match=f"'the card in turnup' selects {what}, not one") as err:
        engine.new_state(2, position={"current": "P1", "zones": {"turnup": held}})
    assert err.value.span is not None and (err.value.span.line, err.value.span.col) == (13, 24)  # the ... in


def test_the_kind_in_a_zone_selects_by_kind(tmp_path: Path) -> None:
    engine = game(tmp_path, THE.replace("the card in turnup", "the Cow in turnup"))
    st = engine.new_state(2, position={"current": "P1", "zones": {"turnup": ["Crown", "Cow#1"]}})
    assert counter(engine, st, "got") == 3  # the Crown is not a Cow


BIDS = '''
attribute value = 0
1 Bid cards for n in 1 to 4 "bid of {n}": value n
1 Joker card
zone deck
zone hand: per player
counter bids = 0
counter others = 0
counter kinds_of_bid = 0
setup:
  move all from box to deck
turn:
  set bids to count(all in deck where Bid)
  set others to count(all except Bid in deck)
  set kinds_of_bid to total(1 for k in kinds where Bid and value > 1)
  end game
rank p by lowest seat(p)
'''


def test_the_shared_name_of_numbered_components_stands_for_all_of_them(tmp_path: Path) -> None:
    engine = game(tmp_path, BIDS)
    st = engine.new_state(2)
    assert (counter(engine, st, "bids"), counter(engine, st, "others"), counter(engine, st, "kinds_of_bid")) \
        == (4, 1, 3)


KEEP = '''game "keep"
players 2 to 2
attribute pips = 0
face One "1": pips 1
face Two "2": pips 2
4 Red dice "red die": One, Two
zone tray
zone kept: per player
counter score per player = 0 "points"
setup:
  move all from box to tray
  roll all in tray
turn:
  choose:
    "keep {d}" for d in all in tray:
      move d from tray to kept of current
      score of current += pips of d
  if not any(all in tray):
    end game
rank p by highest score of p
'''


def test_a_recorded_pick_of_one_die_replays_and_another_die_alike_is_caught(tmp_path: Path) -> None:
    rules = tmp_path / "keep.rules"
    rules.write_text(KEEP)
    trace = tmp_path / "keep.jsonl"
    subprocess.run([sys.executable, "-m", "rulelang", "run", str(rules), "-s", "4", "-q", "--trace", str(trace)],
                   cwd=ROOT, check=True, capture_output=True)
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]

    def verdict(lines: list[dict[str, Any]]) -> dict[str, Any]:
        trace.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
        out = subprocess.run([sys.executable, "-m", "rulelang", "replay", str(trace), "--json"],
                             cwd=ROOT, capture_output=True, text=True, check=False)
        return json.loads(out.stdout or out.stderr)

    assert verdict(events)["status"] == "compliant"
    faces = {e["roll"]: e["outcome"] for e in events if e["type"] == "chance"}
    first = next(i for i, e in enumerate(events) if e["type"] == "action")
    picked = events[first]["action"].removeprefix("keep ")
    alike = next(d for d in faces if d != picked and faces[d] == faces[picked])  # the same face, another die
    events[first]["action"] = f"keep {alike}"
    changed = verdict(events)
    assert changed["status"] != "compliant", changed  # the dice kept differ: the table's digest tells


def test_a_pile_on_each_of_the_numbered_components(tmp_path: Path) -> None:
    engine = game(tmp_path, BIDS.replace("zone deck\n", "zone deck\nzone under: per Bid\n").replace(
        "  set bids to count(all in deck where Bid)\n",
        "  for c in all Bid in deck:\n    move 1 Joker from deck to under of c\n"
        "  set bids to total(count(all in under of c) for c in all in deck where Bid)\n"))
    st = engine.new_state(2)
    assert counter(engine, st, "bids") == 1  # one Joker, on the first bid card
    assert [len(pile) for pile in st.zones[next(z.index for z in engine.model.zones if z.name == "under")]
            if pile] == [1]


def test_roll_c_of_a_card_is_an_error_at_run_time(tmp_path: Path) -> None:
    engine = game(tmp_path, THE.replace("  set got to points of the card in turnup\n",
                                        "  for c in all in turnup:\n    roll c\n").replace(
        "2 Cow cards: points 3\n", "2 Cow cards: points 3\nface Six\n1 Die die: Six, Six\n"))
    with pytest.raises(RulelangError, match="Cow#1 has no faces: it cannot roll"):
        engine.new_state(2, position={"current": "P1", "zones": {"turnup": ["Cow#1"]}})
