"""Chicken! with the Eggspansion! (games/chicken-eggspansion.rules): scripted scenarios.

Each test's docstring quotes the sentence of shared/rulebooks/chicken.txt it checks.
Setup draws 5 dice from the Seed Bag: the scripts choose which kinds come out.
"""

from __future__ import annotations

import json

import pytest
from scripted import EGGSPANSION, Script

import rulelang
from rulelang import IllegalAction

WHITES = ["White#1", "White#2", "White#3", "White#4"]
START = ["Go For It!", "Chicken Out!"]
AFTER_ROLL = ["Reroll", "Count Your Chickens"]
NON_WHITE = ["Blue", "MotherHen"] + ["Orange"] * 4 + ["Yellow"] * 4

HATCH_YELLOW = "hatch Yellow die from the Coop"
HATCH_ORANGE = "hatch Orange die from the Coop"
HATCH_BLUE = "hatch Blue the Dog from the Coop"
HATCH_HEN = "hatch Mother Hen from the Coop"
HATCH_BAG = "hatch a random die from the Seed Bag"

DOG_AND_HEN = ("Blue", "MotherHen", "Yellow", "Orange", "Orange")


def game(coop: tuple[str, ...] = DOG_AND_HEN, players: int = 2) -> Script:
    """A game whose setup draws ``coop`` from the Seed Bag into the Coop; P1 starts."""
    s = Script(EGGSPANSION, players=players)
    s.draw(*coop)
    assert s.decision.kind == "choice" and s.decision.player == 0 and s.labels() == START
    return s


def pass_unrolled(s: Script, hatch: str) -> None:
    """P1 hatches one die with ``hatch`` and counts at once: P2 receives it unrolled."""
    s.choose("Go For It!", player=0)
    s.roll("Egg", "Blank", "Blank", "Blank")
    s.choose(hatch)
    s.choose("Count Your Chickens")
    assert s.current == 1 and s.score(0) == 0


def test_setup_draws_five_random_dice_into_the_coop() -> None:
    """"1. Place all non-White Dice into the Seed Bag. [...] Draw 5 random dice from the
    Seed Bag. Place those 5 dice in the Coop." / "Give the starting player the 4 White Dice
    as normal." """
    s = Script(EGGSPANSION, players=2)
    first = s.decision
    assert first.kind == "chance" and first.event == {"draw": "bag"}
    assert dict(zip(first.labels or [], first.weights or [])) == {"Yellow": 4, "Orange": 4, "Blue": 1, "MotherHen": 1}
    assert sorted(s.kinds("bag")) == sorted(NON_WHITE) and s.zone("coop") == []
    s.draw("Blue", "MotherHen", "Yellow", "Orange", "Orange")
    assert s.pending_kind() == "choice"  # exactly 5 draws
    assert s.kinds("coop") == ["Blue", "MotherHen", "Orange", "Orange", "Yellow"]
    assert s.kinds("bag") == ["Orange", "Orange", "Yellow", "Yellow", "Yellow"]
    # only the dice of the options not chosen stay in the box (see test_die_face_options_...)
    assert s.zone("box") == ["OrangeEgg#1", "OrangeEgg#2", "OrangeEgg#3", "OrangeEgg#4",
                             "BlueNoBlank", "MotherHenNoBlank"]
    assert s.zone("held", 0) == WHITES and s.zone("held", 1) == []
    assert all(f is None for f in {**s.shown("coop"), **s.shown("bag")}.values())


def test_the_seed_bag_is_hidden_in_observations() -> None:
    """"When drawing a random die, draw without looking inside the bag." """
    s = game()
    in_bag = s.zone("bag")
    assert len(in_bag) == 5
    for seat in (0, 1, None):
        obs = s.observe(seat)
        assert obs["zones"]["bag"] == {"hidden": 5}
        assert obs["zones"]["coop"] == s.zone("coop")  # the Coop is in plain view
        text = json.dumps(obs)
        assert not any(f'"{label}"' in text for label in in_bag)


