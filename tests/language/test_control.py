"""Counters holding a kind or a text, ``break``/``continue``, ``best ... by ...`` and ``give turn to`` in
setup (issue 26, item 5; docs/design/newcomer-gaps.md gaps 4, 8, 13, 17, 19).

Each is tested on a small game written here: what it does, what the narration, the observations, the
positions and the traces show, what replay says of a recorded game, and the errors of its misuse.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from language_support import check_errors, game

from rulelang.agents.base import RandomAgent
from rulelang.cli import main
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play

# Tricks in miniature: the first card played sets the suit led (a kind counter), the trump suit is the
# kind of the card turned up; the winner of a trick is the best card by a key, the dealer's left leads.
TRICK = """\
attribute rank = 0
1 Red cards for n in 1 to 3 "{n} red": rank n
1 Blue cards for n in 1 to 3 "{n} blue": rank n
1 Trump card "the trump card"
zone deck "the deck": ordered
zone turnup "the card turned up"
zone hand "hand": per player
zone played "played": per player
counter led: kind "the suit led"
counter trump = no kind "trump"
counter call: text "the call"
counter dealer = P2 "the dealer"
counter tricks per player = 0 "tricks"
define power(p) = sum(rank of all in played of p where Trump) * 10 + sum(rank of all in played of p)
setup:
  move Trump from box to turnup
  move all from box to deck
  set trump to Trump
  repeat 3 times:
    for p in players:
      move 1 from deck to hand of p
  give turn to player after dealer
turn:
  choose:
    "play {kind of c}" for c in all in hand of current:
      let k = kind of c
      move 1 k from hand of current to played of current
      if led == no kind:
        set led to k
        set call to "{current} leads {k}"
  if count(all in played of P1) == count(all in played of P2):
    let w = best p in players by highest power(p) ties first
    say "{w} wins; {led} was led; {call}"
    tricks of w += 1
    for p in players:
      move all from played of p to deck
    set led to no kind
    give turn to w
  if not any(all in hand of current) and not any(all in hand of next player):
    end game
