"""Chicken! (games/chicken.rules): one scripted scenario per rule of the rulebook.

Each test's docstring quotes the sentence of shared/rulebooks/chicken.txt it checks.
Dice are rolled in the order the middle holds them (White#1..4, then Yellow, then
Orange); a hatch takes the Coop's last die of the colour (Yellow#4 first).
"""

from __future__ import annotations

import pytest
from scripted import CHICKEN, Script

import rulelang
from rulelang import IllegalAction

WHITES = ["White#1", "White#2", "White#3", "White#4"]
START = ["Go For It!", "Chicken Out!"]
AFTER_ROLL = ["Reroll", "Count Your Chickens"]


def game(players: int = 2) -> Script:
    s = Script(CHICKEN, players=players)
    assert s.current == 0 and s.decision.player == 0
    return s


def test_setup_coop_and_white_dice_to_the_starting_player() -> None:
    """"Arrange the Yellow Dice and Orange Dice in rows inside the Coop." /
    "Give all 4 White Dice to the starting player." """
    s = game(3)
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"] * 4
    assert all(face is None for face in s.shown("coop").values())
    assert s.zone("held", 0) == WHITES
    assert s.zone("held", 1) == [] and s.zone("held", 2) == []
    assert s.scores() == [0, 0, 0]
    assert s.labels() == START


def test_go_for_it_rolls_all_the_dice_passed_to_you() -> None:
    """"Go For It! Take all the dice passed to you and roll them." """
    s = game()
    s.choose("Go For It!", player=0)
    assert s.roll("Egg", "Chicken", "Blank", "Blank") == WHITES
    assert s.zone("middle") == ["White#1", "White#3", "White#4", "Yellow#4"]
    s.choose("Count Your Chickens", player=0)
    passed = s.zone("held", 1)
    assert passed == WHITES + ["Yellow#4"]
    # P2 is offered both starts and goes for it: every die passed to P2 is rolled, once.
    assert s.current == 1 and s.labels() == START
    s.choose("Go For It!", player=1)
    assert s.zone("held", 1) == []
    assert s.roll("Blank", "Blank", "Blank", "Blank", "Chicken") == passed
    assert s.decision.kind == "choice" and s.decision.player == 1
    assert s.face("Yellow#4") == "Chicken" and s.zone("right") == ["Yellow#4"]


def test_chicken_out_returns_yellow_and_orange_dice_and_costs_one_point() -> None:
    """"Chicken Out! 1. Return all Yellow and Orange Dice passed to you to the Coop.
    2. Lose 1 point. 3. Take the 4 White Dice and roll them." """
    s = game()
    # P1 scores 1 and hatches a Yellow die.
    s.choose("Go For It!")
    s.roll("Egg", "Chicken", "Blank", "Blank")
    s.choose("Count Your Chickens")
    # P2 scores 2 and hatches a second Yellow die.
    s.choose("Go For It!")
    s.roll("Chicken", "Egg", "Blank", "Blank", "Chicken")
    s.choose("Count Your Chickens")
    assert s.scores() == [1, 2]
    assert s.kinds("held", 0) == ["White"] * 4 + ["Yellow"] * 2
    # P1 (1 point) chickens out.
    s.choose("Chicken Out!", player=0)
    assert s.score(0) == 0
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"] * 4
    assert all(face is None for face in s.shown("coop").values())
    assert s.zone("held", 0) == []
    # ... and rolls exactly the 4 White dice.
    assert s.roll("Blank", "Blank", "Blank", "Blank") == WHITES
    assert s.labels() == AFTER_ROLL


def test_chicken_out_on_the_starting_space_costs_nothing() -> None:
    """"Important: If you Chicken Out while your Player Token is still on the starting
    space, you do not lose 1 point." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Chicken", "Blank", "Blank")
    s.choose("Count Your Chickens")
    assert s.scores() == [1, 0] and s.kinds("held", 1) == ["White"] * 4 + ["Yellow"]
    s.choose("Chicken Out!", player=1)
    assert s.scores() == [1, 0]
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"] * 4
    assert s.roll("Blank", "Blank", "Blank", "Blank") == WHITES


def test_three_foxes_at_once_bust() -> None:
    """"If you ever have 3 or more Foxes showing across all your dice, you immediately bust."
    / "You Busted! 1. Your turn ends immediately. 2. Score 0 points. 3. Return all Yellow
    and Orange Dice to the Coop. 4. Pass only the 4 White Dice to the next player clockwise." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Fox", "Chicken")  # hatches Yellow#4, Yellow#3
    assert s.kinds("middle") == ["White", "White", "Yellow", "Yellow"]
    s.choose("Reroll")
    # The reroll shows 2 more Foxes (3 across all dice) and 3 Chickens and an Egg.
    assert s.roll("Fox", "Fox", "Chicken", "Chicken") == ["White#1", "White#2", "Yellow#3", "Yellow#4"]
    assert s.score(0) == 0  # 4 Chickens showing, but a bust scores nothing
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"] * 4
    assert s.zone("middle") == s.zone("right") == s.zone("left") == []
    assert s.zone("held", 1) == WHITES and s.zone("held", 0) == []
    assert s.current == 1 and s.decision.player == 1 and s.labels() == START


