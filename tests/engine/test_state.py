"""The game state: exact JSON round trips, independent copies, stable digests."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulelang import Rng, State, load_game

REPO = Path(__file__).resolve().parents[2]
GAMES = {
    "chicken": REPO / "games" / "chicken.rules",
    "eggspansion": REPO / "games" / "chicken-eggspansion.rules",
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def engine(request):
    return load_game(GAMES[request.param])


class _Driver:
    """Picks every action of a game from two seeded streams: chance outcomes and choices."""

    def __init__(self, seed: int) -> None:
        self.chance = Rng(seed, 0)
        self.choice = Rng(seed, 1)

    def action(self, engine, st: State):
        d = engine.pending(st)
        assert d is not None
        if d.kind == "chance":
            return d.sample(self.chance)
        assert d.kind == "choice"
        return d.labels[self.choice.below(len(d.labels))]


def _play(engine, seed: int, players: int = 4, max_steps: int = 5000):
    """Play a seeded game; return the states before each step, the actions, and the final state."""
    st = engine.new_state(players)
    driver = _Driver(seed)
    states, actions = [], []
    while not st.over:
        assert st.step < max_steps
        states.append(st.copy())
        action = driver.action(engine, st)
        actions.append(action)
        engine.apply(st, action)
    return states, actions, st


def _continue(engine, st: State, actions: list) -> State:
    for action in actions:
        engine.apply(st, action)
    return st


def _through_json_text(st: State) -> State:
    return State.from_json(json.loads(json.dumps(st.to_json())))


# ------------------------------------------------------------------ JSON round trip


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_json_round_trip_is_exact_at_every_step(engine, seed: int) -> None:
    states, actions, final = _play(engine, seed)
    assert len(states) > 50
    for st in states + [final]:
        back = _through_json_text(st)
        assert back == st
        assert back.to_json() == st.to_json()
        assert back.dumps() == st.dumps()
        assert back.digest() == st.digest()


def test_continuing_a_restored_state_plays_the_same_game(engine) -> None:
    states, actions, final = _play(engine, seed=4)
    for i in range(0, len(states), max(1, len(states) // 12)):
        restored = _through_json_text(states[i])
        original = states[i].copy()
        _continue(engine, restored, actions[i:])
        _continue(engine, original, actions[i:])
        assert restored.over and original.over
        assert restored == original == final
        assert restored.digest() == final.digest()
        assert restored.result == final.result


def test_restored_state_has_the_same_pending_decision(engine) -> None:
    states, _, _ = _play(engine, seed=5)
    for st in states[::7]:
        back = _through_json_text(st)
        a, b = engine.pending(st), engine.pending(back)
        assert (a.kind, a.player, a.labels, a.weights) == (b.kind, b.player, b.labels, b.weights)


def test_from_json_of_to_json_does_not_share_lists_with_the_original(engine) -> None:
    """BUG: State.from_json(st.to_json()) (no JSON text in between) aliases st's zones, faces,
    counters and stack, so playing the restored state also changes the original."""
    states, actions, _ = _play(engine, seed=6)
    st = states[len(states) // 2]
    before = st.dumps()
    restored = State.from_json(st.to_json())
    engine.apply(restored, actions[len(states) // 2])
    assert st.dumps() == before


def test_from_json_rejects_what_is_not_a_state() -> None:
    with pytest.raises(ValueError):
        State.from_json({"format": 999})
    with pytest.raises(ValueError):
        State.from_json([])  # type: ignore[arg-type]


def test_final_state_round_trips_with_its_result(engine) -> None:
    _, _, final = _play(engine, seed=7)
    back = _through_json_text(final)
    assert back.over
    assert back.result == final.result
    assert engine.pending(back) is None


# ------------------------------------------------------------------ copy


def test_copy_is_equal_and_independent(engine) -> None:
    states, actions, _ = _play(engine, seed=8)
    for i in range(0, len(states), max(1, len(states) // 10)):
        st = states[i]
        before = st.dumps()
        dup = st.copy()
        assert dup == st and dup.digest() == st.digest()
        # mutate every container of the copy
        for z, zone in enumerate(dup.zones):
            if zone and isinstance(zone[0], list):
                for held in zone:
                    held.append(10_000 + z)
            else:
                zone.append(10_000 + z)
        dup.zones[0].clear()
        dup.faces[:] = [5] * len(dup.faces)
        for c, counter in enumerate(dup.counters):
            if isinstance(counter, list):
                counter[:] = [99] * len(counter)
            else:
                dup.counters[c] = 99
        for frame in dup.stack:
            frame[1] += 1
            for v in frame[2]:
                if isinstance(v, list):
                    v.append(-1)
        if dup.armed is not None:
            dup.armed[:] = [not a for a in dup.armed]
        dup.current = (dup.current + 1) % dup.players
        assert st.dumps() == before


def test_playing_a_copy_leaves_the_original_alone(engine) -> None:
    states, actions, final = _play(engine, seed=9)
    i = len(states) // 3
    st = states[i]
    before = st.dumps()
    dup = _continue(engine, st.copy(), actions[i:])
    assert dup == final
    assert st.dumps() == before
    # and the original can still be played to the same end
    assert _continue(engine, st, actions[i:]) == final


# ------------------------------------------------------------------ digest


def _digests(engine, seed: int) -> list[str]:
    states, _, final = _play(engine, seed)
    return [s.digest() for s in states] + [final.digest()]


def test_digest_sequence_is_stable_for_a_seed(engine) -> None:
    a = _digests(engine, 10)
    b = _digests(engine, 10)
    assert a == b
    assert all(len(d) == 16 and int(d, 16) >= 0 for d in a)
    assert a != _digests(engine, 11)


def test_digest_changes_with_every_step(engine) -> None:
    digests = _digests(engine, 12)
    assert all(x != y for x, y in zip(digests, digests[1:]))
    assert len(set(digests)) == len(digests)  # the step counter alone makes every state distinct


def test_digest_of_a_new_state_depends_on_the_player_count(engine) -> None:
    a, b = engine.new_state(2), engine.new_state(2)
    assert a.digest() == b.digest()
    assert a.digest() != engine.new_state(3).digest()


def test_digest_ignores_caches_and_log(engine) -> None:
    st = engine.new_state(3)
    plain = st.digest()
    engine.pending(st)  # fills pending_cache
    st.log = [{"type": "turn"}]
    assert st.digest() == plain
