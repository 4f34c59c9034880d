"""Answers and definitions as values (issue 26, items 1 and 2).

An answer of an ``ask`` may have a block, run for each player who gave it, in seat order, once
everyone has answered, with the answer's ``for`` values as values; an answer may show values
(``"challenge {claimer}"``); ``answer of p`` compares with a number, player or kind answered alone,
and a comparison with a text no answer reads is an error. ``define NAME(...):`` with a block of
``let``, ``if`` and ``return`` decides a value, usable wherever an expression is.
"""

from __future__ import annotations

from pathlib import Path

from language_support import check_errors, game

ANSWERS = """\
counter bid per player = 0 "bid"
counter seen = 0 "what the second bidder saw"
zone pool "the pool"
zone kept "kept": per player
4 Gem tokens "gem"
setup:
  move all from box to pool
turn:
  ask p in players:
    "bid {n}" for n in 1 to count(all in pool):
      set bid of p to n
      say "{p} bids {n}"
      move (n) Gem from pool to kept of p
    "pass":
      say "{p} passes"
  end game
rank p by highest bid of p
"""


def _answer_all(engine, st, answers: dict[int, str]) -> None:  # noqa: ANN001
    """Answer the pending ``ask`` with these labels, player by player in the order given."""
    for seat, label in answers.items():
        engine.apply(st, label, player=seat)


def _says(st) -> list[str]:  # noqa: ANN001
    return [e["text"] for e in st.log or [] if e["type"] == "say"]


def test_the_blocks_run_in_seat_order_with_the_values_answered(tmp_path: Path) -> None:
    engine = game(tmp_path, ANSWERS)
    st = engine.new_state(3, narrate=True)
    st.log = []
    _answer_all(engine, st, {2: "bid 1", 0: "bid 2", 1: "pass"})  # answered P3, P1, P2
    assert st.over
    assert _says(st) == ["P1 bids 2", "P2 passes", "P3 bids 1"]
    bid = engine.model.counters[[c.name for c in engine.model.counters].index("bid")].index
    assert [st.counters[bid][p] for p in range(3)] == [2, 0, 1]
    kept = next(z.index for z in engine.model.zones if z.name == "kept")
    assert [len(st.zones[kept][p]) for p in range(3)] == [2, 0, 1]


def test_the_values_are_those_answered_though_an_earlier_block_changed_what_they_read(tmp_path: Path) -> None:
    """P1's block takes 3 of the 4 gems; P3's 'bid 2' (listed while 4 were there) still runs with n = 2."""
    engine = game(tmp_path, ANSWERS)
    st = engine.new_state(3, narrate=True)
    st.log = []
    _answer_all(engine, st, {0: "bid 3", 1: "pass", 2: "bid 1"})
    assert _says(st) == ["P1 bids 3", "P2 passes", "P3 bids 1"]
    st = engine.new_state(2, narrate=True)
    st.log = []
    _answer_all(engine, st, {1: "bid 4", 0: "bid 2"})
    assert _says(st) == ["P1 bids 2", "P2 bids 4"]  # P2's block runs with the 4 answered
    kept = next(z.index for z in engine.model.zones if z.name == "kept")
    assert [len(st.zones[kept][p]) for p in range(2)] == [2, 2]  # (the pool had only 2 left for P2)


def test_an_answer_shows_values_without_a_for(tmp_path: Path) -> None:
    engine = game(tmp_path, """\
        counter score per player = 0 "points"
        setup:
          pass
        turn:
          claim(current)
          end game
        rule claim(claimer: player):
          ask e in other players:
            "challenge {claimer}":
              score of e += 1
            "let it be"
        rank p by highest score of p
        """)
    st = engine.new_state(3)
    assert sorted(engine.legal_actions(st, 1)) == ["challenge P1", "let it be"]
    _answer_all(engine, st, {1: "let it be", 2: "challenge P1"})
    assert st.over
    assert engine.standings(st)["winners"] == ["P3"]


def test_an_answer_compares_with_the_value_it_shows(tmp_path: Path) -> None:
    engine = game(tmp_path, """\
        counter score per player = 0 "points"
        setup:
          pass
        turn:
          ask p in players:
            "{n}" for n in 1 to 3
            "{q}" for q in players
          for p in players:
            if answer of p == 2:
              score of p += 10
            if answer of p == P1:
              score of p += 100
          end game
        rank p by highest score of p
        """)
    st = engine.new_state(3)
    _answer_all(engine, st, {0: "2", 1: "P1", 2: "3"})
    scores = {s["player"]: s for s in engine.standings(st)["standings"]}
    assert [scores[p]["keys"][0] for p in ("P1", "P2", "P3")] == [10, 100, 0]


