"""The language for new games (issue 10): each construct, each silent wrong answer made an error."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from language_support import HEAD, check_errors, check_errors_with, game, say_lines

from rulelang.agents.base import RandomAgent
from rulelang.engine.decision import DuplicateLabel
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.narrate import Narrator
from rulelang.play import play
from rulelang.views import redact_narration

BASE = """\
zone pool
zone hand: per player
counter score per player = 0 "points"
setup:
  pass
"""


# ------------------------------------------------------------------ nobody is no seat

@pytest.mark.parametrize("stmt, col", [
    ("score of nobody += 5", 12),
    ("set score of nobody to 1", 16),
    ("reveal all in pool to nobody", 25),
    ("give turn to nobody", 16),
    ("move all from hand of nobody to pool", 25),
    ("say \"{score of nobody}\"", 7),
    ("say \"{player after nobody}\"", 7),
])
def test_nobody_written_where_a_seat_is_needed_is_a_check_error(tmp_path: Path, stmt: str, col: int) -> None:
    errors = check_errors(tmp_path, BASE + f"turn:\n  {stmt}\n  end game\n")
    assert len(errors) == 1
    err = errors[0]
    assert "nobody" in err.message
    assert (err.span.line, err.span.col) == (9, col), err.format()


def test_choose_nobody_is_a_check_error(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, BASE + 'turn:\n  choose nobody:\n    "a":\n      end game\n')
    assert "nobody is no player" in errors[0].message
    assert errors[0].span.line == 9


@pytest.mark.parametrize("stmt, message", [
    ("score of w += 5", "nobody has a 'score'"),
    ("set score of w to 1", "nobody has a 'score'"),
    ("let s = score of w", "nobody has a 'score'"),
    ("move all from hand of w to pool", "nobody has a 'hand'"),
    ("reveal all in pool to w", "nobody has eyes"),
    ("give turn to w", "nobody has a turn"),
    ("let s = seat(w)", "nobody has a seat"),
    ("let q = player after w", "nobody has a seat"),
    ("let a = answer of w", "nobody has an answer"),
])
def test_nobody_held_in_a_name_is_a_run_time_error_at_the_statement(tmp_path: Path, stmt: str, message: str) -> None:
    engine = game(tmp_path, BASE + f"turn:\n  let w = nobody\n  {stmt}\n  end game\n")
    with pytest.raises(RulelangError) as info:
        engine.new_state(2)
    assert message in info.value.message
    if "answer" not in message:
        assert info.value.span is not None and info.value.span.line == 10, info.value.format()
    assert "P2" not in info.value.format()


def test_choose_by_a_name_holding_nobody_is_an_error(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + 'turn:\n  let w = nobody\n  choose w:\n    "a":\n      end game\n')
    st = engine.new_state(2)
    with pytest.raises(RulelangError, match="nobody has a choice to make") as info:
        engine.pending(st)
    assert info.value.span.line == 10


def test_nobody_still_stored_and_compared(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + 'turn:\n  let w = nobody\n  if w == nobody:\n    say "no one: {w}"\n  end game\n')
    assert say_lines(engine) == ["no one: nobody"]


# ------------------------------------------------------------------ rank

def test_a_second_rank_line_is_an_error(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, BASE + "turn:\n  end game\n"
                          "rank p by highest score of p\nrank p by lowest score of p\n")
    assert "second 'rank' line" in errors[0].message
    assert errors[0].span.line == 11


def test_a_variant_may_still_replace_the_rank(tmp_path: Path) -> None:
    game(tmp_path, BASE + "turn:\n  end game\nrank p by highest score of p\n", name="base.rules")
    engine = game(tmp_path, "rank p by lowest score of p\n", head='game "v" extends "base.rules"\n', name="v.rules")
    assert engine.model.ranking.keys[0][0] == "lowest"


# ------------------------------------------------------------------ labels that read alike

DUP = BASE + """turn:
  choose:
    "take {n / 2}" for n in 1 to 3:
      end game
    "take 9":
      end game
