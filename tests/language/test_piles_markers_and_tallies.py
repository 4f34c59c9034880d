"""Budgets, piles opened in play, markers, interrupting triggers, points by places and tallies (issue 9).

Each construct in a small inline game: what it offers, what it does, and the errors it brings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from language_support import check_errors, game

from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.narrate import Narrator

CARDS = """\
attribute colour = false
3 Red cards: colour true
3 Blue cards: colour true
1 Joker card
1 Fox marker "the fox"
zone deck "the deck": ordered
zone hand: per player
zone table "the table": ordered
zone up "the pile on": per card, ordered
zone foxed "the fox on": per card
zone beside "beside the deck"
counter score per player = 0 "points"
counter spent = 0
"""

SPEND = CARDS + """\
setup:
  move all except Fox from box to deck
  move Fox to beside
turn:
  spend 3 action points:
    "draw" costs 2 if any(all in deck):
      move 1 from deck to hand of current
      spent += 2
    "lay {k}" costs 1 for k in kinds(all in hand of current):
      move 1 k from hand of current to table
      spent += 1
    "pass a point" costs 1:
      spent += 1
  if count(all in table) >= 3:
    end game
"""


def labels(engine: Engine, st: State) -> list[str]:
    d = engine.pending(st)
    assert d is not None and d.kind == "choice"
    return list(d.labels or [])


def play_log(engine: Engine, st: State, actions: list[str]) -> list[dict[str, Any]]:
    st.log = []
    for a in actions:
        engine.apply(st, a)
    return list(st.log or [])


# ------------------------------------------------------------------ spend: a budget and costs

def test_an_option_costing_more_than_is_left_is_not_offered(tmp_path: Path) -> None:
    engine = game(tmp_path, SPEND)
    st = engine.new_state(2)
    assert labels(engine, st) == ["draw", "pass a point"]  # nothing in hand yet
    engine.apply(st, "draw")
    assert st.counters[1] == 2
    offered = labels(engine, st)  # 1 point left: drawing (2) is no longer offered
    assert "draw" not in offered and "pass a point" in offered
    assert [a for a in offered if a.startswith("lay ")], offered


def test_options_repeat_in_any_order_until_the_budget_is_spent(tmp_path: Path) -> None:
    engine = game(tmp_path, SPEND)
    st = engine.new_state(2)
    first = st.current
    for _ in range(3):
        assert st.current == first
        engine.apply(st, "pass a point")
    assert st.current != first  # 3 spent: the next player's turn
    assert st.counters[1] == 3


def test_spending_is_narrated_with_what_is_left(tmp_path: Path) -> None:
    engine = game(tmp_path, SPEND)
    st = engine.new_state(2, narrate=True)
    log = play_log(engine, st, ["draw"])
    says = [e["text"] for e in log if e["type"] == "say"]
    assert says == [f"(P{st.current + 1} has 1 of 3 action points left)"]


def test_a_budget_left_with_nothing_to_pay_for_is_an_error_at_the_spend(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  move all except Fox from box to deck
turn:
  spend 3 action points:
    "draw" costs 2:
      move 1 from deck to hand of current
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    with pytest.raises(RulelangError) as exc:
        engine.apply(st, "draw")
    assert "1 action points left, and no option of this 'spend' can be paid for now" in exc.value.message
    assert exc.value.span is not None and exc.value.span.line == 19


def test_spend_by_another_player(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  pass
turn:
  spend 2 favours by next player:
    "grant one" costs 1:
      spent += 1
  end game
"""
    engine = game(tmp_path, body)
    st = engine.new_state(3)
    d = engine.pending(st)
    assert d is not None and d.player == (st.current + 1) % 3


