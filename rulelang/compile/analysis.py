"""Analyses of a checked model at compile time, shared by the generator's modules.

Nothing here runs in a game: these are the static tables (attribute values by kind and face,
filters tabulated by kind and face, which triggers a change can wake) and the questions the
generator asks of an expression (which locals it reads, whether it is a count, whether it is
always whole, whether two expressions are the same). What an expression *means* at run time is
written once, as Python source, by ``exprs.ExprWriter``; the only evaluator here is
``Analysis.static_value``, a documented evaluator of the static subset (constants, a component's
own attributes and kind, ``not``, unary minus and the arithmetic and comparison operators), which
tabulates a filter over every (kind, face) pair before any code exists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m

MAX_INLINE_DEPTH = 12


class NotStatic(Exception):
    """An expression that depends on more than a component's kind and face."""


_STATIC_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "and": lambda a, b: a and b, "or": lambda a, b: a or b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "*": lambda a, b: a * b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}


class Analysis:
    """The static tables of one checked model: its components, attribute values, tabulated filters
    and trigger lists."""

    def __init__(self, model: m.Model) -> None:
        self.model = model
        self.kind_of: list[int] = []
        self.labels: list[str] = []
        for kind in model.kinds:
            for i in range(kind.count):
                self.kind_of.append(kind.index)
                self.labels.append(f"{kind.name}#{i + 1}" if kind.count > 1 else kind.name)
        self.zones = model.zones
        self.first_of_kind: dict[int, int] = {}
        for c, k in enumerate(self.kind_of):
            self.first_of_kind.setdefault(k, c)
        self.trigger_for_counter: dict[int, tuple[int, ...]] = {}
        for counter in model.counters:
            self.trigger_for_counter[counter.index] = tuple(
                i for i, t in enumerate(model.triggers) if counter.index in t.reads_counters and not t.after_step
            )
        # attribute tables
        self.kind_values: dict[str, list[Any]] = {}
        self.face_values: dict[str, list[Any]] = {}
        for name, attr in model.attributes.items():
            self.kind_values[name] = [k.values.get(name, attr.default) for k in model.kinds]
            self.face_values[name] = [f.values.get(name) for f in model.faces]
        self._tables: dict[tuple[str, tuple[bool, ...] | None], list[list[Any]] | None] = {}

    def triggers_for(self, zones: set[int]) -> tuple[int, ...]:
        """The triggers to check after a statement that changes these zones."""
        return tuple(i for i, t in enumerate(self.model.triggers) if t.reads_zones & zones and not t.after_step)

    def static_value(self, e: Any, kind: int, face: int) -> Any:
        """The value of an element-only expression for a component of ``kind`` showing ``face``
        (``NotStatic`` if it reads anything else)."""
        if isinstance(e, m.ElemAttr):
            if face >= 0:
                v = self.face_values[e.attr][face]
                if v is not None:
                    return v
            return self.kind_values[e.attr][kind]
        if isinstance(e, m.ElemIsKind):
            return kind in e.kinds
        if isinstance(e, m.ElemFace):
            return face
        if isinstance(e, m.Const):
            return e.value
        if isinstance(e, m.UnOp):
            v = self.static_value(e.operand, kind, face)
            return (not v) if e.op == "not" else -v
        if isinstance(e, m.BinOp) and e.op in _STATIC_OPS:
            a = self.static_value(e.left, kind, face)
            b = self.static_value(e.right, kind, face)
            return _STATIC_OPS[e.op](a, b)
        raise NotStatic

    def table(self, e: Any | None, allow: list[bool] | None) -> list[list[Any]] | None:
        """Tabulate an element-only expression over (kind, face + 1), or None if it needs more.

        Each table is computed once per expression (told apart by ``repr``, so that ``1`` and ``True`` or
        ``Fraction(1)`` are not one key) and allowance: callers only read it."""
        key = (repr(e), None if allow is None else tuple(allow))
        if key not in self._tables:
            self._tables[key] = self._tabulate(e, allow)
        return self._tables[key]

    def _tabulate(self, e: Any | None, allow: list[bool] | None) -> list[list[Any]] | None:
        nfaces = len(self.model.faces)
        try:
            return [
                [(allow is None or allow[k]) and (e is None or self.static_value(e, k, f)) for f in range(-1, nfaces)]
                for k in range(len(self.model.kinds))
            ]
        except NotStatic:
            return None

    def pred_table(self, q: m.QueryIR) -> list[list[bool]] | None:
        """The query's filter as a (kind, face + 1) table, when it depends on nothing else."""
        if q.kind_locals or (q.kinds is None and q.where is None):
            return None
        nkinds = len(self.model.kinds)
        allow = None if q.kinds is None else [(k in q.kinds) != q.exclude for k in range(nkinds)]
        return self.table(q.where, allow)


