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


def _walk(game, seed: int, games: int) -> list:
    """Every node of ``games`` random games (with a clone at each decision sent down another action):
    who moves, the legal actions or chance outcomes, each player's strings, the engine state, the returns."""
    rng = random.Random(seed)
    seen = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            row = [state.current_player(), state.history(), state.engine_state().to_json(),
                   [state.information_state_string(p) for p in range(game.num_players())]]
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                row.append(outcomes)
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                row.append(legal)
                other = state.clone()
                other.apply_action(legal[-1])  # the clone goes its own way; the state keeps its own
                row.append([other.history(), other.engine_state().to_json(), other.is_terminal()])
                state.apply_action(legal[rng.randrange(len(legal))])
            seen.append(row)
        seen.append([state.history(), state.returns(), state.engine_state().to_json()])
    return seen


@pytest.mark.parametrize("path", [KUHN, ROOT / "examples" / "leduc-poker" / "leduc-poker.rules", CHICKEN])
def test_positions_kept_by_history_are_the_positions_computed_afresh(path) -> None:
    """A history played again is looked up among the kept positions (``_Progress.children``): the same nodes,
    actions, outcomes, strings, engine states and returns as with nothing kept, clones included."""
    kept = load(path, players=2)
    fresh = load(path, players=2, max_game_length=100_001)  # another loaded game, with nothing kept
    fresh.loaded.keep = 0
    assert kept.loaded is not fresh.loaded and kept.loaded.keep > 0
    games = 3 if path == CHICKEN else 60  # (a Chicken! game is long: its perfect-recall strings grow with it)
    assert _walk(kept, 4, games) == _walk(fresh, 4, games)
    assert kept.loaded.initial.children  # (positions were kept, and looked up: the same walk twice)
    assert _walk(kept, 4, games) == _walk(fresh, 4, games)


def test_action_ids_of_option_lists_seen_before_are_computed_afresh() -> None:
    """Barnyard's choices, played at random: the ids the action space keeps per option list (and per option's
    values) are the ids its blocks compute from the values, and the adapter's legal actions are those ids."""
    game = load(ROOT / "games" / "barnyard.rules", players=2)
    game.loaded.keep = 0
    space = game.actions
    engine = game.engine
    rng = random.Random(3)
    checked = 0
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            kind, _seat, spec, listed = engine.decision_options(state._st)
            legal = state.legal_actions()
            if kind == "choose":
                fresh = [space.choose[id(spec)][index].id_of(values) if values else space.choose[id(spec)][index].base
                         for index, values in listed]
                assert space.choose_ids(spec, listed, None) == fresh
                assert space.choose_ids(spec, listed, None) == fresh  # kept: the same again
                assert legal == sorted(fresh)
                checked += 1
            state.apply_action(legal[rng.randrange(len(legal))])
    assert checked > 20
    assert space.lists  # option lists were kept