def test_hatching_offers_each_die_type_in_the_coop_or_a_random_draw() -> None:
    """"Whenever you hatch a new die, choose one of the following: Take any 1 available
    die from the Coop. Draw 1 random die from the Seed Bag. Add the selected die to the
    dice in the middle. The newly hatched die is treated as blank until it is rolled." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Blank", "Blank")
    # Two Orange dice in the Coop, but one choice per die type.
    assert s.labels() == [HATCH_YELLOW, HATCH_ORANGE, HATCH_BLUE, HATCH_HEN, HATCH_BAG]
    s.choose(HATCH_BLUE, player=0)
    assert s.where("Blue") == "middle" and s.face("Blue") is None
    assert s.labels() == [HATCH_YELLOW, HATCH_ORANGE, HATCH_HEN, HATCH_BAG]  # no Blue left
    s.choose(HATCH_BAG)
    draw = s.decision
    assert draw.kind == "chance" and draw.event == {"draw": "bag"}
    assert dict(zip(draw.labels or [], draw.weights or [])) == {"Yellow": 3, "Orange": 2}
    s.draw("Orange")
    assert s.kinds("middle") == ["Blue", "Orange", "White", "White", "White", "White"]
    assert s.kinds("bag") == ["Orange", "Yellow", "Yellow", "Yellow"]
    # Hatching does not refill the Coop.
    assert s.kinds("coop") == ["MotherHen", "Orange", "Orange", "Yellow"]
    assert all(s.face(c) is None for c in s.zone("middle") if not c.startswith("White"))
    assert s.labels() == AFTER_ROLL


def test_an_egg_hatches_nothing_when_coop_and_bag_are_empty() -> None:
    """"If no dice are available in the Coop or Seed Bag: Do not add another die." """
    s = game(coop=("Yellow", "Yellow", "Yellow", "Yellow", "Orange"))
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Egg", "Egg")
    for _ in range(4):
        s.choose(HATCH_YELLOW)
    assert s.labels() == AFTER_ROLL
    s.choose("Reroll")
    s.roll(*["Egg"] * 8)  # 8 Eggs, 6 dice left: the Orange die and the 5 in the bag
    s.choose(HATCH_ORANGE)
    for kind in ("Orange", "Blue", "Orange", "MotherHen", "Orange"):
        assert s.labels() == [HATCH_BAG]
        s.choose(HATCH_BAG)
        s.draw(kind)
    # The last 2 Eggs hatch nothing: P2's turn begins with all 14 dice.
    assert s.zone("coop") == [] and s.zone("bag") == []
    assert s.current == 1 and s.labels() == START
    assert len(s.zone("held", 1)) == 14


def test_bark_cancels_a_fox() -> None:
    """"Bark! Blue comes to the rescue and scares away 1 Fox. [...] Place Blue the Dog to
    the left near your Fox area. Cancel 1 Fox for the current turn." / "You have 3 Foxes
    and 1 Bark. Bark cancels 1 Fox. You have only 2 uncanceled Foxes, so you do not bust." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Fox", "Fox", "Blank")
    s.choose(HATCH_BLUE)
    s.choose("Reroll")
    assert s.roll("Fox", "Chicken", "Bark") == ["White#1", "White#4", "Blue"]
    assert [s.face(c) for c in ("White#1", "White#2", "White#3", "Blue")] == ["Fox", "Fox", "Fox", "Bark"]
    # No bust: the Chicken scores and every die, Blue too, passes to P2.
    assert s.score(0) == 1
    assert s.kinds("held", 1) == ["Blue", "White", "White", "White", "White"]
    assert s.kinds("coop") == ["MotherHen", "Orange", "Orange", "Yellow"]


def test_three_foxes_without_a_bark_bust() -> None:
    """"Only uncanceled Foxes count when determining whether you bust." (no Bark: 3 Foxes bust)"""
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Fox", "Fox", "Blank")
    s.choose(HATCH_BLUE)
    s.choose("Reroll")
    s.roll("Fox", "Chicken", "HappyDog")
    # Bust: Blue goes back into the Seed Bag and the Coop is refilled (4 -> 5) from it.
    assert s.score(0) == 0
    assert s.pending_kind() == "draw"
    s.draw("Blue")
    assert s.kinds("coop") == ["Blue", "MotherHen", "Orange", "Orange", "Yellow"]
    assert s.zone("held", 1) == WHITES
    assert s.current == 1 and s.labels() == START