"""


def test_two_options_with_the_same_label_are_an_error_when_a_trace_is_recorded(tmp_path: Path) -> None:
    engine = game(tmp_path, DUP)
    st = engine.new_state(2)
    with pytest.raises(DuplicateLabel) as info:
        play(engine, st, [RandomAgent(1, 0), RandomAgent(1, 1)], seed=1, on_event=lambda e, n: None)
    message = info.value.message
    assert "'take 1'" in message
    assert "n = 2" in message and "n = 3" in message, message
    assert info.value.span.line == 9


# ------------------------------------------------------------------ numbers are bounded

def test_a_counter_squared_in_a_loop_hits_the_bound(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE.replace('counter score per player = 0 "points"', "counter x = 2") +
                  "turn:\n  while true:\n    set x to x * x\n  end game\nrank p by highest 0\n")
    with pytest.raises(RulelangError, match="grew beyond") as info:
        engine.new_state(2)
    assert info.value.span.line == 10


def test_a_let_that_grows_hits_the_bound(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + "turn:\n  let x = 3\n  repeat 100 times:\n    let x = x * x\n  end game\n")
    with pytest.raises(RulelangError, match="grew beyond") as info:
        engine.new_state(2)
    assert info.value.span.line == 11


HUGE = """option x = 1000000000000000000
define a = x * x * x * x * x * x * x * x * x * x
define b = a * a * a * a * a
define c = b * b * b * b * b
"""


def test_a_huge_number_is_printed_by_its_size(tmp_path: Path) -> None:
    engine = game(tmp_path, HUGE + BASE + 'turn:\n  say "{c}"\n  end game\n')
    (line,) = say_lines(engine)
    assert line == "(a number of about 4501 digits)", line


def test_a_huge_ranking_key_is_an_error_not_a_crash(tmp_path: Path) -> None:
    engine = game(tmp_path, HUGE + BASE + "turn:\n  end game\nrank p by highest c\n")
    with pytest.raises(RulelangError, match="grew beyond"):
        engine.new_state(2)


def test_an_option_beyond_the_bound_is_an_error(tmp_path: Path) -> None:
    errors = check_errors_with(tmp_path, "option n = 1 \"n\"\n" + BASE + "turn:\n  end game\n", {"n": "9" * 30})
    assert "beyond the largest number" in errors[0].message


def test_a_trigger_that_refires_itself_hits_the_step_budget(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE.replace('counter score per player = 0 "points"', "counter x = 0") +
                  "turn:\n  set x to 1\n  end game\nwhen x > 0:\n  set x to 0\n  set x to 1\n"
                  "rank p by highest 0\n")
    with pytest.raises(RulelangError, match="without asking for a decision") as info:
        engine.new_state(2)
    assert info.value.span.line in (13, 14)


# ------------------------------------------------------------------ runaway turns

@pytest.mark.parametrize("body", ["  end turn\n", "  another turn\n", '  say "nothing to do"\n'])
def test_turns_without_decisions_name_the_turn_block_and_the_last_narration(tmp_path: Path, body: str) -> None:
    engine = game(tmp_path, BASE + 'turn:\n  say "turn of {current}"\n' + body)
    with pytest.raises(RulelangError, match="turns went on") as info:
        engine.new_state(2, narrate=True)
    assert info.value.span.line == 8  # turn:
    assert "the last narration was" in (info.value.hint or "")


# ------------------------------------------------------------------ strings as arguments

def test_a_string_argument_is_filled_like_say(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + 'rule note(t: text):\n  say "note: {t}"\n'
                  'turn:\n  note("{current} has {score of current}")\n  end game\n')
    assert say_lines(engine) == ["note: P1 has 0"]


# ------------------------------------------------------------------ player values

PLAYERS = """\
zone pool
counter score per player = 0 "points"
counter leader = nobody "the leader"
setup:
  pass
"""


PLAYERS_TURN = """turn:
  score of current += seat(current)
  if leader == nobody or score of current > score of leader:
    set leader to current
  say "{leader} leads; left of {current} is {player before current}, P1 is {P1}"
  if score of current >= 2:
    end game
"""


def test_a_counter_holds_a_player(tmp_path: Path) -> None:
    engine = game(tmp_path, PLAYERS + PLAYERS_TURN)
    st = engine.new_state(3, narrate=True)
    assert engine.observe(st, 0)["counters"]["leader"] == "P2"
    events = [e for e in st.log if e["type"] == "counter" and e["counter"] == "leader"]
    assert [(e["old"], e["new"]) for e in events] == [("nobody", "P1"), ("P1", "P2")]
    lines = Narrator().lines(st.log)
    assert "  leader: nobody -> P1" in lines
    assert "  P2 leads; left of P2 is P1, P1 is P1" in lines
    json.dumps(engine.observe(st, None))


def test_a_player_counter_cannot_be_added_to_or_set_to_a_number(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, PLAYERS + "turn:\n  leader += 1\n  set leader to 3\n  end game\n")
    assert [e.message for e in errors] == [
        "counter 'leader' holds a player: it cannot be added to",
        "counter 'leader' holds a player, but this is a number",
    ]


def test_seat_literals_are_checked_against_the_players(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, PLAYERS + "turn:\n  set leader to P5\n  end game\n")
    assert "there is no P5: the game takes at most 4 players" in errors[0].message
    engine = game(tmp_path, PLAYERS + "turn:\n  set leader to P3\n  end game\n")
    assert engine.observe(engine.new_state(3), None)["counters"]["leader"] == "P3"
    with pytest.raises(RulelangError, match="P3 is not in this game: P1 to P2 play it") as info:
        engine.new_state(2)
    assert info.value.span.line == 9


def test_a_position_sets_a_player_counter(tmp_path: Path) -> None:
    engine = game(tmp_path, PLAYERS + 'turn:\n  say "{leader}"\n  end game\n')
    st = engine.new_state(2, position={"counters": {"leader": "P2"}}, narrate=True)
    assert [e["text"] for e in st.log if e["type"] == "say"] == ["P2"]


# ------------------------------------------------------------------ one component

DICE = """
attribute pips = 0
face One: pips 1
face Two: pips 2
face Six: pips 6
2 Red dice: One, Two, Six
1 Gem token: pips 9
zone tray
counter total = 0
setup:
  move all from box to tray
