"""rulelang.testing.Script, the public helper to script a game from Python (docs/testing.md, issue 26 item 8).

Each step checks that what it gives is what the game waits for; a script that drifts fails there with a
ScriptError (an AssertionError) that says what is pending instead.
"""

from __future__ import annotations

import pytest

from rulelang.testing import Script, ScriptError

pytestmark = pytest.mark.usefixtures("at_root")

CHICKEN = "games/chicken.rules"
WHIST = "examples/new-games/whist.rules"


def test_the_first_player_is_a_chance_outcome_given_by_name() -> None:
    s = Script(CHICKEN, players=3)  # random_first_player is on by default
    assert s.pending() == "first player" and s.legal() == ["P1", "P2", "P3"]
    with pytest.raises(ScriptError, match="pending is a first player"):
        s.choose("Go For It!")
    s.first_player("P2")
    assert s.current == "P2" and s.pending() == "choice"
    assert s.legal() == ["Go For It!", "Chicken Out!"]


def test_a_step_the_game_does_not_allow_says_what_it_does() -> None:
    s = Script(CHICKEN, players=2, options={"random_first_player": "false"})
    with pytest.raises(ScriptError, match=r"'Reroll' is not offered to P1; offered: \['Go For It!', 'Chicken Out!'\]"):
        s.choose("Reroll")
    with pytest.raises(ScriptError, match="expected P2 to choose"):
        s.choose("Go For It!", by="P2")
    with pytest.raises(ScriptError, match="pending is a choice of P1"):
        s.roll("Egg")
    s.choose("Go For It!", by="P1")
    with pytest.raises(ScriptError, match="White#1 has no face 'Six'"):
        s.roll("Six")
    assert s.roll("Egg", "Egg") == ["White#1", "White#2"]
    assert s.face("White#1") == "Egg" and s.face("White#3") is None
    assert isinstance(ScriptError("x"), AssertionError)  # pytest shows it as a failed assertion


def test_a_shuffle_is_given_bottom_to_top_and_the_table_read_by_name() -> None:
    s = Script(WHIST)
    assert s.pending() == "shuffle"
    order = s.legal()
    with pytest.raises(ScriptError, match="orders exactly"):
        s.shuffle(order[1:])
    s.shuffle(order)  # as listed: the deal takes the top (the last) first
    assert [s.count(f"hand of P{p}") for p in range(1, 5)] == [8, 8, 8, 8]
    assert s.where("Spade7") == "hand of P4" and s.counter("dealer") == "P4"  # a player counter reads as a player
    assert s.counter("trump") == "Spades" and s.current == "P1"  # a text counter reads as its text
    assert s.counter("tricks") == {"P1": 0, "P2": 0, "P3": 0, "P4": 0}
    assert s.counter("tricks", "P3") == 0


def test_names_the_game_does_not_have_are_errors_that_list_the_right_ones() -> None:
    s = Script(CHICKEN, players=2, options={"random_first_player": "false"})
    with pytest.raises(ScriptError, match="no zone 'hand'; the zones are box, coop"):
        s.zone("hand")
    with pytest.raises(ScriptError, match="a zone of each player: say whose"):
        s.zone("held")
    with pytest.raises(ScriptError, match="no counter 'points'"):
        s.counter("points")
    with pytest.raises(ScriptError, match="no player 'P3'"):
        s.zone("held of P3")


def test_a_game_played_to_its_end() -> None:
    position = {"current": "P1", "zones": {"hand of P1": ["Spade7"], "hand of P2": ["Spade9"],
                                           "hand of P3": ["Heart8"], "hand of P4": ["Spade8"]},
                "counters": {"trump": "Clubs", "dealer": "P4"}}
    s = Script(WHIST, options={"hands": "1"}, position=position)
    s.play("play 7 of Spades", "play 9 of Spades", "play 8 of Hearts", "play 8 of Spades")
    assert s.over and s.winners == ["P2"]
    with pytest.raises(ScriptError, match="the game is over"):
        s.choose("play 7 of Spades")
