"""Tests for the hand-written Chicken! baseline (benchmarks/baseline_chicken.py)."""

from __future__ import annotations

import pytest

from benchmarks import baseline_chicken as bc
from rulelang.rng import Rng


def _game(seed: int, players: int, eggspansion: bool):
    return bc.playout_scores(players, Rng(seed, 1), Rng(seed, 2), eggspansion)


@pytest.mark.parametrize("eggspansion", [False, True])
@pytest.mark.parametrize("players", range(2, 9))
def test_games_end_with_exactly_one_winner_at_25(players: int, eggspansion: bool) -> None:
    for seed in range(40):
        winner, turns, scores = _game(seed, players, eggspansion)
        assert len(scores) == players
        assert 0 <= winner < players
        assert scores[winner] >= bc.WINNING_SCORE
        assert all(s < bc.WINNING_SCORE for i, s in enumerate(scores) if i != winner)
        assert all(s >= 0 for s in scores)
        # One turn scores each die at most once: at most 16 (base) / 19 (Eggspansion) < 25,
        # so the winner needs a second turn, after every other player has had one.
        assert turns > players


@pytest.mark.parametrize("eggspansion", [False, True])
def test_playout_is_deterministic_and_matches_playout_scores(eggspansion: bool) -> None:
    for seed in range(20):
        a = _game(seed, 4, eggspansion)
        b = _game(seed, 4, eggspansion)
        assert a == b
        assert bc.playout(4, Rng(seed, 1), Rng(seed, 2), eggspansion) == a[:2]


@pytest.mark.parametrize("eggspansion", [False, True])
def test_different_seeds_give_different_games(eggspansion: bool) -> None:
    results = [_game(seed, 3, eggspansion) for seed in range(60)]
    assert len({r[0] for r in results}) == 3  # every seat wins some game
    assert len({r[1] for r in results}) > 10


def test_variants_differ() -> None:
    base = [_game(seed, 4, False) for seed in range(30)]
    egg = [_game(seed, 4, True) for seed in range(30)]
    assert base != egg


@pytest.mark.parametrize("players", [0, 1, 9])
def test_rejects_bad_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        bc.playout(players, Rng(0), Rng(1))


def test_roll_classifies_faces() -> None:
    chance = Rng(7)
    totals = {"fox_white": 0, "right_white": 0}
    for _ in range(3000):
        aside, middle, points, middle_points, foxes, eggs = bc._roll([bc.WHITE] * 4, chance)
        assert len(aside) + len(middle) == 4
        # White dice: set aside = chickens (1 pt) + foxes; middle = eggs + blanks.
        assert points + foxes == len(aside)
        assert middle_points == 0
        assert eggs <= len(middle)
        totals["fox_white"] += foxes
        totals["right_white"] += points
    # 1/6 fox and 2/6 chicken per White die over 12000 dice.
    assert 1800 < totals["fox_white"] < 2200
    assert 3700 < totals["right_white"] < 4300


def test_roll_blue_and_hen() -> None:
    chance = Rng(11)
    for _ in range(500):
        aside, middle, points, middle_points, foxes, eggs = bc._roll([bc.BLUE], chance)
        # Bark goes left and cancels a fox; Happy Dog stays in the middle worth 1.
        assert (aside, foxes) in (([bc.BLUE], -1), ([], 0))
        assert points == 0 and eggs == 0
        assert middle_points <= len(middle)
        aside, middle, points, middle_points, foxes, eggs = bc._roll([bc.HEN], chance)
        # Double Chicken goes right for 2; Chick stays in the middle: 1 point and 1 egg.
        assert foxes == 0
        if aside:
            assert points == 2 and not middle
        else:
            assert middle == [bc.HEN] and middle_points == eggs
    orange = [bc.ORANGE] * 6000
    _, _, points, _, foxes, _ = bc._roll(orange, Rng(3))
    assert 2700 < points < 3300  # (1 + 2) / 6 points per Orange die
    assert 1800 < foxes < 2200  # 2/6 foxes per Orange die


def test_base_hatching_takes_yellow_then_orange_then_nothing() -> None:
    coop = [0, 1, 1, 0, 0]
    bag = [0, 0, 0, 0, 0]
    middle: list[int] = []
    bc._hatch(3, middle, coop, bag, False, Rng(0), Rng(1))
    assert middle == [bc.YELLOW, bc.ORANGE]
    assert coop == [0, 0, 0, 0, 0]


def test_eggspansion_hatching_and_refill() -> None:
    coop = [0, 0, 0, 0, 0]
    bag = [0, 4, 4, 1, 1]
    bc._refill(coop, bag, Rng(5))
    assert sum(coop) == bc.COOP_SIZE and sum(bag) == 5
    assert all(n >= 0 for n in coop + bag)
    middle: list[int] = []
    bc._hatch(10, middle, coop, bag, True, Rng(6), Rng(7))
    # Ten eggs but only ten non-White dice exist: every one ends up hatched.
    assert sorted(middle) == [1] * 4 + [2] * 4 + [3, 4]
    assert sum(coop) == 0 and sum(bag) == 0
    bc._hatch(2, middle, coop, bag, True, Rng(6), Rng(7))
    assert len(middle) == 10
    # Refilling from an almost empty bag stops when the bag runs out.
    coop, bag = [0, 0, 0, 0, 0], [0, 0, 1, 1, 0]
    bc._refill(coop, bag, Rng(8))
    assert coop == [0, 0, 1, 1, 0] and bag == [0, 0, 0, 0, 0]
