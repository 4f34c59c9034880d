"""The fast ways of a search, each the same as the way it replaces: rollouts' lean ends (ranks and
payoffs only) against the full standings, rewards from them against ``payoff_rewards``, copies of
a template by its shape against ``State.copy``, asks answered without a Decision, and a step limit
a picker lowers while play goes on against taking the steps one at a time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from rulelang.agents.search import lean_rewards, payoff_rewards
from rulelang.compile.program import ASK
from rulelang.engine.determinize import random_playout, random_step
from rulelang.engine.state import Picking
from rulelang.game import load_game
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parents[2]
GAMES = [*(f"games/{p.name}" for p in sorted((ROOT / "games").glob("*.rules"))),
         "examples/kuhn-poker/kuhn-poker.rules", "examples/leduc-poker/leduc-poker.rules",
         "examples/goofspiel/goofspiel.rules", "examples/blackjack/blackjack.rules",
         *(f"examples/new-games/{p.name}" for p in sorted((ROOT / "examples/new-games").glob("*.rules")))]


def _counts(engine: Any) -> list[int]:
    """The default player count and the fewest the game takes."""
    return sorted({engine.model.default_players, engine.model.min_players})


@pytest.mark.parametrize("game", GAMES)
def test_lean_ends_are_the_standings_ranks_and_payoffs(game: str) -> None:
    engine = load_game(ROOT / game)
    for players in _counts(engine):
        for seed in range(12):
            full, lean = engine.new_state(players), engine.new_state(players)
            fa, fb = Rng(seed, stream=4), Rng(seed, stream=4)
            taken = random_playout(engine, full, fa, 10**6)
            assert random_playout(engine, lean, fb, 10**6, lean=True) == taken
            assert full.over and lean.over and fa.next32() == fb.next32()  # the same game, the same draws
            assert full.table_digest() == lean.table_digest()
            result, short = full.result, lean.result
            assert result is not None and short is not None
            ranks = {int(r["player"][1:]) - 1: r["rank"] for r in result["standings"]}
            assert short["ranks"] == [ranks[p] for p in range(players)] == engine.ranks(full)
            assert ("payoffs" in short) == ("payoffs" in result)
            if "payoffs" in result:
                assert [str(v) for v in short["payoffs"]] == [str(v) for v in result["payoffs"]]
            assert lean_rewards(engine, players, short) == payoff_rewards(engine, full)


@pytest.mark.parametrize("game", GAMES)
def test_a_template_copied_by_its_shape_is_its_copy(game: str) -> None:
    engine = load_game(ROOT / game)
    st = engine.new_state(engine.model.default_players)
    rng = Rng(2, stream=6)
    checked = 0
    while not st.over and checked < 25:
        shape = st.shape()
        a, b = st.copy(), st.copy_shaped(shape)
        assert a.to_json() == b.to_json()
        for name in type(st).__slots__:
            assert getattr(a, name) == getattr(b, name), name
        # a deep copy: changing the copy's lists leaves the original as it was
        before = st.to_json()
        for z in b.zones:
            for part in (z if z and isinstance(z[0], list) else [z]):
                part.append(-1)
        for f in b.stack:
            for v in f[2]:
                if isinstance(v, list):
                    v.append(-1)
        assert st.to_json() == before
        checked += 1
        random_step(engine, st, rng)
    assert checked > 0


@pytest.mark.parametrize("game", [g for g in GAMES if "rooster" in g or "roost" in g or "barnyard.rules" in g
                                  or "sushi" in g])
def test_answers_of_is_legal_actions_at_an_ask(game: str) -> None:
    engine = load_game(ROOT / game)
    asks = 0
    for seed in range(6):
        st = engine.new_state(engine.model.default_players)
        rng = Rng(seed, stream=8)
        while not st.over and st.step < 3000:
            fr = st.stack[-1]
            if engine.code[fr[0]][fr[1]][0] == ASK:
                for p in range(st.players):
                    assert engine.answers_of(st.copy(), p) == engine.legal_actions(st.copy(), p)
                asks += 1
            else:
                assert engine.answers_of(st, 0) is None
            random_step(engine, st, rng)
    assert asks > 0


class _Lowering:
    """Pickers (options listed) that draw from ``rng`` and lower the step limit at their ``k``-th pick."""

    def __init__(self, st: Any, rng: Rng, k: int) -> None:
        self.st, self.rng, self.k, self.taken = st, rng, k, 0
        self.picking = Picking([self.pick] * st.players, 1 << 62, listed=True)

    def pick(self, n: int) -> int:
        self.taken += 1
        if self.taken == self.k:
            self.picking.limit = self.st.step + 1
        return self.rng.below(n)

    def play(self, engine: Any) -> int:
        """Play on until the limit stops play; the decisions taken."""
        st = self.st
        st.picking, st.chance_rng = self.picking, self.rng
        try:
            engine.resume(st)
            while not st.over and self.taken < self.k and engine.is_chance(st):  # (a chance the loop leaves)
                engine.apply_random(st, self.rng, events=False)  # (and play goes on by the pickers)
        finally:
            st.picking = st.chance_rng = None
        return self.taken


@pytest.mark.parametrize("game", GAMES)
def test_a_limit_lowered_by_a_picker_stops_play_at_the_next_decision(game: str) -> None:
    """Pickers that lower the step limit after their k-th pick leave the state that k decisions taken
    one at a time (and the chance up to the next decision) leave, with the same draws."""
    engine = load_game(ROOT / game)
    players = engine.model.default_players
    for k in (1, 2, 5):
        for seed in range(3):
            fast, slow = engine.new_state(players), engine.new_state(players)
            ra, rb = Rng(seed, stream=2), Rng(seed, stream=2)
            taken = _Lowering(fast, ra, k).play(engine)
            done = 0
            while not slow.over and done < taken:
                if engine.is_chance(slow):
                    engine.apply_random(slow, rb, events=False)
                    continue
                size = engine.choice_size(slow)
                if size is not None:
                    slow.chance_rng = rb
                    engine.apply_index(slow, rb.below(size[1]))
                    slow.chance_rng = None
                else:
                    asked = engine.ask_answers(slow)
                    assert asked is not None
                    slow.chance_rng = rb
                    engine.answer(slow, asked, rb.below(len(asked[1])))
                    slow.chance_rng = None
                done += 1
            for st, r in ((fast, ra), (slow, rb)):  # the chance on the way to the next decision
                while not st.over and engine.is_chance(st):
                    engine.apply_random(st, r, events=False)
            assert fast.to_json() == slow.to_json()
            assert ra.next32() == rb.next32()