rank p by highest tricks of p
"""

HEAD2 = 'game "t"\nplayers 2 to 2\n'


def _trick(tmp_path: Path):
    return game(tmp_path, TRICK, HEAD2)


def _counter_events(log: list, name: str) -> list[tuple]:
    return [(e["old"], e["new"]) for e in log if e["type"] == "counter" and e["counter"] == name]


# ------------------------------------------------------------------ counters holding a kind or a text


def test_a_kind_counter_starts_as_no_kind_and_is_set_compared_and_shown(tmp_path: Path) -> None:
    engine = _trick(tmp_path)
    st = engine.new_state(2, narrate=True)
    assert st.current == 0  # the dealer is P2: the player after the dealer (P1) leads
    obs = engine.observe(st, 0)
    assert obs["counters"]["led"] == "no kind" and obs["counters"]["trump"] == "Trump"
    assert obs["counters"]["call"] == ""
    first = engine.legal_actions(st, 0)[0]
    st.log = []
    engine.apply(st, first)  # P1 leads: the suit led and the call are set
    kind = first.removeprefix("play ")
    led = engine.observe(st, 1)["counters"]["led"]
    assert led == next(k.name for k in engine.model.kinds if k.display == kind)
    assert _counter_events(st.log, "led") == [("no kind", led)]
    assert _counter_events(st.log, "call") == [("", f"P1 leads {kind}")]
    engine.apply(st, engine.legal_actions(st, 1)[0])  # P2 follows: the trick is over, the suit led unset
    said = [e["text"] for e in st.log if e["type"] == "say"]
    assert said and said[0].endswith(f"; {kind} was led; P1 leads {kind}")
    assert engine.observe(st, None)["counters"]["led"] == "no kind"


def test_text_counters_are_narrated_quoted(tmp_path: Path) -> None:
    from rulelang.narrate import Narrator

    engine = _trick(tmp_path)
    st = engine.new_state(2, narrate=True)
    st.log = []
    engine.apply(st, engine.legal_actions(st, 0)[0])
    text = "\n".join(Narrator().lines(st.log))
    assert '  call: "" -> "P1 leads ' in text
    assert "  led: no kind -> " in text


def test_kind_and_text_counters_round_trip_and_come_from_positions(tmp_path: Path) -> None:
    engine = _trick(tmp_path)
    st = engine.new_state(2)
    engine.apply(st, engine.legal_actions(st, 0)[0])
    again = State.from_json(json.loads(json.dumps(st.to_json())))
    assert again.digest() == st.digest() and engine.observe(again, 0) == engine.observe(st, 0)
    placed = engine.new_state(2, position={"counters": {"led": "Blue2", "call": "a call", "trump": "no kind"}})
    seen = engine.observe(placed, 0)["counters"]
    assert (seen["led"], seen["call"], seen["trump"]) == ("Blue2", "a call", "no kind")
    with pytest.raises(RulelangError, match="unknown kind 'Green' for"):
        engine.new_state(2, position={"counters": {"led": "Green"}})
    with pytest.raises(RulelangError, match="must be a kind, written as a string"):
        engine.new_state(2, position={"counters": {"led": 3}})


def test_a_played_game_with_kind_counters_records_and_replays(tmp_path: Path) -> None:
    rules = tmp_path / "t.rules"
    rules.write_text(HEAD2 + TRICK)
    trace = tmp_path / "t.jsonl"
    run = CliRunner().invoke(main, ["run", str(rules), "--seed", "4", "--trace", str(trace)])
    assert run.exit_code == 0, run.output
    assert "led: no kind -> " in run.output and "wins; " in run.output
    replayed = CliRunner().invoke(main, ["replay", str(trace)])
    assert replayed.exit_code == 0 and "compliant" in replayed.output, replayed.output
    view = CliRunner().invoke(main, ["replay", str(trace), "--view", "P2"])
    assert view.exit_code == 0 and "led: no kind -> " in view.output, view.output


def test_a_kind_counter_that_holds_no_kind_where_a_kind_is_needed_stops_the_game(tmp_path: Path) -> None:
    body = TRICK.replace("  set trump to Trump\n", "  let k = led\n  move 1 k from deck to turnup\n")
    engine = game(tmp_path, body, HEAD2)
    with pytest.raises(RulelangError, match="a kind is needed here, but the value is 'no kind'") as info:
        engine.new_state(2)
    assert info.value.span is not None and info.value.span.line == 21  # the move, in setup


def test_a_wrong_starting_value_is_one_error_not_one_per_set(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "counter done = false\nsetup:\n  set done to true\nturn:\n  set done to false\n"
                                    "  end game\nrank p by highest 0\n")
    assert [e.message for e in errors] == [
        "a counter holds a number, a text, a kind, a player or a face, but this is a true/false"]
    errors = check_errors(tmp_path, "counter trump: kind\n1 Red card\nsetup:\n  set trump to 2\nturn:\n"
                                    "  set trump to Red\n  end game\nrank p by highest 0\n")
    assert [e.message for e in errors] == ["counter 'trump' holds a kind, but this is a number"]
    assert (errors[0].span.line, errors[0].span.col) == (6, 16)


def test_a_stated_type_starts_empty(tmp_path: Path) -> None:
    body = ("counter a: number\ncounter b: text\ncounter c: kind\ncounter d: player\ncounter e per player: text\n"
            "setup:\n  pass\nturn:\n  end game\nrank p by highest 0\n")
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    assert engine.observe(st, None)["bookkeeping"] == {"a": 0, "b": "", "c": "no kind", "d": "nobody",
                                                       "e": {"P1": "", "P2": ""}}


# ------------------------------------------------------------------ break and continue

LOOPS = """\
counter n = 0
setup:
  pass
turn:
  let said = 0
  while true:
    n += 1
    if n == 3:
      break
  for i in 1 to 5:
    if i % 2 == 0:
      continue
    say "odd {i}"
  repeat 4 times:
    for j in 1 to 3:
      if j == 2:
        break
      say "inner {j}"
    say "outer"
  say "n is {n}"
  end game
rank p by highest 0
"""


def test_break_and_continue_in_while_for_and_repeat(tmp_path: Path) -> None:
    from language_support import say_lines

    assert say_lines(game(tmp_path, LOOPS)) == [
        "odd 1", "odd 3", "odd 5", *["inner 1", "outer"] * 4, "n is 3"]


# Farkle's shape (gap 19): set dice aside one at a time until the player stops, from inside a choice.
PUSH = """\
counter score per player = 0 "points"
counter taken = 0 "taken this turn"
setup:
  pass
turn:
  set taken to 0
  while true:
    choose:
      "take one":
        taken += 1
      "skip":
        continue
      "stop":
        break
    if taken == 3:
      say "{current} takes the most"
      break
  score of current += taken
  if score of current >= 5:
    end game
