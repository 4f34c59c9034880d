"""The layout bound (benchmarks/bound_roost.py) plays the engine's own games: its figure is a bound
for the same work, not for another game."""

from __future__ import annotations

import pytest

from benchmarks import bound_roost as bound
from rulelang.agents.base import RandomAgent
from rulelang.play import play
from tests.support.scripted import GAMES


@pytest.fixture(scope="module")
def engine():
    from rulelang import load_game

    return load_game(GAMES / "rule-the-roost.rules")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bound_ends_every_game_as_the_engine_does(engine, players: int) -> None:
    tables = bound._tables(engine)
    for seed in range(25):
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        turns, steps, zones = bound.bound_game(tables, players, seed)
        assert (turns, steps) == (st.turn, st.step)
        assert zones == st.zones  # every card where the engine left it: the standings follow from them
        assert sum(map(len, st.zones[2])) > 0  # (a game in which cards were placed)


def test_the_script_checks_and_prints_a_ratio(capsys) -> None:
    assert bound.main(["--games", "5", "--rounds", "1"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert last.startswith("ratio: ") and float(last.split()[1]) > 0


def test_the_script_stops_on_a_game_the_engine_does_not_play(monkeypatch, capsys) -> None:
    played = bound.bound_game

    def one_turn_off(tables, players, seed):
        turns, steps, zones = played(tables, players, seed)
        return (turns + (seed == 3), steps, zones)

    monkeypatch.setattr(bound, "bound_game", one_turn_off)
    assert bound.main(["--games", "5", "--rounds", "1"]) == 1
    assert capsys.readouterr().err.startswith("seed 3: ")
