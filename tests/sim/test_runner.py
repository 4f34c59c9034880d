"""Simulation runs: the same games as `run`, and the same records for any --jobs and batch size."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulelang.agents.spec import AgentSpec, seat_specs
from rulelang.game import load_game
from rulelang.play import play
from rulelang.sim import pool
from rulelang.sim.driver import SimError, simulate
from rulelang.sim.runner import SimJob, batches, play_game, record_of
from rulelang.sim.summary import summarize

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.rules"))


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_play_game_is_the_game_run_plays(path: Path) -> None:
    engine = load_game(path)
    n = engine.model.min_players
    job = SimJob(str(path), (), n, tuple(seat_specs(["random"], n)), seed=7)
    for index in (0, 3):
        mine, first = play_game(engine, job, index)
        theirs = engine.new_state(n)
        play(engine, theirs, [s.make(7 + index, p) for p, s in enumerate(job.agents)], 7 + index)
        assert mine.digest() == theirs.digest()
        assert first is not None and 0 <= first < n
        rec = record_of(engine, mine, index, 7 + index, first)
        assert rec.winners and all(rec.ranks[w] == 1 for w in rec.winners)
        assert rec.steps == mine.step and rec.turns == mine.turn


def test_batches_cover_every_index_once() -> None:
    assert batches(7, 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert batches(2, 10) == [[0, 1]]


def test_one_or_two_workers_give_identical_aggregates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    path = str(ROOT / "games/chicken-eggspansion.rules")
    engine = load_game(path)
    job = SimJob(path, (), 3, (AgentSpec("greedy"), AgentSpec("random"), AgentSpec("random")), seed=11)
    one, _ = simulate(job, 24, jobs=1, batch_size=5)
    two, _ = simulate(job, 24, jobs=2, batch_size=3)
    assert one == two
    assert [r.index for r in one] == list(range(24))
    assert summarize(engine, job, one) == summarize(engine, job, two)


def test_a_broken_game_names_its_seed() -> None:
    path = str(ROOT / "games/chicken.rules")
    job = SimJob(path, (), 2, tuple(seat_specs(["random"], 2)), seed=3, max_steps=5)
    with pytest.raises(SimError, match=r"game 0 \(seed 3\):[\s\S]*did not end within 5 steps"):
        simulate(job, 4, jobs=2, batch_size=1)
