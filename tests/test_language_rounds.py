"""Rounds, elimination, sided components, chance picks and per-value answers (issue 8's constructs).

Each construct is tested on a small game written here: what it does, what the trace
records, what replay rejects, and the checker's errors for its misuse.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from language_support import check_errors, game

from rulelang.agents.base import RandomAgent
from rulelang.engine.engine import IllegalAction
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.narrate import Narrator
from rulelang.play import play

HEAD3 = 'game "t"\nplayers 2 to 4 default 3\n'

# A race for two prizes, then a coin spun: the shape of a round of Rooster Rush, in a few lines.
RACE = """\
attribute up = false
face Heads: up true
face Tails
1 Coin token "the coin": sides (Heads 1/4, Tails 3/4)
1 Gold card "the gold"
1 Silver card "the silver"
zone table "the table"
zone spun "spun": unrolled
zone won "won": per player
counter score per player = 0 "points"
counter rounds_played = 0
setup:
  move all from box to table
round:
  rounds_played += 1
  ask p in players still in:
    "grab {k}" for k in kinds(all in table where Gold or Silver)
    "wait"
  for k in kinds(all in table where Gold or Silver):
    pick w at random from q in players still in if answer of q == "grab {k}"
    if w != nobody:
      say "{w} takes {k}"
      move k from table to won of w
  move Coin from table to spun
  spin all in spun
  for p in players still in:
    score of p += count(all in won of p)
    move all from won of p to table
  move all from spun to table
  turn all Coin in table to Heads
  if rounds_played == 1:
    drop out P3
  if rounds_played == 3:
    end game
