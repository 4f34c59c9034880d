"""``World.sample`` (a template worked out once per position) gives the same determinizations as
``determinize`` for the same draws, at many positions of every game."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.engine.determinize import World, determinize, learn_zone_kinds, random_step
from rulelang.game import load_game
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
GAMES = [*(f"games/{p.name}" for p in sorted((ROOT / "games").glob("*.rules"))),
         "examples/kuhn-poker/kuhn-poker.rules", "examples/leduc-poker/leduc-poker.rules",
         *(f"examples/new-games/{p.name}" for p in sorted((ROOT / "examples/new-games").glob("*.rules")))]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("fewest", [False, True])
def test_world_samples_are_determinize_draw_for_draw(game: str, fewest: bool) -> None:
    engine = load_game(ROOT / game)
    players = max(2, engine.model.min_players) if fewest else engine.model.default_players
    players = min(players, engine.model.max_players)
    st = engine.new_state(players)
    rng = Rng(5, stream=9)
    kinds = learn_zone_kinds(engine, players)
    checked = decisions = 0
    while not st.over and st.step < 400:
        if not engine.is_chance(st) and (decisions := decisions + 1) % 5 == 1:
            seat = st.current
            world = World(engine, st, seat)
            a, b = Rng(st.step, stream=1), Rng(st.step, stream=1)
            for _ in range(3):
                assert world.sample(a).to_json() == determinize(engine, st, seat, b, kinds).to_json()
            assert a._state == b._state
            checked += 1
        random_step(engine, st, rng)
    assert checked > 0