def test_a_comparison_no_answer_can_make_true_is_an_error(tmp_path: Path) -> None:
    body = """\
        setup:
          pass
        turn:
          ask e in players:
            "Excuse Me!"
            "take {k}" for k in kinds(all in box)
          if answer of P1 == "Excuse me!":
            end game
          if answer of P1 == "take {P2}":
            end game
          if answer of P1 == "take nothing":
            end game
          if answer of P1 == P2:
            end game
          end game
        rank p by highest seat(p)
        """
    errors = [(e.message, e.span.line, e.hint) for e in check_errors(tmp_path, body)]
    assert errors[0] == ("no answer of an 'ask' reads 'Excuse me!', so this comparison is never true", 9,
                         "did you mean 'Excuse Me!'?")
    assert errors[1][0:2] == ("no answer of an 'ask' is a player alone, so this comparison is never true", 15)
    assert len(errors) == 2  # "take {P2}" and "take nothing" may be what a kind's answer reads


def test_a_player_not_asked_answered_nothing(tmp_path: Path) -> None:
    engine = game(tmp_path, """\
        counter score per player = 0 "points"
        setup:
          pass
        turn:
          ask e in other players:
            "yes":
              score of e += 1
          for p in players:
            if answer of p == "":
              score of p += 5
          end game
        rank p by highest score of p
        """)
    st = engine.new_state(2)
    engine.apply(st, "yes", player=1)
    assert [(s["player"], s["keys"][0]) for s in engine.standings(st)["standings"]] == [("P1", 5), ("P2", 1)]


DECIDE = """\
counter score per player = 0 "points"
counter round = 0 "round"
define grade(n: number):
  let g = 0
  if n >= 10:
    let g = 3
  elif n >= 5:
    let g = 2
  else:
    if n < 0:
      return -1
    let g = 1
  return g * 10
define leads(p: player):
  return score of p > 2 * score of (player after p)
setup:
  pass
turn:
  round += 1
  score of current += round * 3
  say "{current} {grade(score of current)} {leads(current)}"
  if leads(current):
    say "{current} leads"
  if round == 4:
    end game
rank p by highest score of p
"""


def test_a_definition_decides_a_value_with_let_and_if(tmp_path: Path) -> None:
    engine = game(tmp_path, DECIDE)
    st = engine.new_state(2, narrate=True)
    assert st.over
    says = _says(st)
    # scores after each turn: P1 3, P2 6, P1 12, P2 18
    assert says == ["P1 10 yes", "P1 leads", "P2 20 no", "P1 30 no", "P2 30 no"]


def test_the_errors_of_a_definition_that_decides(tmp_path: Path) -> None:
    body = """\
        define a(n: number):
          if n > 0:
            return 1
        define b(n: number):
          return 1
          let x = 2
        define c(n: number):
          if n > 0:
            return 1
          return true
        define d(n: number):
          say "hello"
          return 1
        setup:
          pass
        turn:
          if c(1) == 1:
            end game
        rank p by highest seat(p)
        """
    errors = sorted((e.span.line, e.message) for e in check_errors(tmp_path, body))
    assert errors == [
        (4, "not every path of 'a' returns a value"),
        (8, "nothing after 'return' runs"),
        (10, "'c' returns a number on one path and a true/false on another"),
        (14, "'d' decides a value: its block holds only 'let', 'if' and 'return'"),
    ]


def test_say_a_name(tmp_path: Path) -> None:
    engine = game(tmp_path, """\
        counter score per player = 0 "points"
        setup:
          tell("hello")
        turn:
          say score of current
          end game
        rule tell(t: text):
          say t
        rank p by highest score of p
        """)
    st = engine.new_state(2, narrate=True)
    assert _says(st) == ["hello", "0"]


def test_an_ask_inside_a_block_leaves_the_later_players_their_answers(tmp_path: Path) -> None:
    """P1's block asks again (which resets every answer); P2's block still runs with P2's own bid."""
    engine = game(tmp_path, """\
        counter bid per player = 0 "bid"
        setup:
          pass
        turn:
          ask p in players:
            "bid {n}" for n in 1 to 3:
              set bid of p to n
              say "{p} bids {n}"
              if p == P1:
                ask q in other players:
                  "agree"
          end game
        rank p by highest bid of p
        """)
    st = engine.new_state(2, narrate=True)
    st.log = []
    _answer_all(engine, st, {1: "bid 3", 0: "bid 2"})
    assert not st.over
    engine.apply(st, "agree", player=1)
    assert st.over
    assert _says(st) == ["P1 bids 2", "P2 bids 3"]
