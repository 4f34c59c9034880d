"""games/hippe-kippen.rules and the hand-written baseline (benchmarks/baseline_hippe_kippen.py) play the
same game: per game as many turns and decisions, with as many options each (random players, seeds alike)."""

from __future__ import annotations

from pathlib import Path

import pytest
from baseline_support import play_paired

from benchmarks import baseline_hippe_kippen as bh
from rulelang import load_game

GAMES = Path(__file__).resolve().parents[3] / "games"


@pytest.mark.parametrize(("players", "games"), [(4, 60), (5, 60)])
def test_baseline_plays_the_same_game_as_the_rules_file(players: int, games: int) -> None:
    """Both sides offer the same decisions: the actions a turn's 3 points can buy, then the free fox move."""
    engine = load_game(GAMES / "hippe-kippen.rules")
    dsl, base, pairs = play_paired(engine, players, games, lambda chance, agent: bh.play_game(players, chance, agent))
    dsl_turns = sum(st.turn for st, _ in pairs)
    base_turns = sum(t["turns"] for _, t in pairs)
    assert base_turns / games == pytest.approx(dsl_turns / games, rel=0.05)  # turns per game
    assert base[0] / games == pytest.approx(dsl[0] / games, rel=0.05)  # decisions per game
    assert base[1] / base[0] == pytest.approx(dsl[1] / dsl[0], rel=0.03)  # options per decision
    assert dsl[2] / games < 0.2 and base[2] / games < 0.2  # (almost) never a one-option decision
