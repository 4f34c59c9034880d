"""Answers and definitions as values.

- An answer of an ``ask`` may have a block: once everyone has answered, the block of each player's
  answer runs for that player, in seat order, with the answer's ``for`` values bound. The checker
  writes it as plain statements after the ``ask``: a ``let`` of which answer each seat gave, with
  its values (``AnswerMatch``, found once, before any block runs), then a ``for`` over the seats
  whose ``if`` runs the block of the answer given (``AnswerIs``, ``AnswerValue``).
- ``answer of p == X`` is checked against the answers the game's ``ask``s can give: a text that no
  answer can read is an error (a misspelt answer would otherwise be silently false), and a number,
  player, kind or component is compared with an answer that is that value alone (``"{n}" for n in
  1 to 13``), as it is shown.
- ``define NAME(...):`` with a block of ``let``, ``if`` and ``return`` decides a value: every path
  must return (checked where it is declared), and each use expands to one expression of nested
  ``(A if C else B)``, so it is translated as any expression is.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.check.common import Reporter, RuleScope, suggest
from rulelang.check.model import BOOL, COMPONENT, INT, KIND, PLAYER, STR
from rulelang.syntax import ast

VALUE_TYPES = (INT, PLAYER, KIND, COMPONENT)
"""The types an answer can be compared with as a value (what a lone ``{...}`` answer shows)."""

HOLE = None
"""A hole of a pattern that may show any text."""

SHOWN_WITH = {INT: frozenset("-0123456789"), PLAYER: frozenset("P0123456789nobody"), BOOL: frozenset("yesno")}
"""The characters a hole of these types can show (a number, ``P2`` or ``nobody``, ``yes`` or ``no``)."""


def _pattern(parts: tuple) -> tuple:
    """A label's pattern: its characters, each hole one token (``HOLE``, or the characters it may show)."""
    out: list = []
    for part in parts:
        if isinstance(part, str):
            out.extend(part)
        else:
            out.append(SHOWN_WITH.get(part.type, HOLE))
    return tuple(out)


def _hole(token: Any) -> bool:
    return token is HOLE or isinstance(token, frozenset)


def _takes(hole: Any, token: Any) -> bool:
    """Whether a hole may show this character of the other pattern."""
    return hole is HOLE or token in hole


def could_read_alike(a: tuple, b: tuple) -> bool:
    """Whether some text fits both patterns (each hole standing for any text it may show, even none)."""
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(a) and j == len(b):
            return True
        x = a[i] if i < len(a) else ""
        y = b[j] if j < len(b) else ""
        if i < len(a) and _hole(x):
            todo.append((i + 1, j))
            if j < len(b) and not _hole(y) and _takes(x, y):
                todo.append((i, j + 1))
        if j < len(b) and _hole(y):
            todo.append((i, j + 1))
            if i < len(a) and not _hole(x) and _takes(y, x):
                todo.append((i + 1, j))
        if i < len(a) and j < len(b) and not _hole(x) and x == y:
            todo.append((i + 1, j + 1))
    return False