def test_a_bust_hatches_nothing_and_offers_no_reroll() -> None:
    """"If you did not bust, hatch additional dice for each Egg you rolled." """
    s = game()
    s.choose("Go For It!")
    s.roll("Fox", "Fox", "Fox", "Egg")
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"] * 4
    assert s.zone("held", 1) == WHITES
    assert s.current == 1 and s.labels() == START


def test_two_foxes_do_not_bust() -> None:
    """"If your turn ends with fewer than 3 Foxes, score your Chickens." """
    s = game()
    s.choose("Go For It!")
    s.roll("Fox", "Fox", "Chicken", "Blank")
    s.choose("Reroll")
    s.roll("Chicken")
    assert s.score(0) == 2
    assert s.zone("held", 1) == WHITES


def test_hatch_yellow_dice_before_orange_dice() -> None:
    """"When adding dice: 1. Add Yellow Dice first. 2. Add Orange Dice only when no
    Yellow Dice remain in the Coop." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Chicken")
    assert s.kinds("middle") == ["White"] * 3 + ["Yellow"] * 3
    assert s.kinds("coop") == ["Orange"] * 4 + ["Yellow"]
    s.choose("Reroll")
    # Three Eggs: the last Yellow die, then two Orange dice.
    s.roll("Egg", "Egg", "Blank", "Egg", "Blank", "Blank")
    assert s.kinds("coop") == ["Orange", "Orange"]
    assert s.kinds("held", 1) == ["Orange"] * 2 + ["White"] * 4 + ["Yellow"] * 4


def test_an_egg_hatches_nothing_when_the_coop_is_empty() -> None:
    """"If no dice remain in the Coop: Do not add a die for that Egg." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Egg")
    s.choose("Reroll")
    # 8 Eggs, but only the 4 Orange dice are left to hatch.
    s.roll(*["Egg"] * 8)
    assert s.zone("coop") == []
    assert s.kinds("held", 1) == ["Orange"] * 4 + ["White"] * 4 + ["Yellow"] * 4
    assert s.score(0) == 0
    # All 12 dice go round: P2 rolls 12 dice, Eggs again hatch nothing.
    s.choose("Go For It!")
    assert len(s.roll(*["Egg"] * 8, *["Blank"] * 4)) == 12
    assert s.zone("coop") == [] and len(s.zone("middle")) == 12
    assert s.labels() == AFTER_ROLL


def test_newly_hatched_dice_are_blank_until_rolled() -> None:
    """"Newly added dice are treated as Blank Dice until they are rolled." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Fox", "Blank", "Blank")  # hatches Yellow#4
    assert s.shown("middle") == {"White#1": "Egg", "White#3": "Blank", "White#4": "Blank", "Yellow#4": None}
    assert "Yellow#4" in s.observe(0)["zones"]["middle"]  # shown without a face
    s.choose("Reroll")
    s.roll("Fox", "Fox", "Blank", "Chicken")  # bust: Yellow#4 (a Chicken) goes back to the Coop
    assert s.where("Yellow#4") == "coop" and s.face("Yellow#4") is None
    # P2 hatches the same die again: it shows nothing and scores nothing.
    s.choose("Go For It!")
    s.roll("Egg", "Chicken", "Blank", "Blank")
    assert s.where("Yellow#4") == "middle" and s.face("Yellow#4") is None
    s.choose("Count Your Chickens")
    assert s.scores() == [0, 1]
    assert s.face("Yellow#4") is None and "Yellow#4" in s.zone("held", 0)


def test_reroll_rolls_every_die_in_the_middle_exactly_once_per_turn() -> None:
    """"You must reroll all dice remaining in the middle. This includes: Blank Dice, Dice
    showing Eggs, Newly hatched dice. You receive only 1 reroll per turn." / "You do not
    roll newly hatched dice after your reroll because you only receive one reroll per turn." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Blank", "Chicken", "Fox")  # hatches Yellow#4
    middle = s.zone("middle")
    assert middle == ["White#1", "White#2", "Yellow#4"]
    assert s.labels() == AFTER_ROLL
    s.choose("Reroll")
    # Egg, Blank and the newly hatched die are rerolled -- and nothing else.
    assert s.roll("Egg", "Blank", "Blank") == middle
    # The new Egg hatches Yellow#3, which is not rolled: no second reroll is offered,
    # the Chickens are counted and P2's turn begins.
    assert s.score(0) == 1
    assert s.current == 1 and s.labels() == START
    assert s.face("Yellow#3") is None and "Yellow#3" in s.zone("held", 1)