def test_one_bark_does_not_save_four_foxes() -> None:
    """"Bark cancels 1 Fox for the current turn." (4 Foxes - 1 = 3 uncanceled: bust)"""
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Fox", "Fox", "Blank")
    s.choose(HATCH_BLUE)
    s.choose("Reroll")
    s.roll("Fox", "Fox", "Bark")
    assert s.pending_kind() == "draw"  # busted: the Coop is being refilled
    s.draw("Yellow")
    assert s.zone("held", 1) == WHITES and s.current == 1


def test_bark_cancels_a_fox_rolled_after_it() -> None:
    """"Cancel 1 Fox for the current turn." (the Bark of the first roll still cancels a
    Fox of the reroll)"""
    s = game()
    pass_unrolled(s, HATCH_BLUE)
    s.choose("Go For It!", player=1)
    assert s.roll("Fox", "Fox", "Blank", "Blank", "Bark") == WHITES + ["Blue"]
    assert s.shown("left") == {"White#1": "Fox", "White#2": "Fox", "Blue": "Bark"}  # Blue goes left
    s.choose("Reroll")
    s.roll("Fox", "Chicken")
    assert s.score(1) == 1  # 3 Foxes, 1 Bark: no bust
    assert s.kinds("held", 0) == ["Blue", "White", "White", "White", "White"]


def test_happy_dog_scores_one_stays_in_the_middle_and_is_rerolled() -> None:
    """"Happy Dog is worth: 1 point when Counting Your Chickens. However, Happy Dog remains
    with the dice in the middle. If you choose to reroll: You must reroll the Happy Dog
    result with the rest of the dice in the middle." """
    s = game()
    pass_unrolled(s, HATCH_BLUE)
    assert s.zone("held", 1) == WHITES + ["Blue"] and s.face("Blue") is None
    s.choose("Go For It!", player=1)
    s.roll("Blank", "Blank", "Blank", "Blank", "HappyDog")
    assert s.where("Blue") == "middle" and s.face("Blue") == "HappyDog"
    assert s.labels() == AFTER_ROLL
    s.choose("Reroll")
    # The Happy Dog is rolled again with the rest of the middle ...
    assert s.roll("Blank", "Blank", "Chicken", "Blank", "HappyDog") == WHITES + ["Blue"]
    # ... and scores 1 (once) with the Chicken.
    assert s.scores() == [0, 2]


def test_happy_dog_scores_one_point_without_a_reroll() -> None:
    """"Happy Dog scores 1 point but must be rerolled if you choose to reroll." """
    s = game()
    pass_unrolled(s, HATCH_BLUE)
    s.choose("Go For It!", player=1)
    s.roll("Blank", "Blank", "Blank", "Blank", "HappyDog")
    s.choose("Count Your Chickens")
    assert s.scores() == [0, 1]
    assert "Blue" in s.zone("held", 0)


def test_chick_hatches_a_die_scores_one_stays_in_the_middle_and_is_rerolled() -> None:
    """"Chick acts as both: 1 Egg, 1 point when Counting Your Chickens. When Chick is
    rolled: 1. Hatch 1 new die into your dice pool. 2. Keep the Chick with the dice in the
    middle. Because Chick counts as an Egg, it must be rerolled if you choose to reroll." """
    s = game()
    pass_unrolled(s, HATCH_HEN)
    s.choose("Go For It!", player=1)
    s.roll("Blank", "Blank", "Blank", "Blank", "Chick")
    # The Chick hatches a die ...
    assert s.labels() == [HATCH_YELLOW, HATCH_ORANGE, HATCH_BLUE, HATCH_BAG]
    s.choose(HATCH_YELLOW, player=1)
    # ... and stays in the middle.
    assert s.where("MotherHen") == "middle" and s.face("MotherHen") == "Chick"
    assert s.kinds("middle") == ["MotherHen", "White", "White", "White", "White", "Yellow"]
    s.choose("Reroll")
    assert s.roll("Blank", "Blank", "Blank", "Blank", "Blank", "Chick") == WHITES + ["Yellow#1", "MotherHen"]
    s.choose(HATCH_ORANGE)  # the rerolled Chick hatches again
    assert s.scores() == [0, 1]
    assert s.kinds("held", 0) == ["MotherHen", "Orange", "White", "White", "White", "White", "Yellow"]


