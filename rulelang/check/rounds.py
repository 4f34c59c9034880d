"""Checks of rounds, elimination, sided components and races (a part of the checker).

``RoundChecks`` is mixed into ``Checker``: it resolves ``round:`` games (where no player
is the current one), ``drop out``, ``players still in``, ``is out``, ``sides (...)`` of
components, ``spin``, ``turn ... to FACE``, ``pick ... at random from ...`` and the
answers of an ``ask`` given per value of a ``for``.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from math import lcm
from typing import Any

from rulelang.check import model as m
from rulelang.check.model import BOOL, PLAYER
from rulelang.syntax import ast
from rulelang.syntax.span import Span

MAX_SIDE_SLOTS = 1000
"""The most equally likely slots the weights of one component's sides may need (1/1000 is the finest weight)."""

ROUND_HINT = "in a game played in rounds nobody has the turn: name the player, e.g. 'choose p:' inside " \
             "'for p in players'"


class RoundChecks:
    """Checker methods for rounds, elimination, sides and races (mixed into ``Checker``)."""

    errors: list
    kinds: dict
    faces: dict
    blocks: dict

    # ------------------------------------------------------------------ rounds
    @property
    def round_game(self) -> bool:
        """Whether the game is played in rounds (a ``round:`` block) rather than turns."""
        found = self.blocks.get("turn")
        return found is not None and found[0].kind == "round"

    def no_current(self, what: str, span: Span) -> None:
        """``current`` and its relatives have no meaning in a round game: an error there."""
        if self.round_game:
            raise self.fail(f"{what} has no meaning in a game played in rounds", span,  # type: ignore[attr-defined]
                            hint=ROUND_HINT)

    # ------------------------------------------------------------------ sides
    def side_faces(self, decl: ast.ComponentDecl) -> list[int]:
        """The faces of a component declared with ``sides (...)``, each repeated by its weight."""
        if decl.cls == "die":
            self.fail(f"die '{decl.name}' lists its faces after ':', not as 'sides (...)'",  # type: ignore[attr-defined]
                      decl.span, hint="write: 1 Coin die: Heads, Tails")
            return []
        sides = decl.sides
        if len(sides) < 2:
            self.fail(f"'{decl.name}' needs at least two sides", decl.span)  # type: ignore[attr-defined]
            return []
        names = [s.name for s in sides]
        for side in sides:
            if side.name not in self.faces:
                self.fail(f"unknown side '{side.name}'", side.span,  # type: ignore[attr-defined]
                          hint="declare it first: face NAME: attribute value")
                return []
            if names.count(side.name) > 1:
                self.fail(f"side '{side.name}' is listed twice", side.span,  # type: ignore[attr-defined]
                          hint="list each side once, with its weight")
                return []
            if side.weight <= 0:
                self.fail(f"side '{side.name}' has weight {side.weight}: a side that can land needs a weight "  # type: ignore[attr-defined]
                          "above 0", side.span)
                return []
        weights = [Fraction(s.weight) for s in sides]
        if any(isinstance(s.weight, Fraction) for s in sides) and sum(weights) != 1:
            self.fail(f"the sides' chances add up to {sum(weights)}, not 1", decl.span,  # type: ignore[attr-defined]
                      hint="chances written as fractions add up to 1: sides (Heads 1/2, Tails 1/2); "
                           "whole numbers are relative weights: sides (Heads 1, Tails 1)")
            return []
        scale = lcm(*(w.denominator for w in weights))
        slots = [int(w * scale) for w in weights]
        if sum(slots) > MAX_SIDE_SLOTS:
            self.fail(f"these weights need {sum(slots)} equally likely slots (at most {MAX_SIDE_SLOTS})",  # type: ignore[attr-defined]
                      decl.span, hint="use simpler weights")
            return []
        faces: list[int] = []
        for side, n in zip(sides, slots):
            faces += [self.faces[side.name].index] * n
        return faces

    def turn_face(self, node: ast.TurnFace, scope: Any) -> m.TurnS:
        """``turn QUERY to FACE``."""
        query = self.query(node.query, scope)  # type: ignore[attr-defined]
        if query.quantity == "random":
            raise self.fail("turn the components where they are, not a random draw", node.span)  # type: ignore[attr-defined]
        face = self.faces.get(node.face.name)
        if face is None:
            raise self.fail(f"unknown side '{node.face.name}'", node.face.span,  # type: ignore[attr-defined]
                            hint="name a face declared with: face NAME")
        by_index = self.kinds_by_index  # type: ignore[attr-defined]
        for k in query.kinds or ():
            kind = by_index[k]
            if face.index not in kind.faces:
                shown = ", ".join(sorted({self._face_name(f) for f in kind.faces}))
                raise self.fail(f"'{kind.name}' has no side '{face.name}'", node.face.span,  # type: ignore[attr-defined]
                                hint=f"'{kind.name}' shows {shown}" if shown else
                                f"'{kind.name}' has no sides: declare them with 'sides (...)'")
        return m.TurnS(query, face.index, node.span)

    def _face_name(self, index: int) -> str:
        return next(f.name for f in self.faces.values() if f.index == index)

    # ------------------------------------------------------------------ elimination
    def drop_out(self, node: ast.DropOut, scope: Any, ctx: dict) -> m.DropS:
        """``drop out PLAYER``."""
        if ctx["kind"] == "setup":
            raise self.fail("'drop out' has no meaning during setup", node.span)  # type: ignore[attr-defined]
        self.uses_elimination = True
        player = self.seat(node.player, scope, False, "'drop out' needs a player")  # type: ignore[attr-defined]
        return m.DropS(player, node.span)

    def is_out(self, node: ast.IsOut, scope: Any, elem: bool) -> m.IsOut:
        """``PLAYER is out``."""
        self.uses_elimination = True
        return m.IsOut(self.seat(node.target, scope, elem, "'is out' needs a player"))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ races
    def pick_at(self, node: ast.PickAt, scope: Any) -> m.PickS:
        """``pick w at random from q in IT [if C]``."""
        iterable = self.iterable(node.iterable, scope)  # type: ignore[attr-defined]
        if iterable.type != PLAYER:
            raise self.fail("'pick ... at random from' picks a player: write 'from q in players ...'",  # type: ignore[attr-defined]
                            node.iterable.span)
        list_slot = scope.new_slot()
        scope.push()
        qvar = scope.bind(node.qvar, PLAYER)
        try:
            cond = None
            if node.cond is not None:
                cond = self.expect(node.cond, scope, BOOL, False, "'if' needs a true/false condition")  # type: ignore[attr-defined]
                if not _reads_local(cond, qvar):
                    raise self.fail(f"the condition does not test '{node.qvar}', so it picks among every player "  # type: ignore[attr-defined]
                                    "or none", node.cond.span,
                                    hint=f"say which players may be picked: 'if ... {node.qvar} ...'")
        finally:
            scope.pop()
        existing = scope.lookup(node.var)
        if isinstance(existing, m.Local) and existing.type == PLAYER:
            var = existing.slot
        else:
            var = scope.bind(node.var, PLAYER)
        return m.PickS(var, qvar, iterable, cond, list_slot, node.var, node.span)

    def ask_answer(self, opt: ast.AskOption, scope: Any, seen: set[str]) -> tuple[Any, Any]:
        """An answer of an ``ask`` with holes, given once per value of its ``for``s (if any): (condition,
        (label, bindings))."""
        bindings = []
        for name, raw in opt.bindings:
            iterable = self.iterable(raw, scope)  # type: ignore[attr-defined]
            bindings.append((scope.bind(name, iterable.type), iterable))
        if opt.bindings and all(isinstance(p, str) for p in opt.template.parts):
            raise self.fail(f"answer {opt.label!r} ranges over values its label does not show", opt.span,  # type: ignore[attr-defined]
                            hint="put {" + opt.bindings[0][0] + "} in the label")
        label = self.template(opt.template, scope)  # type: ignore[attr-defined]
        if any(isinstance(p, m.SecretPart) for p in label.parts):
            raise self.fail("an answer of 'ask' has no secret parts: the answers are revealed together",  # type: ignore[attr-defined]
                            opt.span)
        cond = None
        if opt.cond is not None:
            cond = self.expect(opt.cond, scope, BOOL, False, "an answer's 'if' needs true/false")  # type: ignore[attr-defined]
        return cond, (label, tuple(bindings))


def _contains(expr: Any, hit: Callable[[Any], bool]) -> bool:
    """Whether any node of an IR expression (attrs classes, tuples, lists) satisfies ``hit``."""
    import attrs

    if isinstance(expr, (tuple, list)):
        return any(_contains(x, hit) for x in expr)
    if not attrs.has(type(expr)):
        return False
    if hit(expr):
        return True
    return any(_contains(getattr(expr, field.name), hit) for field in attrs.fields(type(expr)))


def _reads_local(expr: Any, slot: int) -> bool:
    """Whether an IR expression reads local ``slot``."""
    return _contains(expr, lambda e: isinstance(e, m.Local) and e.slot == slot)


def reads_elimination(expr: Any) -> bool:
    """Whether an IR expression reads who is out (``is out``, ``players still in``)."""
    return _contains(expr, lambda e: isinstance(e, m.IsOut)
                     or (isinstance(e, m.IterIR) and e.kind in ("players_in", "others_in")))
