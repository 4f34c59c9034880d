"""Payoffs at the end of a game: the declared ``payoff p = ...`` or the rank default.

A declared payoff is evaluated once, when the game ends, for every seat; each value must lie
within the declared (or proved) bounds and their sum must match the utility kind (``zero sum``:
0, ``constant sum N``: N). A one-player game with a declared payoff is won above 0, lost below
0 and drawn at 0. Without a declaration, a player's payoff is
``(players ranked below - players ranked above) / (players - 1)`` (0 for a one-player game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

from rulelang.check.model import PayoffSpec
from rulelang.errors import RulelangError
from rulelang.numbers import bounded, format_number, json_number


def rank_payoffs_of(standings: Sequence[dict[str, Any]], players: int) -> tuple[Fraction, ...]:
    """Each seat's rank payoff, from the standings rows (``{"player": "P2", "rank": 1, ...}``)."""
    ranks: dict[str, int] = {row["player"]: row["rank"] for row in standings}
    labels = [f"P{p + 1}" for p in range(players)]
    if sorted(ranks) != sorted(labels):
        raise RulelangError(f"the standings do not name the {players} players: {sorted(ranks)}")
    if players < 2:
        return (Fraction(0),) * players
    mine = [ranks[label] for label in labels]
    return tuple(Fraction(sum(1 for r in mine if r > own) - sum(1 for r in mine if r < own), players - 1)
                 for own in mine)


def declared_payoffs(spec: PayoffSpec, pay: Callable[..., Any], st: Any, nlocals: int) -> list[Any]:
    """Every seat's declared payoff in the finished state ``st``, checked against its bounds and sum."""
    values = []
    for p in range(st.players):
        loc: list[Any] = [None] * max(1, nlocals)
        loc[0] = p
        value = bounded(pay(st, loc), spec.span)
        if not spec.low <= value <= spec.high:
            raise RulelangError(
                f"P{p + 1}'s payoff is {format_number(value)}, outside its bounds "
                f"{format_number(_num(spec.low))} to {format_number(_num(spec.high))}", spec.span,
                hint="widen 'between LOW and HIGH', or check the counters the payoff reads")
        values.append(value)
    if spec.total is not None and sum(values, Fraction(0)) != spec.total:
        shown = ", ".join(f"P{p + 1} {format_number(v)}" for p, v in enumerate(values))
        kind = "zero sum" if spec.utility == "zero_sum" else f"constant sum {format_number(_num(spec.total))}"
        raise RulelangError(
            f"the payoffs sum to {format_number(_num(sum(values, Fraction(0))))}, but the game is declared "
            f"{kind} ({shown})", spec.span,
            hint="check what each player wins and loses, or declare 'general sum'")
    return values


def add_payoffs(result: dict[str, Any], values: list[Any]) -> None:
    """Write declared payoffs into a result: ``"payoffs"`` by seat; one player: won, lost or drawn."""
    result["payoffs"] = [json_number(v) for v in values]
    if len(values) == 1:
        result["outcome"] = "won" if values[0] > 0 else "lost" if values[0] < 0 else "drawn"
        result["winners"] = ["P1"] if values[0] > 0 else []


def payoffs_of_result(result: dict[str, Any], players: int) -> tuple[Fraction, ...]:
    """The payoffs a finished game's result gives each seat (declared, else from the ranking)."""
    if "payoffs" in result:
        raw = result["payoffs"]
        if not isinstance(raw, list) or len(raw) != players:
            raise RulelangError(f"the result's payoffs do not name the {players} players: {raw!r}"[:200])
        try:
            return tuple(Fraction(v) for v in raw)
        except (TypeError, ValueError, ZeroDivisionError):
            raise RulelangError(f"the result's payoffs are not numbers: {raw!r}"[:200]) from None
    return rank_payoffs_of(result["standings"], players)


def normalised(value: Fraction, spec: PayoffSpec) -> float:
    """A payoff mapped onto [0, 1] by its bounds (1/2 when the bounds are one value)."""
    if spec.high == spec.low:
        return 0.5
    return float((value - spec.low) / (spec.high - spec.low))


def _num(v: Fraction) -> Any:
    return v.numerator if v.denominator == 1 else v
