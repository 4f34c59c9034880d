"""Checks of expressions: names, operators, functions, uses of definitions and the holes of texts.

Each expression is resolved to a typed IR node of :mod:`rulelang.check.model`; a use of a definition is
expanded in place, within limits on how many uses and parts a game may expand.
"""

from __future__ import annotations

import re
from typing import Any

from rulelang.check import budgets, control
from rulelang.check import model as m
from rulelang.check.common import PARAM_TYPES, Reporter, RuleScope, Skip, split_param, suggest, type_of_value
from rulelang.check.model import BOOL, COMPONENT, FACE, INT, KIND, PLAYER
from rulelang.syntax import ast
from rulelang.syntax.span import Span

BUILTINS = {"min": 2, "max": 2, "abs": 1, "seat": 1, "fraction": 2, "lasted": 1}
SEAT_LITERAL = re.compile(r"^P([1-9][0-9]{0,2})$")

MAX_EXPANSIONS = 100_000
"""How many uses of definitions a game may expand in all (uses inside uses multiply)."""

MAX_EXPANDED_PARTS = 20_000
"""How many parts of expressions (names, numbers, operators, calls) the uses of definitions may expand to
in all (the shipped games: at most 2,000). Each part costs the checker and the compiler about
20 microseconds, so a chain of definitions each using the previous one twice stays far from minutes."""

MAX_DEFINE_DEPTH = 32
"""How many definitions may be used inside one another (each is expanded where it is used)."""