def test_a_cost_read_at_run_time_below_one_is_an_error(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  pass
turn:
  spend 3 action points:
    "free" costs spent:
      pass
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    with pytest.raises(RulelangError) as exc:
        engine.apply(st, "free")
    assert "a cost must be at least 1, but this option costs 0" in exc.value.message


@pytest.mark.parametrize("turn, message, col", [
    ('  spend 3 action points:\n    "draw":\n      pass\n', "every option of a 'spend' block needs its cost", 5),
    ('  spend 3 action points:\n    "draw" costs "two":\n      pass\n', "a cost must be a number, but this is a text",
     18),
    ('  spend 3 action points:\n    "draw" costs 0:\n      pass\n', "a cost must be at least 1, not 0", 18),
    ('  spend "three" action points:\n    "draw" costs 1:\n      pass\n',
     "the budget of action points must be a number", 9),
])
def test_spend_errors(tmp_path: Path, turn: str, message: str, col: int) -> None:
    errors = check_errors(tmp_path, CARDS + "setup:\n  pass\nturn:\n" + turn)
    assert message in errors[0].message, errors[0].format()
    assert errors[0].span.col == col, errors[0].format()


def test_spend_in_setup_is_an_error(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, CARDS + 'setup:\n  spend 1 points:\n    "a" costs 1:\n      pass\nturn:\n  pass\n')
    assert "'spend' is a player's decision" in errors[0].message


# ------------------------------------------------------------------ piles opened in play, markers

PILES = CARDS + """\
setup:
  move all except Fox from box to deck
  move Fox to beside
turn:
  choose:
    "open {k}" for k in kinds(all in deck):
      move 1 k from deck to table
    "lay {k} on {c}" for k in kinds(all in deck) for c in all in table if not any(all in up of c):
      move 1 k from deck to up of c
    "fox on {c}" for c in all in table:
      move Fox to foxed of c
  if count(all in table) >= 3:
    end game
"""


def test_a_pile_on_every_card_is_counted_named_and_observed(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  move all except Fox from box to deck
turn:
  move 1 from deck to table
  for c in all in table:
    move 2 from deck to up of c
    say "{c} carries {count(all in up of c)}"
  end game
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2, narrate=True)
    top = st.zones[engine.model.zones[3].index]  # the table
    assert len(top) == 1
    chest = top[0]
    label = engine.program.component_labels[chest]
    says = [e["text"] for e in st.log if e["type"] == "say"]
    assert says == [f"{label} carries 2"]
    obs = engine.observe(st, 0)
    assert len(obs["zones"][f"up of {label}"]) == 2
    # every card has its pile in the observation, the marker (not a card) has none
    assert "up of Fox" not in obs["zones"]
    assert sum(1 for k in obs["zones"] if k.startswith("up of ")) == 7


def test_a_pile_on_a_component_of_another_class_is_an_error(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  move all from box to deck
turn:
  for c in all in deck:
    move 1 from deck to up of c
"""
    engine = game(tmp_path, body)
    with pytest.raises(RulelangError) as exc:
        engine.new_state(2)
    assert "Fox has no 'up' pile" in exc.value.message
    assert exc.value.hint == "only each card has one"


def test_a_pile_zone_needs_its_component(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, CARDS + "setup:\n  move all from box to up\nturn:\n  pass\n")
    assert "zone 'up' is one per card" in errors[0].message


def test_a_marker_moves_from_wherever_it_is(tmp_path: Path) -> None:
    engine = game(tmp_path, PILES)
    st = engine.new_state(2, narrate=True)
    fox = engine.program.component_labels.index("Fox")
    beside = next(z.index for z in engine.model.zones if z.name == "beside")
    foxed = next(z.index for z in engine.model.zones if z.name == "foxed")
    assert st.zones[beside] == [fox]
    engine.apply(st, "open Red")
    engine.apply(st, "open Blue")
    table = next(z.index for z in engine.model.zones if z.name == "table")
    a, b = st.zones[table]
    la, lb = (engine.program.component_labels[c] for c in (a, b))
    log = play_log(engine, st, [f"fox on {la}"])
    assert st.zones[beside] == [] and st.zones[foxed][a] == [fox]
    moves = [e for e in log if e["type"] == "move"]
    assert moves[-1]["from"] == "beside the deck" and moves[-1]["to"] == f"the fox on {la}"
    engine.apply(st, f"fox on {lb}")
    assert st.zones[foxed][a] == [] and st.zones[foxed][b] == [fox]  # one place at a time
    assert sum(c == fox for z in st.zones for lst in (z if z and isinstance(z[0], list) else [z]) for c in lst) == 1


def test_verbose_narration_names_the_piles(tmp_path: Path) -> None:
    engine = game(tmp_path, PILES)
    st = engine.new_state(2, narrate=True)
    engine.apply(st, "open Red")
    table = next(z.index for z in engine.model.zones if z.name == "table")
    chest = engine.program.component_labels[st.zones[table][0]]
    log = play_log(engine, st, [f"fox on {chest}"])
    lines = Narrator(verbose=True).lines(log)
    assert any(f"Fox: beside the deck -> the fox on {chest}" in line for line in lines), lines


@pytest.mark.parametrize("decl, message", [
    ('2 Crow markers "crows"', "a marker is one component, so '2 Crow markers' cannot be"),
])
def test_a_marker_is_one_component(tmp_path: Path, decl: str, message: str) -> None:
    errors = check_errors(tmp_path, CARDS + decl + "\nsetup:\n  pass\nturn:\n  pass\n")
    assert message in errors[0].message


def test_only_a_marker_moves_without_saying_from_where(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, CARDS + "setup:\n  move Joker to table\nturn:\n  pass\n")
    assert "'Joker' is a card, not a marker: say where it comes from" in errors[0].message
    assert (errors[0].span.line, errors[0].span.col) == (17, 8)


# ------------------------------------------------------------------ triggers interrupt an action

def test_a_trigger_scores_in_the_middle_of_a_draw_and_the_draw_goes_on(tmp_path: Path) -> None:
    body = """\
2 Red cards
2 Star cards
zone deck: ordered
zone hand: per player
zone aside "set aside"
zone drawn: hidden
counter score per player = 0 "points"
setup:
  move all Red from box to deck
  move 1 Star from box to deck
  move 1 Red from deck to deck at bottom
turn:
  choose:
    "draw":
      move 1 from deck to drawn
      while any(Star in drawn):
        move all Star from drawn to aside
        move 1 from deck to drawn
      move all from drawn to hand of current
      say "{current} now holds {count(all in hand of current)}"
  end game
when any(all in aside) "a star is set aside":
  say "scoring: {current} holds {count(all in hand of current)}"
  score of current += 1
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2, narrate=True)
    log = play_log(engine, st, ["draw"])
    says = [e["text"] for e in log if e["type"] == "say"]
    # the scoring happened before the card that replaced the star reached the hand
    assert says[0].startswith("scoring: ") and says[0].endswith("holds 0")
    assert says[1].endswith("now holds 1")


# ------------------------------------------------------------------ places and tallies

PLACES = """\
zone pool
counter length per player = 0
counter score per player = 0 "points"
setup:
  pass
define has(q: player) = length of q > 0
sheet round for p:
  "shared": places(3, 1 to p by highest length of q for q in players if has(q) ties share)
  "each": places(3, 1 to p by highest length of q for q in players if has(q) ties each)
  "fewest": places(5 to p by lowest length of q for q in players)
turn:
  tally round into score
  end game
"""


@pytest.mark.parametrize("lengths, shared, each, fewest", [
    ([5, 3, 1, 0], [3, 1, 0, 0], [3, 1, 0, 0], [0, 0, 0, 5]),
    ([4, 4, 1, 0], [2, 2, 0, 0], [3, 3, 1, 0], [0, 0, 0, 5]),
    ([4, 2, 2, 0], [3, 0, 0, 0], [3, 1, 1, 0], [0, 0, 0, 5]),
    ([2, 2, 2, 2], [1, 1, 1, 1], [3, 3, 3, 3], [1, 1, 1, 1]),
    ([0, 3, 0, 0], [0, 3, 0, 0], [0, 3, 0, 0], [1, 0, 1, 1]),
])
def test_places_share_or_each(tmp_path: Path, lengths: list[int], shared: list[int], each: list[int],
                              fewest: list[int]) -> None:
    engine = game(tmp_path, PLACES)
    st2 = engine.new_state(4, narrate=True)
    st2.counters[0] = list(lengths)
    st2.counters[1] = [0, 0, 0, 0]
    rows = _tally_now(engine, st2)
    assert [r[0] for r in rows] == shared
    assert [r[1] for r in rows] == each
    assert [r[2] for r in rows] == fewest


def _tally_now(engine: Engine, st: State) -> list[list[Any]]:
    """Every player's lines of the game's sheet, as its standings compute them."""
    result = engine.standings(st)
    by_player = {row["player"]: row["sheets"]["round"] for row in result["standings"]}
    return [list(by_player[f"P{p + 1}"].values()) for p in range(st.players)]


def test_a_tally_adds_each_total_and_shows_the_sheet(tmp_path: Path) -> None:
    body = PLACES.replace("counter length per player = 0", "counter length per player = players")
    engine = game(tmp_path, body)
    st = engine.new_state(2, narrate=True)
    sheets = [e for e in st.log if e["type"] == "sheet"]
    assert sheets == [{"type": "sheet", "sheet": "round", "labels": ["shared", "each", "fewest"],
                       "rows": {"P1": [2, 3, 2], "P2": [2, 3, 2]}}]
    assert st.counters[1] == [7, 7]
    lines = Narrator().lines(st.log)
    assert "  Score sheet (round):" in lines
    assert any(line.split() == ["P1", "+2", "+3", "+2", "7"] for line in lines), lines


@pytest.mark.parametrize("text, message", [
    ("  tally nothing into score\n", "unknown score sheet 'nothing'"),
    ("  tally round into length2\n", "'tally ... into length2' needs a per-player counter of numbers"),
])
def test_tally_errors(tmp_path: Path, text: str, message: str) -> None:
    body = PLACES.replace("  tally round into score\n", text)
    errors = check_errors(tmp_path, body)
    assert message in errors[0].message


def test_places_errors(tmp_path: Path) -> None:
    body = PLACES.replace("ties each", "ties maybe")
    errors = check_errors(tmp_path, body)
    assert "unknown way to settle ties 'maybe'" in errors[0].message
    body = PLACES.replace("places(5 to p by", 'places("five" to p by')
    errors = check_errors(tmp_path, body)
    assert "the points of a place must be a number" in errors[0].message


def test_places_in_an_option_condition_and_its_explanation(tmp_path: Path) -> None:
    body = """\
zone pool
counter length per player = 0
counter score per player = 0 "points"
setup:
  pass
turn:
  choose:
    "claim the last place" if places(1 to current by lowest length of q for q in players) > 0:
      end game
    "grow":
      length of current += 1
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    assert labels(engine, st) == ["grow"]  # both at 0 share the one point: 1 // 2 = 0 each
    message, span = engine.explain(st, "claim the last place")
    assert "its condition is false" in message and span is not None and span.line == 10
    engine.apply(st, "grow")
    assert labels(engine, st) == ["claim the last place", "grow"]  # the other player is alone at the bottom


def test_end_turn_inside_a_spend_option_leaves_the_budget(tmp_path: Path) -> None:
    body = CARDS + """\
setup:
  pass
turn:
  spend 3 action points:
    "stop" costs 1:
      end turn
    "work" costs 1:
      spent += 1
  if spent >= 5:
    end game
"""
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    first = st.current
    engine.apply(st, "work")
    engine.apply(st, "stop")
    assert st.current != first
    assert labels(engine, st) == ["stop", "work"]  # the next player starts with a full budget