"""


DICE_TURN = """turn:
  roll all in tray
  for d in all in tray:
    if kind of d == Red and face of d == Six:
      say "{d} is a six"
    say "{d}: {pips of d}, {face of d}, {kind of d}"
  set total to total(pips of d for d in all in tray)
  choose:
    "keep {d} ({pips of d})" for d in all in tray if pips of d > 1:
      end game
    "none":
      end game
rank p by highest total
"""


def test_attribute_face_and_kind_of_one_component(tmp_path: Path) -> None:
    engine = game(tmp_path, DICE + DICE_TURN)
    st = engine.new_state(2, narrate=True)
    engine.apply(st, "Six")
    engine.apply(st, "One")
    says = [e["text"] for e in st.log if e["type"] == "say"]
    assert says == ["Red#1 is a six", "Red#1: 6, Six, Red", "Red#2: 1, One, Red", "Gem: 9, no face, Gem"]
    assert st.counters[0] == 16
    assert list(engine.pending(st).labels) == ["keep Red#1 (6)", "keep Gem (9)", "none"]


# ------------------------------------------------------------------ public reveals, hidden counters

SECRET = """
2 Coin cards
zone deck: hidden
zone hand: per player, owner
counter chips per player = 40 "chips": owner
counter pot = 0 "the pot": hidden
setup:
  move all from box to deck
turn:
  chips of current -= 7
  pot += 7
  choose:
    "show":
      reveal all in deck to all
      end game
rank p by highest chips of p
"""


def test_reveal_to_all_shows_everyone(tmp_path: Path) -> None:
    engine = game(tmp_path, SECRET)
    st = engine.new_state(3, narrate=True)
    engine.apply(st, "show")
    for p in range(3):
        assert engine.observe(st, p)["seen"][0]["components"] == ["Coin", "Coin"]
        shown = [e for e in redact_narration(engine, st.log, p) if e["type"] == "reveal"]
        assert shown[0]["components"] == ["Coin", "Coin"]
    assert "  everyone sees deck: Coin#1, Coin#2" in Narrator().lines(st.log)


def test_owner_only_and_hidden_counters_do_not_leak(tmp_path: Path) -> None:
    engine = game(tmp_path, SECRET)
    st = engine.new_state(3, narrate=True)
    mine = engine.observe(st, 0)["counters"]
    assert mine["chips"] == {"P1": 33, "P2": {"hidden": True}, "P3": {"hidden": True}}
    assert mine["pot"] == {"hidden": True}
    for viewer in (1, 2, None):
        seen = json.dumps(engine.observe(st, viewer))
        assert "33" not in seen and '"pot": 7' not in seen
        text = json.dumps(redact_narration(engine, st.log, viewer))
        assert "33" not in text and "40" not in text
    assert "33" in json.dumps(redact_narration(engine, st.log, 0))


def test_counter_visibility_is_checked(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, 'counter a = 0 "a": owner\ncounter b per player = 0: secret\n'
                          + BASE + "turn:\n  end game\n")
    assert [e.message for e in errors] == ["only a per-player counter can be seen by its owner only",
                                           "unknown counter property 'secret'"]


# ------------------------------------------------------------------ numbered components

def test_numbered_components(tmp_path: Path) -> None:
    engine = game(tmp_path, """
attribute value = 0
1 Card cards for n in 3 to 35 "Card {n}": value n
zone deck
counter total = 0
setup:
  move all Card from box to deck
turn:
  set total to sum(value of all in deck)
  end game
