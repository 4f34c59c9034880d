"""Counters holding a face (``counter X: face``, ``no face``), ``players from PLAYER`` and ``lasted(p)``
(issue 26 item 9; docs/design/newcomer-gaps.md gaps 4, 5 and 6).

Each is tested on a small game written here: what it does, what the narration, observations and
positions show, and the errors of its misuse.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from language_support import check_errors, game

from rulelang.errors import RulelangError

# A bid on the dice: each player names a face; the bid is kept as a face, compared inside 'where'.
BID = """\
game "Bid a face"
players 2 to 4 default 3
attribute pips = 0
face One "1": pips 1
face Two "2": pips 2
face Six "6": pips 6
3 Die dice "die": One, Two, Six
zone tray "tray"
counter bid: face "the face bid"
counter best_pips = 0 "best pips"
counter starter = P2 "who starts"
setup:
  move all from box to tray
turn:
  choose:
    "bid {f}" for f in faces of Die if bid == no face or pips of f > pips of bid:
      set bid to f
      set best_pips to pips of bid
  say "bid {bid}: {count(all in tray where face == bid)} showing"
  if bid == Six:
    for p in players from starter:
      say "{p}"
    set bid to no face
    end game
rank p by highest seat(p)
"""


def _said(log: list) -> list[str]:
    return [e["text"] for e in log if e["type"] == "say"]


def test_a_face_counter_is_set_compared_read_and_narrated(tmp_path: Path) -> None:
    engine = game(tmp_path, BID, head="")
    st = engine.new_state(3, narrate=True, position={"current": "P1", "faces": {
        "Die#1": "Six", "Die#2": "Six", "Die#3": "Two"}})
    assert engine.observe(st, 0)["counters"]["bid"] == "no face"
    st.log = []
    assert engine.legal_actions(st, 0) == ["bid 1", "bid 2", "bid 6"]
    engine.apply(st, "bid 2")
    counters = [(e["old"], e["new"]) for e in st.log if e["type"] == "counter" and e["counter"] == "bid"]
    assert counters == [("no face", "Two")]
    assert _said(st.log) == ["bid 2: 1 showing"]  # '{bid}' shows the face's display; 'where face == bid'
    seen = engine.observe(st, 1)["counters"]
    assert (seen["bid"], seen["best_pips"]) == ("Two", 2)
    assert engine.legal_actions(st, 1) == ["bid 6"]  # 'pips of bid' reads what the face sets
    st.log = []
    engine.apply(st, "bid 6")
    assert _said(st.log) == ["bid 6: 2 showing", "P2", "P3", "P1"]  # players from P2, round the table
    assert st.over and engine.observe(st, 0)["counters"]["bid"] == "no face"


def test_a_position_writes_a_face_counter_by_the_face_s_name(tmp_path: Path) -> None:
    engine = game(tmp_path, BID, head="")
    st = engine.new_state(2, position={"current": "P1", "counters": {"bid": "Two"}})
    assert engine.legal_actions(st, 0) == ["bid 6"]
    with pytest.raises(RulelangError, match="unknown face 'Sx' for counter 'bid'") as err:
        engine.new_state(2, position={"counters": {"bid": "Sx"}})
    assert err.value.hint == "did you mean 'Six'?"


def test_players_from_starts_at_the_player_named_and_best_ties_first_follows_it(tmp_path: Path) -> None:
    body = BID.replace('    for p in players from starter:\n      say "{p}"\n',
                       '    let w = best p in players from player after starter by highest 1 ties first\n'
                       '    say "{w} {total(seat(p) * 0 + 1 for p in players from P3)}"\n')
    engine = game(tmp_path, body, head="")
    st = engine.new_state(4, narrate=True, position={"current": "P1", "counters": {"bid": "Two"}})
    st.log = []
    engine.apply(st, "bid 6")
    assert _said(st.log)[1:] == ["P3 4"]  # the first from the player after P2; every player once


def test_players_from_nobody_stops_the_game_at_the_for(tmp_path: Path) -> None:
    engine = game(tmp_path, BID.replace("counter starter = P2", "counter starter = nobody"), head="")
    st = engine.new_state(2, position={"current": "P1", "counters": {"bid": "Two"}})
    with pytest.raises(RulelangError, match="nobody has a seat to start from") as err:
        engine.apply(st, "bid 6")
    line = BID.splitlines().index("    for p in players from starter:") + 1
    assert err.value.span is not None and (err.value.span.line, err.value.span.col) == (line, 14)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("      set bid to f\n", "      set bid to pips of f\n", "counter 'bid' holds a face, but this is a number"),
    ("      set bid to f\n", "      bid += 1\n", "counter 'bid' holds a face: it cannot be added to"),
    ("counter bid: face", "counter bid: face = 0", "counter 'bid' holds a face, but its starting value is a number"),
    ("players from starter", "players from 2", "'players from' needs a player, but this is a number"),
    ("players from starter", "players from nobody", "'players from' needs a player: nobody is no player"),
])
def test_misuses_are_errors_with_their_place(tmp_path: Path, old: str, new: str, message: str) -> None:
    assert old in BID
    errors = check_errors(tmp_path, BID.replace(old, new), head="")
    assert [e.message for e in errors] == [message]


# Players drop out one by one: whoever holds the turn when 'out' reaches them leaves; the last one in wins.
LAST_ONE_IN = """\
game "Last one in"
players 2 to 4 default 4
counter outs = 0 "players out"
setup:
  pass
turn:
  choose:
    "stay":
      outs += 0
    "leave":
      drop out current
      outs += 1
      if current == P3:
        drop out P4
  if total(1 for q in players still in) <= 1:
    end game
rank p by highest lasted(p)
"""


def test_lasted_ranks_the_last_still_in_first_then_by_the_turn_each_dropped_out(tmp_path: Path) -> None:
    engine = game(tmp_path, LAST_ONE_IN, head="")
    st = engine.new_state(4)
    for action in ("leave", "stay", "stay", "stay", "stay", "leave"):  # P1 leaves in turn 1, P3 and P4 in 6
        engine.apply(st, action)
    assert st.over and st.turn == 6
    assert [(r["player"], r["rank"], r["keys"]) for r in engine.standings(st)["standings"]] == [
        ("P2", 1, [6]), ("P3", 2, [5]), ("P4", 2, [5]), ("P1", 4, [0])]  # out together: a tie


def test_lasted_needs_a_player(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, LAST_ONE_IN.replace("lasted(p)", "lasted(seat(p))"), head="")
    assert [e.message for e in errors] == ["lasted() needs a player, but this is a number"]
