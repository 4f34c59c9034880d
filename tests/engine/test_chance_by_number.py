"""The engine's fast paths for an adapter's chance nodes and its deferred result play exactly as the
general ones: a random draw counted and applied by kind number (``draw_counts``, ``apply_draw``), a
shuffle's kinds by number (``shuffle_kinds``) and its order applied by them (``apply_shuffle``), and
the result of a game whose end deferred it (``State.defer_result``: ``payoffs`` from the declared
payoffs alone, ``settle_result`` the result the end would have written).

Each seeded game is played twice, outcome for outcome: once by ``pending`` and ``apply`` of the
outcome's label (the general path), once by the fast paths; the states must be equal after every
step, and the payoffs and results at the end."""

from __future__ import annotations

import functools
from collections import Counter
from pathlib import Path

import pytest
from scripted import ROOT

from rulelang import load_game
from rulelang.compile.program import DRAW, SHUFFLE
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.rng import Rng

GAMES = [*sorted((ROOT / "games").glob("*.rules")), *sorted((ROOT / "examples").glob("*/*.rules"))]
SEEDS = range(12)


@functools.cache
def engine_for(path: Path) -> Engine:
    """The game at ``path``, loaded once."""
    return load_game(path)


def _op(engine: Engine, st: State) -> int:
    fr = st.stack[-1]
    return engine.code[fr[0]][fr[1]][0]


def _twice(engine: Engine, seed: int) -> tuple[State, State, Counter]:
    """One seeded random game played by the general path and by the fast paths, checked step by step;
    the two finished states and how many draws and shuffles the fast paths took."""
    players = engine.model.default_players
    slow = engine.new_state(players)
    fast = engine.new_state(players)
    fast.defer_result = True
    pick = Rng(seed, stream=1)
    taken: Counter = Counter()
    for _ in range(5000):
        if slow.over:
            break
        if engine.is_chance(slow):
            d = engine.pending(slow)
            assert d is not None and d.kind == "chance"
            op = _op(engine, fast)
            if op == DRAW:
                assert d.labels is not None and d.weights is not None
                assert engine.draw_counts(fast) == [(engine.kind_by_name[k], w) for k, w in zip(d.labels, d.weights)]
            if op == SHUFFLE:
                names = [engine.model.kinds[k].name for k in engine.shuffle_kinds(fast)]
                assert names == d.pool
            outcome = d.sample(pick)
            engine.apply(slow, outcome)
            if op == DRAW:
                assert engine.apply_draw(fast, engine.kind_by_name[outcome])
                taken["draw"] += 1
            elif op == SHUFFLE:
                engine.apply_shuffle(fast, [engine.kind_by_name[name] for name in outcome])
                taken["shuffle"] += 1
            else:
                engine.apply(fast, outcome)
        else:
            size = engine.choice_size(slow)
            if size is None:
                answers = engine.ask_answers(slow)
                assert answers is not None
                i = pick.below(len(answers[1]))
                engine.answer(slow, answers, i)
                engine.answer(fast, engine.ask_answers(fast), i)  # type: ignore[arg-type]
            else:
                i = pick.below(size[1])
                engine.apply_index(slow, i)
                engine.apply_index(fast, i)
        if not slow.over:
            assert fast.to_json() == slow.to_json()
    assert fast.over == slow.over
    return slow, fast, taken


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_draws_by_kind_number_and_deferred_results_play_as_the_general_path(path: Path) -> None:
    engine = engine_for(path)
    ended = 0
    for seed in SEEDS:
        slow, fast, _taken = _twice(engine, seed)
        if not slow.over:
            continue
        ended += 1
        assert not engine.settled(fast) and fast.result in (None, {"no_winner": True})  # deferred: not written
        assert engine.payoffs(fast) == engine.payoffs(slow)  # the declared payoffs alone, or the result written
        engine.settle_result(fast)
        assert engine.settled(fast)
        assert fast.to_json() == slow.to_json()  # the same result (standings, payoffs) as the end writes
        engine.settle_result(fast)  # written once
        assert fast.to_json() == slow.to_json()
    assert ended


def test_the_fast_paths_were_taken() -> None:
    """Kuhn and Leduc poker deal by random draws, Barnyard shuffles its deck: the fast paths ran on them."""
    taken: Counter = Counter()
    for path in (ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules",
                 ROOT / "examples" / "leduc-poker" / "leduc-poker.rules", ROOT / "games" / "barnyard.rules"):
        for seed in range(3):
            taken += _twice(engine_for(path), seed)[2]
    assert taken["draw"] > 20 and taken["shuffle"] >= 3


def test_a_deferred_result_is_written_when_observed_and_copies_keep_the_deferral() -> None:
    engine = engine_for(ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules")
    slow, fast, _taken = _twice(engine, 5)
    copy = fast.copy()
    assert copy.defer_result and not engine.settled(copy)
    seen = engine.observe(copy, 0)
    assert seen["result"] == slow.result  # observing writes it
    assert copy.result == slow.result and not engine.settled(fast)  # (the copy's own; the original still deferred)


def test_payoffs_before_the_end_are_an_error_with_a_deferred_result() -> None:
    engine = engine_for(ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules")
    st = engine.new_state(2)
    st.defer_result = True
    with pytest.raises(RulelangError, match="not over"):
        engine.payoffs(st)
    engine.settle_result(st)  # nothing to write before the end
    assert st.result is None


def test_a_draw_of_a_kind_not_there_changes_nothing() -> None:
    engine = engine_for(ROOT / "examples" / "kuhn-poker" / "kuhn-poker.rules")
    st = engine.new_state(2)
    assert _op(engine, st) == DRAW
    first = engine.draw_counts(st)[0][0]
    assert engine.apply_draw(st, first)  # P1's card: the only one of its kind
    assert _op(engine, st) == DRAW and first not in {k for k, _n in engine.draw_counts(st)}
    before = st.to_json()
    assert not engine.apply_draw(st, first)
    assert st.to_json() == before
