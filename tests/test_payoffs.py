"""Payoffs in the language (issue 22 item 1): ``payoff p = EXPR[, between A and B][, zero sum ...]``.

Kuhn poker's payoffs at every terminal, worked out by hand; the bounds and sum checks at the end of
a game (a violation stops with the declaration's place); the rank default when nothing is declared.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from language_support import check_errors, game

from rulelang.check.model import PayoffSpec
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game

REPO = Path(__file__).resolve().parents[1]
KUHN = REPO / "examples" / "kuhn-poker" / "kuhn-poker.rules"
RANKS = {"Jack": 1, "Queen": 2, "King": 3}
DEALS = [(a, b) for a in RANKS for b in RANKS if a != b]


def _kuhn_by_hand(first: str, second: str, moves: str) -> tuple[int, int]:
    """P1's and P2's chips won or lost, from the rules of Kuhn poker (not from the .rules file)."""
    showdown = 1 if RANKS[first] > RANKS[second] else -1
    table = {"pp": showdown, "pbp": -1, "pbb": 2 * showdown, "bp": 1, "bb": 2 * showdown}
    return table[moves], -table[moves]


@pytest.mark.parametrize("deal", DEALS, ids=lambda d: f"{d[0]}-{d[1]}")
@pytest.mark.parametrize("moves", ["pp", "pbp", "pbb", "bp", "bb"])
def test_kuhn_poker_payoff_at_every_terminal(deal: tuple[str, str], moves: str) -> None:
    engine = load_game(KUHN)
    st = engine.new_state(2)
    engine.apply(st, deal[0])
    engine.apply(st, deal[1])
    for i, move in enumerate(moves):
        assert not st.over
        assert engine.pending(st).player == i % 2
        engine.apply(st, {"p": "pass", "b": "bet"}[move])
    assert st.over
    want = _kuhn_by_hand(deal[0], deal[1], moves)
    assert engine.payoffs(st) == tuple(Fraction(v) for v in want)
    assert st.result["payoffs"] == list(want)
    assert st.result["winners"] == ["P1" if want[0] > 0 else "P2"]


def test_kuhn_poker_payoff_spec() -> None:
    spec = load_game(KUHN).payoff_spec
    assert spec == PayoffSpec(True, "zero_sum", Fraction(0), Fraction(-2), Fraction(2), spec.span)
    assert spec.span is not None and spec.span.line == KUHN.read_text().splitlines().index(
        "payoff p = net(p), between -2 and 2, zero sum") + 1


def test_payoffs_before_the_end_are_an_error() -> None:
    engine = load_game(KUHN)
    with pytest.raises(RulelangError, match="not over"):
        engine.payoffs(engine.new_state(2))


GAME = """
counter chips per player = 0
setup:
  pass
turn:
  choose:
    "take 3":
      chips of current += 3
      end game
    "take 1":
      chips of current += 1
      end game
rank p by highest chips of p
"""


def _finish(engine, option: str, players: int = 2):
    st = engine.new_state(players)
    engine.apply(st, option)
    assert st.over
    return st


def test_rank_default_without_a_declaration(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME)
    assert engine.payoff_spec == PayoffSpec(False, "zero_sum", Fraction(0), Fraction(-1), Fraction(1), None)
    st = _finish(engine, "take 3", 3)
    assert engine.payoffs(st) == (Fraction(1), Fraction(-1, 2), Fraction(-1, 2))
    assert "payoffs" not in st.result


def test_zero_sum_violation_stops_at_the_declaration(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 3, zero sum\n")
    with pytest.raises(RulelangError) as info:
        _finish(engine, "take 3")
    err = info.value
    assert "the payoffs sum to 3, but the game is declared zero sum (P1 3, P2 0)" in err.message
    assert (err.span.file, err.span.line, err.span.col) == (str(tmp_path / "t.rules"), 16, 1)
    assert err.hint


def test_constant_sum_checked(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 3, constant sum 1 + 2\n")
    st = _finish(engine, "take 3")
    assert engine.payoffs(st) == (3, 0)
    with pytest.raises(RulelangError, match="declared constant sum 3"):
        _finish(engine, "take 1")


def test_payoff_outside_its_bounds_stops(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = chips of p, between 0 and 2\n")
    assert engine.payoff_spec.utility == "general_sum" and engine.payoff_spec.total is None
    assert engine.payoffs(_finish(engine, "take 1")) == (1, 0)
    with pytest.raises(RulelangError, match="P1's payoff is 3, outside its bounds 0 to 2") as info:
        _finish(engine, "take 3")
    assert info.value.span.line == 16


def test_fraction_payoffs(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = fraction(chips of p, 2), between 0 and fraction(3, 2)\n")
    st = _finish(engine, "take 3")
    assert engine.payoffs(st) == (Fraction(3, 2), Fraction(0))
    assert st.result["payoffs"] == ["3/2", 0]


def test_bounds_proved_without_between(tmp_path: Path) -> None:
    engine = game(tmp_path, GAME + "payoff p = (1 if chips of p == 3 else -1) * 2, zero sum\n")
    assert (engine.payoff_spec.low, engine.payoff_spec.high) == (-2, 2)
    assert engine.payoffs(_finish(engine, "take 3")) == (2, -2)
    engine = game(tmp_path, GAME + "payoff p = abs((1 if chips of p > 1 else -3)) - fraction(1, 2)\n")
    assert (engine.payoff_spec.low, engine.payoff_spec.high) == (Fraction(-1, 2), Fraction(5, 2))


@pytest.mark.parametrize("line, message", [
    ("payoff p = chips of p\n", "the checker cannot find the bounds of this payoff"),
    ("payoff p = p, between 0 and 1\n", "a payoff is a number"),
    ("payoff p = chips of p > 1, between 0 and 1\n", "a payoff is a number"),
    ("payoff p = chips of p, between 3 and 1\n", "the wrong way round: 3 is above 1"),
    ("payoff p = chips of p, between 0 and chips of P1\n", "must be a constant"),
    ("payoff p = chips of p, between 0 and players\n", "must be a constant"),
    ("payoff p = chips of p, between 0 and 3\npayoff q = chips of q, between 0 and 3\n", "a second 'payoff' line"),
    ("payoff p = chips of p, between 0 and 3, constant sum chips of P1\n", "must be a constant"),
])
def test_misuse_is_an_error_at_its_place(tmp_path: Path, line: str, message: str) -> None:
    errors = check_errors(tmp_path, GAME + line)
    assert any(message in e.message for e in errors), [e.message for e in errors]
    assert all(e.span is not None and e.span.line >= 16 for e in errors if message in e.message)


def test_a_variant_may_declare_a_payoff_only_if_the_base_has_none(tmp_path: Path) -> None:
    (tmp_path / "base.rules").write_text('game "base"\nplayers 2 to 4\n' + GAME)
    (tmp_path / "v.rules").write_text('game "v" extends "base.rules"\npayoff p = chips of p, between 0 and 3\n')
    assert load_game(tmp_path / "v.rules").payoff_spec.declared
    (tmp_path / "base2.rules").write_text('game "base"\nplayers 2 to 4\n' + GAME
                                          + "payoff p = chips of p, between 0 and 3\n")
    (tmp_path / "v2.rules").write_text('game "v" extends "base2.rules"\npayoff p = chips of p, between 0 and 9\n')
    with pytest.raises(ErrorList) as info:
        load_game(tmp_path / "v2.rules")
    assert "the base game already declares the payoff" in info.value.errors[0].message
    assert info.value.errors[0].span.line == 2
