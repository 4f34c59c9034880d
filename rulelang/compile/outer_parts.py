"""The parts of an option's row test that do not read the innermost range's value, computed once per outer
value (``OUTER_PARTS``; a part of the generator, for ``OptionEmitter.enumerator``).

An option ``for k in ... for c in ... if T`` tests ``T`` for every ``c`` of every ``k``. Where ``T`` is an
``and``/``or``/``not`` of parts, a part that reads no innermost value and is sure neither to fail nor to change
anything (written of constants, locals, the current player, a kind's attribute, ``==`` and the like: see
``analysis.quiet``) has the same value for every ``c``: it is computed into a variable once per ``k``, before the
innermost loop, and read there. Those parts of one ``and``/``or`` chain become one variable (``k == A or k ==
B``), tested first in the chain where the parts before them in the chain are sure not to fail (a read of a
component's pile that an earlier test of the row has read already cannot fail: see ``piles_read``); else in
their place. The row test keeps its value: only its truth is read, the moved parts change nothing and cannot
fail, and the parts they may now skip cannot fail either and only fill caches (a count kept per outer value
is computed where first needed, as before). Decided on the checked model's expressions, for every game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.analysis import quiet, slots_read

OUTER_PARTS = True
"""Whether an option's row test reads the parts that need no innermost value from variables set once per outer
value (see the module's docstring); the equivalence tests turn it off to compare."""

FIRST_SLOT = -1000
"""The slot of the first variable made here: a slot no local uses (the writer reads it from ``cse_vars``)."""

_COMPARE = ("==", "!=")
_STATIC: dict[str, Callable[[Any, Callable[[], Any]], Any]] = {
    "and": lambda a, b: a and b(), "or": lambda a, b: a or b(), "==": lambda a, b: a == b(),
    "!=": lambda a, b: a != b(),
}


class _NotByKind(Exception):
    """A part that reads more than one range's kind."""


@attrs.define
class Hoist:
    """What ``hoist`` found: the row test's parts, rewritten, and the moved parts with their variables' slots."""

    parts: list[Any]
    moved: list[tuple[int, Any]] = attrs.Factory(list)  # (slot, part): a variable set once per outer value
    tabled: list[tuple[int, list[Any], int]] = attrs.Factory(list)  # (slot, value per kind, the kind's slot)


class _Walk:
    """One rewrite of a row test (see ``hoist``)."""

    def __init__(self, model: m.Model, inner: set[int], kinds: set[int], no_kind: bool,
                 kind_values: dict[str, list[Any]], variables: bool) -> None:
        self.model = model
        self.variables = variables  # whether a part not decided by a kind may be a variable (an outer range)
        self.inner = inner
        self.kinds = kinds  # the outer ranges' slots that hold kinds
        self.no_kind = no_kind
        self.kind_values = kind_values
        self.next_slot = FIRST_SLOT
        self.moved: list[tuple[int, Any]] = []
        self.tabled: list[tuple[int, list[Any], int]] = []

    def quiet(self, e: Any) -> bool:
        """Whether ``e`` is a part that may be moved: it reads no pile, calls nothing, cannot fail
        (``analysis.quiet``)."""
        return quiet(e, self.model, self.no_kind)

    def sure(self, e: Any, proven: frozenset) -> bool:
        """Whether ``e`` cannot fail nor change anything, the piles ``proven`` read already: a quiet part, or an
        ``any``/``count`` with no filter but kinds (a table) of piles that are sure to be there."""
        t = type(e)
        if self.quiet(e):
            return True
        if t is m.UnOp and e.op == "not":
            return self.sure(e.operand, proven)
        if t is m.BinOp and e.op in ("and", "or"):
            return self.sure(e.left, proven) and self.sure(e.right, proven | piles_read(e.left))
        if t is m.BinOp and e.op in _COMPARE:
            return self.sure(e.left, proven) and self.sure(e.right, proven | piles_read(e.left))
        if t is m.Agg and e.func in ("any", "count"):
            q = e.query
            if q.where is not None or q.one is not None or q.count_expr is not None or q.exclude \
                    or (q.kind_locals and (self.no_kind or q.kinds is not None or len(q.kind_locals) != 1)):
                return False
            return all(self.sure_zone(sel, proven) for sel in q.zones)
        return False

    def sure_zone(self, sel: m.ZoneSel, proven: frozenset) -> bool:
        """Whether reading the zone ``sel`` cannot fail: a zone of the table, the current player's, or a pile read
        already."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return not zone.per_player and zone.per_kind is None and zone.per_class is None
        if type(sel.owner) is m.CurrentPlayer:
            return zone.per_player and zone.per_kind is None and zone.per_class is None
        return type(sel.owner) is m.Local and (sel.zone, sel.owner.slot) in proven

    def movable(self, e: Any) -> bool:
        """A part worth a variable: quiet, reading no innermost value, more than a constant or a local."""
        return type(e) not in (m.Const, m.Local) and self.quiet(e) and not slots_read([e]) & self.inner

    def by_kind(self, e: Any) -> tuple[int, list[Any]] | None:
        """Where ``e`` reads one outer range's kind and nothing else (constants, that kind, its attributes,
        ``not``, ``and``, ``or``, comparisons): that range's slot and ``e``'s value for each kind; else None."""
        read = slots_read([e])
        if self.no_kind or len(read) != 1 or not read <= self.kinds:
            return None
        slot = next(iter(read))
        try:
            return slot, [self.value(e, slot, k) for k in range(len(self.model.kinds))]
        except _NotByKind:
            return None

    def value(self, e: Any, slot: int, kind: int) -> Any:
        """The value of ``e`` where the local ``slot`` holds ``kind`` (``_NotByKind``: it reads more)."""
        t = type(e)
        if t is m.Const:
            return e.value
        if t is m.Local and e.slot == slot and e.type == m.KIND:
            return kind
        if t is m.KindAttr and type(e.kind) is m.Local:
            return self.kind_values[e.attr][self.value(e.kind, slot, kind)]
        if t is m.UnOp and e.op == "not":
            return not self.value(e.operand, slot, kind)
        if t is m.BinOp and e.op in _STATIC:
            return _STATIC[e.op](self.value(e.left, slot, kind), lambda: self.value(e.right, slot, kind))
        raise _NotByKind

    def variable(self, e: Any) -> Any:
        """What reads ``e``'s value: a table by kind (where ``by_kind``), else a variable computed once per outer
        value (where there are outer ranges; else ``e`` itself)."""
        slot = self.next_slot
        self.next_slot -= 1
        tabled = self.by_kind(e)
        if tabled is not None:
            self.tabled.append((slot, tabled[1], tabled[0]))
        elif self.variables:
            self.moved.append((slot, e))
        else:  # (no outer range: a variable would be set once per listing, for maybe a value or two)
            return e
        return m.Local(slot, e.type)

    def rewrite(self, e: Any, proven: frozenset) -> Any:
        """``e`` (read for its truth) with its movable parts read from variables."""
        t = type(e)
        if t is m.UnOp and e.op == "not":
            x = self.rewrite(e.operand, proven)
            return e if x is e.operand else attrs.evolve(e, operand=x)
        if t is m.BinOp and e.op in ("and", "or"):
            return self.chain(chain_items(e, e.op), e.op, proven, e)
        return e

    def chain(self, items: list[Any], op: str, proven: frozenset, like: Any) -> Any:
        """An ``and``/``or`` chain's items, the movable ones as one variable (first where it may be)."""
        moved = [i for i, x in enumerate(items) if self.movable(x)]
        out: list[Any] = []
        seen = proven
        for i, x in enumerate(items):  # each item, the piles read by those before it known to be there
            out.append(x if i in moved else self.rewrite(x, seen))
            seen = seen | piles_read(x)
        if not moved:
            return join(out, op, like)
        if len(moved) == len(items):
            return self.variable(join(items, op, like))
        group = join([items[i] for i in moved], op, like)
        if self.variables and self.by_kind(group) is None and all(self.sure(items[i], proven | _before(items, i))
                                               for i in range(moved[-1]) if i not in moved):
            # a variable, tested first: the parts it may skip cannot fail
            rest = [x for i, x in enumerate(out) if i not in moved]
            return join([self.variable(group), *rest], op, like)
        runs: list[Any] = []  # else each run of movable parts in its place (a table by kind: no variable)
        for i, x in enumerate(out):
            if i in moved and i - 1 in moved:
                runs[-1].append(items[i])
            elif i in moved:
                runs.append([items[i]])
            else:
                runs.append(x)
        return join([(r[0] if len(r) == 1 and type(r[0]) is m.KindAttr else self.variable(join(r, op, like)))
                     if isinstance(r, list) else r for r in runs], op, like)