def test_mother_hen_double_chicken_is_worth_two_points() -> None:
    """"Mother Hen's Double Chicken is worth: 2 points when Counting Your Chickens. Treat
    it like the Double Chicken result on an Orange Die." """
    s = game()
    pass_unrolled(s, HATCH_HEN)
    s.choose("Go For It!", player=1)
    s.roll("Chicken", "Blank", "Blank", "Blank", "DoubleChicken")
    assert s.shown("right") == {"White#1": "Chicken", "MotherHen": "DoubleChicken"}
    s.choose("Reroll")
    assert s.roll("Blank", "Blank", "Blank") == ["White#2", "White#3", "White#4"]  # set aside: not rerolled
    assert s.scores() == [0, 3]


def test_a_bust_returns_non_white_dice_to_the_bag_and_refills_the_coop() -> None:
    """"When you bust: 1. Score 0 points. 2. Return all non-White Dice in your current dice
    pool to the Seed Bag. 3. Leave all dice already in the Coop where they are. 4. Draw
    random dice from the Seed Bag until the Coop contains 5 dice. 5. Pass the 4 White Dice
    to the next player clockwise." """
    s = game(coop=("Yellow", "Yellow", "Yellow", "Yellow", "Orange"))
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Fox", "Blank")
    s.choose(HATCH_YELLOW)
    s.choose(HATCH_YELLOW)
    stayed = s.zone("coop")
    hatched = [c for c in s.zone("middle") if c.startswith("Yellow")]
    assert len(stayed) == 3 and len(hatched) == 2
    s.choose("Reroll")
    s.roll("Fox", "Fox", "Blank", "Chicken", "Blank")
    assert s.score(0) == 0
    # The 2 Yellow dice went into the bag (7 dice now), unrolled; 2 draws refill the Coop.
    assert all(s.where(c) == "bag" and s.face(c) is None for c in hatched)
    d = s.decision
    assert d.event == {"draw": "bag"}
    assert dict(zip(d.labels or [], d.weights or [])) == {"Yellow": 2, "Orange": 3, "Blue": 1, "MotherHen": 1}
    s.draw("Blue", "MotherHen")
    assert all(c in s.zone("coop") for c in stayed)
    assert len(s.zone("coop")) == 5
    assert s.kinds("bag") == ["Orange", "Orange", "Orange", "Yellow", "Yellow"]
    assert s.zone("held", 1) == WHITES
    assert s.current == 1 and s.labels() == START


def test_chicken_out_returns_non_white_dice_to_the_bag_and_refills_the_coop() -> None:
    """"When you Chicken Out: 1. Lose 1 point unless you are still on the starting space.
    2. Return all non-White Dice in your current dice pool to the Seed Bag. 3. Leave all
    dice already in the Coop where they are. 4. Draw random dice from the Seed Bag until the
    Coop contains 5 dice. 5. Take the 4 White Dice and roll them." """
    s = game()
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Chicken", "Blank")
    s.choose(HATCH_BLUE)
    s.choose(HATCH_BAG)
    s.draw("Yellow")
    s.choose("Count Your Chickens")
    # P2 scores 2, then P1 (1 point) chickens out with Blue and a Yellow die passed back.
    s.choose("Go For It!", player=1)
    s.roll("Chicken", "Chicken", "Blank", "Blank", "Blank", "Blank")
    s.choose("Count Your Chickens")
    assert s.scores() == [1, 2]
    stayed = s.zone("coop")
    assert len(stayed) == 4 and s.kinds("held", 0) == ["Blue", "White", "White", "White", "White", "Yellow"]
    s.choose("Chicken Out!", player=0)
    assert "Blue" in s.zone("bag") and len(s.zone("bag")) == 6
    s.draw("Orange")  # one draw: 4 -> 5
    assert s.scores() == [0, 2]
    assert s.kinds("coop") == ["MotherHen", "Orange", "Orange", "Orange", "Yellow"]
    assert all(c in s.zone("coop") for c in stayed)
    assert s.roll("Blank", "Blank", "Blank", "Blank") == WHITES
    assert s.labels() == AFTER_ROLL


