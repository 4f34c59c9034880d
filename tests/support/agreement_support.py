"""Exact walks over whole game trees, for rulelang's engine and for pyspiel's native games.

Both walkers count the tree's nodes by kind (decision, chance, terminal) and compute each
player's exact expected return when every player picks uniformly among her legal actions.
Forced nodes (a decision with one legal action, chance with one outcome) are applied and
not counted, as the adapters' ``skip_forced`` does. The native walker maps each chance
outcome to a kind (``kind_of``), so cards alike in the game (Leduc's two Jacks) are one
outcome with their probabilities added up, as rulelang draws identical cards by kind.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import attrs

from rulelang import load_game
from rulelang.engine.engine import Engine
from rulelang.engine.state import State

ROOT = Path(__file__).resolve().parents[2]
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
    forced: int = 0  # forced nodes the walk applied and did not count
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
                    walk.forced += 1
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
                walk.forced += 1
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
                    walk.forced += 1
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
                walk.forced += 1
                state.apply_action(legal[0])
                continue
            walk.decision += 1
            total = [Fraction(0)] * players
            for action in legal:
                total = [t + v for t, v in zip(total, visit(state.child(action), reach / len(legal)))]
            return tuple(t / len(legal) for t in total)

    walk.values = visit(game.new_initial_state(), Fraction(1))
    return walk



def state_key(st: State) -> str:
    """What decides the rest of a game (the step count and the looks so far left out): equal keys, equal futures."""
    return json.dumps([st.zones, st.faces, st.counters, st.current, st.stack, st.answers, st.over, st.out],
                      default=str, separators=(",", ":"))


def value_engine(engine: Engine, st: State,
                 payoff: Callable[[Engine, State], tuple[Fraction, ...]] = engine_payoffs) -> tuple[Fraction, ...]:
    """Each player's exact expected return from ``st`` under uniform play, equal states computed once."""
    memo: dict[str, tuple[Fraction, ...]] = {}

    def visit(st: State) -> tuple[Fraction, ...]:
        if st.over:
            return payoff(engine, st)
        key = state_key(st)
        if key in memo:
            return memo[key]
        d = engine.pending(st)
        assert d is not None
        if d.kind == "chance":
            pairs = [(p, outcome) for outcome, p in chance_outcomes(engine, st)]
        else:
            labels = list(d.labels or [])
            pairs = [(Fraction(1, len(labels)), label) for label in labels]
        total = [Fraction(0)] * st.players
        for p, action in pairs:
            child = st.copy()
            engine.apply(child, action, player=None if d.kind == "chance" else d.player)
            total = [t + p * v for t, v in zip(total, visit(child))]
        memo[key] = out = tuple(total)
        return out

    return visit(st)


def value_native(state: Any, kind_of: Callable[[Any, int], Any], key: Callable[[Any], Any]) -> tuple[Fraction, ...]:
    """Each player's exact expected return from a pyspiel ``state`` under uniform play, memoized on ``key(state)``."""
    memo: dict[Any, tuple[Fraction, ...]] = {}
    players = state.get_game().num_players()

    def visit(state: Any) -> tuple[Fraction, ...]:
        if state.is_terminal():
            return tuple(Fraction(r).limit_denominator(DENOMINATOR) for r in state.returns())
        k = key(state)
        if k in memo:
            return memo[k]
        if state.is_chance_node():
            groups: dict[Any, list] = {}
            for action, p in state.chance_outcomes():
                group = groups.setdefault(kind_of(state, action), [native_probability(p), action])
                if group[1] != action:
                    group[0] += native_probability(p)
            pairs = [(p, action) for p, action in groups.values()]
        else:
            legal = state.legal_actions()
            pairs = [(Fraction(1, len(legal)), action) for action in legal]
        total = [Fraction(0)] * players
        for p, action in pairs:
            total = [t + p * v for t, v in zip(total, visit(state.child(action)))]
        memo[k] = out = tuple(total)
        return out

    return visit(state)


def sample_engine(engine: Engine, players: int, games: int, seed: int = 0) -> list[tuple[Fraction, ...]]:
    """The payoffs of ``games`` seeded games where every player picks uniformly at random."""
    from rulelang.rng import Rng

    out = []
    for g in range(games):
        st = engine.new_state(players)
        chance, pick = Rng(seed + g, stream=0), Rng(seed + g, stream=1)
        while not st.over:
            if engine.is_chance(st):
                engine.apply_random(st, chance, events=False)
                continue
            d = engine.pending(st)
            assert d is not None and d.labels is not None
            engine.apply(st, d.labels[pick.below(len(d.labels))], player=d.player)
        out.append(engine_payoffs(engine, st))
    return out


def sample_native(game: Any, games: int, seed: int = 0) -> list[tuple[float, ...]]:
    """The returns of ``games`` seeded games of a pyspiel game where every player picks uniformly at random."""
    import random

    rng = random.Random(seed)
    out = []
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        out.append(tuple(state.returns()))
    return out


def interval(values: list[float], z: float = 2.576) -> tuple[float, float]:
    """The mean's confidence interval (99% for the default z), from the sample's standard deviation."""
    n = len(values)
    mean = sum(values) / n
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
    half = z * sd / n**0.5
    return mean - half, mean + half