rank p by highest score of p
"""


def test_break_and_continue_from_inside_a_choice_in_a_loop(tmp_path: Path) -> None:
    from language_support import say_lines

    engine = game(tmp_path, PUSH)
    st = engine.new_state(2)
    for label in ["take one", "skip", "take one", "stop"]:
        engine.apply(st, label)
    assert st.counters[0] == [2, 0] and st.current == 1  # P1 stopped with 2; P2's turn
    for label in ["take one", "take one", "skip", "take one"]:
        engine.apply(st, label)
    assert st.counters[0] == [2, 3] and st.current == 0  # three taken: the loop is left
    said = say_lines(engine, choices=["take one"] * 3)
    assert said[0] == "P1 takes the most"


def test_a_game_that_breaks_out_of_choices_replays(tmp_path: Path) -> None:
    engine = game(tmp_path, PUSH)
    for seed in range(8):
        events: list[dict] = []
        st = engine.new_state(2)
        play(engine, st, [RandomAgent(seed, i) for i in range(2)], seed=seed,
             on_event=lambda e, _n, events=events: events.append(e))
        assert st.over
        again = engine.new_state(2)
        for e in events:
            if e["type"] == "action":
                engine.apply(again, e["action"], player=int(e["player"][1:]) - 1)
        assert again.over and again.digest() == st.digest()


def test_break_after_a_pause_in_a_for_loop_leaves_that_loop_only(tmp_path: Path) -> None:
    body = """\
    counter picked = 0 "picked"
    setup:
      pass
    turn:
      for i in 1 to 3:
        for j in 1 to 3:
          choose:
            "pick {i}.{j}":
              picked += 1
          if j == 2:
            break
          continue
        say "row {i} done"
      end game
    rank p by highest picked
    """
    from language_support import say_lines

    engine = game(tmp_path, body)
    assert say_lines(engine) == ["row 1 done", "row 2 done", "row 3 done"]
    st = engine.new_state(2)
    labels = []
    while not st.over:
        labels.append(engine.legal_actions(st)[0])
        engine.apply(st, labels[-1])
    assert labels == ["pick 1.1", "pick 1.2", "pick 2.1", "pick 2.2", "pick 3.1", "pick 3.2"]


@pytest.mark.parametrize("word", ["break", "continue"])
def test_break_outside_a_loop_is_an_error_with_its_place(tmp_path: Path, word: str) -> None:
    errors = check_errors(tmp_path, f"setup:\n  pass\nturn:\n  choose:\n    \"go\":\n      {word}\n  end game\n"
                                    "rank p by highest 0\n")
    assert errors[0].message == f"'{word}' is outside any loop"
    assert (errors[0].span.line, errors[0].span.col) == (8, 7)


def test_break_cannot_leave_a_spend(tmp_path: Path) -> None:
    body = ("counter n = 0\nsetup:\n  pass\nturn:\n  for i in 1 to 2:\n    spend 2 action points:\n"
            "      \"tick\" costs 1:\n        break\n  end game\nrank p by highest 0\n")
    errors = check_errors(tmp_path, body)
    assert errors[0].message == "'break' cannot leave the options of 'spend'"


def test_a_rule_named_break_gets_the_mechanical_change(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "setup:\n  pass\nturn:\n  end game\nrule continue:\n  pass\nrank p by highest 0\n")
    assert errors[0].message.startswith("a rule cannot be called 'continue'")
    assert "rename the rule and its calls" in (errors[0].hint or "")


# ------------------------------------------------------------------ best p in ... by ...

BEST = """\
counter score per player = 0 "points"
counter top = nobody "top"
counter low = nobody "low"
counter none_left = P1 "none left"
setup:
  set score of P1 to 3
  set score of P2 to 5
  set score of P3 to 5
turn:
  set top to best p in players by highest score of p ties first
  set low to best p in players by lowest score of p
  set none_left to best p in players by highest score of p if score of p > 9
  let tied = best p in players by highest score of p ties none
  let firsts = best p in other players by highest score of p ties first
  let n = best i in 1 to 6 by highest -((i - 4) * (i - 4))
  say "{top} {low} {none_left} {tied} {firsts} {n}"
  if (best p in players by lowest score of p) == P1:
    say "P1 is last"
  end game
