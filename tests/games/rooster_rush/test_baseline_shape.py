"""The rules file (games/rooster-rush.rules) against the hand-written baseline (benchmarks/baseline_rooster_rush.py).

Both play docs/rulebooks/rooster-rush.md's reading and offer the same decisions: the race's
early and late presses (one option per free target, and waiting or securing nothing) and the
push-button discard. Random players on both sides must then see, per game, as many decisions
with as many options each, and play as many rounds.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from baseline_support import play_paired

from benchmarks import baseline_rooster_rush as rr
from rulelang import load_game

RULES = Path(__file__).resolve().parents[3] / "games" / "rooster-rush.rules"


@pytest.mark.parametrize("players", [3, 5])
def test_baseline_plays_the_same_game_as_the_rules_file(players: int) -> None:
    """Both sides offer the same decisions: per game, as many, with as many options each."""
    engine = load_game(RULES)
    games = 200
    dsl, base, pairs = play_paired(engine, players, games, lambda chance, agent: rr.play_game(players, chance, agent))
    dsl_rounds = base_rounds = dsl_points = base_points = 0
    for st, t in pairs:
        assert st.result is not None
        dsl_rounds += st.turn
        dsl_points += sum(row["keys"][2] for row in st.result["standings"])
        base_rounds += t["rounds"]
        base_points += sum(rr.points(t, p) for p in range(players))
    assert base_rounds / games == pytest.approx(dsl_rounds / games, rel=0.05)
    assert base[0] / games == pytest.approx(dsl[0] / games, rel=0.05)  # decisions per game
    assert base[1] / base[0] == pytest.approx(dsl[1] / dsl[0], rel=0.02)  # options per decision
    assert base_points / games == pytest.approx(dsl_points / games, rel=0.1)
