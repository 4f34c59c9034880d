"""Closures for piles on components and points by places, for what the compiler still builds as closures
(the decisions' labels, conditions and ranges, used to show and check an action)."""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile.piles_runtime import places_points, zone_of_class

Fn = Any


def class_zone_list(comp: Any, sel: m.ZoneSel) -> Fn:
    """``f(st, loc)``: the pile on one component of a ``per CLASS`` zone."""
    z = sel.zone
    zone = comp.zones[z]
    kinds = zone.per_class or frozenset()
    owners = [k in kinds for k in comp.kind_of]
    cls = comp.model.kinds[min(kinds)].cls if kinds else "component"
    owner = comp.expr(sel.owner)
    labels, name, span = comp.labels, zone.name, sel.span
    return lambda st, loc: zone_of_class(st.zones[z], owner(st, loc), owners, labels, name, cls, span)


def places(comp: Any, e: m.PlacesIR) -> Fn:
    """``f(st, loc)``: the points by places of one value."""
    player = comp.expr(e.player)
    points = [comp.expr(p) for p in e.points]
    values = comp.iterable(e.iterable)
    key = comp.expr(e.key)
    cond = comp.expr(e.cond) if e.cond is not None else None
    slot = e.var + comp.offset
    highest, share = e.highest, e.share

    def run(st: Any, loc: Any) -> Any:
        me = player(st, loc)
        pts = tuple(p(st, loc) for p in points)
        out = []
        for v in values(st, loc):
            loc[slot] = v
            if cond is None or cond(st, loc):
                out.append((v, key(st, loc)))
        return places_points(pts, out, me, highest, share)

    return run