def reads_slots(expr: Any, slots: set[int]) -> bool:
    """Whether an IR expression reads any of these local slots."""
    if isinstance(expr, m.Local):
        return expr.slot in slots
    if isinstance(expr, m.QueryIR) and not slots.isdisjoint(expr.kind_locals):
        return True  # (a query of the kind a local holds, ``k in hand``, reads that local)
    if isinstance(expr, (tuple, list)):
        return any(reads_slots(x, slots) for x in expr)
    if attrs.has(type(expr)):
        return any(reads_slots(getattr(expr, f.name), slots) for f in attrs.fields(type(expr)))
    return False


def sheet_total(sheet: m.Sheet) -> Any:
    """The sum of a score sheet's lines, as the checker writes ``NAME of p``."""
    if not sheet.lines:
        return None
    total = sheet.lines[0][1]
    for _label, expr in sheet.lines[1:]:
        total = m.BinOp("+", total, expr, m.INT, None)  # type: ignore[arg-type]
    return total


def same(a: Any, b: Any) -> bool:
    """Structural equality of IR, ignoring source spans."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if attrs.has(type(a)):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)) if f.name != "span")
    return a == b


def whole_valued(e: Any) -> bool:
    """Whether an expression is always a whole number (never a fraction): counts, whole constants, the
    number of players, and sums, differences and products of those."""
    t = type(e)
    if t is m.Const:
        return type(e.value) is int
    if t is m.BinOp:
        return e.op in ("+", "-", "*") and whole_valued(e.left) and whole_valued(e.right)
    if t is m.Builtin:
        return e.func == "players"
    if t is m.IfElseIR:
        return whole_valued(e.then) and whole_valued(e.orelse)
    return is_count(e)

def is_count(e: Any) -> bool:
    """Whether an expression is a count of components (a whole number from 0 to the components' number)."""
    return type(e) is m.Agg and e.func == "count"

def canonical(e: Any, bound: frozenset[int], free: list[int], names: dict[int, int] | None = None) -> Any:
    """A hashable form of an IR expression, ignoring spans; ``free`` collects the local slots it reads
    that it does not bind itself. Without ``names``, slots are kept as they are: two nodes share a memo
    only when they read and write the same slots. With ``names`` (filled here), every slot is numbered
    in the order it first appears, so that copies of one definition inlined on other slots agree."""
    if isinstance(e, m.Local):
        if e.slot not in bound and e.slot not in free:
            free.append(e.slot)
        return ("Local", e.slot if names is None else names.setdefault(e.slot, len(names)))
    if isinstance(e, m.Gen):
        inner = bound | {e.var}
        var = e.var if names is None else names.setdefault(e.var, len(names))
        return ("Gen", e.func, var, canonical(e.iterable, bound, free, names),
                canonical(e.expr, inner, free, names), canonical(e.cond, inner, free, names))
    if isinstance(e, m.PlacesIR):  # its variable is bound in the key and the condition
        inner = bound | {e.var}
        points = canonical(e.points, bound, free, names)
        player = canonical(e.player, bound, free, names)
        var = e.var if names is None else names.setdefault(e.var, len(names))
        return ("Places", points, player, e.highest, var, canonical(e.iterable, bound, free, names),
                canonical(e.key, inner, free, names), canonical(e.cond, inner, free, names), e.share)
    if isinstance(e, m.QueryIR):  # its kind_locals are local slots too
        return ("Query",) + tuple(
            tuple(canonical(m.Local(s, m.KIND), bound, free, names) for s in e.kind_locals)
            if f.name == "kind_locals" else canonical(getattr(e, f.name), bound, free, names)
            for f in attrs.fields(m.QueryIR) if f.name != "span")
    if isinstance(e, (tuple, list)):
        return tuple(canonical(x, bound, free, names) for x in e)
    if isinstance(e, frozenset):
        return ("set", tuple(sorted(e)))
    if attrs.has(type(e)):
        return (type(e).__name__,) + tuple(canonical(getattr(e, f.name), bound, free, names)
                                           for f in attrs.fields(type(e)) if f.name != "span")
    return e

def slots_read(exprs: list[Any]) -> set[int]:
    """The local slots these IR expressions (or ranges) read, ``kind_locals`` of queries included."""
    free: list[int] = []
    for e in exprs:
        canonical(e, frozenset(), free)
    return set(free)


_STRICT = (m.Const, m.Local, m.CurrentPlayer, m.Agg, m.UnOp, m.Builtin, m.CounterGet, m.SeatLit, m.After)


def strict(e: Any) -> bool:
    """Whether an expression evaluates each of its operands every time (no ``and``/``or``/``if``)."""
    t = type(e)
    if t is m.BinOp:
        return e.op not in ("and", "or")
    return t in _STRICT


def added_as_they_come(e: m.Gen, count: bool) -> bool:
    """Whether a total's values are added up as they come (no list of them to add up at the end):
    every ``total`` that is not a count of a number written there (whole numbers and exact fractions:
    the same sum, added left to right as ``sum`` does)."""
    return e.func == "total" and not count


def answer_counted(e: m.Gen) -> str | None:
    """The answer X of ``total(N for q in players if answer of q == X)`` (X a text written there), or
    None for any other total."""
    c = e.cond
    if e.iterable.kind != "players" or type(c) is not m.BinOp or c.op != "==":
        return None
    for a, b in ((c.left, c.right), (c.right, c.left)):
        if type(a) is m.AnswerGet and type(a.player) is m.Local and a.player.slot == e.var \
                and type(b) is m.Const and type(b.value) is str:
            return b.value
    return None


def reads_no_component(e: Any) -> bool:
    """Whether an expression reads nothing of the component a filter tests, nor holds a query or a
    generator of its own (conservatively: those are not looked into)."""
    t = type(e)
    if t in (m.ElemAttr, m.ElemIsKind, m.ElemFace, m.ElemIs, m.Agg, m.Gen, m.PlacesIR, m.Format, m.TemplateIR,
             m.QueryIR):
        return False
    if isinstance(e, tuple):
        return all(reads_no_component(x) for x in e)
    if attrs.has(t):
        return all(reads_no_component(getattr(e, f.name)) for f in attrs.fields(t))
    return True


def plain_value(e: Any) -> bool:
    """Whether an expression is a constant, a local or a kind's attribute of one (no component read, no error)."""
    t = type(e)
    if t is m.KindAttr:
        return type(e.kind) in (m.Const, m.Local)
    return t in (m.Const, m.Local)


def kind_count_pattern(it: m.IterIR, slot: int) -> m.Agg | None:
    """For ``for k in kinds(Q)`` (one zone, no kinds named) binding ``slot``: the IR of ``count(k in Q)``,
    which a count of Q's components by kind answers for each ``k`` (None: no such count here)."""
    q = it.query
    if it.kind != "kinds" or q is None or len(q.zones) != 1 or q.quantity != "all" or q.kinds is not None \
            or q.kind_locals or q.exclude or q.count is not None or q.count_expr is not None:
        return None
    return m.Agg("count", None, attrs.evolve(q, quantity="default", kind_locals=(slot,)), m.INT)


def never_negative(it: m.IterIR) -> bool:
    """Whether every value of a range is a seat or a component of a zone (never nobody, nothing or < 0)."""
    return it.kind in ("players", "players_in", "others", "others_in", "players_from") or (
        it.type == m.COMPONENT and it.query is not None)


def fold(e: Any) -> Any:
    """An ``and``/``or``/``not``/if-else whose deciding operand is a constant, reduced as Python evaluates it
    (``True or X`` is True and never runs X; ``False or X`` is X); anything else as it is."""
    t = type(e)
    if t is m.BinOp and e.op in ("==", "!=") and type(e.left) is m.Const and type(e.right) is m.Const:
        return m.Const((e.left.value == e.right.value) == (e.op == "=="), m.BOOL)  # two option values
    if t is m.BinOp and e.op in ("and", "or"):
        left = fold(e.left)
        if type(left) is m.Const:
            return left if bool(left.value) == (e.op == "or") else fold(e.right)
        right = fold(e.right)
        return e if left is e.left and right is e.right else attrs.evolve(e, left=left, right=right)
    if t is m.UnOp and e.op == "not":
        x = fold(e.operand)
        if type(x) is m.Const:
            return m.Const(not x.value, e.type)
        return e if x is e.operand else attrs.evolve(e, operand=x)
    if t is m.IfElseIR:
        cond = fold(e.cond)
        if type(cond) is m.Const:
            return fold(e.then if cond.value else e.orelse)
    return e


def conjuncts(e: Any) -> list[Any]:
    """The operands of a chain of ``and``s, in the order they are evaluated."""
    if type(e) is m.BinOp and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


_ORDER = ("<", ">", "<=", ">=")
_ARITH = ("+", "-", "*")


def quiet(e: Any, model: m.Model, no_kind: bool, seats: frozenset[int] = frozenset()) -> bool:
    """Whether evaluating the expression ``e`` changes nothing and cannot fail: it reads only constants, locals,
    the current player, a seat every game of ``model`` has (``P1`` below its fewest players), a counter of the
    table or of the current player, a kind's attribute (of a constant or a local, where no kind value may be
    'no kind': ``no_kind`` false), the answer of a player surely seated (the current player, such a seat, or
    a local of ``seats``: never nobody), through ``not``, ``and``, ``or``, ``==`` and ``!=``, and the order and
    arithmetic (``<``, ``+``, ...) of two numbers. The one test of ``outer_parts`` (parts moved out of a row
    test) and ``unasked`` (tests that are surely false where nobody has answered)."""
    t = type(e)
    if t in (m.Const, m.Local, m.CurrentPlayer):
        return True
    if t is m.SeatLit:  # (else ``seat_in_game`` fails where fewer play)
        return e.seat < model.min_players
    if t is m.AnswerGet:  # (a player that may be nobody is checked, and fails, where the answer is read)
        p = e.player
        return type(p) is m.CurrentPlayer or (type(p) is m.SeatLit and p.seat < model.min_players) \
            or (type(p) is m.Local and p.slot in seats)
    if t is m.KindAttr:  # a table's entry by kind (a kind that may be 'no kind' is checked: not here)
        return not no_kind and type(e.kind) in (m.Local, m.Const)
    if t is m.CounterGet:
        return e.owner is None or type(e.owner) is m.CurrentPlayer
    if t is m.UnOp and e.op == "not":
        return quiet(e.operand, model, no_kind, seats)
    if t is m.BinOp:
        if e.op in ("and", "or", "==", "!="):
            return quiet(e.left, model, no_kind, seats) and quiet(e.right, model, no_kind, seats)
        if e.op in _ORDER or e.op in _ARITH:  # whole numbers only (no None, no text against a number)
            return e.left.type == m.INT and e.right.type == m.INT and quiet(e.left, model, no_kind, seats) \
                and quiet(e.right, model, no_kind, seats)
    return False
