"""Tests for the hand-written Rule the Roost baseline (benchmarks/baseline_roost.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from baseline_support import CountingAgent, CountingRng

from benchmarks import baseline_roost as br
from rulelang import load_game
from rulelang.play import play
from rulelang.rng import Rng

RULES = Path(__file__).resolve().parents[3] / "games" / "rule-the-roost.rules"

# The rules file's kind names, as the baseline's kind indices.
ENGINE_KINDS = {
    "RedRooster": br.RED, "BlueRooster": br.BLUE, "GreenRooster": br.GREEN, "YellowRooster": br.YELLOW,
    "Chicken": br.CHICKEN, "Fox": br.FOX, "Egg": br.EGG, "Pitchfork": br.PITCHFORK, "Key": br.KEY,
    "Padlock": br.PADLOCK,
}


def _table(seed: int, players: int) -> dict[str, Any]:
    return br.play_game(players, Rng(seed, 0), Rng(seed, 1))


def _barn(roosters: list[int], chickens: int = 0, foxes: int = 0, eggs: int = 0) -> list[int]:
    """Per-kind counts of the cards under one barn; roosters by seat."""
    under = [0] * br.KINDS
    under[: len(roosters)] = roosters
    under[br.CHICKEN], under[br.FOX], under[br.EGG] = chickens, foxes, eggs
    return under


def _by_the_book(unders: list[list[int]], players: int) -> list[int]:
    """Final scores written out from the rulebook, independently of barn_shares."""
    scores = [0] * players
    for under in unders:
        roosters = {p: under[p] for p in range(players)}
        most = max(roosters.values())
        if most == 0:
            continue
        majority = [p for p, n in roosters.items() if n == most]
        points = max(0, under[br.CHICKEN] - under[br.FOX])
        for p in majority:
            scores[p] += points // len(majority)  # leftover points count for nobody
    return scores


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_card_is_accounted_for(players: int) -> None:
    for seed in range(40):
        t = _table(seed, players)
        assert t["deck"] == []
        assert t["hands"] == [[0] * br.KINDS for _ in range(players)]  # the game ends with every hand empty
        assert t["padlocked"] in (0, 1, 2)  # the padlock was drawn and played: it never leaves its barn
        assert sum(t["placing"]) <= 1  # at most the card being placed when the game ended
        for k in range(br.KINDS):
            where = [t["discard"][k], t["placing"][k]] + [under[k] for under in t["under"]]
            assert min(where) >= 0, br.NAMES[k]
            if k == br.PADLOCK:
                assert sum(where) == 0
            elif k < 4:
                assert sum(where) == (br.ROOSTERS_EACH if k < players else 0), br.NAMES[k]  # unused colours out
            else:
                assert sum(where) == br.DECK[k], br.NAMES[k]
        # Farmers are played openly and discarded, never placed under a barn.
        assert all(under[br.PITCHFORK] == under[br.KEY] == under[br.PADLOCK] == 0 for under in t["under"])
        assert t["discard"][br.PITCHFORK] == 15 and t["discard"][br.KEY] == 1
        # Every card leaves the hands: one a turn at most, besides the (8 at most) eggs thrown.
        assert t["turns"] >= 36 + 3 * players - 8


def test_a_fox_heavy_barn_scores_nothing() -> None:
    assert br.barn_shares(_barn([2, 1], chickens=3, foxes=4), 2) == [0, 0]
    assert br.barn_shares(_barn([2, 1], chickens=3, foxes=3), 2) == [0, 0]  # as many foxes: zero too
    assert br.barn_shares(_barn([2, 1], chickens=5, foxes=3), 2) == [2, 0]  # one point off per fox
    assert br.barn_shares(_barn([1, 3, 0], chickens=4), 3) == [0, 4, 0]


def test_a_three_way_tie_splits_seven_chickens_two_each() -> None:
    assert br.barn_shares(_barn([1, 1, 1, 0], chickens=7), 4) == [2, 2, 2, 0]
    assert br.barn_shares(_barn([2, 2, 1, 2], chickens=7, foxes=1, eggs=2), 4) == [2, 2, 0, 2]
    assert br.barn_shares(_barn([1, 1], chickens=7), 2) == [3, 3]


def test_a_barn_without_roosters_scores_for_nobody() -> None:
    assert br.barn_shares(_barn([0, 0, 0], chickens=9), 3) == [0, 0, 0]


def test_final_scores_sum_the_barns_and_the_winner_has_the_most() -> None:
    unders = [_barn([1, 1, 1, 0], chickens=7), _barn([0, 2, 0, 1], chickens=3, foxes=4), _barn([3, 0, 0, 0], 5, 1)]
    assert br.final_scores(unders, 4) == [6, 2, 2, 0]
    assert br.rank([6, 2, 2, 0]) == [0, 1, 2, 3]
    assert br.rank([1, 4, 4, 0]) == [1, 2, 0, 3]  # level players in seat order
    for players in (2, 3, 4):
        for seed in range(30):
            t = _table(seed, players)
            winner, turns, scores = br.playout_scores(players, Rng(seed, 0), Rng(seed, 1))
            assert turns == t["turns"]
            assert scores == br.final_scores(t["under"], players) == _by_the_book(t["under"], players)
            assert scores[winner] == max(scores)
            assert winner == scores.index(max(scores))


def test_the_baseline_scores_the_engine_s_final_barns_as_the_rules_file_does() -> None:
    engine = load_game(RULES)
    model = engine.model
    kind_of = engine.program.kind_of
    under_zone = next(z.index for z in model.zones if z.name == "under")
    for players in (2, 4):
        for seed in range(15):
            st = engine.new_state(players)
            play(engine, st, [CountingAgent(seed, s, [0, 0, 0, 0]) for s in range(players)], seed)
            unders = []
            for ids in st.zones[under_zone]:
                under = [0] * br.KINDS
                for c in ids:
                    under[ENGINE_KINDS[model.kinds[kind_of[c]].name]] += 1
                unders.append(under)
            scores = {row["player"]: row["keys"][0] for row in st.result["standings"]}
            assert br.final_scores(unders, players) == [scores[f"P{p + 1}"] for p in range(players)]


def test_playout_is_deterministic_and_matches_playout_scores() -> None:
    for players in (2, 3, 4):
        for seed in range(10):
            a = br.playout_scores(players, Rng(seed, 0), Rng(seed, 1))
            assert a == br.playout_scores(players, Rng(seed, 0), Rng(seed, 1))
            assert br.playout(players, Rng(seed, 0), Rng(seed, 1)) == a[:2]
            assert _table(seed, players) == _table(seed, players)


def test_different_seeds_give_different_games() -> None:
    results = [br.playout_scores(4, Rng(seed, 0), Rng(seed, 1)) for seed in range(60)]
    assert len({r[0] for r in results}) == 4  # every seat wins some game
    assert len({r[1] for r in results}) > 5
    assert len({tuple(r[2]) for r in results}) > 40
    # The agent stream alone changes the game too.
    assert len({tuple(br.playout_scores(4, Rng(1, 0), Rng(s, 1))[2]) for s in range(20)}) > 10


@pytest.mark.parametrize("players", [1, 5])
def test_rejects_bad_player_counts(players: int) -> None:
    with pytest.raises(ValueError):
        br.playout(players, Rng(0), Rng(1))


@pytest.mark.parametrize("players", [2, 4])
def test_baseline_plays_the_same_game_as_the_rules_file(players: int) -> None:
    """Both sides offer the same decisions: per game, as many, with as many options each."""
    engine = load_game(RULES)
    games = 150
    dsl = [0, 0, 0, 0]  # decisions, options, one-option decisions, two-option decisions
    base = [0, 0, 0, 0]
    dsl_turns = base_turns = dsl_points = base_points = 0
    for seed in range(games):
        st = engine.new_state(players)
        play(engine, st, [CountingAgent(seed, s, dsl) for s in range(players)], seed)
        dsl_turns += st.turn
        dsl_points += sum(row["keys"][0] for row in st.result["standings"])
        t = br.play_game(players, Rng(seed, 0), CountingRng(seed, 1, base))
        base_turns += t["turns"]
        base_points += sum(br.final_scores(t["under"], players))
    assert base_turns / games == pytest.approx(dsl_turns / games, rel=0.02)
    assert base[0] / games == pytest.approx(dsl[0] / games, rel=0.02)  # decisions per game
    assert base[1] / base[0] == pytest.approx(dsl[1] / dsl[0], rel=0.03)  # options per decision
    # One option: egg questions to players without an egg (and a farmer with nothing to move).
    assert base[2] / games == pytest.approx(dsl[2] / games, rel=0.04)
    # Two options: mostly egg questions to players holding an egg.
    assert base[3] / games == pytest.approx(dsl[3] / games, rel=0.08)
    # Points scored per game, a check on the end of the game and the scoring.
    assert base_points / games == pytest.approx(dsl_points / games, rel=0.15)
