"""The answers of an ``ask`` taken in a block (``DecisionEmitter.answer_listed``, ``answer_same``): a loop
over the players asked that writes who still waits and the decision caches only when it is left, and
a forced answer (one allowed) given without calling the picker where the pickers are ``Rng.pick``
bound methods (``Picking.ones``, ``ones_free``). Every game must be exactly the one played with every
ask left to the engine's loop (which lists and takes each answer itself): the same states, traces
with digests, standings, step counts, errors, stops at the step limit in the middle of an ask, the
same picker calls and the same search choices.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from step_support import played

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.agents.search import MctsAgent
from rulelang.compile import codegen
from rulelang.engine.determinize import counting_picker
from rulelang.engine.engine import Engine
from rulelang.engine.state import Picking, State, ones_free
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.rng import Rng

pytestmark = pytest.mark.usefixtures("at_root")

GAMES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.rules")) + \
    sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*/*.rules"))
WITH_ASKS = [g for g in GAMES if any(line.lstrip().startswith("ask ")
                                     for line in (ROOT / g).read_text(encoding="utf-8").splitlines())]


def careful(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every ask left to the engine's loop: no answers listed beforehand, none taken
    in a block (the engine lists each player's answers and calls the picker for each answer)."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "ask_listed_once", lambda self, L, s, var, slot, asked, ind: None)
        patch.setattr(codegen.CodeGen, "pause_answers",
                      lambda self, L, pc, var, slot, asked, ind, sp: self.pause(L, pc, ind))
        return load_game(path)


_PAIRS: dict[str, tuple[Engine, Engine]] = {}


@pytest.fixture
def pair(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    """(as compiled, with every ask left to the engine's loop) for the game of the test's parameter."""
    game = request.param
    if game not in _PAIRS:
        _PAIRS[game] = (load_game(ROOT / game), careful(ROOT / game, monkeypatch))
    return _PAIRS[game]


def test_the_games_with_asks_take_them_in_blocks() -> None:
    assert {"games/rule-the-roost.rules", "games/rooster-rush.rules", "games/barnyard.rules"} <= set(WITH_ASKS)
    for game, lever in (("games/rule-the-roost.rules", ".ones"), ("games/rooster-rush.rules", ".ones")):
        source = load_game(ROOT / game).program.generated.source
        assert lever in source and "in enumerate(_a" in source, game


def _recorded(engine: Engine, players: int, seed: int, max_steps: int = 100_000) -> tuple[list, str, State]:
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    try:
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, max_steps=max_steps,
             events=events, digests=True)
    except RulelangError as exc:
        return events, str(exc), st
    return events, "", st


@pytest.mark.parametrize("pair", GAMES, indirect=True)
def test_every_game_plays_the_same_games(pair: tuple[Engine, Engine]) -> None:
    fast, slow = pair
    players = fast.model.default_players
    for seed in range(1, 16):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error, seed
        assert got.step == want.step and got.turn == want.turn, seed
        assert got.dumps() == want.dumps(), seed
        if not error:
            assert fast.standings(got) == slow.standings(want), seed


@pytest.mark.parametrize("pair", GAMES, indirect=True)
def test_every_game_records_the_same_traces(pair: tuple[Engine, Engine]) -> None:
    fast, slow = pair
    players = fast.model.default_players
    for seed in range(1, 9):
        got = _recorded(fast, players, seed)
        want = _recorded(slow, players, seed)
        assert got[0] == want[0], seed  # every event, digests included
        assert got[1] == want[1], seed
        assert got[2].dumps() == want[2].dumps(), seed
        assert any(e.get("type") == "digest" for e in got[0]) or got[2].turn <= 1, seed


def _mid_ask(engine: Engine, st: State) -> bool:
    """Whether play stopped at an ask that some of the players asked have answered already."""
    if st.over or not st.stack:
        return False
    fr = st.stack[-1]
    ins = engine.code[fr[0]][fr[1]]
    return ins[0] == codegen.ASK and bool(fr[2][ins[1].pending_slot]) and any(st.answers)


@pytest.mark.parametrize("pair", WITH_ASKS, indirect=True)
def test_a_stop_at_the_step_limit_leaves_the_same_state(pair: tuple[Engine, Engine]) -> None:
    fast, slow = pair
    players = fast.model.default_players
    mid = 0
    for seed in (1, 2, 3):
        for limit in range(1, 90):
            got, error = played(fast, players, seed, max_steps=limit)
            want, want_error = played(slow, players, seed, max_steps=limit)
            assert error == want_error, (seed, limit)
            assert got.dumps() == want.dumps(), (seed, limit)
            assert got.step == want.step and got.answers == want.answers, (seed, limit)
            mid += _mid_ask(slow, want)
            events, rec_error, rec = _recorded(fast, players, seed, max_steps=limit)
            want_events, want_rec_error, want_rec = _recorded(slow, players, seed, max_steps=limit)
            assert (events, rec_error, rec.dumps()) == (want_events, want_rec_error, want_rec.dumps()), (seed, limit)
    assert mid, "no stop in the middle of an ask"


class Counting:
    """An agent that picks by position without a view, counting every call (so a call not made shows)."""

    needs_observation = False

    def __init__(self, seed: int, seat: int) -> None:
        self.rng = Rng(seed, stream=1 + seat)
        self.calls: list[int] = []

    def choose_index(self, n: int) -> int:
        self.calls.append(n)
        return self.rng.pick(n)

    def choose(self, observation: dict[str, Any], legal: list[str]) -> str:  # pragma: no cover
        return legal[self.choose_index(len(legal))]


@pytest.mark.parametrize("pair", WITH_ASKS, indirect=True)
def test_a_picker_that_is_no_random_agent_is_called_for_every_answer(pair: tuple[Engine, Engine]) -> None:
    fast, slow = pair
    players = fast.model.default_players
    ones = 0
    for seed in range(1, 8):
        runs = []
        for engine in (fast, slow):
            agents = [Counting(seed, s) for s in range(players)]
            st = engine.new_state(players)
            play(engine, st, agents, seed)  # type: ignore[arg-type]
            runs.append((st.dumps(), [a.calls for a in agents]))
        assert runs[0] == runs[1], seed
        ones += sum(c.count(1) for c in runs[0][1])
    assert ones  # forced answers (and choices) were asked of the pickers


def test_only_random_agents_pickers_are_free_for_one_option() -> None:
    rng = Rng(3)
    assert ones_free([rng.pick, Rng(4).pick])
    assert not ones_free([])  # (a search's Picking begins empty and is filled in later)

    class Other(Rng):
        def pick(self, n: int) -> int:
            return super().pick(n)

    picker, _begin, _taken = counting_picker(rng)
    for odd in (picker, lambda n: 0, partial(Rng.pick, rng), Other(5).pick, Counting(1, 0).choose_index, Rng.pick,
                staticmethod(Rng.pick)):
        assert not ones_free([rng.pick, odd]), odd
    assert Picking([rng.pick], 10).ones is False  # never assumed


def test_play_with_random_agents_gives_forced_answers_without_calling_their_pickers() -> None:
    engine = load_game(ROOT / "games" / "rule-the-roost.rules")
    seen: list[bool] = []

    class Watching(RandomAgent):
        def __init__(self, seed: int, seat: int) -> None:
            super().__init__(seed, seat)
            pick = self.rng.pick
            self.choose_index = pick  # type: ignore[method-assign]

    st = engine.new_state(4)
    agents = [Watching(5, s) for s in range(4)]
    original = Picking.__init__

    def spy(self: Picking, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        seen.append(self.ones)

    Picking.__init__ = spy  # type: ignore[method-assign]
    try:
        play(engine, st, agents, 5)  # type: ignore[arg-type]
    finally:
        Picking.__init__ = original  # type: ignore[method-assign]
    assert seen == [True]
    assert st.over


@pytest.mark.parametrize("pair", ["games/rule-the-roost.rules", "games/rooster-rush.rules"], indirect=True)
def test_searches_choose_the_same(pair: tuple[Engine, Engine]) -> None:
    fast, slow = pair
    players = fast.model.default_players
    for seed in (1, 2):
        runs = []
        for engine in (fast, slow):
            agents: list[Any] = [RandomAgent(seed, s) for s in range(players)]
            agents[0] = MctsAgent(seed, 0, iters=8, depth=30)
            st = engine.new_state(players)
            events: list[dict[str, Any]] = []
            play(engine, st, agents, seed, events=events)
            runs.append((events, st.dumps(), agents[0].iterations, agents[0].rollout_decisions))
        assert runs[0] == runs[1], seed