class ExpressionChecks(Reporter):
    """Checker methods for expressions (mixed into ``Checker``).

    The state of the expansion of definitions (``_define_stack``, ``_expansions``, ``_expanded_parts``,
    ``_outer_use``) is set up by ``Checker.__init__`` and read and written only here.
    """

    def expr(self, node: ast.Expr, scope: RuleScope, elem: bool = False) -> Any:
        """Resolve and type one expression (``elem``: inside a ``where``)."""
        if self._define_stack:
            self._expanded_parts += 1
            if self._expanded_parts > MAX_EXPANDED_PARTS:
                raise self.fail(f"definitions expand to more than {MAX_EXPANDED_PARTS} parts of expressions in all",
                                self._outer_use or node.span,
                                hint=f"'{self._define_stack[-1]}' is used inside definitions that are used many "
                                     f"times each (through '{self._define_stack[0]}'): definitions are copied where "
                                     "they are used; use fewer nested uses, or keep a value in a counter")
        if isinstance(node, ast.Lit):
            return m.Const(node.value, type_of_value(node.value))
        if isinstance(node, ast.Name):
            return self._name(node, scope, elem)
        if isinstance(node, ast.Current):
            self.no_current("'current'", node.span)
            return m.CurrentPlayer()
        if isinstance(node, ast.IsOut):
            return self.is_out(node, scope, elem)
        if isinstance(node, ast.PlayerAfter):
            if node.target is None:
                self.no_current("'next player'", node.span)
            target = None
            word = "after" if node.step > 0 else "before"
            if node.target is not None:
                target = self.seat(node.target, scope, elem, f"'player {word}' needs a player")
            return m.After(target, step=node.step, span=node.span)
        if isinstance(node, ast.Of):
            return self._of(node, scope, elem)
        if isinstance(node, ast.Call):
            return self._call(node, scope, elem)
        if isinstance(node, ast.Unary):
            if node.op == "not":
                return m.UnOp("not", self.expect(node.operand, scope, BOOL, elem, "'not' needs true/false"), BOOL)
            return m.UnOp("-", self.expect(node.operand, scope, INT, elem, "'-' needs a number"), INT)
        if isinstance(node, ast.Binary):
            return self._binary(node, scope, elem)
        if isinstance(node, ast.Nobody):
            return m.Const(-1, PLAYER)
        if isinstance(node, ast.NoKind):
            return m.Const(-1, KIND)
        if isinstance(node, ast.NoFace):
            return m.Const(-1, FACE)
        if isinstance(node, ast.Best):
            return control.best(self, node, scope, elem)  # type: ignore[arg-type]
        if isinstance(node, ast.IfElse):
            cond = self.expect(node.cond, scope, BOOL, elem, "'if' needs a true/false condition")
            then = self.expr(node.then, scope, elem)
            orelse = self.expr(node.orelse, scope, elem)
            if then.type != orelse.type and "any" not in (then.type, orelse.type):
                raise self.fail(f"both sides of '... if ... else ...' must be alike: {then.type} and {orelse.type}",
                                node.span)
            return m.IfElseIR(cond, then, orelse, then.type)
        if isinstance(node, ast.AnswerOf):
            return m.AnswerGet(self.seat(node.target, scope, elem, "'answer of' needs a player"))
        if isinstance(node, ast.Template):
            return m.Format(self.template(node, scope))
        if isinstance(node, ast.GenCall):
            return self._gen(node, scope, elem)
        if isinstance(node, ast.Aggregate):
            query = self.query(node.query, scope)
            if node.func == "sum":
                assert node.attr is not None
                attr = self.attributes.get(node.attr.name)
                if attr is None:
                    raise self.fail(f"unknown attribute '{node.attr.name}'", node.attr.span,
                                    hint=suggest(node.attr.name, self.attributes))
                if attr.type != INT:
                    raise self.fail(f"cannot sum '{attr.name}': it is a {attr.type}", node.attr.span)
                return m.Agg("sum", attr.name, query, INT)
            return m.Agg(node.func, None, query, INT if node.func == "count" else BOOL)
        if isinstance(node, ast.Places):
            return budgets.places(self, node, scope, elem)
        if isinstance(node, ast.The):
            return self.the_one(node, scope)
        raise self.fail("this expression is not supported here", getattr(node, "span", None))  # pragma: no cover

    def _gen(self, node: ast.GenCall, scope: RuleScope, elem: bool) -> Any:
        if node.func not in ("max", "min", "total"):
            raise self.fail(f"unknown function '{node.func}' over a 'for'", node.span,
                            hint="use max(...), min(...) or total(...) with 'for'")
        iterable = self.iterable(node.iterable, scope)
        var, value, cond = self.gen_parts(node.var, iterable, node.expr, node.cond, scope, elem,
                                          f"{node.func}(...) needs numbers")
        return m.Gen(node.func, value, var, iterable, cond)

    def gen_parts(self, name: str, iterable: Any, expr: ast.Expr, cond: ast.Expr | None, scope: RuleScope,
                  elem: bool, why: str) -> tuple[Any, Any, Any]:
        """A ``... for NAME in ITERABLE [if COND]`` checked: the name bound to each value, the number ``expr``
        gives for it (``why`` says what needs it) and the condition, or None."""
        scope.push()
        var = scope.bind(name, iterable.type)
        try:
            value = self.expect(expr, scope, INT, elem, why)
            test = None if cond is None else self.expect(cond, scope, BOOL, elem, "'if' needs a true/false condition")
        finally:
            scope.pop()
        return var, value, test

    def expect(self, node: ast.Expr, scope: RuleScope, type_: str, elem: bool, why: str) -> Any:
        """Resolve ``node`` and require it to be of ``type_``."""
        ir = self.expr(node, scope, elem)
        if ir.type != type_ and ir.type != "any":
            raise self.fail(f"{why}, but this is a {ir.type}", node.span)
        return ir

    def _name(self, node: ast.Name, scope: RuleScope, elem: bool) -> Any:
        name = node.name
        local = scope.lookup(name)
        if local is not None:
            return local
        if name in self.defines:
            return self._inline_define(self.defines[name], (), node.span, scope)
        if name in self.options:
            value = self.options[name].value
            return m.Const(value, type_of_value(value))
        if elem and name in self.attributes:
            return m.ElemAttr(name, self.attributes[name].type)
        if elem and name in self.kinds:
            return m.ElemIsKind(frozenset([self.kinds[name].index]))
        if elem and name in self.kind_groups:  # the shared name of numbered components: any of them
            return m.ElemIsKind(frozenset(self.kind_groups[name]))
        if elem and name == "face":
            return m.ElemFace()
        if name in self.kinds:
            return m.Const(self.kinds[name].index, KIND)
        if name in self.faces:
            return m.Const(self.faces[name].index, FACE)
        if name in self.counters:
            counter = self.counters[name]
            if counter.per_player:
                raise self.fail(f"counter '{name}' is per player", node.span,
                                hint=f"say whose: '{name} of current' or '{name} of p'")
            return m.CounterGet(counter.index, None, counter.type, node.span)
        if name in self.attributes:
            raise self.fail(f"attribute '{name}' belongs to a component", node.span,
                            hint="use it inside 'where', or sum it: sum(" + name + " of all in ZONE)")
        if name in self.zones:
            raise self.fail(f"zone '{name}' is not a value", node.span,
                            hint=f"count its components: count(all in {name})")
        if name in self.kind_groups:
            group = [self.kinds_by_index[k].name for k in self.kind_groups[name]]
            raise self.fail(f"'{name}' names {len(group)} kinds ({group[0]} to {group[-1]}), not one", node.span,
                            hint=f"it stands for all of them in a query ('{name} in ZONE') and inside 'where' or "
                                 f"'kinds where' ('where {name}'); for one kind, name it: {group[0]}")
        if name == "face" and not elem:
            raise self.fail("'face' alone is the face of the component a 'where' tests", node.span,
                            hint="for one component, write 'face of c'")
        if name == "players":
            return m.Builtin("players", (), INT)
        seat = SEAT_LITERAL.match(name)
        if seat is not None:
            n = int(seat.group(1))
            most = self.players.high if self.players is not None else 100
            if n > most:
                raise self.fail(f"there is no {name}: the game takes at most {most} players", node.span)
            return m.SeatLit(n - 1, node.span)
        candidates = set(scope.names()) | set(self.defines) | set(self.options) | set(self.counters)
        if elem:
            candidates |= set(self.attributes) | set(self.kinds)
        raise self.fail(f"unknown name '{name}'", node.span, hint=suggest(name, candidates))

    def _inline_define(self, decl: ast.DefineDecl, args: tuple[Any, ...], span: Span, scope: RuleScope) -> Any:
        if len(args) != len(decl.params):
            raise self.fail(f"'{decl.name}' takes {len(decl.params)} argument(s), not {len(args)}", span,
                            hint=f"declared at {decl.span} as {decl.name}({', '.join(decl.params)})")
        if decl.name in self._define_stack:
            raise self.fail(f"definition '{decl.name}' refers to itself", span)
        self._expansions += 1
        if self._expansions > MAX_EXPANSIONS:
            raise self.fail(f"definitions expand to more than {MAX_EXPANSIONS} uses in all", span,
                            hint=f"'{decl.name}' is used inside definitions that are used many times each; "
                                 "use a counter or fewer nested uses")
        if len(self._define_stack) >= MAX_DEFINE_DEPTH:
            raise self.fail(f"definitions nest too deeply: more than {MAX_DEFINE_DEPTH} uses inside one another",
                            span, hint="through " + " -> ".join(self._define_stack[:3]) + " -> ... -> "
                            + decl.name + "; write a shorter chain")
        if not self._define_stack:
            self._outer_use = span
        self._define_stack.append(decl.name)
        inner = RuleScope()
        inner.nslots = scope.nslots
        for raw, arg in zip(decl.params, args):
            pname, tname = split_param(raw)
            want = PARAM_TYPES.get(tname) if tname else None
            if tname and want is None:
                raise self.fail(f"unknown type '{tname}' for parameter '{pname}'", decl.span,
                                hint="types: " + ", ".join(PARAM_TYPES))
            if want is not None and arg.type not in (want, "any"):
                raise self.fail(f"'{decl.name}' needs a {want} for '{pname}', but this is a {arg.type}", span)
            inner.bind_expr(pname, arg)
        try:
            if decl.body is not None:  # a definition that decides (check/values.py)
                if decl.name in self.broken_defines:  # type: ignore[attr-defined]
                    raise Skip()
                return self.decide(decl.body, inner, decl.name)  # type: ignore[attr-defined]
            return self.expr(decl.expr, inner)
        finally:
            scope.nslots = max(scope.nslots, inner.nslots)
            self._define_stack.pop()

    def _of(self, node: ast.Of, scope: RuleScope, elem: bool) -> Any:
        if node.name in self.counters:
            counter = self.counters[node.name]
            if not counter.per_player:
                raise self.fail(f"counter '{node.name}' is shared, not per player", node.span,
                                hint=f"write just '{node.name}'")
            owner = self.seat(node.target, scope, elem, f"'{node.name} of' needs a player")
            return m.CounterGet(counter.index, owner, counter.type, node.span)
        if node.name in self.defines:
            arg = self.expr(node.target, scope, elem)
            return self._inline_define(self.defines[node.name], (arg,), node.span, scope)
        if node.name in self.attributes:
            target = self.expr(node.target, scope, elem)
            if target.type == COMPONENT:
                return m.CompAttr(node.name, target, self.attributes[node.name].type)
            if target.type == FACE:
                return m.FaceAttr(node.name, target, self.attributes[node.name].type)
            if target.type not in (KIND, "any"):
                raise self.fail(f"'{node.name} of' needs a kind, a face or one component, but this is a "
                                f"{target.type}", node.target.span)
            return m.KindAttr(node.name, target, self.attributes[node.name].type)
        if node.name in ("face", "kind"):
            target = self.expr(node.target, scope, elem)
            if target.type not in (COMPONENT, "any"):
                raise self.fail(f"'{node.name} of' needs one component, but this is a {target.type}",
                                node.target.span, hint="for c in all in ZONE: ... {" + node.name + " of c}")
            return m.CompFace(target) if node.name == "face" else m.CompKind(target)
        if node.name in self.zones:
            raise self.fail(f"zone '{node.name}' is not a value", node.span,
                            hint=f"count its components: count(all in {node.name} of ...)")
        raise self.fail(f"unknown counter '{node.name}'", node.span,
                        hint=suggest(node.name, list(self.counters) + list(self.defines)))

    def _call(self, node: ast.Call, scope: RuleScope, elem: bool) -> Any:
        args = tuple(self.expr(a, scope, elem) for a in node.args)
        if node.name in self.defines:
            return self._inline_define(self.defines[node.name], args, node.span, scope)
        if node.name in BUILTINS:
            if len(args) != BUILTINS[node.name]:
                raise self.fail(f"{node.name}() takes {BUILTINS[node.name]} argument(s), not {len(args)}", node.span)
            want = PLAYER if node.name in ("seat", "lasted") else INT
            for a, raw in zip(args, node.args):
                if a.type not in (want, "any"):
                    raise self.fail(f"{node.name}() needs a {want}, but this is a {a.type}", raw.span)
                if want == PLAYER and isinstance(raw, ast.Nobody):
                    raise self.fail("nobody has a seat", raw.span, hint="check for 'nobody' first")
            return m.Builtin(node.name, args, INT, node.span)
        if node.name in self.blocks:
            raise self.fail(f"'{node.name}' is a rule, not a value", node.span,
                            hint="call a rule as a statement on its own line")
        raise self.fail(f"unknown function '{node.name}'", node.span,
                        hint=suggest(node.name, list(self.defines) + list(BUILTINS)))

    def _binary(self, node: ast.Binary, scope: RuleScope, elem: bool) -> Any:
        op = node.op
        if op in ("and", "or"):
            left = self.expect(node.left, scope, BOOL, elem, f"'{op}' needs true/false on its left")
            right = self.expect(node.right, scope, BOOL, elem, f"'{op}' needs true/false on its right")
            return m.BinOp(op, left, right, BOOL, node.span)
        left = self.expr(node.left, scope, elem)
        right = self.expr(node.right, scope, elem)
        if op in ("==", "!="):
            compared = self.answer_compare(op, left, right, node)  # type: ignore[attr-defined]
            if compared is not None:
                return compared
            if left.type != right.type and "any" not in (left.type, right.type):
                raise self.fail(f"cannot compare a {left.type} with a {right.type}", node.span)
            return m.BinOp(op, left, right, BOOL, node.span)
        for side, raw in ((left, node.left), (right, node.right)):
            if side.type not in (INT, "any"):
                raise self.fail(f"'{op}' needs numbers, but this is a {side.type}", raw.span)
        return m.BinOp(op, left, right, BOOL if op in ("<", ">", "<=", ">=") else INT, node.span)

    def seat(self, node: ast.Expr, scope: RuleScope, elem: bool, why: str) -> Any:
        """A player expression that must name a seat: ``nobody`` written there is an error."""
        if isinstance(node, ast.Nobody):
            raise self.fail(f"{why}: nobody is no player", node.span,
                            hint="test 'if p != nobody:' first and use p")
        return self.expect(node, scope, PLAYER, elem, why)

    def template(self, node: ast.Template, scope: RuleScope) -> m.TemplateIR:
        """Resolve the holes of a label or narration string."""
        parts = tuple(
            p if isinstance(p, str)
            else m.SecretPart(self.expr(p.expr, scope)) if isinstance(p, ast.Secret)
            else self.expr(p, scope)
            for p in node.parts
        )
        return m.TemplateIR(parts)
