"""Issue 14, part 2: other leaks. Observations and state copies are independent values (an agent
cannot change the game through what it is shown), and a redacted header shows no face of a die
the player cannot see. One leak test per shipped game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.game import load_game
from rulelang.rng import Rng
from rulelang.trace.replay import redacted_header

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted((ROOT / "games").glob("*.rules"))


def _scribble(value: Any) -> None:
    """Change every list and dict inside ``value`` in place (what a careless agent might do)."""
    if isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")
    elif isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribbled"] = True


def _step(engine: Engine, st: State, rng: Rng) -> None:
    d = engine.pending(st)
    assert d is not None
    if d.kind == "chance":
        engine.apply(st, d.sample(rng))
    elif d.players is not None:
        who = d.players[rng.below(len(d.players))]
        answers = engine.legal_actions(st, who)
        engine.apply(st, answers[rng.below(len(answers))], player=who)
    else:
        labels = d.labels or []
        engine.apply(st, labels[rng.below(len(labels))])


def _states(engine: Engine, seed: int, every: int = 7, limit: int = 400):
    """States along one random game: every ``every`` steps and the end."""
    rng = Rng(seed, 9)
    st = engine.new_state(None, setup_seed=seed)
    for i in range(limit):
        if st.over:
            break
        if i % every == 0:
            yield st
        _step(engine, st, rng)
    yield st


@pytest.fixture(scope="module", params=GAMES, ids=[g.name for g in GAMES])
def engine(request) -> Engine:
    return load_game(request.param)


def test_an_observation_is_an_independent_value(engine: Engine) -> None:
    checked = 0
    for st in _states(engine, 3):
        for player in [None, *range(st.players)]:
            engine.observe(st, player)  # looking may run play up to the pending decision
            before = st.dumps()
            obs = engine.observe(st, player)
            assert st.dumps() == before, "a second look changed the game"
            expected = json.loads(json.dumps(obs))
            _scribble(obs)
            assert st.dumps() == before, "scribbling on an observation changed the game"
            assert engine.observe(st, player) == expected
            checked += 1
    assert checked > 10


def test_a_state_copy_shares_nothing_with_its_original(engine: Engine) -> None:
    looked = False
    for seed in (1, 2):
        for st in _states(engine, seed):
            looked = looked or any(st.seen)
            before = st.dumps()
            twin = st.copy()
            assert twin.dumps() == before
            for name in ("zones", "faces", "counters", "stack", "armed", "answers", "seen", "result", "out"):
                _scribble(getattr(twin, name))
            assert st.dumps() == before, "changing a copy changed its original"
    if "rule-the-roost" in engine.model.files[-1][0]:  # the shipped game with private looks
        assert looked, "no private look was taken: the 'seen' data went untested"


def test_a_redacted_header_hides_the_faces_of_dice_in_hidden_zones() -> None:
    engine = load_game(ROOT / "games" / "chicken-eggspansion.rules")
    position = json.loads((ROOT / "examples" / "eggspansion-hatching.position.json").read_text(encoding="utf-8"))
    position.pop("comment")
    position["faces"] = {"Orange#3": "Fox", "Yellow#1": "Egg"}  # Orange#3 is in the hidden bag, Yellow#1 in the coop
    header = {"type": "header", "players": 2, "seed": 4, "position": position}
    for view in (None, 0, 1):
        shown = redacted_header(engine, header, view)
        assert shown["position"]["faces"]["Orange#3"] == "hidden"
        assert shown["position"]["faces"]["Yellow#1"] == "Egg"
        assert "Fox" not in json.dumps(shown)
        assert "seed" not in shown