rank p by highest score of p
"""


def _race(tmp_path: Path):  # type: ignore[no-untyped-def]
    return game(tmp_path, RACE, head=HEAD3)


def _answer_all(engine, st, answers: dict[int, str]) -> None:  # type: ignore[no-untyped-def]
    for p, a in answers.items():
        engine.apply(st, a, player=p)


# ------------------------------------------------------------------ rounds


def test_a_round_game_narrates_rounds_and_has_no_current_player(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3, narrate=True)
    assert {"type": "round", "round": 1} in (st.log or [])
    assert Narrator().lines([{"type": "round", "round": 1}]) == ["Round 1"]
    obs = engine.observe(st, 0)
    assert obs["current"] is None and obs["round"] == 1
    d = engine.pending(st)
    assert d is not None and d.players == [0, 1, 2]  # the whole table answers at once


@pytest.mark.parametrize("stmt, word", [
    ("say \"{current}\"", "'current'"),
    ("say \"{next player}\"", "'next player'"),
    ("for p in other players:\n    pass", "'other players'"),
    ("end turn", "'end turn'"),
    ("another turn", "'another turn'"),
    ("give turn to P1", "'give turn to'"),
    ("choose:\n    \"a\":\n      pass", "'choose:' without a player"),
])
def test_what_needs_a_current_player_is_an_error_in_a_round_game(tmp_path: Path, stmt: str, word: str) -> None:
    errors = check_errors(tmp_path, f"zone z\nsetup:\n  pass\nround:\n  {stmt}\n  end game\nrank p by highest 0\n")
    assert errors[0].message == f"{word} has no meaning in a game played in rounds"
    assert errors[0].span is not None and errors[0].span.line == 7
    assert "for p in players" in (errors[0].hint or "")


def test_sides_on_a_face_are_an_error_not_a_crash(tmp_path: Path) -> None:
    # found by the grammar fuzz: 'face x: sides (x)' reached the checker as an attribute value
    errors = check_errors(tmp_path, "face Up\nface Down: sides (Up 1, Down 1)\nzone z\nsetup:\n  pass\n"
                                    "turn:\n  end game\nrank p by highest 0\n")
    sides = [e for e in errors if "sides (...)" in e.message]
    assert sides and sides[0].message.endswith("but this is face Down")
    assert "1 Coin token: sides" in (sides[0].hint or "")


def test_a_game_has_turns_or_rounds_not_both(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "setup:\n  pass\nturn:\n  end game\nround:\n  end game\nrank p by highest 0\n")
    assert errors[0].message.startswith("a game is played in turns or in rounds, not both")


def test_end_round_leaves_the_round_and_is_an_error_in_a_turn_game(tmp_path: Path) -> None:
    body = ("counter n = 0\nsetup:\n  pass\nround:\n  n += 1\n  if n < 3:\n    end round\n  say \"round {n}\"\n"
            "  end game\nrank p by highest 0\n")
    engine = game(tmp_path, body)
    st = engine.new_state(2, narrate=True)
    assert st.over and [e["text"] for e in st.log or [] if e["type"] == "say"] == ["round 3"]
    errors = check_errors(tmp_path, "setup:\n  pass\nturn:\n  end round\nrank p by highest 0\n")
    assert errors[0].message.startswith("'end round' is for a game played in rounds")


# ------------------------------------------------------------------ elimination


def test_a_player_who_dropped_out_is_not_asked_and_is_skipped_by_players_still_in(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3, narrate=True)
    _answer_all(engine, st, {0: "wait", 1: "wait", 2: "wait"})
    engine.apply(st, "Tails")  # the coin
    assert st.out == [0, 0, 1]
    assert {"type": "out", "player": "P3"} in (st.log or [])
    d = engine.pending(st)
    assert d is not None and d.players == [0, 1]
    assert engine.observe(st, 0)["out"] == ["P3"]
    with pytest.raises(IllegalAction, match="P3 is out of the game"):
        engine.apply(st, "wait", player=2)
    reason, _span = engine.explain(st, "wait", 2)
    assert reason.startswith("P3 is out of the game (since round 1)")


def test_out_is_kept_in_the_state_only_once_someone_dropped_out(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3)
    assert "out" not in st.to_json()  # states of games without drop-outs are unchanged
    _answer_all(engine, st, {0: "wait", 1: "wait", 2: "wait"})
    engine.apply(st, "Heads")
    assert st.to_json()["out"] == [0, 0, 1]
    again = State.from_json(st.to_json())
    assert again.out == [0, 0, 1] and again.digest() == st.digest()
    copied = st.copy()
    copied.out[0] = 2
    assert st.out == [0, 0, 1]


def test_choose_by_a_player_who_is_out_stops_the_game_at_the_choose(tmp_path: Path) -> None:
    body = ("setup:\n  pass\nturn:\n  drop out P2\n  choose P2:\n    \"a\":\n      end game\n"
            "rank p by highest 0\n")
    engine = game(tmp_path, body)
    with pytest.raises(RulelangError, match="P2 is out of the game and takes no decisions") as exc:
        engine.new_state(2)
    assert exc.value.span is not None and exc.value.span.line == 7


def test_dropping_out_twice_is_an_error(tmp_path: Path) -> None:
    engine = game(tmp_path, "setup:\n  pass\nturn:\n  drop out P2\n  drop out P2\n  end game\nrank p by highest 0\n")
    with pytest.raises(RulelangError, match="P2 is already out of the game") as exc:
        engine.new_state(2)
    assert exc.value.span is not None and exc.value.span.line == 7


def test_turns_skip_players_who_are_out_and_end_when_nobody_is_left(tmp_path: Path) -> None:
    body = ("counter n = 0\nsetup:\n  pass\nturn:\n  n += 1\n  say \"{current}\"\n  if current == P2:\n"
            "    drop out P2\n  if n == 5:\n    drop out P1\n    drop out P3\n  if n > 20:\n    end game\n"
            "rank p by highest 0\n")
    engine = game(tmp_path, body, head=HEAD3)
    st = engine.new_state(3, narrate=True)
    said = [e["text"] for e in st.log or [] if e["type"] == "say"]
    assert said == ["P1", "P2", "P3", "P1", "P3"]  # P2 is skipped once out; with nobody left the game ends
    assert st.over


def test_drop_out_is_an_error_in_setup_and_is_out_cannot_be_watched(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "setup:\n  drop out P1\nturn:\n  end game\nrank p by highest 0\n")
    assert errors[0].message == "'drop out' has no meaning during setup"
    errors = check_errors(tmp_path, "counter n = 0\nsetup:\n  pass\nturn:\n  end game\n"
                                    "when P1 is out and n > 0:\n  pass\nrank p by highest 0\n")
    assert errors[0].message.startswith("a trigger's condition cannot watch who is out")


# ------------------------------------------------------------------ sides, spin, turn to


def test_a_spin_lands_on_each_side_with_its_declared_chance(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3, narrate=True)
    _answer_all(engine, st, {0: "wait", 1: "wait", 2: "wait"})
    d = engine.pending(st)
    assert d is not None and d.kind == "chance" and d.event == {"roll": "Coin"}
    assert dict(zip(d.labels or [], d.probabilities())) == {"Heads": Fraction(1, 4), "Tails": Fraction(3, 4)}
    engine.apply(st, "Tails")
    rolls = [e for e in st.log or [] if e["type"] == "roll"]
    assert rolls[0]["verb"] == "spin" and rolls[0]["face"] == "Tails"
    narrator = Narrator()
    assert narrator.lines(rolls) == [] and narrator.flush() == ["  spins: Coin Tails"]
    coin = engine.program.component_labels.index("Coin")
    assert st.faces[coin] == engine.model.faces[0].index  # turned back to Heads, without chance
    assert any(e["type"] == "turned" and e["face"] == "Heads" for e in st.log or [])


@pytest.mark.parametrize("decl, message", [
    ('1 C token: sides (A 1/2, B 1/3)', "the sides' chances add up to 5/6, not 1"),
    ('1 C token: sides (A 1, Q 1)', "unknown side 'Q'"),
    ('1 C token: sides (A 1)', "'C' needs at least two sides"),
    ('1 C token: sides (A 1, A 2)', "side 'A' is listed twice"),
    ('1 C token: sides (A 0, B 1)', "side 'A' has weight 0"),
    ('1 C die: sides (A 1, B 1)', "die 'C' lists its faces after ':'"),
])
def test_bad_sides_are_errors(tmp_path: Path, decl: str, message: str) -> None:
    errors = check_errors(tmp_path, f"face A\nface B\n{decl}\nsetup:\n  pass\nturn:\n  end game\nrank p by highest 0\n")
    assert any(e.message.startswith(message) for e in errors), [e.message for e in errors]


def test_spinning_a_component_without_sides_and_turning_to_a_side_it_lacks_are_errors(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "face A\nface B\n1 C token\nzone z\nsetup:\n  pass\nturn:\n  spin all C in z\n"
                                    "  end game\nrank p by highest 0\n")
    assert errors[0].message == "cannot spin 'C': it is a token, not a die"
    assert "sides (" in (errors[0].hint or "")
    errors = check_errors(tmp_path, "face A\nface B\nface X\n1 C token: sides (A 1, B 1)\nzone z\nsetup:\n  pass\n"
                                    "turn:\n  turn all C in z to X\n  end game\nrank p by highest 0\n")
    assert errors[0].message == "'C' has no side 'X'" and errors[0].hint == "'C' shows A, B"


def test_turning_a_component_without_that_side_stops_at_the_statement(tmp_path: Path) -> None:
    engine = game(tmp_path, "face A\nface B\n1 C token: sides (A 1, B 1)\n1 D token\nzone z\nsetup:\n"
                            "  move all from box to z\nturn:\n  turn all in z to A\n  end game\nrank p by highest 0\n")
    with pytest.raises(RulelangError, match="D has no side 'A' to turn to") as exc:
        engine.new_state(2)
    assert exc.value.span is not None and exc.value.span.line == 11


# ------------------------------------------------------------------ pick ... at random


def test_a_contested_claim_is_a_chance_event_among_the_claimants_only(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3, narrate=True)
    _answer_all(engine, st, {0: "grab the gold", 1: "grab the silver", 2: "grab the gold"})
    d = engine.pending(st)
    assert d is not None and d.kind == "chance"
    assert d.event == {"pick": "w", "among": ["P1", "P3"]} and d.probabilities() == [Fraction(1, 2)] * 2
    with pytest.raises(IllegalAction):
        engine.apply(st, "P2")  # never claimed the gold
    reason, _span = engine.explain(st, "P2")
    assert reason == "'P2' is not among the players this picks from (P1, P3)"
    engine.apply(st, "P3")
    said = [e["text"] for e in st.log or [] if e["type"] == "say"]
    assert said == ["P3 takes the gold", "P2 takes the silver"]  # an uncontested claim needs no chance
    assert {"type": "pick", "player": "P3", "among": ["P1", "P3"]} in (st.log or [])


def test_a_played_game_records_picks_and_replays(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    picks = 0
    for seed in range(30):
        events: list[dict] = []
        st = engine.new_state(3)
        play(engine, st, [RandomAgent(seed, i) for i in range(3)], seed=seed,
             on_event=lambda e, _n, events=events: events.append(e))
        assert st.over
        again = engine.new_state(3)  # replayed event by event, the same game
        for e in events:
            if e["type"] == "action":
                engine.apply(again, e["action"], player=int(e["player"][1:]) - 1)
            elif e["type"] == "chance":
                if "pick" in e:
                    picks += 1
                    assert e["outcome"] in e["among"] and len(e["among"]) >= 2
                    assert engine.pending(again).event == {"pick": "w", "among": e["among"]}  # type: ignore[union-attr]
                engine.apply(again, e["outcome"])
        assert again.over and again.digest() == st.digest()
    assert picks > 0


def test_pick_errors(tmp_path: Path) -> None:
    errors = check_errors(tmp_path, "setup:\n  pass\nturn:\n  pick w at random from q in players if 1 > 0\n"
                                    "  end game\nrank p by highest 0\n")
    assert errors[0].message.startswith("the condition does not test 'q'")
    errors = check_errors(tmp_path, "setup:\n  pass\nturn:\n  pick w at random from q in 1 to 3\n"
                                    "  end game\nrank p by highest 0\n")
    assert errors[0].message.startswith("'pick ... at random from' picks a player")


# ------------------------------------------------------------------ ask with answers per value


def test_answers_per_value_follow_the_values_and_must_read_apart(tmp_path: Path) -> None:
    engine = _race(tmp_path)
    st = engine.new_state(3)
    assert engine.legal_actions(st, 1) == ["grab the gold", "grab the silver", "wait"]
    errors = check_errors(tmp_path, "zone z\nsetup:\n  pass\nturn:\n  ask p in players:\n    \"x\" for n in 1 to 2\n"
                                    "  end game\nrank p by highest 0\n")
    assert errors[0].message == "answer 'x' ranges over values its label does not show"
    dup = game(tmp_path, "setup:\n  pass\nturn:\n  ask p in players:\n    \"x {n / 3}\" for n in 1 to 2\n"
                         "  end game\nrank p by highest 0\n")
    with pytest.raises(RulelangError, match="two answers are both labelled 'x 0'"):
        dup.new_state(2)


# ------------------------------------------------------------------ end game with no winner


def test_a_game_can_end_with_no_winner(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rulelang.cli import main
    from rulelang.narrate import standings_lines

    body = "counter score per player = 0 \"points\"\nsetup:\n  pass\nturn:\n  score of P2 += 1\n" \
           "  end game with no winner\n"
    engine = game(tmp_path, body)
    st = engine.new_state(2)
    assert st.over and st.result is not None and st.result["winners"] == []
    assert [r["player"] for r in st.result["standings"]] == ["P2", "P1"]  # ranked all the same
    assert standings_lines(st.result, ["score"])[-1] == "No winner"
    trace = tmp_path / "t.jsonl"
    run = CliRunner().invoke(main, ["run", str(tmp_path / "t.rules"), "--seed", "1", "--trace", str(trace)])
    assert run.exit_code == 0 and "\nNo winner\n" in run.output, run.output
    replayed = CliRunner().invoke(main, ["replay", str(trace)])
    assert replayed.exit_code == 0 and "result: no winner" in replayed.output, replayed.output


@pytest.mark.parametrize("line", ["spin += 1", "drop", "drop(2)"])
def test_a_rule_or_counter_named_like_a_new_statement_gets_the_mechanical_change(tmp_path: Path, line: str) -> None:
    """'spin' and 'drop' start statements now: a file that called a rule or changed a counter so named is told what
    to rename, not only that a token was unexpected."""
    errors = check_errors(tmp_path, f"counter spin = 0\nsetup:\n  pass\nturn:\n  {line}\n  end game\n"
                                    "rank p by highest 0\n")
    word = line.split()[0].split("(")[0]
    assert errors[0].message.startswith(f"'{word}' starts a statement")
    assert "rename it" in (errors[0].hint or "") and errors[0].span is not None and errors[0].span.line == 7


def test_other_players_still_in_skips_those_out(tmp_path: Path) -> None:
    body = ("counter n = 0\nsetup:\n  pass\nturn:\n  n += 1\n  if n == 1:\n    drop out P2\n"
            "  for q in other players still in:\n    say \"{current} sees {q}\"\n  if n == 2:\n    end game\n"
            "rank p by highest 0\n")
    engine = game(tmp_path, body, head=HEAD3)
    st = engine.new_state(3, narrate=True)
    said = [e["text"] for e in st.log or [] if e["type"] == "say"]
    assert said == ["P1 sees P3", "P3 sees P1"]  # P2 is out: no turn, not among the others
    errors = check_errors(tmp_path, "setup:\n  pass\nround:\n  for q in other players still in:\n    pass\n"
                                    "  end game\nrank p by highest 0\n")
    assert errors[0].message == "'other players' has no meaning in a game played in rounds"


def test_players_with_one_number_is_exactly_that_many(tmp_path: Path) -> None:
    """Issue 26: ``players 2`` says a game is for exactly two (as ``players 2 to 2``)."""
    path = tmp_path / "two.rules"
    path.write_text('game "Exactly two"\nplayers 2\n\ncounter score per player = 0 "points"\n\nsetup:\n  pass\n\n'
                    'turn:\n  score of current += 1\n\nwhen score of current >= 3 "three points":\n  end game\n\n'
                    'rank p by highest score of p\n')
    engine = load_game(str(path))
    assert (engine.model.min_players, engine.model.max_players, engine.model.default_players) == (2, 2, 2)
    with pytest.raises(RulelangError, match="takes 2 players, not 3"):
        engine.new_state(3)
