"""The OpenSpiel adapter's fast paths play exactly as the engine's general ones: a roll's
outcomes cached per die kind and applied without a Decision, cached legal actions, chance
probabilities and returns, and new states copied from the settled start."""

from __future__ import annotations

import random

import pytest
from env_support import CHICKEN, ROOT

pytest.importorskip("numpy", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")
pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")

from rulelang.envs.common import chance_outcomes, payoffs  # noqa: E402
from rulelang.envs.openspiel import load  # noqa: E402

KUHN = ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules"


def _play_and_check(path, seed: int) -> int:
    """A random game (no forced steps skipped) whose every step is checked against the engine's general path;
    returns the number of rolls."""
    game = load(path, players=2, skip_forced=False)
    engine = game.loaded.spec.engine
    rng = random.Random(seed)
    state = game.new_initial_state()
    rolls = 0
    while not state.is_terminal():
        mirror = state.engine_state()
        if state.is_chance_node():
            shuffled = state._progress.shuffled
            general = [o for o in chance_outcomes(engine, mirror, shuffled) if o[2] > 0]
            total = sum(w for _i, _l, w in general)
            assert state.chance_outcomes() == [(i, w / total) for i, _l, w in general]
            assert state.chance_outcomes() == [(i, w / total) for i, _l, w in general]  # cached: the same again
            action, label, _w = general[rng.randrange(len(general))]
            d = engine.pending(mirror)
            rolls += "roll" in d.event
            if d.pool is None:
                engine.apply(mirror, label)
            elif len(shuffled) + 1 == len(d.pool):
                engine.apply(mirror, [*shuffled, label])
            state.apply_action(action)
        else:
            legal = state.legal_actions()
            assert legal == state.legal_actions(state.current_player())
            before = state.clone()
            position = rng.randrange(len(legal))
            state.apply_action(legal[position])
            assert before.legal_actions() == legal  # a clone keeps its own caches
            mirror = state.engine_state()
        assert state.engine_state().to_json() == mirror.to_json()
    assert state.returns() == payoffs(engine, state.engine_state(), 2)
    assert state.returns() == state.clone().returns()
    return rolls


def test_rolls_through_the_cache_play_as_the_engine_applies_them() -> None:
    rolls = sum(_play_and_check(CHICKEN, seed) for seed in range(3))
    assert rolls > 20  # the roll fast path was taken


def test_draws_and_returns_on_kuhn_are_the_engines() -> None:
    game = load(KUHN, players=2)
    seen = set()
    for seed in range(12):
        _play_and_check(KUHN, seed)
        state = game.new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(state.chance_outcomes()[0][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        seen.add(tuple(state.returns()))
    assert len(seen) > 1 and all(sum(r) == 0 for r in seen)
