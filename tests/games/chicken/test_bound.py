"""The layout bound (benchmarks/bound_chicken.py) plays the engine's own games: its figure is a bound
for the same work, not for another game."""

from __future__ import annotations

import pytest

from benchmarks import bound_chicken as bound
from rulelang.agents.base import RandomAgent
from rulelang.play import play
from tests.support.scripted import GAMES


@pytest.fixture(scope="module")
def engine():
    from rulelang import load_game

    return load_game(GAMES / "chicken.rules")


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_bound_ends_every_game_as_the_engine_does(engine, players: int) -> None:
    tables = bound._tables(engine)
    for seed in range(25):
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        assert bound.bound_game(tables, players, seed) == (st.turn, st.counters[0])


def test_the_script_checks_and_prints_a_ratio(capsys) -> None:
    assert bound.main(["--games", "5", "--rounds", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("ratio: ") and float(last.split()[1]) > 0