rank p by highest score of p
"""


def test_best_by_highest_and_lowest_with_its_tie_rules(tmp_path: Path) -> None:
    from language_support import say_lines

    said = say_lines(game(tmp_path, BEST), players=3)
    # top: P2 and P3 tie, the first in seat order; tied: none of them; firsts: from the player after P1
    assert said == ["P2 P1 nobody nobody P2 4", "P1 is last"]


def test_a_tie_without_a_tie_rule_stops_the_game_at_the_best(tmp_path: Path) -> None:
    body = BEST.replace("  set low to best p in players by lowest score of p\n",
                        "  set low to best p in players by highest score of p\n")
    engine = game(tmp_path, body)
    with pytest.raises(RulelangError, match=r"a tie for 'best': P2, P3 share the highest value") as info:
        engine.new_state(3)
    assert info.value.span is not None and info.value.span.line == 13
    assert "ties first" in (info.value.hint or "")


def test_best_over_kinds_and_components(tmp_path: Path) -> None:
    from language_support import say_lines

    body = """\
    attribute points = 0
    2 Cow cards: points 3
    1 Pig card: points 5
    1 Hen card: points 1
    zone pen "the pen"
    setup:
      move all from box to pen
    turn:
      let k = best k in kinds(all in pen) by highest points of k * count(k in pen)
      let c = best c in all in pen by lowest points of c ties first
      let gone = best k in kinds(all in pen where points > 9) by highest points of k
      say "{k} {c} {gone}"
      end game
    rank p by highest 0
    """
    assert say_lines(game(tmp_path, body)) == ["Cow Hen no kind"]


def test_best_over_components_with_nothing_to_choose_is_an_error(tmp_path: Path) -> None:
    body = ("1 Pig card\nzone pen \"the pen\"\nsetup:\n  pass\nturn:\n"
            "  let c = best c in all in pen by highest 1\n  end game\nrank p by highest 0\n")
    with pytest.raises(RulelangError, match="'best' has nothing to choose from"):
        game(tmp_path, body).new_state(2)


def test_best_is_still_a_name_where_it_was_one(tmp_path: Path) -> None:
    from language_support import say_lines

    body = ("define best(p) = seat(p) * 2\nsetup:\n  pass\nturn:\n  let best = 3\n  say \"{best} {best(P2)}\"\n"
            "  end game\nrank p by highest best(p)\n")
    assert say_lines(game(tmp_path, body)) == ["3 4"]


# ------------------------------------------------------------------ give turn to in setup


def test_give_turn_to_in_setup_names_who_plays_the_first_turn(tmp_path: Path) -> None:
    body = ("counter dealer = P2 \"the dealer\"\nsetup:\n  deal\nturn:\n  say \"{current} plays\"\n"
            "  if current == P1:\n    end game\nrule deal:\n  give turn to player after dealer\n"
            "rank p by highest 0\n")
    engine = game(tmp_path, body)
    from language_support import say_lines

    assert say_lines(engine, players=3) == ["P3 plays", "P1 plays"]
    assert say_lines(engine, players=2) == ["P1 plays"]


@pytest.mark.parametrize("word", ["break", "continue"])
def test_break_in_an_answers_block_is_an_error_not_a_leave_of_the_seats_loop(tmp_path: Path, word: str) -> None:
    # an answer's block runs inside the loop over the players who answered: a 'break' there would leave
    # that loop (the later players' blocks silently skipped) and not the 'repeat' the author wrote
    errors = check_errors(tmp_path, f"""\
        counter rounds = 0 "rounds"
        setup:
          pass
        turn:
          repeat 3 times:
            set rounds to rounds + 1
            ask p in players:
              "stop":
                {word}
              "go":
                pass
          end game
        rank p by highest rounds
        """)
    assert errors[0].message == f"'{word}' cannot leave a loop from an answer's block"
    assert errors[0].span.line == 11 and "test it after the 'ask'" in errors[0].hint


def test_a_loop_inside_an_answers_block_may_break(tmp_path: Path) -> None:
    engine = game(tmp_path, """\
        counter rounds = 0 "rounds"
        setup:
          pass
        turn:
          ask p in players:
            "count":
              repeat 5 times:
                set rounds to rounds + 1
                if rounds >= 2:
                  break
          end game
        rank p by highest rounds
        """)
    st = engine.new_state(2)
    play(engine, st, [RandomAgent(1, 0), RandomAgent(1, 1)], 1)
    assert st.counters[0] == 3  # P1's block counts to 2 and breaks; P2's adds 1 and breaks at 3