rank p by highest total
""")
    assert [k.name for k in engine.model.kinds][:2] == ["Card3", "Card4"]
    assert engine.model.kinds[0].display == "Card 3"
    st = engine.new_state(2)
    assert st.counters[0] == sum(range(3, 36))


def test_a_name_as_a_value_outside_numbered_components_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(RulelangError, match="unknown value 'n'"):
        game(tmp_path, "attribute value = 0\n1 Card card: value n\n" + BASE + "turn:\n  end game\n")


# ------------------------------------------------------------------ fractions

FRACTIONS = """
zone pool
counter score per player = 0 "points"
setup:
  pass
turn:
  for p in other players:
    score of p -= fraction(1, players - 1)
  score of current += 1
  say "{fraction(7, 3)} {7 / 3} {fraction(6, 3)} {fraction(1, 3) / 2} {score of next player}"
  end game
"""


def test_fractions_are_exact_and_printed_readably(tmp_path: Path) -> None:
    engine = game(tmp_path, FRACTIONS)
    st = engine.new_state(4, narrate=True)
    assert [e["text"] for e in st.log if e["type"] == "say"] == ["7/3 2 2 1/6 -1/3"]
    assert st.counters[0] == [1, Fraction(-1, 3), Fraction(-1, 3), Fraction(-1, 3)]
    assert st.result["standings"][1]["keys"] == ["-1/3"]
    assert "  score of P2: 0 -> -1/3 (-1/3)" in Narrator().lines(st.log)
    assert engine.observe(st, 0)["counters"]["score"]["P2"] == "-1/3"
    again = State.from_json(json.loads(st.dumps()))
    assert again == st and again.counters[0][1] == Fraction(-1, 3)


def test_a_fraction_where_a_whole_number_is_needed_is_an_error(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + "turn:\n  repeat fraction(1, 2) times:\n    pass\n  end game\n")
    with pytest.raises(RulelangError, match="must be a whole number, not 1/2"):
        engine.new_state(2)


def test_a_position_may_give_a_fraction(tmp_path: Path) -> None:
    engine = game(tmp_path, FRACTIONS)
    st = engine.new_state(2, position={"counters": {"score": {"P1": "1/2", "P2": 0}}})
    assert st.counters[0] == [Fraction(3, 2), -1]
    assert st.result["standings"][0]["keys"] == ["3/2"]


# ------------------------------------------------------------------ triggers after each step

TRAP = """
zone pool
counter moves = 0
counter score per player = 0 "points"
setup:
  pass
turn:
  moves += 1
  score of current += 5
  choose:
    "go":
      pass
when moves >= 1{after} "the game ends when the first move is made":
  end game
"""


def test_a_trigger_fires_mid_block_by_default_the_trap(tmp_path: Path) -> None:
    engine = game(tmp_path, TRAP.format(after=""))
    st = engine.new_state(2)
    assert st.over and st.result["winners"] == ["P1", "P2"]  # ended before the score was banked: a draw


def test_after_each_step_fires_when_play_next_waits(tmp_path: Path) -> None:
    engine = game(tmp_path, TRAP.format(after=" after each step"))
    st = engine.new_state(2)
    assert st.over and st.result["winners"] == ["P1"]


def test_components_from_a_table(tmp_path: Path) -> None:
    engine = game(tmp_path, """
attribute points = 0
attribute animal = false
cards table:
  count  name     display       points  animal
  15     Cow      "Cow"         5       true
  3      Crow     "a Crow"      -1      false
  2      Fox      "Red Fox"     0       true
zone deck
counter total = 0
setup:
  move all from box to deck
turn:
  set total to sum(points of all in deck)
  for k in kinds where animal:
    say "{k}"
  end game
