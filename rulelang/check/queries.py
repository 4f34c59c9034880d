"""Checks of queries: the zones they read, the components they select and what a ``for`` ranges over.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.check.common import Reporter, RuleScope, suggest
from rulelang.check.model import BOOL, COMPONENT, INT, KIND, PLAYER
from rulelang.syntax import ast


class QueryChecks(Reporter):
    """Checker methods for zones, selections of components and iterables (mixed into ``Checker``)."""

    def zone_sel(self, ref: ast.ZoneRef, scope: RuleScope) -> m.ZoneSel:
        """Resolve ``zone`` or ``zone of player``."""
        zone = self.zones.get(ref.name)
        if zone is None:
            raise self.fail(f"unknown zone '{ref.name}'", ref.span,
                            hint=suggest(ref.name, self.zones) or "declare it: zone NAME")
        if zone.per_class is not None:
            cls = self.zone_classes.get(zone.name, "component")
            if ref.owner is None:
                raise self.fail(f"zone '{ref.name}' is one per {cls}", ref.span,
                                hint=f"say which: '{ref.name} of c' with c a {cls}")
            owner = self.expect(ref.owner, scope, COMPONENT, False, f"'{ref.name} of' needs a {cls}")
            return m.ZoneSel(zone.index, owner, ref.span)
        if zone.per_kind is not None:
            kind = self.kinds_by_index[zone.per_kind]
            if ref.owner is None:
                raise self.fail(f"zone '{ref.name}' is one per {kind.name}", ref.span,
                                hint=f"say which: '{ref.name} of b' with b a {kind.name}")
            owner = self.expect(ref.owner, scope, COMPONENT, False, f"'{ref.name} of' needs a {kind.name}")
            return m.ZoneSel(zone.index, owner, ref.span)
        if zone.per_player and ref.owner is None:
            raise self.fail(f"zone '{ref.name}' is per player", ref.span,
                            hint=f"say whose: '{ref.name} of current'")
        if not zone.per_player and ref.owner is not None:
            raise self.fail(f"zone '{ref.name}' is shared, not per player", ref.span,
                            hint=f"write just '{ref.name}'")
        owner = None
        if ref.owner is not None:
            owner = self.seat(ref.owner, scope, False, f"'{ref.name} of' needs a player")
        return m.ZoneSel(zone.index, owner, ref.span)

    def query(self, node: ast.Query, scope: RuleScope) -> m.QueryIR:
        """Resolve a selection of components."""
        kinds: set[int] = set()
        kind_locals: list[int] = []
        for name in node.kinds:
            local = scope.lookup(name.name)
            if isinstance(local, m.Const) and local.type == KIND:  # a definition's parameter given a kind name
                kinds.add(local.value)
                continue
            if local is not None:
                if getattr(local, "type", None) not in (KIND, "any") or not isinstance(local, m.Local):
                    hint = None
                    if getattr(local, "type", None) == COMPONENT:
                        hint = (f"a query selects by kind, not one component: 'let k = kind of {name.name}', "
                                f"then 'move 1 k from ...' moves one like it ('where ATTR == ...' narrows it)")
                    raise self.fail(f"'{name.name}' is not a kind of component", name.span, hint=hint)
                kind_locals.append(local.slot)
                continue
            if name.name in self.kind_groups:
                kinds.update(self.kind_groups[name.name])
                continue
            kind = self.kinds.get(name.name)
            if kind is None:
                raise self.fail(f"unknown component '{name.name}'", name.span,
                                hint=suggest(name.name, list(self.kinds) + scope.names()))
            kinds.add(kind.index)
        zones = tuple(self.zone_sel(z, scope) for z in node.zones)
        where = None
        if node.where is not None:
            where = self.expect(node.where, scope, BOOL, True, "'where' needs a true/false condition")
        if node.quantity == "random" and len(zones) != 1:
            raise self.fail("a random draw comes from exactly one zone", node.span)
        if node.quantity == "random" and self.zones_by_index[zones[0].zone].ordered:
            raise self.fail("a random draw needs an unordered zone (a bag, a face-down mix)", node.span,
                            hint="from an ordered pile, shuffle it and take from the top: move 1 from ZONE")
        count_expr = None
        if node.count_expr is not None:
            count_expr = self.expect(node.count_expr, scope, INT, False, "how many must be a number")
        return m.QueryIR(
            node.quantity, node.count, frozenset(kinds) if kinds else None,
            tuple(kind_locals), node.exclude, zones, where, node.span, count_expr,
        )

    def iterable(self, node: ast.Iterable, scope: RuleScope) -> m.IterIR:
        """Resolve what a ``for`` ranges over."""
        if node.kind in ("others", "others_in"):
            self.no_current("'other players'", node.span)
        if node.kind in ("players_in", "others_in"):
            self.uses_elimination = True
        if node.kind in ("players", "others", "players_in", "others_in"):
            return m.IterIR(node.kind, None, None, None, PLAYER)
        if node.kind == "kinds_where":
            cond = self.expect(node.cond, scope, BOOL, True, "'kinds where' needs a true/false condition")
            if not _static(cond):
                raise self.fail("'kinds where' may only test the kinds' own attributes and names", node.span,
                                hint="for a test that depends on play, add 'if ...' to the option or loop")
            return m.IterIR("kinds_where", None, None, None, KIND, cond)
        if node.kind == "range":
            low = self.expect(node.low, scope, INT, False, "a range needs numbers")
            high = self.expect(node.high, scope, INT, False, "a range needs numbers")
            return m.IterIR("range", None, low, high, INT, span=node.span)
        assert node.query is not None
        query = self.query(node.query, scope)
        if query.quantity == "random":
            raise self.fail("cannot range over a random selection", node.span,
                            hint="draw first with 'move N random from ...', then range over where they went")
        return m.IterIR(node.kind, query, None, None, KIND if node.kind == "kinds" else COMPONENT)


def _static(expr: Any) -> bool:
    """True when an element expression depends only on a component's kind (and face)."""
    if isinstance(expr, (m.ElemAttr, m.ElemIsKind, m.Const)):
        return True
    if isinstance(expr, m.UnOp):
        return _static(expr.operand)
    if isinstance(expr, m.BinOp):
        return _static(expr.left) and _static(expr.right)
    return False
