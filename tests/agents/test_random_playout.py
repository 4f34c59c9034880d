"""``random_playout`` (rollouts by the engine's pickers, the chance stream attached) plays exactly as
``random_step`` one step at a time: the same state, the same decisions counted, the same draws."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.engine.determinize import random_playout, random_step
from rulelang.game import load_game
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
GAMES = [*(f"games/{p.name}" for p in sorted((ROOT / "games").glob("*.rules"))),
         "examples/leduc-poker/leduc-poker.rules", "examples/blackjack/blackjack.rules"]


def _by_steps(engine, st, rng: Rng, decisions: int) -> int:
    taken = 0
    while not st.over and taken < decisions:
        taken += random_step(engine, st, rng)
    return taken


@pytest.mark.parametrize("game", GAMES)
def test_random_playouts_are_random_steps(game: str) -> None:
    engine = load_game(ROOT / game)
    players = engine.model.default_players
    walk = Rng(3, stream=3)
    st = engine.new_state(players)
    positions = 0
    while not st.over and positions < 12:
        if not engine.is_chance(st):
            for decisions in (0, 1, 2, 5, 40, 10**6):
                a, b = st.copy(), st.copy()
                ra, rb = Rng(positions, stream=9), Rng(positions, stream=9)
                assert random_playout(engine, a, ra, decisions) == _by_steps(engine, b, rb, decisions)
                assert a.to_json() == b.to_json()
                assert ra.next32() == rb.next32()  # the same draws, no more
                assert a.picking is None and a.chance_rng is None
            positions += 1
        random_step(engine, st, walk)
    assert positions > 0


def test_the_counting_picker_draws_as_rng_pick_and_takes_chance_off_at_the_last() -> None:
    from rulelang.engine.determinize import counting_picker
    from rulelang.engine.state import State

    a, b = Rng(4, stream=2), Rng(4, stream=2)
    picker, begin, taken = counting_picker(a)
    st = State(2)
    for allowed in (1, 3, 7):
        begin(st, allowed)
        st.chance_rng = a
        for k, n in enumerate([5, 1, 2, 3, 2**31 + 1, 7, 4][:allowed]):
            assert picker(n) == b.pick(n)  # the same draw (none for one option)
            assert taken() == k + 1
            assert (st.chance_rng is None) == (k + 1 >= allowed)  # the stream taken off at the last allowed
    assert a.next32() == b.next32()