def test_reroll_is_not_offered_with_an_empty_middle() -> None:
    """"Reroll: You must reroll all dice remaining in the middle." (none remain: nothing to reroll)"""
    s = game()
    s.choose("Go For It!")
    s.roll("Chicken", "Chicken", "Fox", "Fox")
    assert s.zone("middle") == []
    assert s.labels() == ["Count Your Chickens"]
    with pytest.raises(IllegalAction):
        s.engine.apply(s.st, "Reroll")


def test_chickens_and_foxes_set_aside_are_not_rerolled() -> None:
    """"Chickens and Foxes that have been set aside are not rerolled." / "Place all
    Chickens you rolled to the right. Place all Foxes you rolled to the left." """
    s = game()
    s.choose("Go For It!")
    s.roll("Chicken", "Fox", "Egg", "Blank")
    assert s.shown("right") == {"White#1": "Chicken"}
    assert s.shown("left") == {"White#2": "Fox"}
    assert s.zone("middle") == ["White#3", "White#4", "Yellow#4"]
    s.choose("Reroll")
    assert s.roll("Chicken", "Fox", "Blank") == ["White#3", "White#4", "Yellow#4"]
    assert s.decision.player == 1  # the turn is over: no die was rolled twice
    # Both Chickens scored; both set-aside dice kept their faces.
    assert s.score(0) == 2
    assert s.face("White#1") == "Chicken" and s.face("White#2") == "Fox"


def test_a_double_chicken_is_worth_two_points() -> None:
    """"Each regular Chicken is worth 1 point. Each Double Chicken on an Orange Die is
    worth 2 points." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Egg")  # 4 Yellow dice
    s.choose("Reroll")
    s.roll("Egg", "Blank", "Blank", "Blank", "Blank", "Blank", "Blank", "Blank")  # Orange#4
    assert s.where("Orange#4") == "held of P2" and s.score(0) == 0
    s.choose("Go For It!")
    rolled = s.roll("Blank", "Blank", "Blank", "Blank", "Chicken", "Blank", "Blank", "Blank", "DoubleChicken")
    assert rolled[4] == "Yellow#1" and rolled[-1] == "Orange#4"
    assert s.shown("right") == {"Yellow#1": "Chicken", "Orange#4": "DoubleChicken"}
    s.choose("Count Your Chickens")
    assert s.scores() == [0, 3]


def test_after_counting_all_dice_pass_to_the_next_player() -> None:
    """"Move your Player Token forward 1 space for each point scored. Then pass all your
    dice to the next player clockwise. It is now that player's turn." """
    s = game(players=3)
    s.choose("Go For It!")
    s.roll("Chicken", "Fox", "Egg", "Blank")  # one die right, one left, two + Yellow#4 middle
    s.choose("Count Your Chickens")
    assert s.score(0) == 1
    assert s.zone("held", 1) == WHITES + ["Yellow#4"]
    assert s.zone("held", 0) == s.zone("held", 2) == []
    assert s.zone("middle") == s.zone("right") == s.zone("left") == []
    assert s.current == 1 and s.decision.player == 1
    s.choose("Go For It!")
    s.roll("Chicken", "Chicken", "Blank", "Blank", "Blank")
    s.choose("Count Your Chickens")
    assert s.current == 2 and s.kinds("held", 2) == ["White"] * 4 + ["Yellow"]
    s.choose("Go For It!")
    s.roll("Fox", "Fox", "Fox", "Blank", "Blank")  # P3 busts: the Whites wrap round to P1
    assert s.current == 0 and s.zone("held", 0) == WHITES
    assert s.scores() == [1, 2, 0]
    assert s.st.turn == 4