rank p by highest total
""")
    assert [(k.name, k.display, k.count, k.values) for k in engine.model.kinds] == [
        ("Cow", "Cow", 15, {"points": 5, "animal": True}),
        ("Crow", "a Crow", 3, {"points": -1, "animal": False}),
        ("Fox", "Red Fox", 2, {"points": 0, "animal": True}),
    ]
    st = engine.new_state(2, narrate=True)
    assert st.counters[0] == 72
    assert [e["text"] for e in st.log if e["type"] == "say"] == ["Cow", "Red Fox"]


@pytest.mark.parametrize("table, message", [
    ("  count name points\n  3 Cow 5 7\n", "this line has 4 values for 3 columns"),
    ("  name points\n  Cow 5\n", "needs a 'count' column"),
    ("  count name points\n  3 Cow many\n", "unknown value 'many' for attribute 'points'"),
    ("  count name pts\n  3 Cow 5\n", "unknown attribute 'pts' for Cow"),
])
def test_a_broken_table_is_an_error_at_its_line(tmp_path: Path, table: str, message: str) -> None:
    errors = check_errors(tmp_path, "attribute points = 0\ncards table:\n" + table + BASE + "turn:\n  end game\n")
    assert message in errors[0].message
    assert errors[0].span.line in (5, 6)


def test_a_redacted_trace_hides_owner_counters_of_its_position(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulelang.cli import main

    rules = tmp_path / "s.rules"
    rules.write_text(HEAD + SECRET)
    position = tmp_path / "p.json"
    position.write_text(json.dumps({"counters": {"chips": {"P1": 31, "P2": 32, "P3": 33}, "pot": 77}}))
    trace, redacted = tmp_path / "t.jsonl", tmp_path / "r.jsonl"
    runner = CliRunner()
    assert runner.invoke(main, ["run", str(rules), "-p", "3", "-q", "--from", str(position),
                                "--trace", str(trace)]).exit_code == 0
    result = runner.invoke(main, ["replay", str(trace), "--view", "P2", "--redacted", str(redacted)])
    assert result.exit_code == 0, result.output
    header = json.loads(redacted.read_text().splitlines()[0])
    assert header["position"]["counters"] == {"chips": {"P1": {"hidden": True}, "P2": 32, "P3": {"hidden": True}},
                                              "pot": {"hidden": True}}
    assert "31" not in result.output and "77" not in result.output  # (the final standings show the chips)


@pytest.mark.parametrize("text, message", [
    ('rule r "pays {n}":\n  pass\nturn:\n  end game\n', "a title is fixed text"),
    ('turn:\n  end game\nwhen score of current > 3 "{current} wins":\n  end game\n', "a title is fixed text"),
    ('turn:\n  ask e in other players:\n    "I, {e}, object"\n    "fine"\n  end game\n',
     "an answer of 'ask' is fixed text"),
])
def test_holes_where_text_is_fixed_are_errors_not_literal_braces(tmp_path: Path, text: str, message: str) -> None:
    errors = check_errors(tmp_path, BASE + text)
    assert message in errors[0].message


def test_the_human_player_reads_hidden_counters_as_hidden(tmp_path: Path) -> None:
    from rulelang.agents.human import render_observation

    engine = game(tmp_path, SECRET)
    text = render_observation(engine.observe(engine.new_state(3), 1))
    assert "  chips: P1 (hidden), P2 40, P3 (hidden)" in text
    assert "  pot: (hidden)" in text


def test_a_huge_repeat_count_is_bounded_before_it_is_kept_in_the_state(tmp_path: Path) -> None:
    engine = game(tmp_path, HUGE + BASE + 'turn:\n  repeat c times:\n    choose:\n      "a":\n        end game\n')
    with pytest.raises(RulelangError, match="grew beyond"):
        engine.new_state(2)


def test_a_huge_argument_is_bounded_before_it_is_kept_in_the_state(tmp_path: Path) -> None:
    engine = game(tmp_path, HUGE + BASE + 'rule r(n: number):\n  choose:\n    "a":\n      end game\n'
                  "turn:\n  r(c)\n")
    with pytest.raises(RulelangError, match="grew beyond") as info:
        engine.new_state(2)
    assert (info.value.span.line, info.value.span.col) == (17, 3)  # r(c)


def test_a_text_that_doubles_in_a_loop_is_stopped(tmp_path: Path) -> None:
    engine = game(tmp_path, BASE + 'turn:\n  let t = "ab"\n  while true:\n    let t = "{t}{t}"\n  end game\n')
    with pytest.raises(RulelangError, match="a text grew to") as info:
        engine.new_state(2)
    assert info.value.span.line == 11


# ------------------------------------------------------------------ a game with nothing to set up

def test_a_game_without_setup_plays_from_the_box(tmp_path: Path) -> None:
    # a newcomer's first game: no components to deal, so no 'setup:' block (issue 26: it was a required one)
    engine = game(tmp_path, "counter score per player = 0\n"
                            "turn:\n  score of current += 1\n  if score of current >= 3:\n    end game\n"
                            "rank p by highest score of p\n")
    st = engine.new_state(2)
    play(engine, st, [RandomAgent(1, 0), RandomAgent(1, 1)], 1)
    assert st.over and [r["keys"] for r in st.result["standings"]] == [[3], [2]]
    assert [r.name for r in engine.model.rules][:2] == ["setup", "turn"]


def test_a_game_without_turn_still_says_what_is_missing(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "counter score per player = 0\nrank p by highest score of p\n")
    assert [e.message for e in errors] == ["the game has no 'turn:' block"]