class ValueChecks(Reporter):
    """Checker methods for answers and definitions as values (mixed into ``Checker``).

    ``answer_patterns`` (every answer of every ``ask`` checked: its pattern, its label as written, the
    type of a lone hole), ``answer_uses`` (comparisons with an answer, checked once every rule is) and
    ``broken_defines`` (deciding definitions already reported, not expanded) are set up by
    ``Checker.__init__``.
    """

    answer_patterns: list
    answer_uses: list
    broken_defines: set

    # ------------------------------------------------------------------ answers
    def note_answers(self, ask: m.AskS) -> None:
        """Remember what each answer of a checked ``ask`` can read."""
        dynamic = ask.dynamic or (None,) * len(ask.options)
        for (label, _cond, _span), dyn in zip(ask.options, dynamic):
            if dyn is None:
                self.answer_patterns.append((tuple(label), label, None))
                continue
            parts = tuple(p.expr if isinstance(p, m.SecretPart) else p for p in dyn[0].parts)
            alone = parts[0].type if len(parts) == 1 and not isinstance(parts[0], str) else None
            self.answer_patterns.append((_pattern(parts), label, alone))

    def answer_blocks(self, ask: m.AskS, bodies: list, bindings: list, scope: RuleScope) -> tuple:
        """The ``ask`` and, after it, the blocks of its answers run for each player who gave them."""
        for (label, _c, span), dyn in zip(ask.options, ask.dynamic or (None,) * len(ask.options)):
            if dyn is None and label == "":
                raise self.fail("an answer with blocks cannot be empty text: it would read as not asked", span)
        match = m.Local(scope.new_slot(), "answers")
        who = m.Local(ask.var, PLAYER)
        branches = []
        for i, body in enumerate(bodies):
            if body is None:
                continue
            span = ask.options[i][2]
            lets = tuple(m.LetS(slot, m.AnswerValue(match, who, j, it.type), span)
                         for j, (slot, it) in enumerate(bindings[i]))
            branches.append((m.AnswerIs(match, who, i), lets + body))
        seats = m.IterIR("players", None, None, None, PLAYER, span=ask.span)
        loop = m.ForS(ask.var, seats, (m.IfS(tuple(branches), None, ask.span),), scope.new_slot(),
                      scope.new_slot(), ask.span)
        return (ask, m.LetS(match.slot, m.AnswerMatch(ask, ask.span), ask.span), loop)

    def answer_compare(self, op: str, left: Any, right: Any, node: ast.Binary) -> m.BinOp | None:
        """``answer of p == X`` (or ``!=``), checked against the answers; None if neither side is an answer."""
        if isinstance(left, m.AnswerGet) and not isinstance(right, m.AnswerGet):
            answer, other, raw = left, right, node.right
        elif isinstance(right, m.AnswerGet) and not isinstance(left, m.AnswerGet):
            answer, other, raw = right, left, node.left
        else:
            return None
        if other.type == STR:
            if isinstance(other, m.Const) and other.value != "":  # ("": the answer of a player not asked)
                self.answer_uses.append((tuple(other.value), repr(other.value), raw.span))
            elif isinstance(other, m.Format):
                parts = tuple(p.expr if isinstance(p, m.SecretPart) else p for p in other.text.parts)
                shown = "".join(p if isinstance(p, str) else "{...}" for p in parts)
                self.answer_uses.append((_pattern(parts), repr(shown), raw.span))
            return m.BinOp(op, answer, other, BOOL, node.span)
        if other.type not in VALUE_TYPES:
            raise self.fail(f"cannot compare an answer with a {other.type}", node.span,
                            hint="an answer is a text, or a number, player, kind or component answered alone")
        self.answer_uses.append((other.type, None, raw.span))
        shown = m.Format(m.TemplateIR((other,)))
        pair = (answer, shown) if answer is left else (shown, answer)
        return m.BinOp(op, pair[0], pair[1], BOOL, node.span)

    def check_answer_uses(self) -> None:
        """Every comparison with an answer can be true: some answer reads that text, or is that value alone."""
        labels = [label for _p, label, _alone in self.answer_patterns]
        for want, shown, span in self.answer_uses:
            if isinstance(want, str):  # a value: some answer is a lone hole of its type
                if not any(alone == want for _p, _l, alone in self.answer_patterns):
                    self.error(f"no answer of an 'ask' is a {want} alone, so this comparison is never true",
                               span, hint="answer with the value alone (\"{n}\" for n in ...), or compare with "
                                          "the answer's whole text")
                elif want == KIND and len({k.display for k in self.kinds.values()}) != len(self.kinds):
                    self.error("two kinds are shown alike, so an answer cannot tell them apart", span,
                               hint="give every kind its own display name")
                continue
            if not any(could_read_alike(want, pattern) for pattern, _l, _a in self.answer_patterns):
                text = shown.strip("'\"") if shown else ""
                close = suggest(text, labels)
                self.error(f"no answer of an 'ask' reads {shown}, so this comparison is never true", span,
                           hint=close or ("the answers are: " + ", ".join(repr(x) for x in labels[:8])
                                          if labels else "the game asks nothing: 'answer of' reads an 'ask'"))

    # ------------------------------------------------------------------ definitions that decide
    def check_define_blocks(self) -> None:
        """Each ``define NAME(...):`` block holds only ``let``, ``if`` and ``return``, and returns on every path."""
        for decl in self.defines.values():
            if decl.body is None:
                continue
            before = len(self.errors)
            returns = self._returns(decl.body, decl.name)
            if len(self.errors) > before or not returns:
                self.broken_defines.add(decl.name)
            if not returns:
                last = decl.body[-1]
                self.error(f"not every path of '{decl.name}' returns a value", getattr(last, "span", decl.span),
                           hint="end the block with 'return VALUE', or give each 'if' an 'else' that returns")

    def _returns(self, stmts: tuple, name: str) -> bool:
        """Whether a block of a deciding definition returns on every path (errors for what it may not hold)."""
        for i, stmt in enumerate(stmts):
            ends = False
            if isinstance(stmt, ast.Return):
                ends = True
            elif isinstance(stmt, ast.If):
                ends = all([self._returns(body, name) for _c, body in stmt.branches]) \
                    and stmt.orelse is not None and self._returns(stmt.orelse, name)
            elif not isinstance(stmt, ast.Let):
                self.error(f"'{name}' decides a value: its block holds only 'let', 'if' and 'return'",
                           getattr(stmt, "span", None),
                           hint="a definition reads the game and changes nothing; to act, write a rule")
                return True  # (reported: not also as a missing return)
            if ends:
                if i + 1 < len(stmts):
                    self.error("nothing after 'return' runs", getattr(stmts[i + 1], "span", None),
                               hint="remove it, or put it before the 'return'")
                return True
        return False

    def decide(self, stmts: tuple, scope: RuleScope, name: str) -> Any:
        """The value a deciding definition's block returns, as one expression (``let`` binds a value for
        the rest of its block, ``if`` becomes ``(A if C else B)``)."""
        stmt, rest = stmts[0], stmts[1:]
        if isinstance(stmt, ast.Return):
            return self.expr(stmt.value, scope)  # type: ignore[attr-defined]
        if isinstance(stmt, ast.Let):
            value = self.expr(stmt.value, scope)  # type: ignore[attr-defined]
            scope.push()
            try:
                scope.bind_expr(stmt.name, value)
                return self.decide(rest, scope, name)
            finally:
                scope.pop()
        assert isinstance(stmt, ast.If)  # (check_define_blocks refused anything else)
        arms = []
        for cond, body in stmt.branches:
            c = self.expect(cond, scope, BOOL, False, "'if' needs a true/false condition")  # type: ignore[attr-defined]
            arms.append((c, self._arm(body + rest, scope, name)))
        value = self._arm((stmt.orelse or ()) + rest, scope, name)
        for c, then in reversed(arms):
            if then.type != value.type and "any" not in (then.type, value.type):
                raise self.fail(f"'{name}' returns a {then.type} on one path and a {value.type} on another",
                                stmt.span, hint="return the same kind of value on every path")
            value = m.IfElseIR(c, then, value, then.type if then.type != "any" else value.type)
        return value

    def _arm(self, stmts: tuple, scope: RuleScope, name: str) -> Any:
        scope.push()
        try:
            return self.decide(stmts, scope, name)
        finally:
            scope.pop()

    def no_return(self, node: ast.Return) -> Any:
        """``return`` in a rule: an error."""
        return self.fail("'return' gives the value of a definition; a rule returns nothing", node.span,
                         hint="to decide a value, write 'define NAME(...):' with the block; "
                              "to stop the turn, 'end turn'")