def test_reaching_25_points_ends_the_game_at_once_and_that_player_wins() -> None:
    """"When a player ends their turn with 25 or more points, the game ends immediately.
    That player wins." """
    s = game(players=3)
    for _ in range(6):
        s.choose("Go For It!", player=0)
        s.roll("Chicken", "Chicken", "Chicken", "Chicken")
        s.choose("Count Your Chickens")
        for seat in (1, 2):
            s.choose("Go For It!", player=seat)
            s.roll("Fox", "Fox", "Fox", "Blank")
    assert s.scores() == [24, 0, 0] and not s.over
    s.choose("Go For It!", player=0)
    s.roll("Chicken", "Blank", "Blank", "Blank")
    s.choose("Count Your Chickens")
    assert s.over
    assert s.engine.pending(s.st) is None
    assert s.result is not None and s.result["winners"] == ["P1"]
    assert s.result["standings"][0] == {"player": "P1", "rank": 1, "keys": [25]}
    assert s.scores() == [25, 0, 0]
    with pytest.raises(IllegalAction):
        s.engine.apply(s.st, "Go For It!")


def test_24_points_and_a_bust_does_not_end_the_game() -> None:
    """"The first player to reach 25 points wins the game." (24 is not enough)"""
    s = game(players=2)
    for _ in range(6):
        s.choose("Go For It!", player=0)
        s.roll("Chicken", "Chicken", "Chicken", "Chicken")
        s.choose("Count Your Chickens")
        s.choose("Go For It!", player=1)
        s.roll("Fox", "Fox", "Fox", "Blank")
    s.choose("Go For It!", player=0)
    s.roll("Fox", "Fox", "Fox", "Chicken")
    assert not s.over and s.scores() == [24, 0]
    assert s.current == 1 and s.labels() == START


def test_illegal_actions_are_refused_and_change_nothing() -> None:
    """"At the beginning of your turn, choose one of the following: Go For It! / Chicken
    Out!" (and a die only shows its own faces: "4 Orange Dice (1 chicken, 1 double
    chicken, 2 foxes, 1 blank)")"""
    s = game()
    before = s.st.digest()
    for bad in ("Reroll", "Count Your Chickens", "go for it!", "Egg"):
        with pytest.raises(IllegalAction):
            s.engine.apply(s.st, bad)
        assert s.st.digest() == before and s.labels() == START
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Egg")
    s.choose("Reroll")
    s.roll("Egg", "Egg", "Egg", "Egg", "Egg", "Egg", "Egg", "Blank")  # 7 Eggs: 4 Orange dice
    s.choose("Go For It!")
    s.roll(*["Blank"] * 8)
    assert s.next_roll() == "Orange#1"
    before = s.st.digest()
    for bad in ("Egg", "Go For It!", "Double Chicken", "Yellow"):
        with pytest.raises(IllegalAction):
            s.engine.apply(s.st, bad)
        assert s.st.digest() == before and s.next_roll() == "Orange#1"
    assert s.labels() == ["Chicken", "DoubleChicken", "Fox", "Blank"]


@pytest.mark.parametrize("orange_egg", [False, True])
def test_orange_die_sixth_face_option(orange_egg: bool) -> None:
    """"4 Orange Dice (1 chicken, 1 double chicken, 2 foxes, 1 blank)" (Components: five faces of six;
    ASSUMPTION: the sixth is a second Blank; option orange_egg: an Egg, the one face the list does not count)"""
    engine = rulelang.load_game(CHICKEN, options={"random_first_player": "false",
                                                  "orange_egg": "true" if orange_egg else "false"})
    orange = "OrangeEgg" if orange_egg else "Orange"
    s = Script(engine, players=2)
    assert s.kinds("coop") == [orange] * 4 + ["Yellow"] * 4
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Egg")  # hatches the 4 Yellow dice
    s.choose("Reroll")
    s.roll("Egg", "Egg", "Egg", "Egg", "Egg", "Egg", "Egg", "Blank")  # hatches the 4 Orange dice
    s.choose("Go For It!")
    s.roll(*["Blank"] * 8)
    assert s.next_roll() == f"{orange}#1"
    d = s.decision
    faces = dict(zip(d.labels or [], d.weights or []))
    want = {"Chicken": 1, "DoubleChicken": 1, "Fox": 2, "Blank": 1}
    want["Egg" if orange_egg else "Blank"] = want.get("Egg" if orange_egg else "Blank", 0) + 1
    assert faces == want
    if orange_egg:
        s.roll("Egg")  # an Egg on an Orange die hatches like any Egg: the Coop is empty, so nothing
        assert s.next_roll() == "OrangeEgg#2"
    else:
        with pytest.raises(IllegalAction):
            s.engine.apply(s.st, "Egg")