def test_chicken_out_with_nothing_to_return_draws_nothing() -> None:
    """"Draw random dice from the Seed Bag until the Coop contains 5 dice." (it already does)"""
    s = game()
    s.choose("Chicken Out!")
    assert s.pending_kind() == "roll"
    assert s.roll("Blank", "Blank", "Blank", "Blank") == WHITES
    assert len(s.zone("coop")) == 5 and len(s.zone("bag")) == 5 and s.score(0) == 0


def test_a_draw_can_only_bring_out_what_is_in_the_bag() -> None:
    """"The Seed Bag holds the non-White Dice that are not currently: In the Coop, In a
    player's dice pool." (once Blue is drawn, no second Blue can come out)"""
    s = Script(EGGSPANSION, players=2)
    s.draw("Blue")
    before = s.st.digest()
    for bad in ("Blue", "White", "Egg", "Go For It!"):
        with pytest.raises(IllegalAction):
            s.engine.apply(s.st, bad)
        assert s.st.digest() == before
    assert s.labels() == ["Yellow", "Orange", "MotherHen"]


def _faces(s: Script) -> dict[str, int]:
    """The faces of the die whose roll is pending, with how many sides show each."""
    d = s.decision
    assert d.kind == "chance" and "roll" in d.event
    return dict(zip(d.labels or [], d.weights or []))


@pytest.mark.parametrize("no_blank", [False, True])
def test_die_face_options_for_blue_the_dog_and_mother_hen(no_blank: bool) -> None:
    """"Blue the Dog has two special results: • Happy Dog • Bark! [...] Mother Hen has two special
    results: • Chick • Double Chicken" (Blue the Dog; Mother Hen; the faces are not given: ASSUMPTION
    Happy Dog 2, Bark! 2, Blank 2 and Chick 3, Double Chicken 2, Blank 1; options blue_no_blank and
    mother_hen_no_blank: 3 and 3, no Blank)"""
    flag = "true" if no_blank else "false"
    engine = rulelang.load_game(EGGSPANSION, options={"random_first_player": "false", "blue_no_blank": flag,
                                                      "mother_hen_no_blank": flag})
    blue, hen = ("BlueNoBlank", "MotherHenNoBlank") if no_blank else ("Blue", "MotherHen")
    s = Script(engine, players=2)
    assert dict(zip(s.decision.labels or [], s.decision.weights or [])) == {"Yellow": 4, "Orange": 4, blue: 1, hen: 1}
    s.draw(blue, hen, "Yellow", "Orange", "Orange")
    assert sorted(s.zone("box")) == sorted(["OrangeEgg#1", "OrangeEgg#2", "OrangeEgg#3", "OrangeEgg#4",
                                            "Blue" if no_blank else "BlueNoBlank",
                                            "MotherHen" if no_blank else "MotherHenNoBlank"])
    s.choose("Go For It!")
    s.roll("Egg", "Egg", "Blank", "Blank")
    s.choose(HATCH_BLUE)
    s.choose("hatch Mother Hen from the Coop")
    s.choose("Reroll")
    s.roll("Blank", "Blank", "Blank", "Blank")
    assert s.next_roll() == blue
    assert _faces(s) == ({"HappyDog": 3, "Bark": 3} if no_blank else {"HappyDog": 2, "Bark": 2, "Blank": 2})
    s.roll("HappyDog")
    assert s.next_roll() == hen
    assert _faces(s) == ({"Chick": 3, "DoubleChicken": 3} if no_blank
                         else {"Chick": 3, "DoubleChicken": 2, "Blank": 1})
