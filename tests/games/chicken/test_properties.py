"""Property tests: seeded random games of both Chicken! files, checked after every step.

* every game ends, with one winner at 25+ points and everyone else below 25;
* after every step every component is in exactly one zone, scores are never negative,
  and dice in the Coop / Seed Bag show no face;
* at random points the state survives a JSON round trip (same state, same digest, same
  pending decision, same future) and ``copy()`` is independent of the original.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as strat
from scripted import CHICKEN, EGGSPANSION, load

from rulelang import Engine, State
from rulelang.agents.base import RandomAgent
from rulelang.play import play
from rulelang.rng import Rng

GAMES = {"chicken": CHICKEN, "eggspansion": EGGSPANSION}
PROPERTY_SETTINGS = settings(
    max_examples=150, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow],
)


def _score_index(engine: Engine) -> int:
    return next(c.index for c in engine.model.counters if c.name == "score")


def check_invariants(engine: Engine, st: State) -> None:
    """What must hold after every step of a Chicken! game."""
    n = engine.program.component_count
    seen: Counter[int] = Counter()
    for z in engine.model.zones:
        content = st.zones[z.index]
        if z.per_player:
            assert len(content) == st.players, f"{z.name} has {len(content)} player lists"
            for lst in content:
                seen.update(lst)
        else:
            seen.update(content)
        if z.unrolled:
            ids = [c for lst in content for c in lst] if z.per_player else content
            assert all(st.faces[c] == -1 for c in ids), f"a die in {z.name} shows a face"
    assert sorted(seen) == list(range(n)), f"components not in exactly one zone: {seen}"
    scores = st.counters[_score_index(engine)]
    assert all(s >= 0 for s in scores), scores
    assert 0 <= st.current < st.players
    if not st.over:
        assert all(s < 25 for s in scores), f"{scores}: 25 reached but the game goes on"
        assert engine.pending(st) is not None


def decision_view(engine: Engine, st: State) -> Any:
    d = engine.pending(st)
    return None if d is None else (d.kind, d.player, d.labels, d.weights, d.event)


def drive(engine: Engine, st: State, steps: int, seed: int) -> list[Any]:
    """Play ``steps`` steps (or to the end) with seeded choices and outcomes; return them."""
    rng = Rng(seed, stream=99)
    done = []
    for _ in range(steps):
        d = engine.pending(st)
        if d is None:
            break
        action = (d.labels or [])[rng.below(len(d.labels or []))] if d.kind == "choice" else d.sample(rng)
        engine.apply(st, action)
        done.append(action)
    return done


def probe(engine: Engine, st: State, seed: int) -> None:
    """Round-trip and copy ``st`` and check both against the original, which must not change."""
    before = st.digest()
    before_json = json.dumps(st.to_json(), sort_keys=True)
    view = decision_view(engine, st)

    rt = State.from_json(json.loads(json.dumps(st.to_json())))
    assert rt == st and rt.digest() == before
    assert decision_view(engine, rt) == view
    assert engine.observe(rt, 0) == engine.observe(st, 0)

    cp = st.copy()
    assert cp == st and cp.digest() == before
    # Play the copy and the round-tripped state on with the same seed: the same future,
    # and the original is untouched.
    actions = drive(engine, cp, 25, seed)
    assert drive(engine, rt, 25, seed) == actions
    assert rt == cp and rt.digest() == cp.digest()
    if actions:
        assert cp.digest() != before
    assert st.digest() == before
    assert json.dumps(st.to_json(), sort_keys=True) == before_json
    assert decision_view(engine, st) == view


def play_checked(engine: Engine, seed: int, players: int, probe_every: int) -> State:
    """A seeded game of RandomAgents, one decision at a time, checked after every step.

    (Driven through pending/apply rather than rulelang.play.play, which may apply
    several chance steps in one go.)
    """
    st = engine.new_state(players)
    check_invariants(engine, st)
    probe(engine, st, seed)
    chance = Rng(seed, stream=0)
    agents = [RandomAgent(seed, seat) for seat in range(players)]
    while not st.over:
        assert st.step < 20_000, "the game does not end"
        d = engine.pending(st)
        assert d is not None
        step = st.step
        if d.kind == "chance":
            engine.apply(st, d.sample(chance))
        else:
            assert d.labels and d.player is not None
            engine.apply(st, agents[d.player].choose(engine.observe(st, d.player), list(d.labels)))
        assert st.step == step + 1
        check_invariants(engine, st)
        if st.step % probe_every == 0:
            probe(engine, st, seed + st.step)
    return st


@pytest.mark.parametrize("name", sorted(GAMES))
@PROPERTY_SETTINGS
@given(
    seed=strat.integers(min_value=0, max_value=2**32 - 1),
    players=strat.integers(min_value=2, max_value=8),
    random_first=strat.booleans(),
    probe_every=strat.integers(min_value=20, max_value=120),
)
def test_random_games_end_with_a_winner_and_keep_every_invariant(
    name: str, seed: int, players: int, random_first: bool, probe_every: int
) -> None:
    engine = load(GAMES[name], random_first_player=random_first)
    st = play_checked(engine, seed, players, probe_every)
    assert st.over and engine.pending(st) is None
    result = st.result
    assert result is not None
    scores = st.counters[_score_index(engine)]
    # The game ends the moment the current player reaches 25: that player, alone, wins.
    assert result["winners"] == [f"P{st.current + 1}"]
    assert scores[st.current] >= 25
    assert all(s < 25 for p, s in enumerate(scores) if p != st.current)
    assert [row["player"] for row in result["standings"] if row["rank"] == 1] == result["winners"]
    assert {row["player"]: row["keys"] for row in result["standings"]} == {
        f"P{p + 1}": [s] for p, s in enumerate(scores)
    }
    # Nobody can score 25 in one turn (at most 16 points, 19 with the Eggspansion).
    assert st.turn > players


def test_random_first_player_is_a_fair_chance() -> None:
    """"If no player has held a chicken, choose the starting player randomly." """
    engine = load(CHICKEN, random_first_player=True)
    st = engine.new_state(5)
    d = engine.pending(st)
    assert d is not None and d.kind == "chance" and d.event == {"first_player": True}
    assert d.labels == ["P1", "P2", "P3", "P4", "P5"] and d.weights == [1] * 5
    engine.apply(st, "P4")
    assert st.current == 3
    assert st.zones[next(z.index for z in engine.model.zones if z.name == "held")][3] == [0, 1, 2, 3]
    assert engine.pending(st).player == 3


@pytest.mark.parametrize("name", sorted(GAMES))
@settings(max_examples=60, deadline=None, derandomize=True)
@given(seed=strat.integers(min_value=0, max_value=2**32 - 1), players=strat.integers(min_value=2, max_value=8))
def test_play_reaches_a_winner_at_25_and_its_events_count_every_step(name: str, seed: int, players: int) -> None:
    engine = load(GAMES[name], random_first_player=True)
    st = engine.new_state(players)
    steps: list[int] = []
    play(engine, st, [RandomAgent(seed, seat) for seat in range(players)], seed, max_steps=20_000,
         on_event=lambda event, narration: steps.append(event["step"]))
    assert st.over and st.result is not None
    check_invariants(engine, st)
    assert steps == list(range(1, st.step + 1))
    scores = st.counters[_score_index(engine)]
    assert st.result["winners"] == [f"P{st.current + 1}"] and scores[st.current] >= 25
    assert all(s < 25 for p, s in enumerate(scores) if p != st.current)
