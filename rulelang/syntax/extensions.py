"""Builder methods for constructs beside the core: ``ask`` and its answers; budgets, markers, tallies and
places (docs/design/rounds-races-budgets.md); one component, ``the ... in ZONE`` and ``faces of`` (bases of
the parse-tree transformer of :mod:`rulelang.syntax.build`)."""

from __future__ import annotations

from typing import Any

from lark import Token, v_args

from rulelang.syntax import ast
from rulelang.syntax.strings import unquote


class AskBuilder:
    """``ask`` and its answers (with holes, ``for`` values and blocks)."""

    @v_args(meta=True)
    def ask_stmt(self: Any, meta: Any, c: list):
        var, iterable, cond, *options = c
        return ast.Ask(str(var), iterable, cond, tuple(options), self._span(meta))

    def _answer(self: Any, meta: Any, c: list, body: Any):
        label, *bindings, cond = c
        if bindings or "{" in str(label):
            return ast.AskOption(unquote(label), cond, self._span(meta), tuple(bindings), self._template(label), body)
        return ast.AskOption(unquote(label), cond, self._span(meta), body=body)

    @v_args(meta=True)
    def ask_option(self: Any, meta: Any, c: list):
        return self._answer(meta, c, None)

    @v_args(meta=True)
    def ask_option_block(self: Any, meta: Any, c: list):
        return self._answer(meta, c[:-1], c[-1])


class BudgetBuilder:
    """``spend``, a marker's ``move``, ``tally`` and ``places(...)``."""

    @v_args(meta=True)
    def spend_stmt(self: Any, meta: Any, c: list):
        """``spend N NAME... [by PLAYER]:`` and its options."""
        amount = c[0]
        words = []
        rest = list(c[1:])
        while rest and isinstance(rest[0], Token) and rest[0].type == "NAME":
            words.append(str(rest.pop(0)))
        player = rest.pop(0)
        return ast.Spend(amount, " ".join(words), player, tuple(rest), self._span(meta))

    @v_args(meta=True)
    def spend_option(self: Any, meta: Any, c: list):
        label, costs, cost, *bindings, cond, body = c
        cost_span = self._tspan(costs) if costs is not None else None
        return ast.SpendOption(self._template(label), cost, tuple(bindings), cond, body, self._span(meta), cost_span)

    @v_args(meta=True)
    def move_marker_stmt(self: Any, meta: Any, c: list):
        return ast.MoveMarker(str(c[0]), c[1], self._span(meta), self._tspan(c[0]))

    @v_args(meta=True)
    def tally_stmt(self: Any, meta: Any, c: list):
        return ast.Tally(str(c[0]), str(c[1]), self._span(meta))

    @v_args(meta=True)
    def places_expr(self: Any, meta: Any, c: list):
        *points, player, direction, key, var, iterable, cond, ties = c
        return ast.Places(tuple(points), player, str(direction), key, str(var), iterable, cond,
                          None if ties is None else str(ties), self._span(meta),
                          None if ties is None else self._tspan(ties))


class ComponentBuilder:
    """A name holding one component as a query of it, ``the ... in ZONE`` and ``for f in faces of KIND``."""

    def one_component(self: Any, tok: Token) -> ast.Query:
        """A name holding one component, as a query of it wherever it is (no zone)."""
        span = self._tspan(tok)
        return ast.Query("default", None, None, (ast.Name(str(tok), span),), False, (), None, span)

    @v_args(meta=True)
    def roll_one_stmt(self: Any, meta: Any, c: list):
        return ast.Roll(self.one_component(c[0]), self._span(meta))

    @v_args(meta=True)
    def spin_one_stmt(self: Any, meta: Any, c: list):
        return ast.Roll(self.one_component(c[0]), self._span(meta), "spin")

    @v_args(meta=True)
    def reveal_one_stmt(self: Any, meta: Any, c: list):
        return ast.Reveal(self.one_component(c[0]), c[1], self._span(meta))

    @v_args(meta=True)
    def reveal_one_all_stmt(self: Any, meta: Any, c: list):
        return ast.Reveal(self.one_component(c[0]), None, self._span(meta))

    @v_args(meta=True)
    def the_expr(self: Any, meta: Any, c: list):
        sel, zone = c
        cls = sel if isinstance(sel, str) else None
        exclude, kinds = (False, ()) if cls is not None else sel
        span = self._span(meta)
        return ast.The(cls, ast.Query("default", None, None, kinds, exclude, (zone,), None, span), span)

    def the_class(self: Any, c: list):
        return str(c[0])

    @v_args(meta=True)
    def it_faces(self: Any, meta: Any, c: list):
        return ast.Iterable("faces", None, None, None, self._span(meta), of=ast.Name(str(c[0]), self._tspan(c[0])))
