"""Checks of ``payoff p = EXPR[, between LOW and HIGH][, zero sum | constant sum N | general sum]``.

The payoff is a number per player, evaluated when the game ends. Its bounds are declared
(constant expressions) or proved by a small interval analysis over the expression
(constants, options, arithmetic, ``... if ... else ...``, ``min``/``max``/``abs``, counts of
components, the number of players); what cannot be bounded asks for ``between A and B``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from rulelang.check import model as m
from rulelang.check.model import INT, PLAYER
from rulelang.numbers import divide
from rulelang.syntax import ast
from rulelang.syntax.span import Span


class Checker(Protocol):
    """What these checks read of the checker and write back (``rulelang.check.checker.Checker``, which calls them)."""

    players: ast.PlayersDecl | None
    kinds_by_index: list[Any]
    payoff_decl: tuple[ast.PayoffDecl, int] | None

    def error(self, message: str, span: Span | None, hint: str | None = None) -> None:
        """Record an error at ``span``."""

Interval = tuple[Fraction, Fraction]

UTILITY_WORDS = {"zero_sum": "zero sum", "constant_sum": "constant sum", "general_sum": "general sum"}


def interval(e: Any, ck: Checker) -> Interval | None:
    """Bounds of a number expression's value in every game, or None when they cannot be proved."""
    if isinstance(e, m.Const):
        if e.type == INT and not isinstance(e.value, bool):
            v = Fraction(e.value)
            return (v, v)
        return None
    if isinstance(e, m.UnOp) and e.op == "-":
        inner = interval(e.operand, ck)
        return None if inner is None else (-inner[1], -inner[0])
    if isinstance(e, m.BinOp) and e.op in ("+", "-", "*"):
        a, b = interval(e.left, ck), interval(e.right, ck)
        if a is None or b is None:
            return None
        if e.op == "+":
            return (a[0] + b[0], a[1] + b[1])
        if e.op == "-":
            return (a[0] - b[1], a[1] - b[0])
        corners = [x * y for x in a for y in b]
        return (min(corners), max(corners))
    if isinstance(e, m.BinOp) and e.op == "/":
        a, b = interval(e.left, ck), interval(e.right, ck)
        if a is None or b is None or a[0] != a[1] or b[0] != b[1] or b[0] == 0:
            return None
        v = Fraction(divide(_num(a[0]), _num(b[0]), "/", None))
        return (v, v)
    if isinstance(e, m.IfElseIR):
        a, b = interval(e.then, ck), interval(e.orelse, ck)
        if a is None or b is None:
            return None
        return (min(a[0], b[0]), max(a[1], b[1]))
    if isinstance(e, m.Builtin):
        return _builtin(e, ck)
    if isinstance(e, m.Agg) and e.func == "count":
        return (Fraction(0), Fraction(sum(k.count for k in ck.kinds_by_index)))
    if isinstance(e, m.Gen) and e.func in ("min", "max"):
        return interval(e.expr, ck)
    return None


def _num(v: Fraction) -> Any:
    return v.numerator if v.denominator == 1 else v


def _builtin(e: m.Builtin, ck: Checker) -> Interval | None:
    if e.func == "players" and ck.players is not None:
        return (Fraction(ck.players.low), Fraction(ck.players.high))
    args = [interval(a, ck) for a in e.args]
    if any(a is None for a in args) or not args:
        return None
    if e.func in ("min", "max"):
        (a0, a1), (b0, b1) = args  # type: ignore[misc]
        pick = min if e.func == "min" else max
        return (pick(a0, b0), pick(a1, b1))
    if e.func == "abs":
        lo, hi = args[0]  # type: ignore[misc]
        if lo >= 0:
            return (lo, hi)
        if hi <= 0:
            return (-hi, -lo)
        return (Fraction(0), max(-lo, hi))
    if e.func == "fraction":
        (a0, a1), (b0, b1) = args  # type: ignore[misc]
        if b0 <= 0 <= b1:
            return None
        corners = [x / y for x in (a0, a1) for y in (b0, b1)]
        return (min(corners), max(corners))
    return None


def _constant(ck: Checker, node: ast.Expr, ir: Any, what: str, decl: ast.PayoffDecl) -> Fraction | None:
    """A bound or a constant sum: a number known before the game starts (literals, options, arithmetic)."""
    bounds = interval(ir, ck)
    if bounds is None or bounds[0] != bounds[1] or isinstance(ir, m.Builtin) and ir.func == "players":
        ck.error(f"{what} must be a constant (numbers, options and arithmetic on them)", node.span,
                 hint=f"write a number there, e.g. 'payoff {decl.var} = ..., between -10 and 10'")
        return None
    return bounds[0]


def check_payoff(ck: Checker, decl: ast.PayoffDecl, ir: Any, nlocals: int, low_ir: Any, high_ir: Any,
                 total_ir: Any) -> m.Payoff | None:
    """The checked payoff of a ``payoff`` declaration, from its resolved expressions (errors go to ``ck``)."""
    if ir.type != INT and ir.type != "any":
        ck.error(f"a payoff is a number (chips won or lost, a score margin), but this is a {ir.type}",
                 decl.expr.span, hint=f"write a number expression, e.g. 'payoff {decl.var} = chips of {decl.var}'"
                 + (f" (to pay the winner: '(1 if {decl.var} == winner else -1)')" if ir.type == PLAYER else ""))
        return None
    low = high = None
    if decl.low is not None and decl.high is not None:
        low = _constant(ck, decl.low, low_ir, "the low bound of a payoff", decl)
        high = _constant(ck, decl.high, high_ir, "the high bound of a payoff", decl)
        if low is None or high is None:
            return None
        if low > high:
            ck.error(f"the payoff's bounds are the wrong way round: {low} is above {high}",
                     Span(decl.low.span.file, decl.low.span.line, decl.low.span.col, decl.high.span.end_line,
                          decl.high.span.end_col),
                     hint=f"write the smaller first: 'between {high} and {low}'")
            return None
    else:
        proved = interval(ir, ck)
        if proved is None:
            ck.error("the checker cannot find the bounds of this payoff", decl.expr.span,
                     hint="declare them: 'payoff ... , between LOW and HIGH' (the least and the most a player "
                          "can get)")
            return None
        low, high = proved
    utility = decl.utility or "general_sum"
    total: Fraction | None = None
    if utility == "zero_sum":
        total = Fraction(0)
    elif utility == "constant_sum":
        assert decl.total is not None
        total = _constant(ck, decl.total, total_ir, "the sum of a constant-sum game", decl)
        if total is None:
            return None
    return m.Payoff(ir, nlocals, m.PayoffSpec(True, utility, total, low, high, decl.span))


def collect_payoff(ck: Checker, decl: ast.PayoffDecl, index: int) -> None:
    """Record a ``payoff`` declaration of file ``index`` (0: the base game): one per game."""
    if ck.payoff_decl is not None:
        first, where = ck.payoff_decl
        if where == index:
            ck.error(f"a second 'payoff' line (the first is at {first.span})", decl.span,
                     hint="a game has one payoff per player: write it as one expression")
        else:
            ck.error(f"the base game already declares the payoff (at {first.span}); a variant cannot change it",
                     decl.span, hint="remove this line, or move the payoff out of the base game into each variant")
        return
    ck.payoff_decl = (decl, index)
