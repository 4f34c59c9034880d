"""Tests of the hand-written Hippe Kippen baseline (benchmarks/baseline_hippe_kippen.py)
against the rulebook's words (Dutch, the authority), as read by docs/rulebooks/hippe-kippen.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from baseline_support import Script

from benchmarks import baseline_hippe_kippen as hk
from benchmarks.baseline_hippe_kippen import BOOSTER, DOUBLER, DRAW, FOX, JOKER, LAY, START, TAKE
from rulelang.rng import Rng

RED, ORANGE, YELLOW, GREEN, BLUE = range(5)


def ids(kind: int) -> list[int]:
    return [c for c in range(hk.CARDS) if hk.KIND[c] == kind]


def coll(colour: int = -1, length: int = 0, jokers: int = 0, doubled: bool = False) -> dict[str, Any]:
    """A collection: a chest, ``length`` face-up cards of which ``jokers`` are jokers, maybe a doubler."""
    up = ids(colour)[: length - jokers] + ids(JOKER)[:jokers] if length else []
    if doubled:
        up = up + ids(DOUBLER)[:1]
    return {"chest": ids(9)[-1], "up": up, "colour": colour, "doubled": doubled}


def table(players: int = 3) -> dict[str, Any]:
    """A fresh table with empty hands and no collections; P1 to play."""
    t = hk.new_table(players, Rng(0))
    t["hands"] = [[] for _ in range(players)]
    t["current"] = 0
    return t


def points(sheets: list[dict[str, int]]) -> list[int]:
    return [sum(sheet.values()) for sheet in sheets]


def check_places(t: dict[str, Any]) -> None:
    """Every card in one place (a Rooster Booster only in the pile or set aside); points within the budget."""
    places = t["pile"] + t["display"] + t["aside"] + t["removed"]
    for p in range(t["players"]):
        places += t["hands"][p]
        for c in t["colls"][p]:
            places.append(c["chest"])
            places += c["up"]
    assert sorted(places) == list(range(hk.CARDS))
    assert sorted(t["aside"] + [c for c in t["pile"] if hk.KIND[c] == BOOSTER]) == ids(BOOSTER)
    assert 0 <= t["ap"] <= hk.ACTION_POINTS  # never overspent
    assert not t["spent"] or t["spent"][-1] == hk.ACTION_POINTS  # a finished turn spent all 3


def check_table(t: dict[str, Any]) -> None:
    """``check_places``, and the display, the collections and the fox within the rules."""
    check_places(t)
    assert all(spent == hk.ACTION_POINTS for spent in t["spent"])
    assert len(t["display"]) == hk.DISPLAY or t["over"]
    for p in range(t["players"]):
        colours = [c["colour"] for c in t["colls"][p] if c["colour"] >= 0]
        assert len(colours) == len(set(colours))  # at most one collection per colour
        for c in t["colls"][p]:
            kinds = [hk.KIND[x] for x in c["up"]]
            if kinds:
                assert kinds[0] == c["colour"] < JOKER  # the first face-up card is a colour card
                assert all(k in (c["colour"], JOKER) for k in kinds[1:-1])
                assert kinds[-1] in (c["colour"], JOKER, DOUBLER)
            assert c["doubled"] == (DOUBLER in kinds)  # a doubler is the last card
    if t["fox"] is not None:
        owner, i = t["fox"]
        assert i < len(t["colls"][owner])


# --- Components and setup ("start").

def test_the_cards() -> None:
    counts = Counter(hk.KIND)
    assert len(hk.KIND) == 110
    assert all(counts[c] == 9 for c in range(10))
    assert counts[JOKER] == counts[DOUBLER] == 5 and counts[BOOSTER] == 10


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup(players: int) -> None:
    t = hk.new_table(players, Rng(players))
    for hand in t["hands"]:  # 4 cards from the pile and one doubler
        assert len(hand) == 5 and [hk.KIND[c] for c in hand].count(DOUBLER) == 1
        assert BOOSTER not in [hk.KIND[c] for c in hand]
    assert len(t["removed"]) == 5 - players and all(hk.KIND[c] == DOUBLER for c in t["removed"])
    assert len(t["display"]) == 3 and all(hk.KIND[c] < DOUBLER for c in t["display"])
    assert len(t["pile"]) == 95 - 4 * players - 3 + 10
    assert sum(hk.KIND[c] == BOOSTER for c in t["pile"]) == 10
    assert t["fox"] is None and t["aside"] == [] and t["scores"] == [0] * players
    check_table(t)


def test_the_first_player_is_random() -> None:
    assert {hk.new_table(4, Rng(seed)).get("current") for seed in range(40)} == {0, 1, 2, 3}


# --- The actions and their costs ("Elke specifieke actie kost een aantal actiepunten").

def test_three_points_spent_as_a_draw_and_a_display_take() -> None:
    t = table(3)
    t["hands"][0] = ids(RED)[:1]
    t["display"] = [ids(BLUE)[0], ids(GREEN)[0], ids(BLUE)[1]]
    t["pile"] = [ids(YELLOW)[0], ids(YELLOW)[1], ids(ORANGE)[0]]
    # 3 points: draw (option 0 of: draw, take Green, take Blue, start Red) ...
    # 1 point left: take Green (option 0 of: take Green, take Blue, start Red, start Orange);
    # no fox yet, so no fox options and no free move; the gap is refilled at once.
    agent = Script(0, 0)
    hk.play_turn(t, agent)
    assert agent.asked == [4, 4]
    assert sorted(hk.KIND[c] for c in t["hands"][0]) == sorted([RED, GREEN, ORANGE])
    assert t["display"] == [ids(BLUE)[0], ids(YELLOW)[1], ids(BLUE)[1]]
    assert t["spent"] == [3] and t["current"] == 1


def test_three_points_spent_as_three_display_takes() -> None:
    t = table(2)
    t["display"] = [ids(BLUE)[0], ids(GREEN)[0], ids(RED)[0]]
    t["pile"] = [ids(YELLOW)[0], ids(YELLOW)[1], ids(ORANGE)[0]]
    options = []
    original = hk.actions

    def spy(t: dict[str, Any], p: int) -> list[tuple[int, int, int]]:
        result = original(t, p)
        options.append((t["ap"], result))
        return result

    hk.actions = spy  # type: ignore[assignment]
    try:
        # With 3 points: draw, take Red, take Green, take Blue: take Red (1), and so on.
        hk.play_turn(t, Script(1, 1, 1))
    finally:
        hk.actions = original  # type: ignore[assignment]
    assert [ap for ap, _ in options] == [3, 2, 1]
    assert (DRAW, 0, 0) in options[1][1] and (DRAW, 0, 0) not in options[2][1]  # a draw costs 2
    assert len(t["hands"][0]) == 3 and t["pile"] == []


def test_starting_a_collection_shows_a_card_and_lays_it_face_down() -> None:
    t = table(3)
    t["hands"][0] = [ids(JOKER)[0], ids(RED)[0]]
    t["ap"] = 3
    assert [a for a in hk.actions(t, 0) if a[0] == START] == [(START, RED, 0), (START, JOKER, 0)]  # any card
    hk.do_action(t, 0, (START, JOKER, 0), True, "first_face_up", True)
    assert t["colls"][0] == [{"chest": ids(JOKER)[0], "up": [], "colour": -1, "doubled": False}]


def test_extending_a_collection() -> None:
    t = table(3)
    t["colls"][0] = [coll(), coll(BLUE, 2)]
    t["collected"][0] = {BLUE}
    t["hands"][0] = [ids(RED)[0], ids(BLUE)[5], ids(JOKER)[0], ids(DOUBLER)[0]]
    t["colls"][1] = [coll()]
    t["ap"] = 1
    lays = [a for a in hk.actions(t, 0) if a[0] == LAY]
    # The chest takes a colour card first ("De eerste open kaart moet altijd een verzamelkaart zijn"),
    # not Blue (she has a Blue collection already); the Blue row takes Blue, a joker or the doubler;
    # never another player's collection.
    assert lays == [(LAY, RED, 0), (LAY, BLUE, 1), (LAY, JOKER, 1), (LAY, DOUBLER, 1)]
    hk.do_action(t, 0, (LAY, JOKER, 1), True, "first_face_up", True)
    assert hk.row_length(t["colls"][0][1]) == 3  # a joker counts
    hk.do_action(t, 0, (LAY, DOUBLER, 1), True, "first_face_up", True)
    assert hk.row_length(t["colls"][0][1]) == 3  # the doubler does not count ...
    assert [a for a in hk.actions(t, 0) if a[0] == LAY] == [(LAY, RED, 0)]  # ... and is the last card
    hk.do_action(t, 0, (LAY, RED, 0), True, "first_face_up", True)
    assert t["colls"][0][0]["colour"] == RED and t["collected"][0] == {BLUE, RED}
    # "de kleur van de gedekte kaart niet overeen hoeft te komen": a White chest, a Red row.
    assert hk.KIND[t["colls"][0][0]["chest"]] != RED


def test_the_fox_enters_with_the_last_player_to_lay_a_first_face_up_card() -> None:
    t = table(3)
    t["colls"] = [[coll(RED, 1)], [coll()], [coll(), coll(BLUE, 2)]]
    t["opened"] = {0, 2}
    t["hands"][1] = [ids(GREEN)[0]]
    hk.do_action(t, 1, (START, GREEN, 0), True, "first_face_up", True)
    assert t["fox"] is None
    t["hands"][1] = [ids(GREEN)[1]]
    hk.do_action(t, 1, (LAY, GREEN, 0), True, "first_face_up", True)
    assert t["fox"] == (1, 0)  # "plaatst de vos bij die verzameling"


def test_option_the_fox_enters_with_the_last_first_chest() -> None:
    t = table(2)
    t["hands"] = [[ids(RED)[0]], [ids(BLUE)[0]]]
    hk.do_action(t, 0, (START, RED, 0), True, "first_chest", True)
    assert t["fox"] is None
    hk.do_action(t, 1, (START, BLUE, 0), True, "first_chest", True)
    assert t["fox"] == (1, 0)


def test_moving_the_fox_costs_1_to_your_own_and_2_to_your_left_neighbours() -> None:
    t = table(3)
    t["colls"] = [[coll(RED, 1), coll(BLUE, 1)], [coll(RED, 2), coll()], [coll(GREEN, 1)]]
    t["fox"] = (0, 0)
    t["ap"] = 2
    foxes = [a for a in hk.actions(t, 0) if a[0] == FOX]
    assert foxes == [(FOX, 0, 1), (FOX, 1, 0), (FOX, 1, 1)]  # not where it is; P2 is P1's left neighbour
    assert [hk.cost(0, a) for a in foxes] == [1, 2, 2]
    t["ap"] = 1
    assert [a for a in hk.actions(t, 0) if a[0] == FOX] == [(FOX, 0, 1)]
    t["fox"] = None
    assert [a for a in hk.actions(t, 0) if a[0] == FOX] == []  # beside the pile: nothing to move


def test_the_free_fox_move_at_the_end_of_the_turn() -> None:
    t = table(3)
    t["colls"] = [[coll(RED, 1)], [coll(RED, 2), coll()], []]
    t["fox"] = (0, 0)
    agent = Script(1)  # move the fox to P2's second collection (of: first, second, leave it)
    hk.free_fox_move(t, 0, agent)
    assert agent.asked == [3] and t["fox"] == (1, 1)
    agent = Script(1)  # leave it (of: P2's first collection, leave it)
    hk.free_fox_move(t, 0, agent)
    assert agent.asked == [2] and t["fox"] == (1, 1)
    agent = Script()
    hk.free_fox_move(t, 1, agent)  # P3, P2's neighbour, has no collection: nothing is asked
    assert agent.asked == [] and t["fox"] == (1, 1)


# --- Rooster Booster cards: "Bij de vierde, zevende en tiende ... onmiddellijk onderbroken".

def test_the_4th_booster_drawn_mid_draw_scores_at_once_then_the_draw_goes_on() -> None:
    t = table(2)
    t["aside"] = ids(BOOSTER)[:3]
    t["colls"][0] = [coll(RED, 2)]
    t["hands"][0] = [ids(BLUE)[0]]
    t["pile"] = [ids(GREEN)[0], ids(BOOSTER)[3]]
    hk.do_action(t, 0, (DRAW, 0, 0), True, "first_face_up", True)
    assert len(t["sheets"]) == 1 and t["sheets"][0][0] == {"Red": 4}  # no hand penalty before the last
    assert t["scores"] == [4, 0] and not t["over"]
    assert t["hands"][0] == [ids(BLUE)[0], ids(GREEN)[0]]  # the draw finishes after the scoring


def test_option_a_draw_that_turns_up_a_booster_gives_no_card() -> None:
    t = table(2)
    t["pile"] = [ids(GREEN)[0], ids(BOOSTER)[0]]
    hk.do_action(t, 0, (DRAW, 0, 0), False, "first_face_up", True)
    assert t["hands"][0] == [] and t["aside"] == [ids(BOOSTER)[0]]


def test_a_refill_that_turns_up_the_7th_booster_scores_then_fills_the_gap() -> None:
    t = table(2)
    t["aside"] = ids(BOOSTER)[:6]
    t["sheets"] = [[{}, {}]]
    t["display"] = [ids(RED)[0], ids(BLUE)[0], ids(GREEN)[0]]
    t["colls"][1] = [coll(YELLOW, 1, doubled=True)]
    t["pile"] = [ids(ORANGE)[0], ids(BOOSTER)[6]]
    hk.do_action(t, 0, (TAKE, BLUE, 0), True, "first_face_up", True)
    assert t["sheets"][1] == [{}, {"Yellow": 8}] and t["scores"] == [0, 8]
    assert t["display"] == [ids(RED)[0], ids(ORANGE)[0], ids(GREEN)[0]]


def test_the_10th_booster_is_the_last_scoring_and_ends_the_game_at_once() -> None:
    t = table(2)
    t["aside"] = ids(BOOSTER)[:9]
    t["sheets"] = [[{}, {}], [{}, {}]]
    t["hands"] = [[ids(RED)[0], ids(DOUBLER)[0]], []]
    t["colls"][0] = [coll(), coll(BLUE, 1)]
    t["fox"] = (0, 0)  # a chest under the fox still costs 2
    t["pile"] = [ids(GREEN)[0], ids(BOOSTER)[9]]
    t["current"] = 0
    hk.play_turn(t, Script(0))  # draw
    assert t["over"] and t["spent"] == [] and t["current"] == 0
    assert t["sheets"][2][0] == {"Blue": 4, "Cards in hand": -2, "Face-down cards alone": -2}
    assert t["hands"][0] == [ids(RED)[0], ids(DOUBLER)[0]]  # no replacement card: the game is over
    assert t["scores"] == [0, 0]


# --- The scoring.

def test_place_points() -> None:
    assert hk.place_points([7]) == [4]  # "De lengte van de rij speelt hierbij geen rol."
    assert hk.place_points([1]) == [4]
    assert hk.place_points([3, 5, 1]) == [1, 3, 0]
    assert hk.place_points([4, 4]) == [2, 2]  # tied rows share 3 + 1
    assert hk.place_points([4, 4, 4, 1]) == [1, 1, 1, 0]
    assert hk.place_points([2, 2, 2, 2, 2]) == [0] * 5
    assert hk.place_points([5, 2, 2]) == [3, 0, 0]  # tied second share 1 + 0
    assert hk.place_points([4, 4, 1], tie_share=False) == [3, 3, 1]
    assert hk.place_points([5, 2, 2], tie_share=False) == [3, 1, 1]


def test_a_scoring_with_a_monopoly_a_majority_a_second_place_and_a_tie() -> None:
    colls = [
        [coll(RED, 2, doubled=True), coll(BLUE, 4, jokers=1), coll(GREEN, 3)],
        [coll(BLUE, 2), coll(GREEN, 3, doubled=True), coll(YELLOW, 5)],
        [coll(BLUE, 1), coll(YELLOW, 2), coll()],
    ]
    sheets = hk.score_sheets(colls, None, [[], [], []], final=False)
    assert sheets == [
        {"Red": 8, "Blue": 3, "Green": 2},  # Red: a monopoly, doubled; Blue: longest (a joker counts); Green: tie
        {"Blue": 1, "Green": 4, "Yellow": 3},  # Blue: second; Green: the tie's 2, doubled; Yellow: longest
        {"Blue": 0, "Yellow": 1},
    ]
    # The fox on P2's Yellow row: "Deze rij kan als niet bestaand worden beschouwd": P3's is a monopoly.
    fox = hk.score_sheets(colls, (1, 2), [[], [], []], final=False)
    assert fox[1] == {"Blue": 1, "Green": 4} and fox[2] == {"Blue": 0, "Yellow": 4}


def test_the_last_scorings_penalties() -> None:
    colls = [[coll(), coll(), coll(RED, 1)], [coll(RED, 1)]]
    hands = [[ids(BLUE)[0], ids(DOUBLER)[0], ids(JOKER)[0]], []]
    assert hk.score_sheets(colls, None, hands, final=True) == [
        {"Red": 2, "Cards in hand": -3, "Face-down cards alone": -4},
        {"Red": 2, "Cards in hand": 0, "Face-down cards alone": 0},
    ]
    assert points(hk.score_sheets(colls, None, hands, final=False)) == [2, 2]


# --- Whole games.

# Seeded games per player count (random games are long: 230 turns at 2 players, 115 at 5).
GAMES = {2: 20, 3: 40, 4: 60, 5: 80}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_seeded_games_end_after_three_scorings_with_every_card_in_one_place(players: int) -> None:
    for seed in range(2):
        t = hk.play_game(players, Rng(seed, 0), Rng(seed, 1), on_step=check_places)
        assert t["over"] and len(t["aside"]) == 10 and len(t["sheets"]) == 3
    for seed in range(2, GAMES[players]):
        t = hk.play_game(players, Rng(seed, 0), Rng(seed, 1))
        check_table(t)
        assert t["over"] and len(t["aside"]) == 10 and len(t["sheets"]) == 3
        assert t["scores"] == [sum(sum(sheets[p].values()) for sheets in t["sheets"]) for p in range(players)]
        assert len(t["spent"]) in (t["turns"] - 1, t["turns"])


def test_options_and_seeds() -> None:
    a = [hk.playout_scores(5, Rng(s, 0), Rng(s, 1)) for s in range(5)]
    assert a == [hk.playout_scores(5, Rng(s, 0), Rng(s, 1)) for s in range(5)]
    assert len({tuple(r[2]) for r in a}) == 5
    for kwargs in ({"booster_replaced": False}, {"fox_enters": "first_chest"}, {"tie_share": False}):
        b = [hk.playout_scores(5, Rng(s, 0), Rng(s, 1), **kwargs) for s in range(5)]
        assert b != a
        check_table(hk.play_game(5, Rng(0, 0), Rng(0, 1), on_step=check_places, **kwargs))
    with pytest.raises(ValueError):
        hk.play_game(4, Rng(0), Rng(1), fox_enters="never")


@pytest.mark.parametrize("players", [1, 6])
def test_rejects_bad_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        hk.playout(players, Rng(0), Rng(1))
