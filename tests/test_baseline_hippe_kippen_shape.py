"""games/hippe-kippen.rules and the hand-written baseline (benchmarks/baseline_hippe_kippen.py) play the
same game: per game as many turns and decisions, with as many options each (random players, seeds alike)."""

from __future__ import annotations

from pathlib import Path

import pytest
from baseline_support import CountingAgent, CountingRng

from benchmarks import baseline_hippe_kippen as bh
from rulelang import load_game
from rulelang.play import play
from rulelang.rng import Rng

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize(("players", "games"), [(4, 60), (5, 60)])
def test_baseline_plays_the_same_game_as_the_rules_file(players: int, games: int) -> None:
    """Both sides offer the same decisions: the actions a turn's 3 points can buy, then the free fox move."""
    engine = load_game(GAMES / "hippe-kippen.rules")
    dsl = [0, 0, 0, 0]  # decisions, options, one-option decisions, two-option decisions
    base = [0, 0, 0, 0]
    dsl_turns = base_turns = 0
    for seed in range(games):
        st = engine.new_state(players)
        play(engine, st, [CountingAgent(seed, s, dsl) for s in range(players)], seed)
        dsl_turns += st.turn
        base_turns += bh.play_game(players, Rng(seed, 0), CountingRng(seed, 1, base))["turns"]
    assert base_turns / games == pytest.approx(dsl_turns / games, rel=0.05)  # turns per game
    assert base[0] / games == pytest.approx(dsl[0] / games, rel=0.05)  # decisions per game
    assert base[1] / base[0] == pytest.approx(dsl[1] / dsl[0], rel=0.03)  # options per decision
    assert dsl[2] / games < 0.2 and base[2] / games < 0.2  # (almost) never a one-option decision
