"""An ask's answers listed and picked in one loop (``answers.ANSWERS_AT_ONCE``) while play records
(``answers.ANSWERS_RECORDED``: the recorder told of each answer, the step counted per answer) and in a
search's rollouts (``answers.ANSWERS_BLIND``: ``Picking.blind``, pickers that read nothing but count
their calls, called for the forced answers too), against the code written without them: the same traces
(digests included, kept in a list or handed on), the same games, the same MCTS choices and rollouts,
the same stops at a step limit. A broken variant of each plays other games here.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from lever_support import EXAMPLES, GAMES, build, flagged_builds, mcts_choices, plain, trace

from rulelang.agents.base import RandomAgent
from rulelang.compile import answers
from rulelang.engine import determinize
from rulelang.engine.determinize import random_playout, random_step
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError
from rulelang.play import ListRecorder, play
from rulelang.rng import Rng

REPO = Path(__file__).resolve().parents[2]
FLAGS = [(answers, "ANSWERS_RECORDED"), (answers, "ANSWERS_BLIND")]
REAL_TOOK, REAL_PICKER = ListRecorder.took, determinize.counting_picker


def listed(engine: Engine, players: int, seed: int, digests: bool = True, max_steps: int = 100_000) -> Any:
    """The events of a random game kept in a list (``ListRecorder``, as ``benchmarks/record.py`` and
    ``run`` keep them), its final state, and the error if the step limit stopped it."""
    events: list[dict[str, Any]] = []
    st = engine.new_state(players)
    try:
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, events=events, digests=digests,
             max_steps=max_steps)
        error = ""
    except RulelangError as exc:
        error = str(exc)
    return events, st.dumps(), error


def rollouts(engine: Engine, players: int, seed: int) -> list[Any]:
    """Rollouts of 1 to 40 decisions from the positions of a seeded game: how many each took, the state
    each leaves (its chance stream taken off at the last decision) and the stream's state after."""
    st = engine.new_state(players)
    walk = Rng(seed, stream=7)
    out: list[Any] = []
    while not st.over and len(out) < 120:
        for decisions in (1, 2, 3, 5, 8, 40):
            copy, rng = st.copy(), Rng(seed * 100 + decisions, stream=9)
            out.append((decisions, random_playout(engine, copy, rng, decisions, lean=True), copy.dumps(), rng._state))
        random_step(engine, st, walk)
    return out


@pytest.mark.parametrize("game", GAMES)
def test_every_game_records_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    assert changed or game != "rule-the-roost"  # (the game with an ask whose answers are taken at once)
    players = sorted({new.model.min_players, new.model.default_players, new.model.max_players})
    for n, seed in itertools.product(players, range(5) if changed else ()):  # (the same module plays the same games)
        assert listed(new, n, seed) == listed(old, n, seed), (n, seed)
        assert listed(new, n, seed, digests=False) == listed(old, n, seed, digests=False), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_records_as_without_the_rewrites(example: str) -> None:
    path = REPO / example
    new, old, changed = flagged_builds(path, FLAGS)
    players = new.model.default_players
    for seed in range(5 if changed else 0):  # (the same module plays the same games)
        assert listed(new, players, seed) == listed(old, players, seed), seed
        assert trace(new, players, seed) == trace(old, players, seed), seed


@pytest.mark.parametrize("game", GAMES)
def test_rollouts_and_mcts_choose_as_without_the_rewrites(game: str) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old, changed = flagged_builds(path, FLAGS)
    if not changed:  # (the same module chooses and rolls out the same)
        return
    players = new.model.default_players
    got = mcts_choices(new, players)
    assert got and got == mcts_choices(old, players)
    for seed in range(2):
        assert rollouts(new, players, seed) == rollouts(old, players, seed), seed


