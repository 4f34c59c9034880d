"""Proof by agreement: games written from OpenSpiel's rules have OpenSpiel's trees and values.

Kuhn poker, Leduc poker and Goofspiel (4 cards) in ``examples/`` are walked whole, by
rulelang's engine and by pyspiel's native game (forced nodes skipped; native card ids
mapped to the kinds rulelang draws by): equal node counts by kind, equal exact expected
returns and equal distributions of returns when every player picks uniformly at random.
"""

from __future__ import annotations

import functools
from fractions import Fraction

import pytest
from agreement_support import (
    BLACKJACK,
    GOOFSPIEL,
    KUHN,
    LEDUC,
    Walk,
    interval,
    sample_engine,
    sample_native,
    value_engine,
    value_native,
    walk_engine,
    walk_file,
    walk_native,
)

from rulelang import load_game

pyspiel = pytest.importorskip("pyspiel", reason="needs the openspiel extra")

NATIVE = {
    # the rules file, pyspiel's game, and how a native chance outcome maps to a rulelang kind
    "kuhn": (KUHN, "kuhn_poker", lambda state, action: action),
    "leduc": (LEDUC, "leduc_poker", lambda state, action: action // 2),  # cards 2r, 2r+1: two suits of rank r
    "goofspiel": (GOOFSPIEL, "turn_based_simultaneous_game(game=goofspiel(num_cards=4))",
                  lambda state, action: action),
}

# the expected returns under uniform play, worked out once (Leduc's -5/64 is the figure)
KNOWN = {
    "kuhn": (Fraction(1, 8), Fraction(-1, 8)),
    "leduc": (Fraction(-5, 64), Fraction(5, 64)),
    "goofspiel": (Fraction(0), Fraction(0)),
}


@functools.cache
def walked(name: str) -> tuple[str, Walk, Walk]:
    """The game's name, the walk of its rulelang tree and the walk of pyspiel's (once per test run)."""
    path, native, kind_of = NATIVE[name]
    return name, walk_file(path), walk_native(pyspiel.load_game(native), kind_of)


@pytest.fixture(params=sorted(NATIVE))
def walks(request: pytest.FixtureRequest) -> tuple[str, Walk, Walk]:
    """The walks of one game."""
    return walked(request.param)


def test_node_counts_by_kind(walks: tuple) -> None:
    name, ours, theirs = walks
    assert ours.counts() == theirs.counts(), name
    assert min(ours.counts().values()) > 0


def test_expected_returns_under_uniform_play(walks: tuple) -> None:
    name, ours, theirs = walks
    assert ours.values == theirs.values == KNOWN[name], name
    assert all(isinstance(v, Fraction) for v in ours.values)


def test_distribution_of_returns_under_uniform_play(walks: tuple) -> None:
    name, ours, theirs = walks
    assert ours.outcomes == theirs.outcomes, name
    assert sum(ours.outcomes.values()) == 1


def test_goofspiel_draw_probability() -> None:
    """Goofspiel's values are 0 by symmetry; its draws are not: they come with probability 7/36 (as natively)."""
    _name, ours, _theirs = walked("goofspiel")
    assert ours.outcomes[(Fraction(0), Fraction(0))] == Fraction(7, 36)


def test_forced_nodes_are_what_skip_forced_removes() -> None:
    """Walked with its forced nodes, Goofspiel has the issue's 13,824 extra chance and 27,648 extra decisions."""
    every = walk_engine(load_game(GOOFSPIEL), 2, skip_forced=False).counts()
    skipped = walked("goofspiel")[1].counts()
    assert every["chance"] - skipped["chance"] == 13_824
    assert every["decision"] - skipped["decision"] == 27_648
    assert every["terminal"] == skipped["terminal"]


# Blackjack -----------------------------------------------------------------------------------
# Its tree is too big to walk whole in the normal suite (892,745 distinct states by rank), so:
# exact values from a few deals, the whole game sampled, and (opt-in) the whole game exactly.

RANKS = "A23456789TJQK"  # OpenSpiel's card id is suit * 13 + the rank's index here
RANK_KINDS = ["Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack", "Queen", "King"]
# pyspiel's blackjack under uniform play, exactly: computed once by value_native over every state
# (892,745 of them, by rank; 4 minutes here); test_blackjack_whole_game_exactly checks rulelang's
BLACKJACK_VALUE = Fraction(-394161100263046256697593, 1003828431186244984320000)  # -0.39265783...


def blackjack_key(state: object) -> tuple:
    """What decides the rest of a native Blackjack game: the phase, who acts, the ranks each side holds."""
    lines = state.to_string().splitlines()  # type: ignore[attr-defined]
    hands = [tuple(sorted(RANKS.index(card[1]) for card in line.split("Cards:")[1].split())) for line in lines[2:4]]
    return (lines[0], state.current_player(), *hands)  # type: ignore[attr-defined]


def blackjack_from(deal: str) -> tuple[tuple[Fraction, ...], tuple[Fraction, ...]]:
    """Exact expected returns after ``deal`` (player's two cards, the hole card, the up card), rulelang's and native."""
    engine = load_game(BLACKJACK)
    st = engine.new_state(1)
    for rank in deal:
        engine.apply(st, RANK_KINDS[RANKS.index(rank)])
    state = pyspiel.load_game("blackjack").new_initial_state()
    used: set[int] = set()
    for rank in deal:
        card = next(RANKS.index(rank) + 13 * suit for suit in range(4) if RANKS.index(rank) + 13 * suit not in used)
        used.add(card)
        state.apply_action(card)
    return value_engine(engine, st), value_native(state, lambda s, a: a % 13, blackjack_key)


@pytest.mark.parametrize(("deal", "value"), [
    ("T9T7", Fraction(191, 2256)),                 # 19 against a dealer showing T
    ("A6A6", Fraction(-3687952039, 23561303040)),  # soft 17 against a soft 17, which stands
    ("T695", Fraction(-174949001, 642580992)),     # 16 against 14: the dealer must draw
])
def test_blackjack_exact_after_a_deal(deal: str, value: Fraction) -> None:
    ours, theirs = blackjack_from(deal)
    assert ours == theirs == (value,)


def test_blackjack_expected_return_in_the_native_interval() -> None:
    """3,000 rulelang games' mean is in the 99% interval of 2,000 native games; the exact value is in rulelang's."""
    theirs = interval([r[0] for r in sample_native(pyspiel.load_game("blackjack"), 2000, seed=0)])
    games = sample_engine(load_game(BLACKJACK), 1, 3000, seed=0)
    ours = [float(r[0]) for r in games]
    mean = sum(ours) / len(ours)
    assert theirs[0] <= mean <= theirs[1]
    low, high = interval(ours)
    assert low <= BLACKJACK_VALUE <= high
    assert {r[0] for r in games} == {-1, 0, 1}


@pytest.mark.solver
def test_blackjack_whole_game_exactly() -> None:
    """The whole game's exact value under uniform play is pyspiel's (a long run: more than half an hour of CPU)."""
    engine = load_game(BLACKJACK)
    assert value_engine(engine, engine.new_state(1)) == (BLACKJACK_VALUE,)


@pytest.mark.solver
@pytest.mark.parametrize("deal", ["83T2", "AA55"])
def test_blackjack_exact_after_a_long_deal(deal: str) -> None:
    """Deals whose player may hit many times: a minute or two each."""
    ours, theirs = blackjack_from(deal)
    assert ours == theirs