def _before(items: list[Any], i: int) -> frozenset:
    """The piles the items before item ``i`` of a chain are sure to have read (each of them ran)."""
    out: frozenset = frozenset()
    for x in items[:i]:
        out |= piles_read(x)
    return out


def chain_items(e: Any, op: str) -> list[Any]:
    """The operands of a chain of ``op`` (``and`` or ``or``), in the order they are evaluated."""
    if type(e) is m.BinOp and e.op == op:
        return chain_items(e.left, op) + chain_items(e.right, op)
    return [e]


def join(items: list[Any], op: str, like: m.BinOp) -> Any:
    """The chain ``items[0] op items[1] op ...``, grouped from the left as the parser groups it."""
    out = items[0]
    for x in items[1:]:
        out = m.BinOp(op, out, x, like.type, like.span)
    return out


def piles_read(e: Any) -> frozenset:
    """The piles on a local's component (zone, slot) that evaluating ``e`` is sure to read (once it ran without
    failing, they are there): the first zone of an aggregate, the first item of a chain, both sides of a
    comparison."""
    t = type(e)
    if t is m.Agg and e.query.zones and e.query.one is None:
        sel = e.query.zones[0]
        return frozenset({(sel.zone, sel.owner.slot)}) if type(sel.owner) is m.Local else frozenset()
    if t is m.UnOp:
        return piles_read(e.operand)
    if t is m.BinOp and e.op in ("and", "or"):
        return piles_read(e.left)
    if t is m.BinOp:
        return piles_read(e.left) | piles_read(e.right)
    return frozenset()


def hoist(model: m.Model, parts: list[Any], inner: set[int], kinds: set[int], no_kind: bool,
          kind_values: dict[str, list[Any]], variables: bool = True) -> Hoist:
    """The conjuncts ``parts`` of a row test, the innermost range's slots ``inner`` (``kinds``: the outer ranges'
    slots holding kinds), rewritten with their movable parts read from tables by kind or (with ``variables``:
    there are outer ranges) variables (slots from ``FIRST_SLOT`` down), and those parts; unchanged with the
    flag off."""
    if not OUTER_PARTS:
        return Hoist(list(parts))
    walk = _Walk(model, inner, kinds, no_kind, kind_values, variables)
    like = m.BinOp("and", parts[0], parts[-1], m.BOOL, getattr(parts[0], "span", None))
    whole = walk.chain(list(parts), "and", frozenset(), like)
    return Hoist(chain_items(whole, "and"), walk.moved, walk.tabled)