@pytest.mark.parametrize("players", [2, 4])
def test_a_step_limit_stops_a_recording_where_it_did(players: int) -> None:
    """Stopped at every step of its first 40 (amid an ask's answers too), the same events and state."""
    path = REPO / "games" / "rule-the-roost.rules"
    new, old = flagged_builds(path, FLAGS)[:2]
    for seed, limit in itertools.product(range(2), range(1, 41)):
        got = listed(new, players, seed, max_steps=limit)
        assert "did not end within" in got[2]
        assert got == listed(old, players, seed, max_steps=limit), (seed, limit)


def test_rule_the_roost_records_and_rolls_out_through_the_answers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Recording and rollouts take the answers at once: the one-at-a-time loop keeps the answers listed
    (``State.choice_cache``) where the recorder and the rollout's picker are called, the loop at once does not."""
    path = REPO / "games" / "rule-the-roost.rules"
    seen: dict[bool, dict[str, int]] = {}
    answered = ("let it be", "call the farmer")
    for on in (True, False):
        engine = build(path, FLAGS, on)
        counts = seen.setdefault(on, {"told listed": 0, "told at once": 0, "picked listed": 0})

        def took(self: ListRecorder, st: Any, seat: int, action: str, counts: dict = counts) -> None:
            if action in answered:
                counts["told listed" if st.choice_cache is not None else "told at once"] += 1
            REAL_TOOK(self, st, seat, action)

        with monkeypatch.context() as patch:
            patch.setattr(ListRecorder, "took", took)
            listed(engine, 4, 1)

        def counting(rng: Rng, counts: dict = counts) -> Any:
            picker, begin, count = REAL_PICKER(rng)
            held: list[Any] = []

            def pick(n: int) -> int:
                cache = held[0].choice_cache
                counts["picked listed"] += cache is not None and any(a in cache for a in answered)
                return picker(n)

            def start(st: Any, allowed: int) -> None:
                held[:] = [st]
                begin(st, allowed)

            return pick, start, count

        with monkeypatch.context() as patch:
            patch.setattr(determinize, "counting_picker", counting)
            for seed in range(3):
                random_playout(engine, engine.new_state(4), Rng(seed), 400)
    assert seen[True]["told at once"] > 50 and seen[True]["told listed"] == 0, seen
    assert seen[False]["told at once"] == 0 and seen[False]["told listed"] > 50, seen
    assert seen[False]["picked listed"] > 100 and seen[True]["picked listed"] == 0, seen


def _broken(path: Path, monkeypatch: pytest.MonkeyPatch, *edits: tuple[str, str]) -> Engine:
    real = answers.AnswerEmitter.at_once_loop

    def edited(text: Any) -> Any:
        for old, new in edits:
            text = text.replace(old, new) if type(text) is str else text
        return text

    def wrong(self: Any, L: list, *args: Any) -> None:
        start = len(L)
        real(self, L, *args)
        L[start:] = [(i, edited(text), sp) for i, text, sp in L[start:]]

    with monkeypatch.context() as patch:
        patch.setattr(answers.AnswerEmitter, "at_once_loop", wrong)
        engine = build(path, FLAGS)
    assert all(new in engine.program.generated.source for _old, new in edits)
    return engine


def test_a_step_counted_after_the_answers_records_other_traces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a recording loop that counts the step before telling the recorder."""
    path = REPO / "games" / "rule-the-roost.rules"
    right = build(path, FLAGS)
    wrong = _broken(path, monkeypatch, (".took(st, ", ".took(st.__setattr__('step', st.step + 1) or st, "),
                    ("st.step += 1", "st.step += 0"))
    assert any(listed(wrong, 4, seed) != listed(right, 4, seed) for seed in range(3))


def test_forced_answers_not_counted_roll_out_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    """The rollouts above would notice blind pickers not called for a forced answer (not counted)."""
    path = REPO / "games" / "rule-the-roost.rules"
    right = build(path, FLAGS)
    wrong = _broken(path, monkeypatch, ("if not _one", "if False and not _one"))
    assert rollouts(wrong, 4, 0) != rollouts(right, 4, 0)
