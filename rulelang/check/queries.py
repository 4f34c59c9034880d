"""Checks of queries: the zones they read, the components they select and what a ``for`` ranges over.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.check import budgets
from rulelang.check import model as m
from rulelang.check.common import Reporter, RuleScope, suggest
from rulelang.check.model import BOOL, COMPONENT, FACE, INT, KIND, PLAYER
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
        one = self.one_component(node, scope)
        if one is not None:
            return one
        if not node.zones:  # (only the statements of one component parse without a zone)
            raise self.fail(f"'{node.kinds[0].name}' is not one component", node.span,
                            hint="name a component held in a name ('for c in all in ZONE', a component "
                                 "parameter, an option's value), or say where: 'all NAME in ZONE'")
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
                        hint = (f"'{name.name}' is one component: a query of it names it alone "
                                f"('{name.name} in ZONE'), with no other kind")
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

    def one_component(self, node: ast.Query, scope: RuleScope) -> m.QueryIR | None:
        """A query of one component (``c in hand of p``, ``roll d``: a name holding a component), or None."""
        held = [(name, scope.lookup(name.name)) for name in node.kinds]
        named = [(name, x) for name, x in held if x is not None and getattr(x, "type", None) == COMPONENT]
        if not named:
            return None
        name, comp = named[0]
        if len(node.kinds) > 1 or node.exclude:
            raise self.fail(f"'{name.name}' is one component: a query of it names it alone", node.span,
                            hint=f"write '{name.name} in ZONE'; for several, a loop: 'for x in ...'")
        if node.quantity not in ("default", "all") or node.count_expr is not None:
            raise self.fail(f"'{name.name}' is one component: it takes no number and no 'random'", node.span,
                            hint=f"write just '{name.name}'")
        if node.where is not None:
            raise self.fail(f"a query of one component takes no 'where': '{name.name}' is that component",
                            node.where.span, hint=f"test it with 'if': if pips of {name.name} == 6: ...")
        zones = tuple(self.zone_sel(z, scope) for z in node.zones)
        where = m.ElemIs(comp) if zones else None
        return m.QueryIR("default", None, None, (), False, zones, where, node.span, None, comp)

    def the_one(self, node: ast.The, scope: RuleScope) -> m.TheOne:
        """``the card in turnup``: the one component a query selects (``the KIND in Z``, ``the CLASS in Z``)."""
        query = self.query(node.query, scope)
        words = [n.name for n in node.query.kinds]
        if query.one is not None:
            raise self.fail(f"'{words[0]}' is one component already", node.span, hint=f"write just '{words[0]}'")
        if node.cls is not None:
            cls = budgets.CLASS_WORDS[node.cls]
            kinds = frozenset(k.index for k in self.kinds_by_index if k.cls == cls)
            if not kinds:
                raise self.fail(f"no component of this game is a {cls}", node.span,
                                hint="write a kind: 'the KIND in ZONE'")
            query = attrs.evolve(query, kinds=kinds)
            words = [node.cls]
        what = "the " + ("except " if node.query.exclude else "") + ", ".join(words) + " in " + \
            ", ".join(_zone_text(z) for z in node.query.zones)
        return m.TheOne(query, what, node.span)

    def iterable(self, node: ast.Iterable, scope: RuleScope) -> m.IterIR:
        """Resolve what a ``for`` ranges over."""
        if node.kind == "faces":
            assert node.of is not None
            kind = self.kinds.get(node.of.name)
            if kind is None:
                hint = suggest(node.of.name, [k.name for k in self.kinds_by_index if k.faces])
                raise self.fail(f"unknown kind of die '{node.of.name}'", node.of.span, hint=hint)
            if not kind.faces:
                raise self.fail(f"'{kind.name}' is a {kind.cls} without faces", node.of.span,
                                hint="'faces of' names a kind of die (or of a component with sides)")
            return m.IterIR("faces", None, None, None, FACE, span=node.span, values=tuple(dict.fromkeys(kind.faces)))
        if node.kind == "players_from":
            first = self.seat(node.low, scope, False, "'players from' needs a player")
            return m.IterIR("players_from", None, first, None, PLAYER, span=node.span)
        if node.kind in ("others", "others_in"):
            self.no_current("'other players'", node.span)
        if node.kind in ("players_in", "others_in"):
            self.uses_elimination = True
        if node.kind in ("players", "others", "players_in", "others_in"):
            return m.IterIR(node.kind, None, None, None, PLAYER)
        if node.kind == "kinds_where":
            cond = self.expect(node.cond, scope, BOOL, True, "'kinds where' needs a true/false condition")
            if _reads_face(cond):
                raise self.fail("a kind shows no face: 'face' is what one component shows", node.span,
                                hint="test faces in a query's 'where' (count(all in ZONE where face == Six)), "
                                     "or range over them: 'for f in faces of KIND'")
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


def _zone_text(ref: ast.ZoneRef) -> str:
    """A zone as the rules name it (``hand of ...`` for a zone with an owner)."""
    return ref.name if ref.owner is None else f"{ref.name} of ..."


def _reads_face(expr: Any) -> bool:
    """Whether an element expression reads the face of the component tested."""
    if isinstance(expr, m.ElemFace):
        return True
    if isinstance(expr, m.UnOp):
        return _reads_face(expr.operand)
    if isinstance(expr, m.BinOp):
        return _reads_face(expr.left) or _reads_face(expr.right)
    return False


def _static(expr: Any) -> bool:
    """True when an element expression depends only on a component's kind (and face)."""
    if isinstance(expr, (m.ElemAttr, m.ElemIsKind, m.Const)):
        return True
    if isinstance(expr, m.UnOp):
        return _static(expr.operand)
    if isinstance(expr, m.BinOp):
        return _static(expr.left) and _static(expr.right)
    return False
