"""Proof by agreement: games written from OpenSpiel's rules have OpenSpiel's trees and values.

Kuhn poker, Leduc poker and Goofspiel (4 cards) in ``examples/`` are walked whole, by
rulelang's engine and by pyspiel's native game (forced nodes skipped; native card ids
mapped to the kinds rulelang draws by): equal node counts by kind, equal exact expected
returns and equal distributions of returns when every player picks uniformly at random.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from agreement_support import GOOFSPIEL, KUHN, LEDUC, walk_engine, walk_file, walk_native

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


@pytest.fixture(scope="module", params=sorted(NATIVE))
def walks(request: pytest.FixtureRequest) -> tuple[str, object, object]:
    """The game's name, the walk of its rulelang tree and the walk of pyspiel's."""
    path, native, kind_of = NATIVE[request.param]
    return request.param, walk_file(path), walk_native(pyspiel.load_game(native), kind_of)


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
    ours = walk_file(GOOFSPIEL)
    assert ours.outcomes[(Fraction(0), Fraction(0))] == Fraction(7, 36)


def test_forced_nodes_are_what_skip_forced_removes() -> None:
    """Walked with its forced nodes, Goofspiel has the issue's 13,824 extra chance and 27,648 extra decisions."""
    engine = load_game(GOOFSPIEL)
    every = walk_engine(engine, 2, skip_forced=False).counts()
    skipped = walk_engine(engine, 2).counts()
    assert every["chance"] - skipped["chance"] == 13_824
    assert every["decision"] - skipped["decision"] == 27_648
    assert every["terminal"] == skipped["terminal"]
