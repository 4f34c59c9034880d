"""Exact walks over whole game trees, for rulelang's engine and for pyspiel's native games.

Both walkers count the tree's nodes by kind (decision, chance, terminal) and compute each
player's exact expected return when every player picks uniformly among her legal actions.
Forced nodes (a decision with one legal action, chance with one outcome) are applied and
not counted, as the adapters' ``skip_forced`` does. The native walker maps each chance
outcome to a kind (``kind_of``), so cards alike in the game (Leduc's two Jacks) are one
outcome with their probabilities added up, as rulelang draws identical cards by kind.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from rulelang import load_game
from rulelang.engine.engine import Engine
from rulelang.engine.state import State

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
KUHN = EXAMPLES / "kuhn-poker" / "kuhn-poker.rules"
LEDUC = EXAMPLES / "leduc-poker" / "leduc-poker.rules"
GOOFSPIEL = EXAMPLES / "goofspiel" / "goofspiel.rules"
BLACKJACK = EXAMPLES / "blackjack" / "blackjack.rules"

DENOMINATOR = 10**6  # native probabilities are floats: read back as the nearest fraction this small


@attrs.define
class Walk:
    """What a walk over a whole tree found."""

    decision: int = 0
    chance: int = 0
    terminal: int = 0
    values: tuple[Fraction, ...] = ()
    outcomes: dict[tuple[Fraction, ...], Fraction] = attrs.field(factory=dict)  # returns -> probability

    def reach(self, returns: tuple[Fraction, ...], p: Fraction) -> tuple[Fraction, ...]:
        """Count a terminal node reached with probability ``p``; give back its returns."""
        self.terminal += 1
        self.outcomes[returns] = self.outcomes.get(returns, Fraction(0)) + p
        return returns

    def counts(self) -> dict[str, int]:
        """The node counts by kind."""
        return {"decision": self.decision, "chance": self.chance, "terminal": self.terminal}


def rank_payoffs(engine: Engine, st: State) -> tuple[Fraction, ...]:
    """Each player's payoff from the final ranking, as fractions (the default payoff without a declaration)."""
    assert st.result is not None
    ranks = {row["player"]: row["rank"] for row in st.result["standings"]}
    mine = [ranks[f"P{p + 1}"] for p in range(st.players)]
    if st.players < 2:
        return (Fraction(0),) * st.players
    return tuple(Fraction(sum(1 for r in mine if r > own) - sum(1 for r in mine if r < own), st.players - 1)
                 for own in mine)


def engine_payoffs(engine: Engine, st: State) -> tuple[Fraction, ...]:
    """The game's declared payoffs when the engine knows them (``Engine.payoffs``), else the rank payoff."""
    payoffs = getattr(engine, "payoffs", None)
    if payoffs is not None:
        return tuple(Fraction(v) for v in payoffs(st))
    return rank_payoffs(engine, st)


def chance_outcomes(engine: Engine, st: State) -> list[tuple[Any, Fraction]]:
    """The pending chance decision's outcomes with their exact probabilities."""
    d = engine.pending(st)
    assert d is not None and d.kind == "chance"
    if d.pool is not None:
        raise NotImplementedError("the agreement games draw cards one at a time; a shuffle has n! orders")
    assert d.labels is not None
    return [(label, p) for label, p in zip(d.labels, d.probabilities()) if p > 0]


def walk_engine(engine: Engine, players: int,
                payoff: Callable[[Engine, State], tuple[Fraction, ...]] = engine_payoffs,
                skip_forced: bool = True) -> Walk:
    """Walk the whole tree of ``engine``'s game for ``players`` players (forced nodes skipped).

    ``payoff`` gives a finished game's returns (default: the declared payoffs, else the ranking's);
    ``skip_forced=False`` counts forced nodes too.
    """
    walk = Walk()

    def visit(st: State, reach: Fraction) -> tuple[Fraction, ...]:
        while True:
            if st.over:
                return walk.reach(payoff(engine, st), reach)
            d = engine.pending(st)
            assert d is not None
            if d.kind == "chance":
                outcomes = chance_outcomes(engine, st)
                if len(outcomes) == 1 and skip_forced:
                    engine.apply(st, outcomes[0][0])
                    continue
                walk.chance += 1
                total = [Fraction(0)] * players
                for outcome, p in outcomes:
                    child = st.copy()
                    engine.apply(child, outcome)
                    total = [t + p * v for t, v in zip(total, visit(child, reach * p))]
                return tuple(total)
            labels = list(d.labels or [])
            if len(labels) == 1 and skip_forced:
                engine.apply(st, labels[0], player=d.player)
                continue
            walk.decision += 1
            total = [Fraction(0)] * players
            for label in labels:
                child = st.copy()
                engine.apply(child, label, player=d.player)
                total = [t + v for t, v in zip(total, visit(child, reach / len(labels)))]
            return tuple(t / len(labels) for t in total)

    walk.values = visit(engine.new_state(players), Fraction(1))
    return walk


def walk_file(path: Path, players: int | None = None, options: dict[str, str] | None = None) -> Walk:
    """Walk the whole tree of the game in ``path``."""
    engine = load_game(path, options)
    return walk_engine(engine, players or engine.model.default_players)


def native_probability(p: float) -> Fraction:
    """A native chance probability (a float such as 1/6) as the fraction it stands for."""
    return Fraction(p).limit_denominator(DENOMINATOR)


def walk_native(game: Any, kind_of: Callable[[Any, int], Any] = lambda state, action: action) -> Walk:
    """Walk the whole tree of a pyspiel game, its chance outcomes grouped by ``kind_of(state, action)``.

    Outcomes of one kind must lead to alike subtrees (same shape, same returns): the walk
    follows the first of them with the kind's probability.
    """
    players = game.num_players()
    walk = Walk()

    def visit(state: Any, reach: Fraction) -> tuple[Fraction, ...]:
        while True:
            if state.is_terminal():
                return walk.reach(tuple(Fraction(r).limit_denominator(DENOMINATOR) for r in state.returns()), reach)
            if state.is_chance_node():
                groups: dict[Any, list] = {}
                for action, p in state.chance_outcomes():
                    if p > 0:
                        group = groups.setdefault(kind_of(state, action), [action, Fraction(0)])
                        group[1] += native_probability(p)
                if len(groups) == 1:
                    state.apply_action(next(iter(groups.values()))[0])
                    continue
                walk.chance += 1
                total = [Fraction(0)] * players
                for action, p in groups.values():
                    child = state.child(action)
                    total = [t + p * v for t, v in zip(total, visit(child, reach * p))]
                return tuple(total)
            legal = state.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            walk.decision += 1
            total = [Fraction(0)] * players
            for action in legal:
                total = [t + v for t, v in zip(total, visit(state.child(action), reach / len(legal)))]
            return tuple(t / len(legal) for t in total)

    walk.values = visit(game.new_initial_state(), Fraction(1))
    return walk

