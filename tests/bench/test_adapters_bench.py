"""benchmarks/adapters.py: the OpenSpiel adapter against the engine, and the floor (``--floor``) of its nodes."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pyspiel", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")

from benchmarks import adapters  # noqa: E402
from rulelang.envs.openspiel import load  # noqa: E402

CHICKEN = adapters.ROOT / "games" / "chicken.rules"


def test_the_floor_replays_the_adapters_own_nodes() -> None:
    """The floor game meets the nodes the adapter met, decision for decision, with the same legal actions and
    chance outcomes, and counts the same decisions in the benchmark's loop."""
    import pyspiel

    game = adapters.nothing_kept(load(CHICKEN, max_game_length=100_011))
    recorded = adapters.recorded_nodes(game, 3, 0)
    assert all(nodes for nodes in recorded) and {kind for nodes in recorded for kind, _x in nodes} == {
        "chance", "decide"}
    floor = adapters.floor_game(pyspiel, game, recorded)
    seen = []
    for _ in range(3):
        state, nodes = floor.new_initial_state(), []
        while not state.is_terminal():
            if state.is_chance_node():
                nodes.append(("chance", state.chance_outcomes()))
                state.apply_action(nodes[-1][1][0][0])
            else:
                nodes.append(("decide", state.legal_actions()))
                state.apply_action(nodes[-1][1][0])
        seen.append(nodes)
    assert seen == recorded
    decisions = sum(kind == "decide" for nodes in recorded for kind, _x in nodes)
    assert adapters.spiel_games(adapters.floor_game(pyspiel, game, recorded), 3, 0)() == decisions
    assert adapters.spiel_games(game, 3, 0)() == decisions  # (the adapter's own count, the same loop)


def test_the_benchmark_prints_the_ceiling_and_the_ratio_last(capsys: pytest.CaptureFixture) -> None:
    assert adapters.main([str(CHICKEN), "--games", "3", "--rounds", "1", "--floor"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"floor: pyspiel and this loop, \d+ µs a game \(\d+ µs for the engine\)", lines[-3])
    assert re.fullmatch(r"ceiling, adapter / engine: \d+\.\d\d", lines[-2])
    assert re.fullmatch(r"ratio: \d+\.\d\d", lines[-1])
