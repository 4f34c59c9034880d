"""Tests for the hand-written Barnyard Roundup baseline (benchmarks/baseline_barnyard.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from baseline_support import play_paired

from benchmarks import baseline_barnyard as bb
from rulelang import load_game
from rulelang.rng import Rng

GAMES = Path(__file__).resolve().parents[3] / "games"

# (players, two_player) for every way the baseline can be played.
CONFIGS = [(2, True)] + [(n, False) for n in range(2, 7)]


def _table(seed: int, players: int, two_player: bool) -> dict[str, Any]:
    return bb.play_game(players, Rng(seed, 0), Rng(seed, 1), two_player)


def _by_the_book(pens: list[list[int]]) -> list[int]:
    """Final scores written out from the rulebook, independently of score_sheets."""
    values = {"cow": 5, "pig": 4, "sheep": 3, "goat": 2, "chicken": 1}
    bonus = {"cow": 5, "pig": 5, "sheep": 5, "goat": 5, "chicken": 5}  # "+10 for 2 Animal Bonus cards"
    names = list(values)
    scores = []
    for p, pen in enumerate(pens):
        counts = dict(zip(names, pen[:5]))
        score = sum(values[a] * counts[a] for a in names) - 5 * pen[5]
        for i, a in enumerate(names):
            rivals = [other[i] for q, other in enumerate(pens) if q != p]
            if all(counts[a] > r for r in rivals):
                score += bonus[a]
        score += 10 * min(counts.values())
        scores.append(score)
    return scores


@pytest.mark.parametrize(("players", "two_player"), CONFIGS)
def test_every_card_and_token_is_accounted_for(players: int, two_player: bool) -> None:
    removed = 20 if two_player else 8
    for seed in range(30):
        t = _table(seed, players, two_player)
        assert t["deck"] == []  # the game ends when the deck is empty
        assert t["hands"] == [[0] * 6 for _ in range(players)]  # Crows to the pens, the rest discarded
        for k in range(bb.KINDS):
            in_pens = sum(pen[k] for pen in t["pens"])
            assert in_pens + t["box"][k] == bb.CARDS_PER_KIND, bb.NAMES[k]
            assert in_pens >= 0 and t["box"][k] >= 0
        # At least the cards removed at setup are out of the game, and the last hands' animals.
        assert sum(t["box"]) >= removed
        # Tokens: one Robber (and one Excuse Me, unless two-player) per player, and the Scarecrow.
        held_robbers = sum(h[bb.ROBBER] for h in t["held"])
        held_excuses = sum(h[bb.EXCUSE_ME] for h in t["held"])
        assert held_robbers + t["pool"][bb.ROBBER] == players
        assert held_excuses + t["pool"][bb.EXCUSE_ME] == (0 if two_player else players)
        assert t["pool"][bb.SCARECROW] == 1  # it never stays in front of a player
        assert all(min(h) >= 0 for h in t["held"]) and min(t["pool"]) >= 0
        # Every multiple of 3 Crows ever reached was rewarded once: at most 15 Crows, 5 tokens.
        assert all(0 <= r <= 5 for r in t["rewarded"])
        assert t["turns"] >= 1


@pytest.mark.parametrize(("players", "two_player"), CONFIGS)
def test_scores_are_the_sheet_sums_and_the_winner_follows_the_tie_breakers(players: int, two_player: bool) -> None:
    for seed in range(30):
        t = _table(seed, players, two_player)
        pens = t["pens"]
        sheets = bb.score_sheets(pens)
        winner, turns, scores = bb.playout_scores(players, Rng(seed, 0), Rng(seed, 1), two_player)
        assert turns == t["turns"]
        assert scores == [sum(sheet.values()) for sheet in sheets] == _by_the_book(pens)
        for pen, sheet in zip(pens, sheets):
            assert list(sheet) == list(bb.SHEET_LINES)
            assert sheet["Cows"] == 5 * pen[bb.COW] and sheet["Chickens"] == pen[bb.CHICKEN]
            assert sheet["Crows"] == -5 * pen[bb.CROW]
            assert sheet["Set Bonus cards"] == 10 * min(pen[:5])
        # Each Animal Bonus card goes to one player at most.
        assert sum(s["Animal Bonus cards"] for s in sheets) <= sum(bb.ANIMAL_BONUS)
        best = max((scores[p], sum(pens[p][:5]), -pens[p][bb.CROW]) for p in range(players))
        assert (scores[winner], sum(pens[winner][:5]), -pens[winner][bb.CROW]) == best


def test_tommys_scoring_example_is_70() -> None:
    # Tommy: 5 Cows, 3 Pigs, 2 Sheep, 5 Goats, 7 Chickens, 4 Crows. Samantha ties him on
    # Cows (so nobody gets the Cow bonus) and leads Pigs and Sheep; he leads Goats and Chickens.
    tommy = [5, 3, 2, 5, 7, 4]
    samantha = [5, 4, 3, 1, 1, 0]
    other = [0, 1, 0, 2, 0, 3]
    sheets = bb.score_sheets([tommy, samantha, other])
    assert sheets[0] == {
        "Cows": 25, "Pigs": 12, "Sheep": 6, "Goats": 10, "Chickens": 7, "Crows": -20,
        "Animal Bonus cards": 10, "Set Bonus cards": 20,
    }
    assert sum(sheets[0].values()) == 70
    # Samantha: 25 + 16 + 9 + 2 + 1 + Pig 5 + Sheep 5 + one set 10 = 73.
    assert sum(sheets[1].values()) == 73
    assert sheets[1]["Animal Bonus cards"] == 10
    assert bb.rank([tommy, samantha, other]) == [1, 0, 2]
    # With the graded values (option equal_bonuses = false), Tommy's Goat 6 + Chicken 4 is still 10.
    graded = bb.score_sheets([tommy, samantha, other], bb.GRADED_BONUS)
    assert sum(graded[0].values()) == 70 and graded[1]["Animal Bonus cards"] == 15


def test_animal_bonus_goes_to_a_sole_leader_only() -> None:
    pens = [[3, 0, 1, 0, 0, 0], [3, 0, 2, 0, 0, 0], [0, 0, 0, 0, 1, 0]]
    bonuses = [s["Animal Bonus cards"] for s in bb.score_sheets(pens)]
    assert bonuses == [0, 5, 5]  # Cows tied: nobody; Sheep: seat 1; Chickens: seat 2; Pigs, Goats: nobody


def test_tie_breakers() -> None:
    # A third player takes every Animal Bonus the first two could have had.
    bonus_taker = [2, 0, 2, 2, 6, 0]
    # Equal points (5 each), more animals wins.
    one_cow = [1, 0, 0, 0, 0, 0]
    five_chickens = [0, 0, 0, 0, 5, 0]
    assert bb.rank([one_cow, five_chickens, bonus_taker]) == [2, 1, 0]
    # Equal points (3 each) and animals (2 each), fewer Crows wins.
    goat_chicken = [0, 0, 0, 1, 1, 0]
    cow_sheep_crow = [1, 0, 1, 0, 0, 1]
    scores = [sum(s.values()) for s in bb.score_sheets([goat_chicken, cow_sheep_crow, bonus_taker])]
    assert scores[:2] == [3, 3]
    assert bb.rank([goat_chicken, cow_sheep_crow, bonus_taker]) == [2, 0, 1]
    assert bb.rank([cow_sheep_crow, goat_chicken, bonus_taker]) == [2, 1, 0]
    # A full tie: both share the win, listed (and reported by playout) in seat order.
    same = [0, 0, 0, 0, 3, 1]
    assert bb.rank([same, list(same)]) == [0, 1]


def test_playout_is_deterministic_and_matches_playout_scores() -> None:
    for players, two_player in CONFIGS:
        for seed in range(10):
            a = bb.playout_scores(players, Rng(seed, 0), Rng(seed, 1), two_player)
            assert a == bb.playout_scores(players, Rng(seed, 0), Rng(seed, 1), two_player)
            assert bb.playout(players, Rng(seed, 0), Rng(seed, 1), two_player) == a[:2]
            assert _table(seed, players, two_player) == _table(seed, players, two_player)


def test_different_seeds_give_different_games() -> None:
    results = [bb.playout_scores(3, Rng(seed, 0), Rng(seed, 1)) for seed in range(60)]
    assert len({r[0] for r in results}) == 3  # every seat wins some game
    assert len({r[1] for r in results}) > 5
    assert len({tuple(r[2]) for r in results}) > 50
    # The agent stream alone changes the game too.
    assert len({tuple(bb.playout_scores(4, Rng(1, 0), Rng(s, 1))[2]) for s in range(20)}) > 15


def test_two_player_variant_differs_from_two_players_of_the_base_game() -> None:
    base = [_table(seed, 2, False) for seed in range(40)]
    variant = [_table(seed, 2, True) for seed in range(40)]
    assert all(sum(t["box"]) >= 20 for t in variant)
    # Fewer cards in play: the variant is shorter.
    assert sum(t["turns"] for t in variant) < sum(t["turns"] for t in base)


@pytest.mark.parametrize(("players", "two_player"), [(1, False), (7, False), (3, True), (4, True)])
def test_rejects_bad_player_counts(players: int, two_player: bool) -> None:
    with pytest.raises(ValueError):
        bb.playout(players, Rng(0), Rng(1), two_player)


@pytest.mark.parametrize(("rules", "players", "two_player"), [("barnyard", 4, False), ("barnyard-2p", 2, True)])
def test_baseline_plays_the_same_game_as_the_rules_file(rules: str, players: int, two_player: bool) -> None:
    """Both sides offer the same decisions: per game, as many, with as many options each."""
    engine = load_game(GAMES / f"{rules}.rules")
    games = 150
    dsl, base, pairs = play_paired(engine, players, games,
                                   lambda chance, agent: bb.play_game(players, chance, agent, two_player))
    dsl_turns = sum(st.turn for st, _ in pairs)
    base_turns = sum(t["turns"] for _, t in pairs)
    assert base_turns / games == pytest.approx(dsl_turns / games, rel=0.03)  # turns per game
    assert base[0] / games == pytest.approx(dsl[0] / games, rel=0.04)  # decisions per game
    assert base[1] / base[0] == pytest.approx(dsl[1] / dsl[0], rel=0.03)  # options per decision
    # Decisions between two options are exactly the guesses and the Excuse Me answers.
    assert base[3] / games == pytest.approx(dsl[3] / games, rel=0.03)
