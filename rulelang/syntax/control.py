"""Builder methods for the constructs of control: typed counters, ``no kind``, ``no face``,
``break``/``continue``, ``best ... by ...`` and ``players from PLAYER`` (a base class of the parse-tree
transformer of :mod:`rulelang.syntax.build`)."""

from __future__ import annotations

from typing import Any

from lark import v_args

from rulelang.syntax import ast
from rulelang.syntax.strings import unquote


class ControlBuilder:
    """The parse-tree transformer's methods for these constructs (a base of ``build._Builder``)."""

    @v_args(meta=True)
    def typed_counter_decl(self: Any, meta: Any, c: list) -> ast.CounterDecl:
        """``counter NAME [per player] : TYPE [= init] ["doc"] [: flag]``."""
        name, per_player, type_tok, init, doc, flag = c
        word = str(type_tok).lstrip(":").strip()
        tspan = self._tspan(type_tok)
        visibility = ast.Name(str(flag), self._tspan(flag)) if flag is not None else None
        return ast.CounterDecl(str(name), per_player is not None, init, unquote(str(doc)) if doc else None,
                               self._span(meta), visibility, ast.Name(word, tspan))

    @v_args(meta=True)
    def no_kind(self: Any, meta: Any, c: list) -> ast.NoKind:
        """``no kind``."""
        return ast.NoKind(self._span(meta))

    @v_args(meta=True)
    def no_face(self: Any, meta: Any, c: list) -> ast.NoFace:
        """``no face``."""
        return ast.NoFace(self._span(meta))

    @v_args(meta=True)
    def it_players_from(self: Any, meta: Any, c: list) -> ast.Iterable:
        """``players from PLAYER``: every player in seat order, starting with that one."""
        return ast.Iterable("players_from", None, c[0], None, self._span(meta))

    @v_args(meta=True)
    def break_stmt(self: Any, meta: Any, c: list) -> ast.Simple:
        """``break``: leave the loop."""
        return ast.Simple("break", self._span(meta))

    @v_args(meta=True)
    def continue_stmt(self: Any, meta: Any, c: list) -> ast.Simple:
        """``continue``: go on with the loop's next pass."""
        return ast.Simple("continue", self._span(meta))

    @v_args(meta=True)
    def best_expr(self: Any, meta: Any, c: list) -> ast.Best:
        """``best NAME in IT by highest|lowest KEY [if C] [ties WORD]``."""
        _best, var, iterable, direction, key, cond, ties = c
        return ast.Best(str(var), iterable, str(direction), key, cond, None if ties is None else str(ties),
                        self._span(meta), None if ties is None else self._tspan(ties))
